// Finding the first NNEF operation, in graph order, whose value differs from
// the TorchScript value it stands for: what a person debugging a failed
// export needs first.
#pragma once

#include "check/check_stage.h"
#include "check/compare.h"
#include "interp/interpreter.h"

#include <optional>

namespace t2n::check {

/// Records every value of the hardened TorchScript graph, then runs the NNEF
/// graph with each operation fed the TorchScript values of its operands
/// (so that a faulty operation stands out from accumulated error) and walks
/// the NNEF values in order. Returns the first that differs (or the
/// statement where the NNEF run failed); nothing when every value the two
/// graphs share agrees.
std::optional<Divergence> findDivergence(const CheckInputs& in,
                                         const interp::Interpreter& interpreter,
                                         const std::map<std::string, at::Tensor>& nnefInputs,
                                         const std::vector<at::Tensor>& modelInputs,
                                         const Tolerance& tolerance);

struct ValueScan {
    std::optional<Divergence> first;
    std::vector<ValueError> values; ///< every compared value, in graph order
};

/// The same walk as findDivergence, but over every value: the error each
/// operation adds on its own, for overlays and reports.
ValueScan scanValues(const CheckInputs& in, const interp::Interpreter& interpreter,
                     const std::map<std::string, at::Tensor>& nnefInputs,
                     const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance);

} // namespace t2n::check
