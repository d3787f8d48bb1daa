// Builds t2n::Provenance from a translated document and its printed text.
#pragma once

#include "nnef/document.h"
#include "t2n/ir.h"
#include "t2n/provenance.h"

#include <map>
#include <string>

namespace t2n::translate {

/// Throws t2n::Error (Internal) when `text` is not the document's printout.
Provenance buildProvenance(const nnef::Document& doc, const std::string& text,
                           const std::map<std::string, ir::ValueId>& identifierValues,
                           const ir::Graph& graph);

} // namespace t2n::translate
