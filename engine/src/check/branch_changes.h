// Ifs that take another branch at the second size of a dynamic export. The
// hardening specialises an If on the example inputs (fold_data_dependent_ifs)
// and does not know which axes are dynamic: when the condition follows one
// (Swin's `if window_size >= pad_H: shift = 0`), the archive keeps the
// example's branch and the check finds a mismatch at the second size. This
// runs the model as loaded at both sizes, recording every If's condition,
// and names those that changed, so that the failure says why.
#pragma once

#include <torch/script.h>

#include <string>
#include <vector>

namespace t2n::check {

struct BranchChange {
    std::string where;     ///< "swin_transformer.py:158"
    std::string condition; ///< the condition's source text
    bool atExample = false;
};

/// The top-level Ifs (after inlining forward()'s calls) whose condition has
/// another value on `second` than on `example`. Empty when the model fails
/// on either, or has no If.
std::vector<BranchChange> branchChanges(const torch::jit::Module& model,
                                        const std::vector<at::Tensor>& example,
                                        const std::vector<at::Tensor>& second);

/// "the If at X (`cond`) takes its then branch at the example sizes and its
/// else branch at LABEL: …" for a check failure.
std::string describeBranchChanges(const std::vector<BranchChange>& changes,
                                  const std::string& secondLabel);

} // namespace t2n::check
