#include "reader/archive_reader.h"

#include "reader/libarchive_handle.h"
#include "t2n/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <array>
#include <fstream>
#include <memory>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace t2n::archive {

namespace {
// libarchive's message, which can be null (fmt refuses a null string).
const char* errorText(struct archive* a) {
    const char* text = archive_error_string(a);
    return text ? text : "unknown libarchive error";
}

[[noreturn]] void refuse(const std::string& artifact, const std::string& entry,
                         const std::string& why) {
    constexpr ErrorCode code = ErrorCode::ModelFile;
    if (entry.empty())
        throw Error(Stage::Check, code, fmt::format("{}: {}", artifact, why));
    throw Error(Stage::Check, code, fmt::format("{}: entry '{}': {}", artifact, entry, why));
}

/// Budget bookkeeping shared by the folder and tar readers.
class Budget {
public:
    Budget(const ReadLimits& limits, std::string artifact)
        : limits_(limits), artifact_(std::move(artifact)) {}

    /// Before reading an entry whose size is known up front.
    void announce(const std::string& entry, uint64_t size) const {
        if (size > limits_.maxEntryBytes)
            refuse(artifact_, entry,
                   fmt::format("{} bytes is over the per-entry limit of {} bytes", size,
                               limits_.maxEntryBytes));
        if (size > limits_.maxTotalBytes - std::min(total_, limits_.maxTotalBytes))
            overTotal(entry, total_ + size);
    }
    /// While reading: counts what was really produced (a tar header may lie,
    /// and a compressed stream may expand beyond what it announced).
    void consume(const std::string& entry, uint64_t entrySoFar, uint64_t more) {
        if (entrySoFar + more > limits_.maxEntryBytes)
            refuse(artifact_, entry,
                   fmt::format("more than the per-entry limit of {} bytes", limits_.maxEntryBytes));
        total_ += more;
        if (total_ > limits_.maxTotalBytes)
            overTotal(entry, total_);
    }

private:
    [[noreturn]] void overTotal(const std::string& entry, uint64_t total) const {
        refuse(artifact_, entry,
               fmt::format("the artifact's entries add up to {} bytes or more, over the limit of "
                           "{} bytes (an archive bomb?)",
                           total, limits_.maxTotalBytes));
    }
    ReadLimits limits_;
    std::string artifact_;
    uint64_t total_ = 0;
};

void checkDuplicate(std::set<std::string>& seen, const std::string& artifact,
                    const std::string& path) {
    if (!seen.insert(path).second)
        refuse(artifact, path, "appears twice in the archive");
}

using Visitor = std::function<void(const std::string&, EntryStream&)>;

/// Hands the visitor an entry, then reads whatever it left (so that the
/// budget sees every byte, as if the entry had been read whole).
template <typename Stream> void visitEntry(const std::string& path, Stream& s, const Visitor& v) {
    v(path, s);
    while (!s.next().empty()) {
    }
}

constexpr std::size_t kPiece = std::size_t{1} << 20;

/// A regular file of a folder artifact, read in 1 MiB pieces.
class FileStream : public EntryStream {
public:
    FileStream(const fs::path& file, uint64_t size, Budget& budget, std::string artifact,
               std::string entry)
        : in_(file, std::ios::binary), budget_(budget), artifact_(std::move(artifact)),
          entry_(std::move(entry)) {
        announced_ = size;
        if (!in_)
            refuse(artifact_, entry_, "cannot be opened for reading");
    }
    std::span<const std::byte> next() override {
        if (done_ == announced_)
            return {};
        buffer_.resize(static_cast<std::size_t>(std::min<uint64_t>(kPiece, announced_ - done_)));
        in_.read(reinterpret_cast<char*>(buffer_.data()),
                 static_cast<std::streamsize>(buffer_.size()));
        if (static_cast<std::size_t>(in_.gcount()) != buffer_.size())
            refuse(artifact_, entry_, "changed size while being read");
        budget_.consume(entry_, done_, buffer_.size());
        done_ += buffer_.size();
        return buffer_;
    }

private:
    std::ifstream in_;
    Budget& budget_;
    std::string artifact_, entry_;
    std::vector<std::byte> buffer_;
    uint64_t done_ = 0;
};

ArchiveContents visitFolder(const fs::path& root, const Visitor& visit, const ReadLimits& limits) {
    const std::string artifact = root.string();
    ArchiveContents out;
    out.kind = ArchiveContents::Kind::Folder;
    Budget budget(limits, artifact);
    std::set<std::string> seen;
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
    if (ec)
        refuse(artifact, "", "cannot list the folder: " + ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec)
            refuse(artifact, "", "cannot list the folder: " + ec.message());
        const fs::path rel = it->path().lexically_relative(root);
        const std::string relText = rel.generic_string();
        bool hidden = false;
        const std::string path = cleanEntryPath(relText, &hidden);
        const auto status = it->symlink_status(ec);
        if (ec)
            refuse(artifact, relText, "cannot stat: " + ec.message());
        if (hidden) {
            // tract never looks inside dot-folders: neither do we.
            out.hidden.push_back(relText);
            if (fs::is_directory(status))
                it.disable_recursion_pending();
            continue;
        }
        if (fs::is_symlink(status))
            refuse(artifact, relText, "is a symbolic link; links are not allowed in an artifact");
        if (fs::is_directory(status))
            continue;
        if (!fs::is_regular_file(status))
            refuse(artifact, relText, "is not a regular file (device, FIFO or socket)");
        const uint64_t size = fs::file_size(it->path(), ec);
        if (ec)
            refuse(artifact, relText, "cannot stat: " + ec.message());
        budget.announce(path, size);
        checkDuplicate(seen, artifact, path);
        FileStream stream(it->path(), size, budget, artifact, path);
        visitEntry(path, stream, visit);
    }
    return out;
}

