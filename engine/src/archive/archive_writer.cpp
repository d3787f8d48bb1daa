#include "archive/archive_writer.h"
#include "archive/sibling_path.h"

#include "t2n/error.h"
#include "t2n/outputs.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace t2n::archive {

namespace {

constexpr const char* kDiskHint =
    "check that the destination directory exists, is writable and has free space";

// Fixed metadata of every archive entry (reproducible exports).
constexpr int kEntryPerm = 0644;
constexpr la_int64_t kEntryOwner = 0; // uid and gid 0, no user or group name

[[noreturn]] void throwOutput(const fs::path& path, const std::string& what,
                              const std::string& hint = kDiskHint) {
    throw Error(Stage::Write, ErrorCode::OutputPath,
                fmt::format("cannot write '{}': {}", path.string(), what), hint);
}

[[noreturn]] void throwInternal(const std::string& what) {
    throw Error(Stage::Write, ErrorCode::Internal, what,
                "this is a bug in t2n: please report it with the model");
}

std::string errnoText(int err) {
    return std::strerror(err);
}

/// Relative, '/'-separated, no empty, "." or ".." component, no NUL.
void checkEntryPath(const std::string& p) {
    auto bad = [&](std::string_view why) {
        throwInternal(fmt::format("refusing archive entry '{}': {}", p, why));
    };
    if (p.empty())
        bad("empty path");
    if (p.find('\0') != std::string::npos)
        bad("NUL character in the path");
    if (p.front() == '/')
        bad("absolute path");
    if (p.find('\\') != std::string::npos)
        bad("backslash in the path (use '/')");
    std::size_t start = 0;
    while (start <= p.size()) {
        const std::size_t end = std::min(p.find('/', start), p.size());
        const std::string_view comp(p.data() + start, end - start);
        if (comp.empty())
            bad("empty path component");
        if (comp == "." || comp == "..")
            bad("'.' or '..' path component");
        start = end + 1;
    }
}

struct EntryDeleter {
    void operator()(archive_entry* e) const { archive_entry_free(e); }
};

} // namespace

struct ArchiveWriter::Impl {
    Artifact artifact;
    fs::path finalPath;
    fs::path tempPath; ///< file (tar/tgz) or directory (folder); empty once moved
    struct archive* ar = nullptr;
    int fd = -1;
    bool committed = false;
    bool failed = false;
    uint64_t entryRemaining = 0; ///< bytes the open tar entry still expects
    uint64_t folderBytes = 0;
    std::set<std::string> files;
    std::set<std::string> dirs;

    std::string libarchiveError() const {
        const char* s = ar ? archive_error_string(ar) : nullptr;
        return s ? s : "unknown libarchive error";
    }

    void checkArchive(int r, std::string_view what) {
        if (r != ARCHIVE_OK)
            throwOutput(finalPath, fmt::format("{}: {}", what, libarchiveError()));
    }

    void openArchive();
    void registerPath(const std::string& p);
    void writeFolderFile(const std::string& p, uint64_t size,
                         const std::function<void(const Sink&)>& produce);
    void writeArchiveEntry(const std::string& p, uint64_t size,
                           const std::function<void(const Sink&)>& produce);
    uint64_t finishArchive();
    void discard() noexcept;
};

void ArchiveWriter::Impl::openArchive() {
    // O_EXCL: the temporary name is ours alone.
    for (int attempt = 0; fd < 0; ++attempt) {
        tempPath = siblingPath(finalPath, "tmp");
        fd = ::open(tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt > 8)) {
            const int err = errno;
            tempPath.clear();
            throwOutput(finalPath, fmt::format("cannot create a file in '{}': {}",
                                               finalPath.parent_path().string(), errnoText(err)));
        }
    }
    ar = archive_write_new();
    if (ar == nullptr)
        throwInternal("libarchive could not allocate a writer");
    auto setup = [&](int r, std::string_view what) {
        if (r != ARCHIVE_OK)
            throwInternal(fmt::format("libarchive setup failed ({}): {}", what, libarchiveError()));
    };
    setup(archive_write_set_format_pax_restricted(ar), "pax_restricted format");
    // No padding of the last block to 10240 bytes.
    // 1 MiB writes instead of libarchive's 10 KiB blocks: tensors of hundreds
    // of megabytes otherwise cost tens of thousands of write() calls.
    setup(archive_write_set_bytes_per_block(ar, 1 << 20), "bytes_per_block");
    setup(archive_write_set_bytes_in_last_block(ar, 1), "bytes_in_last_block");
    if (artifact.form == ArtifactForm::Tgz) {
        setup(archive_write_add_filter_gzip(ar), "gzip filter");
        const std::string level = std::to_string(artifact.gzipLevel);
        setup(archive_write_set_filter_option(ar, "gzip", "compression-level", level.c_str()),
              "gzip compression-level");
        // A null value turns the boolean option off: the gzip header's MTIME stays 0.
        setup(archive_write_set_filter_option(ar, "gzip", "timestamp", nullptr), "gzip timestamp");
    }
    checkArchive(archive_write_open_fd(ar, fd), "cannot start the archive");
}

