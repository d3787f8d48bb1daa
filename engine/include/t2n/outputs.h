// One write protocol for everything t2n writes (archive, report, recipe,
// debug bundle), so that a failed or interrupted run never loses the user's
// work:
//   1. every destination is checked before any work (checkDestination);
//   2. each result is written in full under a hidden temporary name beside
//      its destination (".NAME.t2n-tmp-PID-RANDOM"), flushed to disk;
//   3. only when everything that can fail has run (the check included) are
//      the temporaries renamed into place, together (PendingOutputs::publish);
//   4. on any failure, cancel or signal the temporaries are removed and every
//      destination is left as it was; temporaries that a killed run left
//      behind are removed by the next run that writes beside them.
#pragma once

#include "t2n/error.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace t2n {

/// Refuses, before any work, a destination that cannot be written or must
/// not be: a missing parent directory, a parent that is not a directory or
/// not writable, a directory where a file goes (`folder` false), or the same
/// file as one of `protect` (the model, the recipe, input value files) or a
/// folder holding one of them, or a special file (a device, a FIFO, a
/// socket: never replaced by a regular file). Also removes the temporaries
/// that killed runs left beside it. Throws Error(stage, OutputPath) naming `what`.
void checkDestination(const std::filesystem::path& path, Stage stage, std::string_view what,
                      const std::vector<std::filesystem::path>& protect = {}, bool folder = false);

/// checkDestination() for a small text result (a report, a recipe), which
/// may also go where no file can be replaced: a character device or a FIFO
/// (/dev/null, /dev/stdout) is written in place once everything else has
/// succeeded, and a symbolic link is kept, the regular file it points to
/// replaced. Block devices, sockets and links to nothing are refused.
void checkTextDestination(const std::filesystem::path& path, Stage stage, std::string_view what,
                          const std::vector<std::filesystem::path>& protect = {});

/// Removes the ".NAME.t2n-*" temporaries in `destination`'s directory (of
/// any NAME) whose process is gone, and puts back a folder that such a run
/// had moved aside to replace.
void removeStaleTemporaries(const std::filesystem::path& destination);

/// Removes every temporary this process made that is still there (and puts
/// back a folder it had moved aside to replace): for a process that must
/// end now, when a cancel is not honoured in time. Not async-signal-safe:
/// call it from a thread, not from a signal handler.
void removeOwnTemporaries() noexcept;

/// Writes every byte to `fd`, again after an interruption (EINTR); returns 0,
/// or the errno of the write that failed.
int writeAll(int fd, std::span<const std::byte> bytes);

/// Results written under temporary names, put in place together by publish().
/// Destroyed before publish(), it removes them: nothing is written.
class PendingOutputs {
public:
    PendingOutputs();
    ~PendingOutputs();
    PendingOutputs(const PendingOutputs&) = delete;
    PendingOutputs& operator=(const PendingOutputs&) = delete;

    /// Writes `text` under a temporary name beside `path` now, flushed to
    /// disk; a device or FIFO (see checkTextDestination) keeps it in memory
    /// until publish(). Throws Error(stage, OutputPath); nothing is left then.
    void addText(const std::filesystem::path& path, std::string_view text, Stage stage,
                 std::string_view what);
    /// Writes the bytes `produce` hands to its sink, in order, under a
    /// temporary name beside `path`, flushed to disk: results too large to
    /// hold in memory. When `produce` throws, the temporary is removed and
    /// the exception propagates.
    using ChunkSink = std::function<void(std::span<const std::byte>)>;
    void addFile(const std::filesystem::path& path,
                 const std::function<void(const ChunkSink&)>& produce, Stage stage,
                 std::string_view what);
    /// Takes over a finished temporary file or folder (the engine's writers).
    void adopt(const std::filesystem::path& temporary, const std::filesystem::path& destination,
               bool folder, Stage stage);
    /// Takes over every result waiting in `other` (which is then empty).
    void splice(PendingOutputs& other);
    /// Destinations waiting, in order, and their temporaries.
    std::vector<std::filesystem::path> destinations() const;
    std::vector<std::filesystem::path> temporaries() const;

    /// Writes the results bound for devices and FIFOs, then renames every
    /// temporary into place, in order. When one rename fails,
    /// the destinations already replaced get their old contents back (or are
    /// removed when there was none) and Error(OutputPath) is thrown.
    void publish();
    /// Removes every temporary; nothing is written.
    void discard() noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace t2n
