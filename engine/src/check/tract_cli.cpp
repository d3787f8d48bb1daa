#include "check/tract_cli.h"

#include "t2n/error.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <regex>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using t2n::target::SemVer;

namespace t2n::check {

namespace {

// What tract-cli says on --nnef-tract-onnx when built without its onnx feature.
constexpr std::string_view kBuiltWithoutOnnx = "tract is build without ONNX support";

constexpr std::size_t kCaptureLimit = std::size_t{16} << 20;

bool isExecutableFile(const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

/// `name` in the directories of $PATH (an empty entry is the current one).
fs::path searchPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (path == nullptr)
        return {};
    for (auto dir : util::split(path, ':')) {
        const fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / name;
        if (isExecutableFile(candidate))
            return fs::absolute(candidate);
    }
    return {};
}

/// A binary the user named: a path, or a bare name looked up in $PATH.
fs::path resolveNamed(const fs::path& given, std::string_view what) {
    if (isExecutableFile(given))
        return fs::absolute(given);
    if (given.string().find('/') == std::string::npos)
        if (auto found = searchPath(given.string()); !found.empty())
            return found;
    throw Error(Stage::Check, ErrorCode::Usage,
                fmt::format("{} '{}' is not an executable file", what, given.string()),
                fmt::format("give the path of a tract binary, or unset it to use {} or the "
                            "PATH",
                            what == "--tract-bin" ? "$T2N_TRACT_BIN" : "--tract-bin"));
}

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

bool containsAll(std::string_view line, std::initializer_list<std::string_view> parts) {
    return std::all_of(parts.begin(), parts.end(),
                       [&](std::string_view p) { return line.find(p) != std::string_view::npos; });
}

/// torch_to_nnef's tract_err_filter.
bool isBenign(std::string_view line) {
    return line.find("Ignore unknown extension") != std::string_view::npos ||
           containsAll(line, {"tract_pulse_streaming_symbol", "deprecated", "WARN"}) ||
           containsAll(line, {"Flattening the shape will be deprecated.", "Reshape", "WARN"});
}

/// The loosest-but-nearest named level a version has for a custom tolerance:
/// the first (tightest) one at least as loose in atol, rtol and outliers, so
/// tract does not fail what t2n's own check lets through; else the loosest.
ToleranceLevel nearestNamed(const Bounds& want, const SemVer& v) {
    std::vector<ToleranceLevel> levels{ToleranceLevel::Exact, ToleranceLevel::Close,
                                       ToleranceLevel::Approximate};
    if (target::tractHas("cli:--approx=very", v))
        levels.push_back(ToleranceLevel::Very);
    levels.push_back(ToleranceLevel::Super);
    if (target::tractHas("cli:--approx=ultra", v))
        levels.push_back(ToleranceLevel::Ultra);
    for (auto level : levels) {
        const Bounds b = Tolerance::named(level).bounds(ElementClass::Float);
        if (b.atol >= want.atol && b.rtol >= want.rtol && b.outliers >= want.outliers)
            return level;
    }
    return levels.back();
}

void addApprox(const TractCommandOptions& o, TractCommand& cmd) {
    const SemVer& v = o.version;
    Tolerance tol = o.tolerance;
    if (!target::tractHas("cli:--approx", v)) {
        if (tol.level != ToleranceLevel::Close)
            cmd.warnings.push_back(fmt::format(
                "tract {} has no --approx (it came in 0.21.7): tract checks at its default "
                "level 'close', not '{}'",
                v.str(), tol.str()));
        return;
    }
    if (tol.level == ToleranceLevel::AllClose) {
        cmd.warnings.push_back(
            fmt::format("tolerance '{}' is passed to tract as --approx-custom", tol.str()));
        tol = Tolerance::makeCustom(tol.custom.atol, tol.custom.rtol, 0);
    }
    if (tol.level == ToleranceLevel::Custom) {
        if (target::tractHas("cli:--approx-custom", v)) {
            cmd.args.insert(cmd.args.end(),
                            {"--approx-custom", fmt::format("{},{},{}", tol.custom.atol,
                                                            tol.custom.rtol, tol.custom.outliers)});
            return;
        }
        const auto level = nearestNamed(tol.custom, v);
        cmd.warnings.push_back(fmt::format(
            "tract {} has no --approx-custom (it came in 0.21.10): using --approx {} for '{}'",
            v.str(), toleranceLevelName(level), tol.str()));
        tol = Tolerance::named(level);
    }
    // tract 0.21.7 knew exact, close, approximate and super only.
    if ((tol.level == ToleranceLevel::Very && !target::tractHas("cli:--approx=very", v)) ||
        (tol.level == ToleranceLevel::Ultra && !target::tractHas("cli:--approx=ultra", v))) {
        cmd.warnings.push_back(
            fmt::format("tract {} has no --approx {}: using --approx super", v.str(), tol.str()));
        tol = Tolerance::named(ToleranceLevel::Super);
    }
    cmd.args.insert(cmd.args.end(), {"--approx", std::string(toleranceLevelName(tol.level))});
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string mismatchText(const TractMismatch& m) {
    std::string out = m.outputIndex >= 0 ? fmt::format("output {}: ", m.outputIndex) : "";
    if (m.outliers >= 0)
        out += fmt::format("{} / {} outliers", m.outliers, m.total);
    else
        out += "mismatch";
    if (!m.level.empty())
        out += " at " + m.level;
    if (!m.expected.empty())
        out +=
            fmt::format(", first at [{}]: {} != {}", fmt::join(m.index, ", "), m.expected, m.got);
    return out;
}

/// How tract's CLI reads a model path (cli/src/params.rs, load_model): a
/// folder, a name ending in ".tar" or ".tar.gz", or the extension "tgz" is
/// NNEF, gunzipped when the extension ends in "gz"; any other name is read as
/// TensorFlow. t2n checks an export under its temporary name
/// (".NAME.nnef.tgz.t2n-tmp-..."), which tract would misread.
enum class ArchiveKind { Unknown, Folder, Tar, Tgz };

ArchiveKind kindTractSees(const fs::path& p) {
    std::error_code ec;
    if (fs::is_directory(p, ec))
        return ArchiveKind::Folder;
    const std::string name = p.filename().string();
    const std::string ext = p.extension().string();
    if (name.ends_with(".tar.gz") || ext == ".tgz")
        return ArchiveKind::Tgz;
    if (name.ends_with(".tar"))
        return ArchiveKind::Tar;
    return ArchiveKind::Unknown;
}

/// What the file is: a folder, or a gzip or plain tar stream by its first bytes.
ArchiveKind kindOnDisk(const fs::path& p) {
    std::error_code ec;
    if (fs::is_directory(p, ec))
        return ArchiveKind::Folder;
    if (!fs::is_regular_file(p, ec))
        return ArchiveKind::Unknown;
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (f == nullptr)
        return ArchiveKind::Unknown;
    unsigned char magic[2] = {0, 0};
    const std::size_t n = std::fread(magic, 1, 2, f);
    std::fclose(f);
    return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b ? ArchiveKind::Tgz : ArchiveKind::Tar;
}

/// A name tract reads as `kind`: the archive's own name without t2n's
/// temporary prefix and suffix, with the suffix its kind needs.
std::string nameForTract(const fs::path& archive, ArchiveKind kind) {
    std::string name = archive.filename().string();
    if (const auto at = name.find(".t2n-tmp-"); at != std::string::npos)
        name.erase(at);
    while (!name.empty() && name.front() == '.')
        name.erase(0, 1);
    if (name.empty())
        name = "archive";
    const fs::path named(name);
    if (kindTractSees(named) == kind || kind == ArchiveKind::Folder)
        return name;
    return name + (kind == ArchiveKind::Tgz ? ".nnef.tgz" : ".nnef.tar");
}

/// A private folder holding one symbolic link to the archive under a name
/// tract reads as what the archive is; removed when it goes out of scope.
class TractNamedLink {
public:
    explicit TractNamedLink(const fs::path& archive) {
        const ArchiveKind kind = kindOnDisk(archive);
        if (kind == ArchiveKind::Unknown || kind == kindTractSees(archive))
            return;
        std::string pattern = (fs::temp_directory_path() / "t2n-tract-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            return; // tract then gets the original name and says what it read
        dir_ = pattern;
        const fs::path link = dir_ / nameForTract(archive, kind);
        std::error_code ec;
        fs::create_symlink(fs::absolute(archive), link, ec);
        if (!ec)
            path_ = link;
    }
    ~TractNamedLink() {
        std::error_code ec;
        if (!dir_.empty())
            fs::remove_all(dir_, ec);
    }
    TractNamedLink(const TractNamedLink&) = delete;
    TractNamedLink& operator=(const TractNamedLink&) = delete;
    /// The path to hand tract: the link, or the archive itself when its name serves.
    fs::path pathFor(const fs::path& archive) const { return path_.empty() ? archive : path_; }

private:
    fs::path dir_, path_;
};

/// tract's own words for a failure: the last lines of its error chain
/// ("Caused by:" and backtrace hints left out), for the summary a person reads.
/// A panic's frames follow "stack backtrace:": its words are the two lines
/// before ("thread 'main' panicked at ...:", "attempt to divide by zero").
std::string tractLastWords(const std::vector<std::string>& lines, std::size_t count = 3) {
    std::vector<std::string> kept;
    for (const auto& line : lines) {
        // RUST_BACKTRACE=1: an error's frames (anyhow) or a panic's follow
        if (line.starts_with("Stack backtrace:") || line.starts_with("stack backtrace:"))
            break;
        if (line != "Caused by:" && line.find("RUST_BACKTRACE") == std::string::npos)
            kept.push_back(line);
    }
    if (kept.size() > count)
        kept.erase(kept.begin(), kept.end() - static_cast<std::ptrdiff_t>(count));
    return fmt::format("{}", fmt::join(kept, " / "));
}

} // namespace

TractBinary findTract(const fs::path& explicitPath) {
    if (!explicitPath.empty())
        return {resolveNamed(explicitPath, "--tract-bin"), "--tract-bin"};
    if (const char* env = std::getenv(kTractBinEnv); env != nullptr && *env != '\0')
        return {resolveNamed(env, kTractBinEnv), kTractBinEnv};
    if (auto onPath = searchPath("tract"); !onPath.empty())
        return {onPath, "PATH"};
    return {};
}

std::optional<SemVer> parseTractVersion(std::string_view text) {
    static const std::regex version(R"(^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]*)?$)");
    std::string s(text);
    for (auto& c : s)
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
    for (auto token : util::split(s, ' '))
        if (std::regex_match(token.begin(), token.end(), version))
            return SemVer::parse(token);
    return std::nullopt;
}

TractCommand buildTractCommand(const TractCommandOptions& o) {
    const SemVer& v = o.version;
    TractCommand cmd;
    cmd.args = {o.archive, "--nnef-tract-core", "--nnef-tract-pulse"};
    if (target::tractHas("cli:--nnef-tract-extra", v))
        cmd.args.push_back("--nnef-tract-extra");
    if (target::tractHas("cli:--nnef-tract-transformers", v))
        cmd.args.push_back("--nnef-tract-transformers");
    if (o.usesResource)
        cmd.args.push_back("--nnef-tract-resource");
    if (o.usesOnnx)
        cmd.args.push_back("--nnef-tract-onnx");
    cmd.args.push_back("-O");
    if (!target::tractHas("cli:--input-from-bundle", v))
        cmd.args.insert(cmd.args.end(), {"--input-bundle", o.ioBundle, "run",
                                         "--assert-output-bundle", o.ioBundle});
    else
        cmd.args.insert(cmd.args.end(), {"run", "--input-from-bundle", o.ioBundle,
                                         "--assert-output-bundle", o.ioBundle});
    cmd.args.push_back("--allow-float-casts");
    addApprox(o, cmd);
    if (const std::string why = cannotLeaveOutputsOut(v, o.missingOutputs); !why.empty())
        cmd.warnings.push_back(why);
    else if (!o.missingOutputs.empty())
        cmd.args.push_back("--allow-missing-outputs");
    if (!o.saveOutputs.empty())
        cmd.args.insert(cmd.args.end(), {"--save-outputs", o.saveOutputs});
    return cmd;
}

std::string cannotLeaveOutputsOut(const SemVer& version, const std::vector<std::string>& missing) {
    if (missing.empty() || target::tractHas("cli:--allow-missing-outputs", version))
        return {};
    const target::TractGate* gate = target::findTractGate("cli:--allow-missing-outputs");
    return fmt::format("output{} {} depend{} on a random draw and cannot be in the io bundle, "
                       "and tract {} checks every output of the model (--allow-missing-outputs "
                       "needs {})",
                       missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
                       missing.size() == 1 ? "s" : "", version.str(),
                       gate ? target::describeGate(*gate) : std::string("a newer tract"));
}

ProcessOutput runProcess(const fs::path& program, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, const fs::path& workDir,
                         const std::function<bool()>& cancelled) {
    ProcessOutput r;
    const auto start = std::chrono::steady_clock::now();
    if (std::error_code ec; !workDir.empty() && !fs::is_directory(workDir, ec)) {
        r.startError = fmt::format("the working directory '{}' does not exist", workDir.string());
        return r;
    }
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0) {
        r.startError = std::strerror(errno);
        return r;
    }
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        r.startError = std::strerror(errno);
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
    if (!workDir.empty())
        posix_spawn_file_actions_addchdir_np(&actions, workDir.c_str());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group: a timeout kills tract and anything it started.
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attr, &defaults);

