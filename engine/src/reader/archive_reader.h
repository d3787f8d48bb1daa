// Reads an NNEF artifact (a folder, a .tar, or a gzipped tar) into memory as a
// list of (relative path, bytes), applying tract's container rules: gzip is
// sniffed by its magic bytes, a leading "./" is stripped and path components
// starting with '.' are ignored. Everything that could escape the artifact or
// exhaust memory is refused: absolute paths, "..", links, devices, and entries
// or totals over a byte budget. Independent of the archive writer on purpose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
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

/// Throws t2n::Error (Stage::Check) naming the entry and the reason.
ArchiveContents readArchive(const std::filesystem::path& artifact, const ReadLimits& limits = {});

/// The checks applied to every member name, exposed for tests: returns the
/// cleaned path, or "" for an entry to skip as hidden (sets *hidden); throws
/// for absolute paths and ".." components.
std::string cleanEntryPath(const std::string& raw, bool* hidden);

} // namespace t2n::archive
