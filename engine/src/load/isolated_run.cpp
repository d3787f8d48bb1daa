#include "load/isolated_run.h"

#include "t2n/child_process.h"
#include "t2n/error.h"

#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace t2n::load {

namespace {
// The child's answer: one letter, then the message.
constexpr char kRan = 'R', kUsage = 'U', kThrew = 'E';

void writeAll(int fd, const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<size_t>(n);
    }
}

[[noreturn]] void child(int fd, const std::function<void()>& work) {
    // The parent's crash handlers (Qt Test's, which attach a debugger) are
    // not the child's: a crash here only has to end the child.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(sig, SIG_DFL);
    std::string answer;
    try {
        at::set_num_threads(1);
        work();
        answer = std::string(1, kRan);
    } catch (const Error& e) {
        answer = kUsage + e.message();
    } catch (const std::exception& e) {
        answer = kThrew + std::string(e.what());
    } catch (...) {
        answer = kThrew + std::string("an unknown exception");
    }
    writeAll(fd, answer);
    ::close(fd);
    // No destructors, no atexit handlers: they belong to the parent.
    ::_exit(0);
}
} // namespace

IsolatedOutcome runIsolated(const std::function<void()>& work, double timeoutSeconds) {
    const ChildOutput run = runChildWithDeadline([&](int fd) { child(fd, work); }, timeoutSeconds);
    if (!run.started)
        throw Error(Stage::Load, ErrorCode::Internal,
                    fmt::format("cannot run the model in a child process: {}",
                                std::strerror(run.errorNumber)));
    const std::string& answer = run.bytes;
    const bool timedOut = run.timedOut;
    const int status = run.status;
    IsolatedOutcome out;
    if (timedOut) {
        out.crashed = true;
        out.error =
            fmt::format("the run did not finish within {:.0f} s and was stopped", timeoutSeconds);
    } else if (WIFSIGNALED(status)) {
        out.crashed = true;
        const int sig = WTERMSIG(status);
        out.error = fmt::format("the model crashed on these inputs (signal {}, {}) inside a "
                                "LibTorch kernel; t2n ran it in a separate process",
                                sig, ::strsignal(sig));
    } else if (answer.empty()) {
        out.crashed = true;
        out.error = fmt::format("the run's process ended with status {} and no answer",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else {
        out.ran = answer.front() == kRan;
        out.usageError = answer.front() == kUsage;
        out.error = answer.substr(1);
    }
    return out;
}

} // namespace t2n::load
