// The write protocol of t2n/outputs.h: destinations checked up front,
// results staged under sibling names, renamed into place together at the end
// (with the replaced ones restored when a later rename fails), stale
// temporaries of killed runs cleared.
#include "t2n/outputs.h"

#include "archive/sibling_path.h"
#include "util/name_limits.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio> // renameat2
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;

namespace t2n {

namespace {

std::string errnoText(int err) {
    return std::strerror(err);
}

[[noreturn]] void refuse(Stage stage, std::string_view what, const fs::path& path,
                         const std::string& why, std::string hint = {}) {
    if (hint.empty())
        hint = "check that the directory exists, is writable and has free space, or choose "
               "another path";
    throw Error(stage, ErrorCode::OutputPath,
                fmt::format("cannot write the {} '{}': {}", what, path.string(), why),
                std::move(hint));
}

fs::path withParent(const fs::path& p) {
    return p.has_parent_path() ? p : fs::path(".") / p;
}

bool processAlive(pid_t pid) {
    return pid == ::getpid() || ::kill(pid, 0) == 0 || errno == EPERM;
}

// A temporary named before names recorded their process: assume it is left
// over once nobody has touched it for an hour.
bool oldEnough(const fs::path& p) {
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    return !ec && fs::file_time_type::clock::now() - t > std::chrono::hours(1);
}

// `inner` is `outer` itself or lies inside the folder `outer`.
bool within(const fs::path& inner, const fs::path& outer) {
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
    const fs::path b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
    if (ec)
        return false;
    auto ai = a.begin();
    for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai)
        if (ai == a.end() || *ai != *bi)
            return false;
    return true;
}

// What a destination is now, looked at without replacing a link blindly.
struct Spot {
    enum Kind { Missing, Regular, Directory, InPlace, Special } kind = Missing;
    fs::path path;    ///< where the bytes go: the target of a link to a regular file
    std::string what; ///< "a FIFO", "a block device" ... for InPlace and Special
};

Spot locate(const fs::path& dest) {
    struct stat st {};
    if (::lstat(dest.c_str(), &st) != 0)
        return {Spot::Missing, dest, {}};
    const bool link = S_ISLNK(st.st_mode);
    if (link && ::stat(dest.c_str(), &st) != 0)
        return {Spot::Special, dest, "a symbolic link to nothing"};
    if (S_ISREG(st.st_mode)) {
        std::error_code ec;
        const fs::path target = link ? fs::canonical(dest, ec) : dest;
        if (ec)
            return {Spot::Special, dest, "a symbolic link t2n cannot follow"};
        return {Spot::Regular, target, {}};
    }
    if (S_ISDIR(st.st_mode))
        return {Spot::Directory, dest, {}};
    if (S_ISCHR(st.st_mode))
        return {Spot::InPlace, dest, "a character device"};
    if (S_ISFIFO(st.st_mode))
        return {Spot::InPlace, dest, "a FIFO"};
    return {Spot::Special, dest,
            S_ISBLK(st.st_mode)    ? "a block device"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "a special file"};
}

void checkAnyDestination(const fs::path& path, Stage stage, std::string_view what,
                         const std::vector<fs::path>& protect, bool folder, bool text);

} // namespace

void removeStaleTemporaries(const fs::path& destination) {
    const fs::path dest = withParent(destination);
    if (dest.filename().empty())
        return;
    // Every t2n temporary of the directory, not only the destination's: a run
    // killed while writing elsewhere there leaves nobody else to clear it.
    std::error_code ec;
    std::vector<std::pair<fs::path, archive::SiblingName>> stale;
    for (const auto& e : fs::directory_iterator(dest.parent_path(), ec)) {
        auto parsed = archive::parseSiblingName(e.path().filename().string());
        if (!parsed)
            continue;
        const bool dead = parsed->pid ? !processAlive(*parsed->pid) : oldEnough(e.path());
        if (dead)
            stale.emplace_back(e.path(), *parsed);
    }
    for (const auto& [path, sibling] : stale) {
        // A run killed between moving the old folder aside and putting the new
        // one in place: the old folder is the user's, put it back (and keep it
        // when its name was cut and its place is unknown).
        if (sibling.kind == "old") {
            if (!sibling.finalName)
                continue;
            const fs::path home = path.parent_path() / *sibling.finalName;
            if (!fs::exists(fs::symlink_status(home, ec)) &&
                ::rename(path.c_str(), home.c_str()) == 0)
                continue;
        }
        fs::remove_all(path, ec);
    }
}

int writeAll(int fd, std::span<const std::byte> bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno != EINTR)
            return errno;
        if (n > 0)
            done += static_cast<size_t>(n);
    }
    return 0;
}

void removeOwnTemporaries() noexcept {
    std::error_code ec;
    for (const auto& t : archive::ownTemporaries()) {
        if (!fs::exists(fs::symlink_status(t.path, ec)))
            continue;
        // The user's folder moved aside for the swap goes back when the new
        // one is not in its place yet.
        if (t.kind == "old" && !fs::exists(fs::symlink_status(t.final, ec)) &&
            ::rename(t.path.c_str(), t.final.c_str()) == 0)
            continue;
        fs::remove_all(t.path, ec);
    }
}

