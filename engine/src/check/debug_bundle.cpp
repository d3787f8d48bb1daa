#include "check/debug_bundle.h"
#include "archive/sibling_path.h"

#include "t2n/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;

namespace t2n::check {

namespace {

constexpr const char* kIoName = "io.npz";
constexpr std::size_t kChunk = std::size_t{1} << 20;

[[noreturn]] void fail(const fs::path& dest, const std::string& what) {
    throw Error(Stage::Check, ErrorCode::OutputPath,
                fmt::format("cannot write the debug bundle '{}': {}", dest.string(), what),
                "check that the directory exists, is writable and has free space, or choose "
                "another --debug-bundle path");
}

std::string errnoText() {
    return std::strerror(errno);
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isTgzPath(const fs::path& p) {
    const std::string name = p.filename().string();
    return endsWith(name, ".tgz") || endsWith(name, ".tar.gz");
}

/// The folder name inside a .tgz bundle: the file name without its suffix.
std::string tgzStem(const fs::path& p) {
    std::string name = p.filename().string();
    name.resize(name.size() - (endsWith(name, ".tgz") ? 4 : 7));
    return name.empty() ? "t2n-debug-bundle" : name;
}

/// A POSIX shell word for `s`: as is when plain, else single-quoted.
std::string shellWord(std::string_view s) {
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./,:=+-@%", c);
    });
    if (plain)
        return std::string(s);
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// `s` inside "${1:-...}": backslash before the characters that stay special there.
std::string inDoubleQuotedDefault(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (std::strchr("\\\"$`}", c))
            out += '\\';
        out += c;
    }
    return out;
}

using Sink = std::function<void(const char*, std::size_t)>;
using Producer = std::function<void(const Sink&)>;

Producer textProducer(const std::string& text) {
    return [&text](const Sink& sink) { sink(text.data(), text.size()); };
}

Producer copyProducer(const fs::path& source, const fs::path& dest) {
    return [source, dest](const Sink& sink) {
        std::ifstream in(source, std::ios::binary);
        if (!in)
            fail(dest, fmt::format("cannot read '{}': {}", source.string(), errnoText()));
        std::vector<char> buf(kChunk);
        while (in) {
            in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
            if (in.gcount() > 0)
                sink(buf.data(), static_cast<std::size_t>(in.gcount()));
        }
        if (in.bad())
            fail(dest, fmt::format("cannot read '{}'", source.string()));
    };
}

/// Where the entries go: a temporary folder or a temporary .tgz, moved into
/// place by commit() and removed by the destructor otherwise.
class BundleWriter {
public:
    virtual ~BundleWriter() = default;
    virtual void dir(const std::string& rel) = 0;
    virtual void file(const std::string& rel, int perm, uint64_t size, const Producer& p) = 0;
    virtual void commit() = 0;
};

class FolderWriter final : public BundleWriter {
public:
    explicit FolderWriter(const fs::path& dest) : dest_(dest) {
        std::error_code ec;
        const auto st = fs::symlink_status(dest, ec);
        if (fs::exists(st)) {
            if (!fs::is_directory(st))
                fail(dest, "a file of that name exists");
            const bool bundle =
                fs::exists(dest / "README.txt", ec) && fs::exists(dest / "run.sh", ec);
            if (!bundle && !fs::is_empty(dest, ec))
                fail(dest, "a non-empty folder of that name exists and is not a t2n debug bundle");
        }
        temp_ = archive::siblingPath(dest, "tmp");
        if (::mkdir(temp_.c_str(), 0755) != 0) {
            const std::string why = errnoText();
            temp_.clear();
            fail(dest, fmt::format("cannot create a folder in '{}': {}",
                                   dest.parent_path().string(), why));
        }
    }
    ~FolderWriter() override {
        std::error_code ec;
        if (!temp_.empty())
            fs::remove_all(temp_, ec);
    }
    void dir(const std::string& rel) override {
        if (::mkdir((temp_ / rel).c_str(), 0755) != 0 && errno != EEXIST)
            fail(dest_, fmt::format("cannot create '{}': {}", rel, errnoText()));
    }
    void file(const std::string& rel, int perm, uint64_t size, const Producer& produce) override {
        const fs::path target = temp_ / rel;
        std::ofstream out(target, std::ios::binary | std::ios::trunc);
        if (!out)
            fail(dest_, fmt::format("cannot create '{}': {}", rel, errnoText()));
        uint64_t written = 0;
        produce([&](const char* data, std::size_t n) {
            out.write(data, static_cast<std::streamsize>(n));
            written += n;
            if (!out)
                fail(dest_, fmt::format("writing '{}' failed: {}", rel, errnoText()));
        });
        out.close();
        if (!out || written != size)
            fail(dest_, fmt::format("writing '{}' failed (changed while copied?)", rel));
        // Explicit mode: run.sh must be executable whatever the umask.
        if (::chmod(target.c_str(), static_cast<mode_t>(perm)) != 0)
            fail(dest_, fmt::format("cannot set the mode of '{}': {}", rel, errnoText()));
    }
    void commit() override {
        // Move an old bundle aside first, so that it comes back if the rename fails.
        fs::path old;
        std::error_code ec;
        if (fs::exists(fs::symlink_status(dest_, ec))) {
            old = archive::siblingPath(dest_, "old");
            if (::rename(dest_.c_str(), old.c_str()) != 0)
                fail(dest_, fmt::format("cannot move the old bundle aside: {}", errnoText()));
        }
        if (::rename(temp_.c_str(), dest_.c_str()) != 0) {
            const std::string why = errnoText();
            if (!old.empty())
                ::rename(old.c_str(), dest_.c_str());
            fail(dest_, fmt::format("cannot move the bundle into place: {}", why));
        }
        temp_.clear();
        if (!old.empty())
            fs::remove_all(old, ec);
    }

private:
    fs::path dest_, temp_;
};

class TgzWriter final : public BundleWriter {
public:
    explicit TgzWriter(const fs::path& dest) : dest_(dest), top_(tgzStem(dest)) {
        std::error_code ec;
        if (fs::is_directory(dest, ec))
            fail(dest, "a folder of that name exists");
        temp_ = archive::siblingPath(dest, "tmp");
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd_ < 0) {
            const std::string why = errnoText();
            temp_.clear();
            fail(dest,
                 fmt::format("cannot create a file in '{}': {}", dest.parent_path().string(), why));
        }
        try {
            ar_ = archive_write_new();
            check(ar_ ? archive_write_set_format_pax_restricted(ar_) : ARCHIVE_FATAL, "tar");
            check(archive_write_set_bytes_in_last_block(ar_, 1), "block size");
            check(archive_write_add_filter_gzip(ar_), "gzip");
            // Off (null value): the gzip header's MTIME stays 0, the bytes reproducible.
            check(archive_write_set_filter_option(ar_, "gzip", "timestamp", nullptr), "gzip");
            check(archive_write_open_fd(ar_, fd_), "open");
            entry(top_, AE_IFDIR, 0755, 0);
            check(archive_write_finish_entry(ar_), top_);
        } catch (...) {
            discard(); // a constructor that throws gets no destructor call
            throw;
        }
    }
    ~TgzWriter() override { discard(); }
    void dir(const std::string& rel) override {
        entry(top_ + "/" + rel, AE_IFDIR, 0755, 0);
        check(archive_write_finish_entry(ar_), rel);
    }
    void file(const std::string& rel, int perm, uint64_t size, const Producer& produce) override {
        entry(top_ + "/" + rel, AE_IFREG, perm, size);
        uint64_t written = 0;
        produce([&](const char* data, std::size_t n) {
            if (n > size - written)
                fail(dest_, fmt::format("'{}' grew while it was copied", rel));
            for (std::size_t done = 0; done < n;) {
                const la_ssize_t w = archive_write_data(ar_, data + done, n - done);
                if (w <= 0)
                    check(ARCHIVE_FATAL, rel);
                done += static_cast<std::size_t>(w);
            }
            written += n;
        });
        if (written != size)
            fail(dest_, fmt::format("'{}' shrank while it was copied", rel));
        check(archive_write_finish_entry(ar_), rel);
    }
    void commit() override {
        check(archive_write_close(ar_), "close");
        archive_write_free(ar_);
        ar_ = nullptr;
        const int closed = ::close(fd_);
        fd_ = -1;
        if (closed != 0)
            fail(dest_, fmt::format("cannot close the file: {}", errnoText()));
        if (::rename(temp_.c_str(), dest_.c_str()) != 0)
            fail(dest_, fmt::format("cannot move the bundle into place: {}", errnoText()));
        temp_.clear();
    }

private:
    void discard() noexcept {
        if (ar_) {
            // Nothing more is written (the file is deleted); libarchive 3.6.2 then
            // keeps its zlib state (a few hundred KiB), on this failure path only.
            archive_write_fail(ar_);
            archive_write_free(ar_);
            ar_ = nullptr;
        }
        if (fd_ >= 0)
            ::close(std::exchange(fd_, -1));
        if (!temp_.empty())
            ::unlink(temp_.c_str());
        temp_.clear();
    }
    void check(int r, std::string_view what) {
        if (r == ARCHIVE_OK)
            return;
        const char* msg = ar_ ? archive_error_string(ar_) : nullptr;
        fail(dest_, fmt::format("{}: {}", what, msg ? msg : "libarchive error"));
    }
    void entry(const std::string& path, unsigned type, int perm, uint64_t size) {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(),
                                                                        archive_entry_free);
        archive_entry_set_pathname_utf8(e.get(), path.c_str());
        archive_entry_set_filetype(e.get(), type);
        archive_entry_set_perm(e.get(), static_cast<mode_t>(perm));
        archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
        archive_entry_set_mtime(e.get(), 0, 0);
        archive_entry_set_uid(e.get(), 0);
        archive_entry_set_gid(e.get(), 0);
        check(archive_write_header(ar_, e.get()), path);
    }

    fs::path dest_, temp_;
    std::string top_;
    struct archive* ar_ = nullptr;
    int fd_ = -1;
};

