#include "process_guard.h"

#include "t2n/outputs.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <semaphore.h>
#include <thread>
#include <unistd.h>

namespace t2n::cli {

namespace {

// Every signal that ends a process by default and that a user or a job
// runner sends to stop one.
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
// How long the work may take to honour a cancel before the watchdog ends it.
constexpr int kGraceSeconds = 1;

std::atomic<int> g_signal{0};
std::atomic<int> g_received{0};
sem_t g_wake; // posted by every stop signal
bool g_stdoutClosed = false;
int g_reportFd = STDOUT_FILENO;

void writeStderr(const char* text) {
    // write() is async-signal-safe; stdio is not.
    ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

void onSignal(int sig) {
    const int saved = errno;
    int none = 0;
    g_signal.compare_exchange_strong(none, sig); // the first one names the stop
    if (g_received.fetch_add(1) == 0) {
        writeStderr("\nt2n: ");
        writeStderr(signalName(sig));
        writeStderr(" received: cancelling (again to stop now; nothing is left behind)\n");
    }
    ::sem_post(&g_wake);
    errno = saved;
}

void installHandlers() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : kStopSignals)
        sigaddset(&sa.sa_mask, sig);
    // No SA_RESTART: a blocking read or wait returns EINTR and sees the cancel.
    for (int sig : kStopSignals)
        ::sigaction(sig, &sa, nullptr);
}

// Runs before the initialisers of every shared library (LibTorch's take
// about half a second): a signal in that time cancels like any later one.
void guardBeforeLibraries(int, char**, char**) {
    ::sem_init(&g_wake, 0, 0);
    installHandlers();
}
[[gnu::section(".preinit_array"),
  gnu::used]] void (*const g_preinit)(int, char**, char**) = guardBeforeLibraries;

// A cancel is honoured where the work polls for it (between passes, kernels,
// chunks). A model stuck in its own forward() or a read that never ends
// polls nothing: one second after the signal (at once after a second one),
// this thread removes every temporary the run made and ends it with exit 8.
void watchdog() {
    while (::sem_wait(&g_wake) != 0) {
    }
    timespec deadline{};
    ::clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += kGraceSeconds;
    while (::sem_timedwait(&g_wake, &deadline) != 0 && errno == EINTR) {
    }
    writeStderr("t2n: error: cancelled: the work under way did not stop within 1 s, so t2n "
                "stopped it; nothing was written\nt2n: stopped by ");
    writeStderr(signalName(g_signal.load()));
    writeStderr("\n");
    removeOwnTemporaries();
    ::_exit(8);
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
    std::signal(SIGPIPE, SIG_IGN);
    std::thread(watchdog).detach();
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
    case SIGHUP:
        return "SIGHUP";
    case SIGQUIT:
        return "SIGQUIT";
    default:
        return "a signal";
    }
}

Error cancelledBySignal(const Error& e) {
    if (cancelSignal() == 0 || e.code() == ErrorCode::Cancelled)
        return e;
    return Error(e.stage(), ErrorCode::Cancelled, "export cancelled", "nothing was written");
}

bool stdoutWasClosed() {
    return g_stdoutClosed;
}

void keepStdoutForReport() {
    if (g_reportFd != STDOUT_FILENO)
        return;
    std::fflush(stdout);
    const int kept = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (kept < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return; // the report shares standard output, as before
    g_reportFd = kept;
}

int reportDescriptor() {
    return g_reportFd;
}

} // namespace t2n::cli
