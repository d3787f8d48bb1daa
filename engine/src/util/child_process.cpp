#include "t2n/child_process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace t2n {

ChildOutput runChildWithDeadline(const std::function<void(int fd)>& child, double seconds) {
    ChildOutput out;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        out.errorNumber = errno;
        return out;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        out.errorNumber = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        return out;
    }
    if (pid == 0) {
        ::close(fds[0]);
        child(fds[1]);
        ::_exit(127);
    }
    out.started = true;
    ::close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(seconds));
    char buffer[65536];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            out.timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the child closed its end: done or dead
        out.bytes.append(buffer, static_cast<size_t>(n));
    }
    ::close(fds[0]);
    if (out.timedOut)
        ::kill(pid, SIGKILL);
    while (::waitpid(pid, &out.status, 0) < 0 && errno == EINTR) {
    }
    return out;
}

} // namespace t2n
