// Runs invocations: binds arguments to an operation's signature (defaults,
// tensor conversion of literals), then runs either a document fragment's
// body (user fragments, tract_core_scan bodies) or a registered kernel.
#pragma once

#include "interp/eval.h"
#include "interp/ops.h"
#include "reader/ast.h"
#include "t2n/tensor_data.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace t2n::interp {

class Executor : public Invoker, public Runtime {
public:
    /// `document` and `tensors` may be null (a bare operation call); both
    /// must outlive the executor.
    /// `blockQuantized`: labels of `tensors` tract keeps as Q4_0 blocks (may be null).
    Executor(const nnef::ast::Document* document, const std::map<std::string, TensorData>* tensors,
             TargetMode mode, const std::set<std::string>* blockQuantized = nullptr);

    TargetMode mode() const { return mode_; }
    /// The tract release's readings every kernel call sees (tract mode).
    void setReadings(const TractReadings& readings) { readings_ = readings; }

    /// Every result of `op`, in declaration order.
    std::vector<Value> call(const std::string& op, const std::string& typeArg, Arguments args);

    /// The first operation reached from `e` (through fragment bodies and
    /// scan bodies) that neither the document nor the target knows: its
    /// description ("unknown operation 'bar' in fragment 'f' at graph.nnef:7"),
    /// or nullopt.
    std::optional<std::string> findUnknown(const nnef::ast::Expr& e);

    /// A document fragment with a body (tract_core_properties excluded).
    const nnef::ast::Fragment* fragment(const std::string& name) const;

    // Invoker
    Value invoke(const std::string& op, const std::string& typeArg, Arguments args) override;
    // Runtime
    const TensorData* findTensor(const std::string& label) const override;
    bool blockQuantized(const std::string& label) const override;
    std::vector<Value> runFragment(const std::string& name, Arguments args) override;
    std::optional<std::vector<std::string>> fragmentResults(const std::string& name) const override;
    uint64_t drawSeed() override;
    /// The next run's draws start the sequence again.
    void restartDraws() { draws_ = 0; }

private:
    std::vector<Value> callKernel(const OpDef& def, const std::string& typeArg, Arguments args);
    std::vector<Value> callFragment(const nnef::ast::Fragment& f, const std::string& typeArg,
                                    Arguments args);
    std::optional<std::string> unknownIn(const nnef::ast::Expr& e, std::vector<std::string>& stack);

    const nnef::ast::Document* document_;
    const std::map<std::string, TensorData>* tensors_;
    const std::set<std::string>* blockQuantized_;
    TargetMode mode_;
    TractReadings readings_;
    std::map<std::string, const nnef::ast::Fragment*> fragments_;
    std::map<std::string, bool> checkedFragments_; ///< findUnknown's memo
    int depth_ = 0;
    uint64_t draws_ = 0; ///< drawSeed() calls since restartDraws()
};

/// "unknown operation 'x'" or, when the other target has it, why it is missing here.
std::string unknownOperationMessage(const std::string& op, TargetMode mode);

} // namespace t2n::interp
