// What the command line does about its process before any work: SIGINT and
// SIGTERM cancel through the engine's cancel path (CliObserver polls them),
// so that a stopped export removes its temporaries and exits 8 with a
// message; SIGPIPE is ignored so that a closed pipe is a write error, not a
// silent death; standard streams that were closed are noted and pointed at
// /dev/null, so that no file t2n opens can take their numbers.
#pragma once

namespace t2n::cli {

/// Installs the handlers; call once, first thing in main().
void guardProcess();
/// The signal that asked to stop (SIGINT or SIGTERM), or 0.
int cancelSignal();
/// "SIGINT", "SIGTERM" or "signal N".
const char* signalName(int sig);
/// Standard output was closed when t2n started.
bool stdoutWasClosed();

} // namespace t2n::cli
