// Graph outputs computed twice by the same statement (repeated_outputs.cpp).
#pragma once

#include "nnef/document.h"

namespace t2n::translate {

/// Rewrites each statement that makes a graph output and repeats an earlier
/// statement (same operation, same operands, same attributes) into a copy of
/// that statement's result. Draws from a random distribution are left alone
/// (two draws differ). Returns how many statements were rewritten.
int copyRepeatedOutputs(nnef::Document& doc);

} // namespace t2n::translate
