// What the command line does about its process before any work: SIGINT,
// SIGTERM, SIGHUP and SIGQUIT cancel through the engine's cancel path
// (CliObserver polls them) from before LibTorch loads, so that a stopped run
// removes its temporaries and exits 8 with a message; a watchdog ends a run
// that does not honour the cancel within a second (a model stuck in its
// forward, a read that never ends) the same way. SIGPIPE is ignored so that
// a closed pipe is a write error, not a silent death; standard streams that
// were closed are noted and pointed at /dev/null, so that no file t2n opens
// can take their numbers.
#pragma once

#include "t2n/error.h"

namespace t2n::cli {

/// Starts the watchdog and guards the standard streams; call once, first
/// thing in main() (the signal handlers are installed before main).
void guardProcess();
/// The first signal that asked to stop, or 0.
int cancelSignal();
/// "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT" or "a signal".
const char* signalName(int sig);
/// `e`, or once a stop signal came, the cancel that caused it (a read the
/// signal interrupted fails as a read): exit 8 either way.
Error cancelledBySignal(const Error& e);
/// Standard output was closed when t2n started.
bool stdoutWasClosed();
/// `--report -`: standard output is kept for the report alone; whatever else
/// writes there from now on (a model's print(), LibTorch) goes to standard
/// error instead of corrupting the JSON.
void keepStdoutForReport();
/// Where the report on standard output goes: the kept descriptor, else 1.
int reportDescriptor();

} // namespace t2n::cli