bool hasGzipMagic(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::array<unsigned char, 2> magic{};
    in.read(reinterpret_cast<char*>(magic.data()), 2);
    return in.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

const char* entryKind(mode_t type) {
    switch (type) {
    case AE_IFLNK:
        return "is a symbolic link; links are not allowed in an artifact";
    case AE_IFCHR:
        return "is a character device";
    case AE_IFBLK:
        return "is a block device";
    case AE_IFIFO:
        return "is a FIFO";
    case AE_IFSOCK:
        return "is a socket";
    default:
        return "is not a regular file";
    }
}

/// A tar member, as the blocks libarchive decodes (no copy of ours); the
/// holes of a sparse member read as zeros.
class TarStream : public EntryStream {
public:
    TarStream(struct archive* a, uint64_t announced, Budget& budget, std::string artifact,
              std::string raw, std::string entry)
        : a_(a), budget_(budget), artifact_(std::move(artifact)), raw_(std::move(raw)),
          entry_(std::move(entry)) {
        announced_ = announced;
    }
    std::span<const std::byte> next() override {
        if (pending_.empty() && !end_) {
            const void* block = nullptr;
            size_t size = 0;
            la_int64_t offset = 0;
            const int r = archive_read_data_block(a_, &block, &size, &offset);
            if (r == ARCHIVE_EOF) {
                end_ = true;
            } else if (r < ARCHIVE_WARN) {
                refuse(artifact_, raw_, fmt::format("cannot be read: {}", errorText(a_)));
            } else {
                pending_ = {static_cast<const std::byte*>(block), size};
                hole_ = offset > static_cast<la_int64_t>(done_)
                            ? static_cast<uint64_t>(offset) - done_
                            : 0;
            }
        }
        std::span<const std::byte> piece;
        if (hole_ > 0) {
            zeros_.resize(static_cast<std::size_t>(std::min<uint64_t>(hole_, kPiece)));
            piece = zeros_;
            hole_ -= piece.size();
        } else {
            piece = pending_;
            pending_ = {};
        }
        if (!piece.empty()) {
            budget_.consume(entry_, done_, piece.size());
            done_ += piece.size();
        }
        return piece.empty() && !end_ ? next() : piece;
    }

private:
    struct archive* a_;
    Budget& budget_;
    std::string artifact_, raw_, entry_;
    std::span<const std::byte> pending_;
    std::vector<std::byte> zeros_;
    uint64_t hole_ = 0;
    uint64_t done_ = 0;
    bool end_ = false;
};

ArchiveContents visitTar(const fs::path& file, const Visitor& visit, const ReadLimits& limits) {
    const std::string artifact = file.string();
    ArchiveContents out;
    // Like tract: gzip when the first two bytes say so, plain tar otherwise,
    // whatever the file name claims.
    const bool gzip = hasGzipMagic(file);
    out.kind = gzip ? ArchiveContents::Kind::Gzip : ArchiveContents::Kind::Tar;
    reader::ArchiveReadHandle a = reader::newArchiveReader();
    if (!a)
        throw Error(Stage::Check, ErrorCode::Internal, "libarchive: out of memory");
    archive_read_support_format_tar(a.get());
    if (gzip)
        archive_read_support_filter_gzip(a.get());
    // 1 MiB reads: a large .dat then costs a few hundred read() calls.
    if (archive_read_open_filename(a.get(), artifact.c_str(), kPiece) != ARCHIVE_OK)
        refuse(artifact, "", fmt::format("not a readable tar archive: {}", errorText(a.get())));
    Budget budget(limits, artifact);
    std::set<std::string> seen;
    while (true) {
        struct archive_entry* e = nullptr;
        const int r = archive_read_next_header(a.get(), &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r < ARCHIVE_WARN)
            refuse(artifact, "",
                   fmt::format("broken tar archive after {} entries: {}", seen.size(),
                               errorText(a.get())));
        const char* rawName = archive_entry_pathname(e);
        if (!rawName || !*rawName)
            refuse(artifact, "", fmt::format("entry #{} has no usable path", seen.size() + 1));
        const std::string raw = rawName;
        bool hidden = false;
        const std::string path = cleanEntryPath(raw, &hidden);
        if (archive_entry_hardlink(e))
            refuse(artifact, raw, "is a hard link; links are not allowed in an artifact");
        const mode_t type = archive_entry_filetype(e);
        if (hidden) {
            out.hidden.push_back(raw);
            continue;
        }
        if (type == AE_IFDIR)
            continue;
        if (type != AE_IFREG)
            refuse(artifact, raw, entryKind(type));
        if (path.empty())
            refuse(artifact, raw, "a file entry needs a name");
        uint64_t announced = 0;
        if (archive_entry_size_is_set(e)) {
            announced = static_cast<uint64_t>(archive_entry_size(e));
            budget.announce(path, announced);
        }
        checkDuplicate(seen, artifact, path);
        TarStream stream(a.get(), announced, budget, artifact, raw, path);
        visitEntry(path, stream, visit);
    }
    return out;
}

} // namespace