    std::vector<std::string> argvStore{program.string()};
    argvStore.insert(argvStore.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argvStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (spawned != 0) {
        r.startError = fmt::format("cannot run '{}': {}", program.string(), std::strerror(spawned));
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return r;
    }
    r.started = true;

    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&r.out, &r.err};
    const auto deadline = start + timeout;
    int status = 0;
    bool exited = false;
    auto readReady = [&](int waitMs) {
        if (::poll(fds, 2, waitMs) <= 0)
            return false;
        bool any = false;
        char buf[65536];
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                any = true;
                const auto keep = std::min<std::size_t>(n, kCaptureLimit - sinks[i]->size());
                sinks[i]->append(buf, keep);
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1; // poll() skips negative descriptors
            }
        }
        return any;
    };
    while (!exited) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.timedOut = true;
            ::kill(-pid, SIGKILL);
            break;
        }
        if (cancelled && cancelled()) {
            r.cancelled = true;
            ::kill(-pid, SIGKILL);
            break;
        }
        // Short polls: the child may exit while something it started keeps the pipes open.
        if (fds[0].fd >= 0 || fds[1].fd >= 0)
            readReady(static_cast<int>(std::min<int64_t>(left.count(), 50)));
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const pid_t waited = ::waitpid(pid, &status, WNOHANG);
        if (waited < 0 && errno == ECHILD) {
            // Reaped elsewhere (SIGCHLD ignored by the host program): status unknown.
            r.startError = "its exit status was lost (is SIGCHLD ignored?)";
            status = W_EXITCODE(255, 0);
            exited = true;
        }
        exited = exited || waited == pid;
    }
    if (exited)
        while (readReady(0)) // what is already in the pipes
            ;
    else
        ::waitpid(pid, &status, 0);
    for (auto& f : fds)
        if (f.fd >= 0)
            ::close(f.fd);
    r.seconds = secondsSince(start);
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    return r;
}

