// Which outputs of an archive depend on a random draw (issue 26): read from
// the graph itself, so that `t2n check` of any archive knows it. A draw is a
// statement that invokes tract_onnx_random, directly or through a fragment
// (a fragment's body, or a tract_core_scan body named by a string). Such an
// output cannot equal PyTorch's element by element: the check compares it by
// shape, dtype, range and moments instead (compare.h, compareDistributions).
// Torch-free.
#pragma once

#include "reader/ast.h"
#include "t2n/check_manifest.h"

#include <map>
#include <string>
#include <vector>

namespace t2n::check {

/// The NNEF operation that draws random values.
inline constexpr const char* kRandomOperation = "tract_onnx_random";

struct RandomDraw {
    std::string identifier; ///< what the draw statement assigns (its first identifier)
    int line = 0;           ///< its line in graph.nnef
};

struct RandomDependence {
    /// Every draw statement, in graph order.
    std::vector<RandomDraw> draws;
    /// Graph outputs that depend on a draw -> the draws they depend on
    /// (indices into `draws`, in graph order). Other outputs are absent.
    std::map<std::string, std::vector<size_t>> outputs;

    bool empty() const { return draws.empty(); }
    /// The identifiers of every draw.
    std::vector<std::string> drawIdentifiers() const;
};

RandomDependence randomDependence(const nnef::ast::Document& doc);

/// What a report says a draw is: "aten::rand at model.py:4" (the TorchScript
/// node the manifest maps the draw, or its first reader, to), else
/// "tract_onnx_random at graph.nnef:12".
std::string describeDraw(const RandomDraw& draw, const nnef::ast::Document& doc,
                         const CheckManifest* manifest);

} // namespace t2n::check
