// The command line's engine observer: log lines on stderr at the chosen
// level, and a one-line progress display when stderr is a terminal.
#pragma once

#include "t2n/session.h"

namespace t2n::cli {

class CliObserver : public Observer {
public:
    explicit CliObserver(LogLevel level);
    void stageStarted(Stage s) override;
    void stageFinished(Stage s, double seconds) override;
    void progress(Stage s, double fraction, const std::string& status) override;
    void log(LogLevel level, const std::string& message) override;
    /// SIGINT or SIGTERM was received (process_guard.h).
    bool cancelRequested() override;

private:
    void clearLine();
    LogLevel level_;
    bool tty_;
    bool lineOpen_ = false;
};

} // namespace t2n::cli
