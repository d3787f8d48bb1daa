// Writes an NNEF artifact (folder, .tar or .tgz) entry by entry, under a
// temporary name in the destination directory, and renames it into place
// only in commit(): a failed or abandoned export never leaves a partial or
// overwritten artifact. Archives are reproducible: fixed entry times, owner
// and mode, no gzip timestamp.
#pragma once

#include "t2n/artifact.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace t2n::archive {

class ArchiveWriter {
public:
    /// Throws t2n::Error (OutputPath) when the destination directory is missing
    /// or not writable.
    explicit ArchiveWriter(const Artifact& artifact);
    ~ArchiveWriter(); ///< discards everything unless commit() ran
    ArchiveWriter(const ArchiveWriter&) = delete;
    ArchiveWriter& operator=(const ArchiveWriter&) = delete;

    /// Adds a regular file of exactly `size` bytes; `produce` must call the
    /// sink with pieces that add up to `size`. Relative paths only.
    using Sink = std::function<void(std::span<const std::byte>)>;
    void addFile(const std::string& relativePath, uint64_t size,
                 const std::function<void(const Sink&)>& produce);
    void addFile(const std::string& relativePath, std::span<const std::byte> bytes);

    /// Moves the finished artifact to its final path, replacing an existing
    /// one only now. Returns the number of bytes of the artifact.
    uint64_t commit();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace t2n::archive
