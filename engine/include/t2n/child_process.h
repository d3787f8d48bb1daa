// Work that may hang or crash (a model's forward on proposed inputs, a
// Graphviz layout of a hostile graph) runs in a forked child that writes
// its answer to a pipe; the parent reads until the child closes it or a
// deadline passes, then kills it. One loop for both, so that the EINTR,
// poll and kill rules are written once.
#pragma once

#include <functional>
#include <string>

namespace t2n {

struct ChildOutput {
    bool started = false;  ///< false when pipe() or fork() failed (errorNumber says why)
    int errorNumber = 0;   ///< errno of that failure
    std::string bytes;     ///< everything the child wrote before it closed the pipe
    bool timedOut = false; ///< the deadline passed: the child was killed (SIGKILL)
    int status = 0;        ///< waitpid()'s status of the child
};

/// Forks; the child runs `child(fd)` with the write end of a pipe (closed on
/// exec) and must end with _exit (it does _exit(127) if `child` returns).
/// The parent reads the pipe until end of file or `seconds`, then reaps the
/// child. Never throws for the child's sake.
ChildOutput runChildWithDeadline(const std::function<void(int fd)>& child, double seconds);

} // namespace t2n