std::vector<std::string> unexpectedStderrLines(std::string_view text,
                                               const std::vector<std::string>& leftOut) {
    // tract: warn!("Missing reference output in bundle for {}", names joined by " or ").
    auto leftOutOnPurpose = [&](const std::string& line) {
        const auto at = line.find("Missing reference output in bundle for ");
        if (at == std::string::npos || line.find("WARN") == std::string::npos)
            return false;
        const std::string names = line.substr(at + 39);
        for (auto name : util::split(names, ' '))
            if (std::find(leftOut.begin(), leftOut.end(), name) != leftOut.end())
                return true;
        return false;
    };
    std::vector<std::string> out;
    for (auto raw : util::split(text, '\n')) {
        std::string line = trim(raw);
        if (line.empty())
            continue;
        const bool error = line.find("ERROR") != std::string::npos ||
                           line.find("RUST_BACKTRACE") != std::string::npos;
        if (error || !(isBenign(line) || leftOutOnPurpose(line)))
            out.push_back(std::move(line));
    }
    return out;
}

std::optional<TractMismatch> parseTractMismatch(std::string_view text) {
    const std::string all(text);
    static const std::regex line(R"(Mismatch[^\n]*)");
    std::smatch m;
    if (!std::regex_search(all, m, line))
        return std::nullopt;
    TractMismatch r;
    r.text = trim(m.str());
    static const std::regex output(R"(Checking output (\d+))");
    if (std::smatch o; std::regex_search(all, o, output))
        r.outputIndex = std::stoi(o[1]);
    // "First outlier: Approximate for F32)" (tract) or "First outlier (Approximate F32)".
    static const std::regex level(
        R"(First outlier:?\s*\(?\s*([A-Za-z]+(?:\([^)]*\))?)\s+(?:for\s+)?([A-Za-z][A-Za-z0-9]*)\))");
    if (std::smatch l; std::regex_search(r.text, l, level)) {
        r.level = l[1];
        r.dtype = l[2];
    }
    static const std::regex index(R"(at \[([0-9,\s]*)\])");
    if (std::smatch i; std::regex_search(r.text, i, index)) {
        // Named: split() returns views into it, which must outlive the loop
        // (a temporary would die before the body runs; ASan found it).
        const std::string indices = i.str(1);
        for (auto part : util::split(indices, ','))
            if (auto v = util::parseInt<int64_t>(trim(part)))
                r.index.push_back(*v);
    }
    static const std::regex values(R"((\S+) != (\S+?)\.?(?:\s|$))");
    if (std::smatch v; std::regex_search(r.text, v, values)) {
        r.expected = v[1];
        r.got = v[2];
    }
    static const std::regex outliers(R"(Outliers:\s*~?(\d+)\s*/\s*~?(\d+))");
    if (std::smatch o; std::regex_search(r.text, o, outliers)) {
        r.outliers = std::stoll(o[1]);
        r.total = std::stoll(o[2]);
    }
    return r;
}