void checkDestination(const fs::path& path, Stage stage, std::string_view what,
                      const std::vector<fs::path>& protect, bool folder) {
    checkAnyDestination(path, stage, what, protect, folder, /*text=*/false);
}

void checkTextDestination(const fs::path& path, Stage stage, std::string_view what,
                          const std::vector<fs::path>& protect) {
    checkAnyDestination(path, stage, what, protect, /*folder=*/false, /*text=*/true);
}

namespace {
void checkAnyDestination(const fs::path& path, Stage stage, std::string_view what,
                         const std::vector<fs::path>& protect, bool folder, bool text) {
    util::checkPathText(path.native(), fmt::format("{} path", what), stage, ErrorCode::OutputPath);
    if (!path.has_filename() || path.filename() == "." || path.filename() == "..")
        refuse(stage, what, path, "the path has no file name", "give a file name");
    const fs::path dest = withParent(path);
    const fs::path dir = dest.parent_path();
    std::error_code ec;
    const auto dirStatus = fs::status(dir, ec);
    if (!fs::exists(dirStatus))
        refuse(stage, what, path, fmt::format("the directory '{}' does not exist", dir.string()),
               "create the directory first, or choose another path");
    if (!fs::is_directory(dirStatus))
        refuse(stage, what, path, fmt::format("'{}' is not a directory", dir.string()),
               "choose a path inside a directory");
    const Spot spot = locate(dest);
    if (!folder && spot.kind == Spot::Directory)
        refuse(stage, what, path, "a directory of that name exists",
               "remove it, or choose another path");
    // A device, a FIFO or a socket is never replaced by a regular file (run as
    // root, that would replace /dev/null for everyone); a text result is
    // written into a device or a FIFO, anything else refuses them.
    if (spot.kind == Spot::Special || (spot.kind == Spot::InPlace && !text))
        refuse(stage, what, path, fmt::format("it is {}", spot.what),
               text ? "give a regular file, a character device, a FIFO or '-'"
                    : "give the path of a regular file");
    if (spot.kind == Spot::InPlace && ::access(dest.c_str(), W_OK) != 0)
        refuse(stage, what, path,
               fmt::format("{} t2n cannot write: {}", spot.what, errnoText(errno)));
    for (const auto& p : protect) {
        if (p.empty())
            continue;
        // The same file (any name, hard or symbolic link), or the same path
        // when it does not exist yet (two outputs of one run).
        const bool same = fs::exists(p, ec) ? fs::equivalent(dest, p, ec)
                                            : fs::absolute(dest, ec).lexically_normal() ==
                                                  fs::absolute(p, ec).lexically_normal();
        if (same || (folder && within(p, dest)))
            refuse(stage, what, path,
                   fmt::format("it {} '{}', which this run also {}",
                               same ? "is the same path as" : "holds", p.string(),
                               fs::exists(p, ec) ? "reads or writes" : "writes"),
                   "choose another path: t2n never overwrites what it reads, and writes each "
                   "result to its own path");
    }
    if (spot.kind == Spot::InPlace)
        return; // nothing is created beside a device
    // Can a file be created there? (write permission, read-only file system)
    // A text result replaces the file a link points to, beside that file.
    const fs::path target = text ? spot.path : dest;
    const fs::path probe = archive::siblingPath(target, "probe");
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        refuse(stage, what, path,
               fmt::format("cannot create files in '{}': {}", target.parent_path().string(),
                           errnoText(errno)));
    ::close(fd);
    ::unlink(probe.c_str());
    removeStaleTemporaries(target);
}
} // namespace

struct PendingOutputs::Impl {
    struct Entry {
        fs::path temp, dest;
        bool folder = false;
        Stage stage = Stage::Write;
        fs::path backup;     ///< the replaced destination, while publishing
        bool hadOld = false; ///< something was at dest before
        /// For a device or a FIFO: the bytes, written into it by publish().
        std::optional<std::string> inPlace;
    };
    std::vector<Entry> entries;

    void install(Entry& e);
    void rollback(Entry& e) noexcept;
    void writeInPlace(const Entry& e) const;
};

void PendingOutputs::Impl::writeInPlace(const Entry& e) const {
    const int fd = ::open(e.dest.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        refuse(e.stage, "result", e.dest, errnoText(errno));
    int err = writeAll(fd, std::as_bytes(std::span(*e.inPlace)));
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0)
        refuse(e.stage, "result", e.dest, errnoText(err));
}