uint64_t sizeOf(const fs::path& p, const fs::path& dest) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    if (ec)
        fail(dest, fmt::format("cannot read '{}': {}", p.string(), ec.message()));
    return n;
}

/// A model folder, files and subfolders in sorted order (reproducible bundles).
void addFolder(BundleWriter& w, const fs::path& source, const std::string& rel,
               const fs::path& dest) {
    w.dir(rel);
    std::vector<fs::directory_entry> entries;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(source, ec))
        entries.push_back(e);
    if (ec)
        fail(dest, fmt::format("cannot list '{}': {}", source.string(), ec.message()));
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.path().filename() < b.path().filename();
    });
    for (const auto& e : entries) {
        const std::string name = rel + "/" + e.path().filename().string();
        if (e.is_directory(ec))
            addFolder(w, e.path(), name, dest);
        else
            w.file(name, 0644, sizeOf(e.path(), dest), copyProducer(e.path(), dest));
    }
}

} // namespace

std::string bundledModelName(const fs::path& modelArchive) {
    std::error_code ec;
    if (fs::is_directory(modelArchive, ec))
        return "model.nnef";
    return endsWith(modelArchive.filename().string(), ".tar") ? "model.nnef.tar" : "model.nnef.tgz";
}

TractCommand bundleTractCommand(const DebugBundle& bundle) {
    TractCommandOptions o = bundle.tract;
    o.archive = "./" + bundledModelName(bundle.modelArchive);
    o.ioBundle = std::string("./") + kIoName;
    return buildTractCommand(o);
}

