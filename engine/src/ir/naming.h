// Naming schemes (seed 000, nnef_variable_naming_scheme): the base name of
// every IR value's NNEF identifier. Uniqueness is the translator's job.
#pragma once

#include "t2n/ir.h"
#include "t2n/options.h"

namespace t2n::ir {

/// Sets Value::name for the outputs of every node.
void applyNaming(Graph& graph, NamingScheme scheme);

/// natural_verbose base for an operator output: "layer1_0_conv1__conv".
std::string naturalName(const std::string& modulePath, const std::string& kind);
/// natural_verbose_camel: "layer1_0Conv1Conv".
std::string camelName(const std::string& modulePath, const std::string& kind);

} // namespace t2n::ir