void ArchiveWriter::Impl::registerPath(const std::string& p) {
    checkEntryPath(p);
    if (files.count(p) || dirs.count(p))
        throwInternal(fmt::format("archive entry '{}' is added twice, or is also a folder", p));
    for (std::size_t slash = p.find('/'); slash != std::string::npos;
         slash = p.find('/', slash + 1)) {
        const std::string parent = p.substr(0, slash);
        if (files.count(parent))
            throwInternal(fmt::format("archive entry '{}' lies under the file '{}'", p, parent));
    }
    for (std::size_t slash = p.find('/'); slash != std::string::npos;
         slash = p.find('/', slash + 1))
        dirs.insert(p.substr(0, slash));
    files.insert(p);
}

void ArchiveWriter::Impl::writeFolderFile(const std::string& p, uint64_t size,
                                          const std::function<void(const Sink&)>& produce) {
    const fs::path target = tempPath / fs::path(p);
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec)
        throwOutput(finalPath,
                    fmt::format("cannot create the folder for '{}': {}", p, ec.message()));
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (!out)
        throwOutput(finalPath, fmt::format("cannot create '{}': {}", p, errnoText(errno)));
    uint64_t written = 0;
    const Sink sink = [&](std::span<const std::byte> piece) {
        if (piece.size() > size - written)
            throwInternal(fmt::format("archive entry '{}' was declared as {} bytes but more "
                                      "were produced",
                                      p, size));
        out.write(reinterpret_cast<const char*>(piece.data()),
                  static_cast<std::streamsize>(piece.size()));
        if (!out)
            throwOutput(finalPath, fmt::format("writing '{}' failed: {}", p, errnoText(errno)));
        written += piece.size();
    };
    produce(sink);
    if (written != size)
        throwInternal(fmt::format("archive entry '{}' was declared as {} bytes but {} were "
                                  "produced",
                                  p, size, written));
    out.close();
    if (!out)
        throwOutput(finalPath, fmt::format("writing '{}' failed: {}", p, errnoText(errno)));
    folderBytes += size;
}

void ArchiveWriter::Impl::writeArchiveEntry(const std::string& p, uint64_t size,
                                            const std::function<void(const Sink&)>& produce) {
    std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
    if (!entry)
        throwInternal("libarchive could not allocate an entry");
    archive_entry_set_pathname_utf8(entry.get(), p.c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), kEntryPerm);
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(size));
    archive_entry_set_mtime(entry.get(), 0, 0);
    archive_entry_set_uid(entry.get(), kEntryOwner);
    archive_entry_set_gid(entry.get(), kEntryOwner);
    checkArchive(archive_write_header(ar, entry.get()), fmt::format("entry '{}'", p));
    entryRemaining = size;

    uint64_t written = 0;
    const Sink sink = [&](std::span<const std::byte> piece) {
        if (piece.size() > size - written)
            throwInternal(fmt::format("archive entry '{}' was declared as {} bytes but more "
                                      "were produced",
                                      p, size));
        const std::byte* data = piece.data();
        std::size_t left = piece.size();
        while (left > 0) {
            const la_ssize_t n = archive_write_data(ar, data, left);
            if (n <= 0)
                throwOutput(finalPath,
                            fmt::format("writing entry '{}' failed: {}", p, libarchiveError()));
            data += n;
            left -= static_cast<std::size_t>(n);
        }
        written += piece.size();
        entryRemaining = size - written;
    };
    produce(sink);
    if (written != size)
        throwInternal(fmt::format("archive entry '{}' was declared as {} bytes but {} were "
                                  "produced",
                                  p, size, written));
    checkArchive(archive_write_finish_entry(ar), fmt::format("entry '{}'", p));
    entryRemaining = 0;
}

uint64_t ArchiveWriter::Impl::finishArchive() {
    // Close flushes the end-of-archive blocks and the gzip trailer.
    checkArchive(archive_write_close(ar), "cannot finish the archive");
    archive_write_free(ar);
    ar = nullptr;
    if (::fsync(fd) != 0)
        throwOutput(finalPath, fmt::format("cannot flush to disk: {}", errnoText(errno)));
    const int closeResult = ::close(fd);
    fd = -1;
    if (closeResult != 0)
        throwOutput(finalPath, fmt::format("cannot close the file: {}", errnoText(errno)));
    std::error_code ec;
    const auto size = fs::file_size(tempPath, ec);
    return ec ? 0 : size;
}