std::string runScript(const DebugBundle& bundle) {
    const TractCommand cmd = bundleTractCommand(bundle);
    std::string line = fmt::format(
        "exec \"${{1:-{}}}\"",
        inDoubleQuotedDefault(bundle.tractProgram.empty() ? "tract" : bundle.tractProgram));
    for (const auto& a : cmd.args)
        line += " " + shellWord(a);
    return fmt::format("#!/bin/sh\n"
                       "# Replays t2n's tract check on this bundle (tract {}, tolerance {}).\n"
                       "# Usage: ./run.sh [path/to/tract]\n"
                       "set -e\n"
                       "cd \"$(dirname \"$0\")\"\n"
                       "{}\n",
                       bundle.tract.version.str(), bundle.tract.tolerance.str(), line);
}

std::string readmeText(const DebugBundle& bundle) {
    const std::string model = bundledModelName(bundle.modelArchive);
    const TractCommand cmd = bundleTractCommand(bundle);
    std::string text =
        fmt::format("t2n debug bundle\n"
                    "================\n\n"
                    "t2n writes this bundle when the check of an exported model fails. It holds\n"
                    "what is needed to replay the tract check on another machine.\n\n"
                    "  README.txt          this file\n"
                    "  run.sh              replays the tract check: ./run.sh [path/to/tract]\n"
                    "  {:<19} the exported NNEF model, byte for byte as t2n wrote it\n"
                    "  io.npz              inputs and expected outputs (numpy.savez format;\n"
                    "                      f16 and bf16 stored as f32, hence --allow-float-casts)\n"
                    "  report.json         t2n's export report, with the check results\n"
                    "  hardened_graph.txt  the TorchScript graph after hardening, as translated\n",
                    model);
    if (bundle.divergenceJson)
        text += "  divergence.json     where t2n's reference run first left the TorchScript "
                "values\n";
    if (!bundle.recipeJson.empty())
        text += "  recipe.json         the export's model and options: t2n-studio THIS_FOLDER\n"
                "                      opens it and checks the bundled model again\n";
    text += fmt::format("\nReplay\n------\n"
                        "  ./run.sh                  # runs {}\n"
                        "  ./run.sh /path/to/tract   # another tract binary\n\n"
                        "run.sh runs, from this folder (tract {}, tolerance {}):\n"
                        "  tract {}\n\n"
                        "The check passes when tract exits with status 0 and prints nothing "
                        "but\nknown warnings on stderr. A \"Mismatch\" line names the first "
                        "output\nelement outside the tolerance.\n",
                        bundle.tractProgram.empty() ? "tract from the PATH" : bundle.tractProgram,
                        bundle.tract.version.str(), bundle.tract.tolerance.str(),
                        fmt::join(cmd.args, " "));
    for (const auto& w : cmd.warnings)
        text += "\nNote: " + w + "\n";
    return text;
}

