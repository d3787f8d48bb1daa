// Writes an NNEF artifact (folder, .tar or .tgz) entry by entry, under a
// temporary name in the destination directory, and renames it into place
// only when published (t2n/outputs.h): a failed or abandoned export never
// leaves a partial or overwritten artifact. Archives are reproducible: fixed entry times, owner
// and mode, no gzip timestamp.
#pragma once

#include "t2n/artifact.h"
#include "t2n/outputs.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace t2n::archive {

/// What ArchiveWriter's constructor refuses, checked on its own before any
/// work (t2n::checkDestination, and a folder is replaced only when it looks
/// like an NNEF artifact). Throws t2n::Error (Write, OutputPath).
void checkArtifactDestination(const Artifact& artifact,
                              const std::vector<std::filesystem::path>& protect = {});

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

    /// Finishes the artifact under its temporary name (flushed to disk) and
    /// hands it to `into`, which puts it in place when it publishes. Returns
    /// the number of bytes of the artifact.
    uint64_t finish(PendingOutputs& into);
    /// finish() and publish at once: replaces an existing artifact only now.
    uint64_t commit();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace t2n::archive
