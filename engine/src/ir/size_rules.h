// Which sizes a symbolic axis accepts, read from the graph: a multiple (the
// product of the strides along a path whose result meets a less strided one,
// as a YOLO head's upsampled P5 meets P4; a view that splits the axis into
// windows or pairs) and a minimum (the extent of a kernel or an unfold). The
// trace's probe, whose size is also the check's second size, tries a size
// this rule allows before it grows an axis by 1 or 2 (which such models
// refuse), and says which rule it used.
#pragma once

#include "jit/graph_runner.h"

#include <torch/script.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace t2n::ir {

struct SizeRule {
    int64_t multipleOf = 1;
    int64_t min = 1;
    /// Where the rule comes from: "the strides to /32 (4 convolutions) meeting
    /// a less strided path at aten::cat (line 48)"; "" when any size goes.
    std::string why;
    bool declared = false; ///< given by the user (--dynamic-axis ...:multiple-of=)

    bool trivial() const { return multipleOf <= 1 && min <= 1; }
    bool allows(int64_t n) const { return n >= min && n >= 1 && n % multipleOf == 0; }
    /// "multiple-of=32,min=64" (the --dynamic-axis form), "" when trivial.
    std::string text() const;
};

/// The rule of each symbol, inferred from the graph's nodes and the sizes of
/// the example run (`main`); `inputSymbols` by input position (graph input 0
/// is the module). A symbol no node constrains gets a trivial rule.
std::map<std::string, SizeRule>
inferSizeRules(const torch::jit::Graph& graph, const jit::Recorded& main,
               const std::vector<std::map<int, std::string>>& inputSymbols);

/// The sizes to try, in order, for an axis of example size `example`: the
/// rule's next sizes above the example (and one below), with the example
/// grown by 1 and 2 first when the rule is trivial, after its first size when
/// it was inferred, never when it was declared.
std::vector<int64_t> candidateSizes(int64_t example, const SizeRule& rule);

} // namespace t2n::ir
