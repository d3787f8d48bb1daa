// Runs a piece of work in a forked child process, so that a crash inside a
// kernel (qnnpack reads past a packed weight when an input has the wrong
// size: SIGSEGV) ends the child, not t2n. Used by the input proposal, which
// runs the model on guessed inputs.
#pragma once

#include <functional>
#include <string>

namespace t2n::load {

struct IsolatedOutcome {
    bool ran = false;        ///< the work returned
    bool crashed = false;    ///< the child died (signal, abnormal exit, timeout)
    bool usageError = false; ///< the work threw t2n::Error (its message in `error`)
    std::string error;       ///< what the work threw, or how the child died
};

/// Runs `work` in a child process (one intra-op thread there: a thread pool
/// does not survive fork()); what it throws comes back as text. A child
/// still running after `timeoutSeconds` is killed.
IsolatedOutcome runIsolated(const std::function<void()>& work, double timeoutSeconds);

} // namespace t2n::load
