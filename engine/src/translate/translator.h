// Stage translate: IR -> NNEF document for an inference target (tract or Khronos).
#pragma once

#include "nnef/document.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "target/inference_target.h"
#include "translate/compute_type.h"
#include "translate/frozen_sizes.h"

#include <map>
#include <string>
#include <vector>

namespace t2n::translate {

struct Translation {
    nnef::Document doc;
    std::string text; ///< graph.nnef
    std::vector<std::string> warnings;
    std::map<std::string, int> torchOps;
    std::map<std::string, int> nnefOps;
    /// For each NNEF graph input, in order, the index of the model input
    /// (forward() argument) it is: inputs that reach no output may be left out.
    std::vector<size_t> inputIndices;
    /// NNEF identifier -> the IR value it stands for (see Context).
    std::map<std::string, ir::ValueId> identifierValues;
    /// --compute f16: the f32 tensor each f16 constant was converted from.
    HalfOrigins halfOrigins;
};

/// True when every output of `n` is a number known at export time (sizes,
/// flags): such nodes need no NNEF operation.
bool producesOnlyScalars(const ir::Graph& g, const ir::Node& n);

class Registry;

/// True when `reg` has a lowering for `n`, or `n` reads or writes a complex
/// value and complexRegistry() has one (kinds only complex values have, like
/// aten::complex). A kind of `reg` that does not know complex values is
/// refused later, with a message about them.
bool hasLowering(const ir::Graph& g, const ir::Node& n, const Registry& reg);

/// Throws t2n::Error: Unsupported listing every unsupported node of the model
/// at once, InvalidOption for inconsistent names or dynamic axes. `frozen`,
/// when given, receives the values that follow a dynamic axis but that the
/// translation needed fixed or could not compute (set before it throws).
Translation translateGraph(const ir::Graph& graph, const ExportOptions& options,
                           const target::PropertyContext& props,
                           std::vector<FrozenRead>* frozen = nullptr);

} // namespace t2n::translate