std::string cleanEntryPath(const std::string& raw, bool* hidden) {
    *hidden = false;
    std::string_view p = raw;
    if (!p.empty() && p.front() == '/')
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("entry '{}': absolute paths are not allowed in an artifact", raw));
    // tract strips one leading "./"; tar tools may write several.
    while (p.starts_with("./"))
        p.remove_prefix(2);
    std::string out;
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t slash = p.find('/', start);
        if (slash == std::string_view::npos)
            slash = p.size();
        const std::string_view part = p.substr(start, slash - start);
        start = slash + 1;
        if (part.empty())
            continue; // "a//b" and the trailing '/' of a directory
        if (part == "..")
            throw Error(Stage::Check, ErrorCode::ModelFile,
                        fmt::format("entry '{}': '..' components would escape the artifact", raw));
        if (part.front() == '.')
            *hidden = true; // reported by the caller; ".." was refused above
        if (!out.empty())
            out += '/';
        out += part;
    }
    if (*hidden)
        return {};
    return out;
}

ArchiveContents forEachEntry(const fs::path& artifact, const Visitor& visit,
                             const ReadLimits& limits) {
    std::error_code ec;
    const auto status = fs::status(artifact, ec);
    if (ec || !fs::exists(status))
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}: no such file or folder", artifact.string()));
    if (fs::is_directory(status))
        return visitFolder(artifact, visit, limits);
    if (!fs::is_regular_file(status))
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}: neither a folder nor a tar archive", artifact.string()));
    return visitTar(artifact, visit, limits);
}

ArchiveContents readArchive(const fs::path& artifact, const ReadLimits& limits) {
    std::vector<ArchiveEntry> entries;
    ArchiveContents out = forEachEntry(
        artifact,
        [&](const std::string& path, EntryStream& bytes) {
            ArchiveEntry entry{path, {}};
            entry.bytes.reserve(static_cast<std::size_t>(bytes.announcedSize()));
            for (auto piece = bytes.next(); !piece.empty(); piece = bytes.next())
                entry.bytes.insert(entry.bytes.end(), piece.begin(), piece.end());
            entries.push_back(std::move(entry));
        },
        limits);
    out.entries = std::move(entries);
    return out;
}

} // namespace t2n::archive