std::string_view tractStatusName(TractStatus s) {
    switch (s) {
    case TractStatus::Passed:
        return "passed";
    case TractStatus::Failed:
        return "failed";
    case TractStatus::Skipped:
        return "skipped";
    }
    return "?";
}

TractCheckResult runTractCheck(const TractCheckOptions& o) {
    TractCheckResult r;
    const TractBinary bin = findTract(o.tractBin);
    if (!bin.found()) {
        r.summary = "tract: skipped (not found)";
        r.hint = fmt::format("give --tract-bin, set ${} or put tract on the PATH to run it",
                             kTractBinEnv);
        return r;
    }
    r.tractPath = bin.path.string();
    r.tractSource = bin.source;
    r.status = TractStatus::Failed;
    SemVer version;
    if (o.version) {
        version = *o.version;
    } else {
        const auto v =
            runProcess(bin.path, {"--version"}, std::chrono::seconds(30), {}, o.cancelled);
        const auto parsed = parseTractVersion(v.out + "\n" + v.err);
        if (v.cancelled) {
            r.process = v;
            return r;
        }
        if (!parsed) {
            r.process = v;
            r.summary = fmt::format(
                "tract: failed (cannot read the version of {}: {})", r.tractPath,
                !v.started   ? v.startError
                : v.timedOut ? std::string("'--version' timed out")
                             : fmt::format("'--version' printed '{}'", trim(v.out + v.err)));
            r.hint = "check that it is a tract binary, or give another with --tract-bin";
            return r;
        }
        version = *parsed;
    }
    r.version = version.str();
    if (const std::string why = cannotLeaveOutputsOut(version, o.missingOutputs); !why.empty()) {
        r.status = TractStatus::Skipped;
        r.summary = fmt::format("tract: skipped ({})", why);
        r.hint = "give a tract 0.21.8 or newer with --tract-bin to run it";
        return r;
    }
    TractCommandOptions command;
    command.version = version;
    command.tolerance = o.tolerance;
    command.usesResource = o.usesResource;
    command.usesOnnx = o.usesOnnx;
    const TractNamedLink named(o.archive);
    command.archive = named.pathFor(o.archive).string();
    command.ioBundle = o.ioBundle.string();
    command.missingOutputs = o.missingOutputs;
    command.saveOutputs = o.saveOutputs.string();
    const TractCommand cmd = buildTractCommand(command);
    r.warnings = cmd.warnings;
    r.command = {r.tractPath};
    r.command.insert(r.command.end(), cmd.args.begin(), cmd.args.end());
    r.process = runProcess(bin.path, cmd.args, o.timeout, o.workDir, o.cancelled);
    const ProcessOutput& p = r.process;
    r.unexpectedStderr = unexpectedStderrLines(p.err, o.missingOutputs);
    r.mismatch = parseTractMismatch(p.err);
    const std::string detail = r.mismatch ? ": " + mismatchText(*r.mismatch) : "";
    if (!p.started)
        r.summary = fmt::format("tract: failed ({})", p.startError);
    else if (p.timedOut)
        r.summary = fmt::format("tract: failed (timed out after {:g} s; tract was killed)",
                                o.timeout.count() / 1000.0);
    else if (p.signal != 0)
        r.summary = fmt::format("tract: failed (killed by signal {}){}", p.signal, detail);
    else if (p.exitCode != 0 && o.usesOnnx && p.err.find(kBuiltWithoutOnnx) != std::string::npos) {
        // tract-cli built without its onnx feature panics on --nnef-tract-onnx:
        // it cannot read tract_onnx_random, so it cannot judge the archive.
        r.status = TractStatus::Skipped;
        r.summary = "tract: skipped (this tract is built without ONNX support, so it has no "
                    "tract_onnx registry and cannot read the archive's tract_onnx_random)";
        r.hint = "give a tract built with its onnx feature (tract-cli's default) with --tract-bin";
        return r;
    } else if (p.exitCode != 0) {
        r.summary = fmt::format("tract: failed (exit status {}{})", p.exitCode, detail);
        if (!r.mismatch && !r.unexpectedStderr.empty())
            r.summary += ": " + tractLastWords(r.unexpectedStderr);
    } else if (!r.unexpectedStderr.empty())
        r.summary =
            fmt::format("tract: failed (exit status 0 but {} unexpected stderr line{}: "
                        "{}){}",
                        r.unexpectedStderr.size(), r.unexpectedStderr.size() == 1 ? "" : "s",
                        r.unexpectedStderr.front(), detail);
    else {
        r.status = TractStatus::Passed;
        r.summary = "tract: passed";
    }
    if (r.status == TractStatus::Failed)
        r.hint = "a debug bundle's run.sh replays this command on another machine";
    return r;
}

std::string TractCheckResult::toJson() const {
    nlohmann::json j{
        {"status", tractStatusName(status)},
        {"summary", summary},
        {"warnings", warnings},
    };
    if (!hint.empty())
        j["hint"] = hint;
    if (status == TractStatus::Skipped)
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    j["tract"] = {{"path", tractPath}, {"source", tractSource}, {"version", version}};
    j["command"] = command;
    j["exit_code"] = process.exitCode;
    j["signal"] = process.signal;
    j["timed_out"] = process.timedOut;
    j["seconds"] = process.seconds;
    j["stdout"] = process.out;
    j["stderr"] = process.err;
    j["unexpected_stderr"] = unexpectedStderr;
    if (mismatch)
        j["mismatch"] = {{"text", mismatch->text},   {"output", mismatch->outputIndex},
                         {"level", mismatch->level}, {"dtype", mismatch->dtype},
                         {"index", mismatch->index}, {"expected", mismatch->expected},
                         {"got", mismatch->got},     {"outliers", mismatch->outliers},
                         {"total", mismatch->total}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace t2n::check
