#include "cli_observer.h"
#include "process_guard.h"
#include "report/display_text.h"

#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace t2n::cli {

CliObserver::CliObserver(LogLevel level) : level_(level), tty_(isatty(STDERR_FILENO) == 1) {}

void CliObserver::clearLine() {
    if (lineOpen_) {
        std::fputs("\r\033[K", stderr);
        lineOpen_ = false;
    }
}

void CliObserver::stageStarted(Stage s) {
    if (tty_ && level_ <= LogLevel::Info) {
        clearLine();
        fmt::print(stderr, "t2n: {}...", stageName(s));
        std::fflush(stderr);
        lineOpen_ = true;
    }
}

void CliObserver::stageFinished(Stage s, double seconds) {
    clearLine();
    if (level_ <= LogLevel::Debug)
        fmt::print(stderr, "t2n: {} done in {:.2f} s\n", stageName(s), seconds);
}

void CliObserver::progress(Stage s, double fraction, const std::string& status) {
    if (!tty_ || level_ > LogLevel::Info)
        return;
    fmt::print(stderr, "\r\033[Kt2n: {} {:3.0f}% {}", stageName(s), fraction * 100.0,
               report::displayText(status, false));
    std::fflush(stderr);
    lineOpen_ = true;
}

void CliObserver::log(LogLevel level, const std::string& message) {
    if (level < level_)
        return;
    clearLine();
    const char* tag = level >= LogLevel::Error  ? "error: "
                      : level == LogLevel::Warn ? "warning: "
                                                : "";
    // Messages quote paths and model strings: no line of theirs starts like t2n's.
    fmt::print(stderr, "t2n: {}{}\n", tag, report::terminalText(message));
}

bool CliObserver::cancelRequested() {
    return cancelSignal() != 0;
}

} // namespace t2n::cli
