#include "process_guard.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace t2n::cli {

namespace {

std::atomic<int> g_signal{0};
bool g_stdoutClosed = false;

void writeAll(const char* text) {
    // write() is async-signal-safe; stdio is not.
    ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

void onSignal(int sig) {
    g_signal.store(sig);
    writeAll(sig == SIGINT ? "\nt2n: SIGINT received: cancelling (again to stop at once)\n"
                           : "\nt2n: SIGTERM received: cancelling (again to stop at once)\n");
}

} // namespace

void guardProcess() {
    for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        if (::fcntl(fd, F_GETFD) != -1)
            continue;
        if (fd == STDOUT_FILENO)
            g_stdoutClosed = true;
        const int null = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
        if (null >= 0 && null != fd) {
            ::dup2(null, fd);
            ::close(null);
        }
    }
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    // A second signal stops at once; the temporaries it leaves are removed
    // by the next run that writes beside them.
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
}

int cancelSignal() {
    return g_signal.load();
}

const char* signalName(int sig) {
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "a signal";
    }
}

bool stdoutWasClosed() {
    return g_stdoutClosed;
}

} // namespace t2n::cli