void ArchiveWriter::Impl::discard() noexcept {
    if (ar != nullptr) {
        // archive_write_free() closes the archive, which pads an unfinished entry with
        // zeros and finishes the gzip stream: send that to /dev/null. libarchive 3.6.2
        // only releases the zlib state in close, so skip the close (archive_write_fail,
        // leaking a few hundred KiB) only when the padding would be large.
        constexpr uint64_t kMaxPadding = uint64_t{64} << 20;
        const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (devNull < 0 || ::dup2(devNull, fd) < 0 || entryRemaining > kMaxPadding)
            archive_write_fail(ar);
        if (devNull >= 0)
            ::close(devNull);
        archive_write_free(ar);
        ar = nullptr;
    }
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
    if (!tempPath.empty()) {
        std::error_code ec;
        fs::remove_all(tempPath, ec);
        tempPath.clear();
    }
}

void checkArtifactDestination(const Artifact& artifact, const std::vector<fs::path>& protect) {
    const bool folder = artifact.form == ArtifactForm::Folder;
    checkDestination(artifact.path, Stage::Write, "artifact", protect, folder);
    const fs::path finalPath = artifact.path;
    std::error_code ec;
    const auto finalStatus = fs::status(finalPath, ec);
    if (folder && fs::exists(finalStatus)) {
        // Replacing a folder deletes it: do so only for what looks like an NNEF artifact.
        if (!fs::is_directory(finalStatus))
            throwOutput(finalPath, "a file of that name exists and is not a .nnef folder",
                        "remove it, or choose another export path");
        const bool isArtifact = fs::exists(finalPath / "graph.nnef", ec);
        if (!isArtifact && !fs::is_empty(finalPath, ec))
            throwOutput(finalPath,
                        "a non-empty folder of that name exists and holds no graph.nnef; t2n "
                        "only replaces folders that look like NNEF artifacts",
                        "remove it yourself, or choose another export path");
    }
}

ArchiveWriter::ArchiveWriter(const Artifact& artifact) : d(std::make_unique<Impl>()) {
    checkArtifactDestination(artifact);
    d->artifact = artifact;
    d->finalPath = artifact.path;
    if (!d->finalPath.has_parent_path())
        d->finalPath = fs::path(".") / d->finalPath;
    const fs::path dir = d->finalPath.parent_path();

    try {
        if (artifact.form == ArtifactForm::Folder) {
            for (int attempt = 0; d->tempPath.empty(); ++attempt) {
                const fs::path candidate = siblingPath(d->finalPath, "tmp");
                if (::mkdir(candidate.c_str(), 0777) == 0) {
                    d->tempPath = candidate;
                } else if (errno != EEXIST || attempt > 8) {
                    const int err = errno;
                    throwOutput(d->finalPath, fmt::format("cannot create a folder in '{}': {}",
                                                          dir.string(), errnoText(err)));
                }
            }
        } else {
            d->openArchive();
        }
    } catch (...) {
        d->discard();
        throw;
    }
}

ArchiveWriter::~ArchiveWriter() {
    if (!d->committed)
        d->discard();
}

void ArchiveWriter::addFile(const std::string& relativePath, uint64_t size,
                            const std::function<void(const Sink&)>& produce) {
    if (d->committed)
        throwInternal(fmt::format("archive entry '{}' added after commit()", relativePath));
    if (d->failed)
        throwInternal(
            fmt::format("archive entry '{}' added after an earlier write failed", relativePath));
    // A refused path changes nothing: the writer stays usable.
    d->registerPath(relativePath);
    try {
        if (d->artifact.form == ArtifactForm::Folder)
            d->writeFolderFile(relativePath, size, produce);
        else
            d->writeArchiveEntry(relativePath, size, produce);
    } catch (...) {
        d->failed = true;
        throw;
    }
}

void ArchiveWriter::addFile(const std::string& relativePath, std::span<const std::byte> bytes) {
    addFile(relativePath, bytes.size(), [bytes](const Sink& sink) { sink(bytes); });
}

uint64_t ArchiveWriter::finish(PendingOutputs& into) {
    if (d->committed)
        throwInternal("ArchiveWriter::finish() called twice");
    if (d->failed)
        throwInternal("ArchiveWriter::finish() called after a failed write");
    try {
        const bool folder = d->artifact.form == ArtifactForm::Folder;
        const uint64_t size = folder ? d->folderBytes : d->finishArchive();
        into.adopt(d->tempPath, d->finalPath, folder, Stage::Write);
        d->tempPath.clear(); // `into` owns it now
        d->committed = true;
        return size;
    } catch (...) {
        d->failed = true;
        throw;
    }
}

uint64_t ArchiveWriter::commit() {
    PendingOutputs pending;
    const uint64_t size = finish(pending);
    pending.publish();
    return size;
}

} // namespace t2n::archive