void PendingOutputs::Impl::install(Entry& e) {
    std::error_code ec;
    const auto old = fs::symlink_status(e.dest, ec);
    e.hadOld = fs::exists(old);
    // A folder is swapped with the new one in one step, so that a reader
    // never finds it missing; the temporary's name then holds the old one.
    if (e.hadOld && e.folder && fs::is_directory(old) &&
        ::renameat2(AT_FDCWD, e.temp.c_str(), AT_FDCWD, e.dest.c_str(), RENAME_EXCHANGE) == 0) {
        e.backup = std::exchange(e.temp, fs::path());
        return;
    }
    if (e.hadOld) {
        e.backup = archive::siblingPath(e.dest, "old");
        if (!e.folder && fs::is_regular_file(old)) {
            // A second name for the old file: the rename below replaces it
            // atomically, and a rollback can still put it back.
            if (::link(e.dest.c_str(), e.backup.c_str()) != 0)
                e.backup.clear();
        } else if (::rename(e.dest.c_str(), e.backup.c_str()) != 0) {
            const int err = errno;
            e.backup.clear();
            refuse(e.stage, "result", e.dest,
                   fmt::format("cannot move the existing one aside: {}", errnoText(err)));
        }
    }
    if (::rename(e.temp.c_str(), e.dest.c_str()) != 0) {
        const int err = errno;
        if (!e.backup.empty()) {
            if (e.folder || !fs::is_regular_file(old))
                ::rename(e.backup.c_str(), e.dest.c_str());
            else
                ::unlink(e.backup.c_str());
            e.backup.clear();
        }
        refuse(e.stage, "result", e.dest,
               fmt::format("cannot move the finished result into place: {}", errnoText(err)));
    }
    e.temp.clear();
}

void PendingOutputs::Impl::rollback(Entry& e) noexcept {
    std::error_code ec;
    if (!e.backup.empty()) {
        if (fs::is_directory(fs::symlink_status(e.backup, ec)))
            fs::remove_all(e.dest, ec);
        ::rename(e.backup.c_str(), e.dest.c_str());
        e.backup.clear();
    } else if (!e.hadOld) {
        fs::remove_all(e.dest, ec);
    }
}

PendingOutputs::PendingOutputs() : d(std::make_unique<Impl>()) {}

PendingOutputs::~PendingOutputs() {
    discard();
}

void PendingOutputs::addText(const fs::path& path, std::string_view text, Stage stage,
                             std::string_view what) {
    addFile(
        path,
        [text](const ChunkSink& sink) {
            sink({reinterpret_cast<const std::byte*>(text.data()), text.size()});
        },
        stage, what);
}

void PendingOutputs::addFile(const fs::path& path,
                             const std::function<void(const ChunkSink&)>& produce, Stage stage,
                             std::string_view what) {
    const Spot spot = locate(withParent(path));
    if (spot.kind == Spot::InPlace) {
        std::string bytes;
        produce([&](std::span<const std::byte> b) {
            bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
        });
        d->entries.push_back({{}, spot.path, false, stage, {}, false, std::move(bytes)});
        return;
    }
    // A link keeps pointing where it did: the file it names is replaced.
    const fs::path dest = spot.path;
    const fs::path temp = archive::siblingPath(dest, "tmp");
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        refuse(stage, what, path,
               fmt::format("cannot create a file in '{}': {}", dest.parent_path().string(),
                           errnoText(errno)));
    int err = 0;
    auto sink = [&](std::span<const std::byte> bytes) {
        if (err == 0)
            err = writeAll(fd, bytes);
    };
    try {
        produce(sink);
    } catch (...) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw;
    }
    if (err == 0 && ::fsync(fd) != 0)
        err = errno;
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        ::unlink(temp.c_str());
        refuse(stage, what, path, errnoText(err));
    }
    d->entries.push_back({temp, dest, false, stage, {}, false, std::nullopt});
}

void PendingOutputs::adopt(const fs::path& temporary, const fs::path& destination, bool folder,
                           Stage stage) {
    d->entries.push_back(
        {temporary, withParent(destination), folder, stage, {}, false, std::nullopt});
}

void PendingOutputs::splice(PendingOutputs& other) {
    for (auto& e : other.d->entries)
        d->entries.push_back(std::move(e));
    other.d->entries.clear();
}

std::vector<fs::path> PendingOutputs::temporaries() const {
    std::vector<fs::path> out;
    for (const auto& e : d->entries)
        out.push_back(e.temp);
    return out;
}

std::vector<fs::path> PendingOutputs::destinations() const {
    std::vector<fs::path> out;
    for (const auto& e : d->entries)
        out.push_back(e.dest);
    return out;
}

void PendingOutputs::publish() {
    // Bytes written into a device cannot be taken back: they go first, so
    // that a failing one (/dev/full) stops the run before anything is renamed.
    try {
        for (const auto& e : d->entries)
            if (e.inPlace)
                d->writeInPlace(e);
    } catch (...) {
        discard();
        throw;
    }
    size_t k = 0;
    try {
        for (; k < d->entries.size(); ++k)
            if (!d->entries[k].inPlace)
                d->install(d->entries[k]);
    } catch (...) {
        while (k-- > 0)
            if (!d->entries[k].inPlace)
                d->rollback(d->entries[k]);
        discard();
        throw;
    }
    std::error_code ec;
    for (auto& e : d->entries)
        if (!e.backup.empty())
            fs::remove_all(e.backup, ec);
    d->entries.clear();
}

void PendingOutputs::discard() noexcept {
    std::error_code ec;
    for (auto& e : d->entries)
        if (!e.temp.empty())
            fs::remove_all(e.temp, ec);
    d->entries.clear();
}

} // namespace t2n
