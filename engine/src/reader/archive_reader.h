// Reads an NNEF artifact (a folder, a .tar, or a gzipped tar) as a list of
// (relative path, bytes), entry by entry and piece by piece (so that a large
// artifact is never held whole), or whole into memory; applying tract's container rules: gzip is
// sniffed by its magic bytes, a leading "./" is stripped and path components
// starting with '.' are ignored. Everything that could escape the artifact or
// exhaust memory is refused: absolute paths, "..", links, devices, and entries
// or totals over a byte budget. Independent of the archive writer on purpose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace t2n::archive {

struct ReadLimits {
    uint64_t maxEntryBytes = uint64_t(8) << 30;
    uint64_t maxTotalBytes = uint64_t(32) << 30;
};

struct ArchiveEntry {
    std::string path; ///< relative, '/'-separated, no leading "./"
    std::vector<std::byte> bytes;
};

struct ArchiveContents {
    enum class Kind { Folder, Tar, Gzip };
    Kind kind = Kind::Folder;
    std::vector<ArchiveEntry> entries; ///< regular files only, in archive order
    /// Entries skipped because a path component starts with '.' (tract skips
    /// them too); the caller turns them into warnings.
    std::vector<std::string> hidden;
};

/// One regular file of the artifact, read piece by piece.
class EntryStream {
public:
    virtual ~EntryStream() = default;
    /// The next piece of the entry (valid until the next call), empty at the
    /// end. Every piece counts against the limits; throws t2n::Error
    /// (Stage::Check) for an unreadable entry or one over the limits.
    virtual std::span<const std::byte> next() = 0;
    /// The size the container announces (the tar header's, the file's):
    /// within the limits, but the bytes may still turn out shorter or longer.
    uint64_t announcedSize() const { return announced_; }

protected:
    uint64_t announced_ = 0;
};

/// Calls `visit` for every regular file of the artifact, in archive order,
/// under the same rules, limits and errors as readArchive(); what the visitor
/// leaves unread is read (and counted) before the next entry. `entries` of
/// the result stay empty.
ArchiveContents
forEachEntry(const std::filesystem::path& artifact,
             const std::function<void(const std::string& path, EntryStream&)>& visit,
             const ReadLimits& limits = {});

/// Throws t2n::Error (Stage::Check) naming the entry and the reason.
ArchiveContents readArchive(const std::filesystem::path& artifact, const ReadLimits& limits = {});

/// The checks applied to every member name, exposed for tests: returns the
/// cleaned path, or "" for an entry to skip as hidden (sets *hidden); throws
/// for absolute paths and ".." components.
std::string cleanEntryPath(const std::string& raw, bool* hidden);

} // namespace t2n::archive