void writeDebugBundle(const fs::path& destination, const DebugBundle& bundle) {
    fs::path dest = destination;
    if (!dest.has_filename())
        fail(destination, "the path has no file name");
    if (!dest.has_parent_path())
        dest = fs::path(".") / dest;
    std::error_code ec;
    if (!fs::is_directory(dest.parent_path(), ec))
        fail(dest, fmt::format("'{}' is not an existing directory", dest.parent_path().string()));
    const bool modelIsFolder = fs::is_directory(bundle.modelArchive, ec);
    if (!modelIsFolder && !fs::is_regular_file(bundle.modelArchive, ec))
        fail(dest,
             fmt::format("the model archive '{}' does not exist", bundle.modelArchive.string()));
    if (!fs::is_regular_file(bundle.ioNpz, ec))
        fail(dest, fmt::format("the io bundle '{}' does not exist", bundle.ioNpz.string()));

    const std::string readme = readmeText(bundle);
    const std::string script = runScript(bundle);
    std::unique_ptr<BundleWriter> w;
    if (isTgzPath(dest))
        w = std::make_unique<TgzWriter>(dest);
    else
        w = std::make_unique<FolderWriter>(dest);
    w->file("README.txt", 0644, readme.size(), textProducer(readme));
    w->file("run.sh", 0755, script.size(), textProducer(script));
    const std::string model = bundledModelName(bundle.modelArchive);
    if (modelIsFolder)
        addFolder(*w, bundle.modelArchive, model, dest);
    else
        w->file(model, 0644, sizeOf(bundle.modelArchive, dest),
                copyProducer(bundle.modelArchive, dest));
    w->file(kIoName, 0644, sizeOf(bundle.ioNpz, dest), copyProducer(bundle.ioNpz, dest));
    w->file("report.json", 0644, bundle.reportJson.size(), textProducer(bundle.reportJson));
    w->file("hardened_graph.txt", 0644, bundle.hardenedGraph.size(),
            textProducer(bundle.hardenedGraph));
    if (bundle.divergenceJson)
        w->file("divergence.json", 0644, bundle.divergenceJson->size(),
                textProducer(*bundle.divergenceJson));
    if (!bundle.recipeJson.empty())
        w->file("recipe.json", 0644, bundle.recipeJson.size(), textProducer(bundle.recipeJson));
    w->commit();
}

} // namespace t2n::check
