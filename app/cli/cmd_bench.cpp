// t2n bench MODEL --input ...: the figures of issue 13 as ratios, each
// measured on a fresh process, as a user meets them:
//   start-up      `t2n --version` (what every command pays before main)
//   export/copy   `t2n export --no-check` (level-0 .tar) against a plain copy
//                 of the .pt on the same disk (the floor of any exporter that
//                 reads and writes these bytes)
//   RSS/.pt       peak resident memory of those processes against the .pt
//   check/forward the check stage (best of --repeat) against LibTorch's own
//                 forward() of the same model on the same inputs (warm, best
//                 of --repeat)
//   ATen threads  that forward on the threads every command runs with
//                 (followMachineThreads) against one thread
//   threads       export + check with the default threading policy against
//                 `--threads 1`, in turn, on an idle machine and with one
//                 core kept busy by a spinning child process (the policy
//                 must never lose to one thread)
// Peak RSS comes from wait4() on each child, so one measurement never
// inherits another's high-water mark.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"

#include "t2n/recipe.h"
#include "t2n/runtime_info.h"
#include "t2n/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib> // mkdtemp
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <memory>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace t2n::cli {

namespace {
namespace fs = std::filesystem;

struct BenchArgs {
    ExportFlags flags;
    std::string dir;
    std::string startupFloor;
    int repeat = 3;
};

struct Run {
    double seconds = 0;
    double peakMiB = 0;
};

/// A measured run that exited with a failure status (already reported).
struct ChildFailed {
    int code;
};

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Runs `program` (default: this executable) with `args`; its stdout goes to
// /dev/null.
Run runSelf(const std::vector<std::string>& args, const std::string& program = "/proc/self/exe") {
    std::vector<std::string> all{program == "/proc/self/exe" ? "t2n" : program};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        throw Error(Stage::Report, ErrorCode::Internal,
                    fmt::format("bench: cannot start {}: {}", program, std::strerror(spawned)));
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    Run r{seconds(start), static_cast<double>(usage.ru_maxrss) / 1024.0};
    // A run that fails says why on stderr; bench ends with its exit status
    // (a failing check is 1, as for `t2n export`), not as a bug of its own.
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fmt::print(stderr,
                   "t2n: error: [report] bench: 't2n {}' ended with exit {} (see above); bench "
                   "times exports that succeed\n",
                   fmt::join(args, " "), WEXITSTATUS(status));
        throw ChildFailed{WEXITSTATUS(status)};
    }
    if (!WIFEXITED(status))
        throw Error(
            Stage::Report, ErrorCode::Internal,
            fmt::format("bench: 't2n {}' failed (status {})", fmt::join(args, " "), status));
    return r;
}

// A user-space copy through a buffer, as `cp` does on a file system without
// reflinks (copy_file_range could clone blocks and measure nothing).
// `durable`: fsync before closing, as every export does before its rename.
void copyBytes(const fs::path& from, const fs::path& to, bool durable) {
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    std::vector<char> buf(1 << 20);
    bool ok = in >= 0 && out >= 0;
    for (ssize_t n = 0; ok && (n = ::read(in, buf.data(), buf.size())) > 0;)
        ok = ::write(out, buf.data(), static_cast<std::size_t>(n)) == n;
    if (ok && durable)
        ok = ::fsync(out) == 0;
    if (in >= 0)
        ::close(in);
    if (out >= 0)
        ::close(out);
    if (!ok)
        throw Error(
            Stage::Report, ErrorCode::Internal,
            fmt::format("bench: copying {} failed: {}", from.string(), std::strerror(errno)));
}

// A child process that keeps one core busy until the guard ends it: the
// browser, GUI thread or second test suite the threading policy must live with.
class BusyCore {
public:
    BusyCore() {
        pid_ = ::fork();
        if (pid_ == 0) {
            volatile int stop = 0; // read each turn: a loop the compiler keeps
            while (stop == 0) {
            }
            ::_exit(0);
        }
        // Long enough for the kernel to count it among the runnable tasks.
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ~BusyCore() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
            }
        }
    }
    BusyCore(const BusyCore&) = delete;
    BusyCore& operator=(const BusyCore&) = delete;

private:
    pid_t pid_ = -1;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Median over `repeat` pairs of a/b, each pair run back to back, so that a
// drift of the machine's speed cancels out.
double pairedRatio(int repeat, const std::function<Run()>& a, const std::function<Run()>& b) {
    std::vector<double> ratios;
    for (int i = 0; i < repeat; ++i) {
        const double first = a().seconds;
        ratios.push_back(first / std::max(1e-9, b().seconds));
    }
    return median(ratios);
}

std::string machine() {
    std::ifstream cpu("/proc/cpuinfo");
    std::string model;
    for (std::string line; model.empty() && std::getline(cpu, line);)
        if (line.rfind("model name", 0) == 0)
            model = line.substr(line.find(':') + 2);
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    return fmt::format("{}, {} cores, load average {:.2f} {:.2f} {:.2f} at start", model,
                       sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
}

nlohmann::json readJson(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

std::string stageLine(const nlohmann::json& report) {
    std::string out;
    // Each stage's time, and the process's peak memory when it ended.
    for (const auto& s : report.value("stages", nlohmann::json::array()))
        out += fmt::format("{}{} {:.3f} s ({:.0f} MiB)", out.empty() ? "" : ", ",
                           s.value("stage", "?"), s.value("seconds", 0.0),
                           s.value("peak_rss_mib", 0.0));
    return out;
}

template <typename F> Run best(int repeat, F&& f) {
    Run b{1e30, 0};
    for (int i = 0; i < repeat; ++i) {
        Run r = f();
        b.seconds = std::min(b.seconds, r.seconds);
        b.peakMiB = std::max(b.peakMiB, r.peakMiB);
    }
    return b;
}

// The figures, printed; throws ChildFailed when a measured run fails.
int runBench(const BenchArgs& args) {
    ExportRecipe recipe;
    recipe.model = fs::absolute(args.flags.model);
    recipe.options = toOptions(args.flags);
    recipe.options.logLevel = LogLevel::Error;
    const fs::path dir = args.dir.empty() ? fs::temp_directory_path() : fs::path(args.dir);
    // mkdtemp: a name nobody can plant a link at beforehand (t2n-bench-<pid> could be).
    std::string made = (dir / "t2n-bench-XXXXXX").string();
    if (::mkdtemp(made.data()) == nullptr)
        throw Error(Stage::Write, ErrorCode::OutputPath,
                    fmt::format("cannot create a work folder in '{}': {}", dir.string(),
                                std::strerror(errno)),
                    "give --dir a writable directory");
    const fs::path work = made;
    struct Cleanup {
        fs::path p;
        ~Cleanup() {
            std::error_code ec;
            fs::remove_all(p, ec);
        }
    } cleanup{work};
    recipe.output = work / "model.nnef.tar";
    const fs::path recipeFile = work / "recipe.json";
    saveRecipe(recipeFile, recipe);
    const int n = args.repeat;
    const std::string report = (work / "report.json").string();
    const uintmax_t ptBytes = fs::file_size(recipe.model);
    const double ptMiB = static_cast<double>(ptBytes) / (1024.0 * 1024.0);
    fmt::print("model            {} ({:.1f} MiB)\n", recipe.model.string(), ptMiB);
    fmt::print("machine          {}\n", machine());

    const Run start = best(n, [] { return runSelf({"--version"}); });
    const Run floor =
        args.startupFloor.empty() ? Run{} : best(n, [&] { return runSelf({}, args.startupFloor); });
    auto copyRun = [&](bool durable) {
        return best(n, [&] {
            const auto t = std::chrono::steady_clock::now();
            copyBytes(recipe.model, work / "copy.pt", durable);
            Run r{seconds(t), 0};
            fs::remove(work / "copy.pt");
            return r;
        });
    };
    const Run copy = copyRun(false);
    const Run durableCopy = copyRun(true);
    const Run exported = best(n, [&] {
        return runSelf(
            {"export", "--recipe", recipeFile.string(), "--no-check", "--report", report});
    });
    const auto exportReport = readJson(report);
    const uintmax_t artifactBytes = fs::file_size(recipe.output);
    // Best of --repeat, as the forward it is compared with: one run on a busy
    // machine against the best of three made the ratio a draw of the
    // scheduler. The figures are those of the run with the fastest check.
    nlohmann::json checkReport;
    const Run checked = best(n, [&] {
        std::vector<std::string> exportArgs{"export", "--recipe", recipeFile.string(), "--report",
                                            report};
        if (!recipe.options.tractBinary.empty()) // a recipe names no program to run
            exportArgs.insert(exportArgs.end(), {"--tract-bin", recipe.options.tractBinary});
        Run r = runSelf(exportArgs);
        auto got = readJson(report);
        if (checkReport.is_null() ||
            got.at("check").value("seconds", 0.0) < checkReport.at("check").value("seconds", 0.0))
            checkReport = std::move(got);
        return r;
    });
    // The threading policy against one thread, idle and beside a busy core.
    const std::vector<std::string> exportCheck{"export", "--recipe", recipeFile.string()};
    auto withThreads = [&](std::vector<std::string> a) {
        a.insert(a.end(), {"--threads", "1"});
        return a;
    };
    auto policyVsOne = [&] {
        return pairedRatio(
            n, [&] { return runSelf(exportCheck); },
            [&] { return runSelf(withThreads(exportCheck)); });
    };
    const double idleRatio = policyVsOne();
    double busyRatio = 0;
    {
        BusyCore busy;
        busyRatio = policyVsOne();
    }
    const auto& check = checkReport.at("check");

    // The forward on ATen's threads as every command sets them, then on
    // one thread: what following the machine's cores buys this model.
    const RuntimeInfo runtime = runtimeInfo();
    std::vector<double> forward, oneThread;
    {
        CliObserver observer(LogLevel::Error);
        Session session(&observer);
        session.load(recipe.model);
        forward = session.forwardSeconds(recipe.options, n + 1);
        if (runtime.intraOpThreads > 1) {
            setIntraOpThreads(1);
            oneThread = session.forwardSeconds(recipe.options, n + 1);
            setIntraOpThreads(runtime.intraOpThreads);
        }
    }
    const double coldForward = forward.front();
    const double warmForward = *std::min_element(forward.begin() + 1, forward.end());

    auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    const double checkSeconds = check.value("seconds", 0.0);
    const double interpSeconds = check.value("interpreter_seconds", 0.0);
    fmt::print("start-up         {:.3f} s  (t2n --version, best of {}), peak RSS {:.0f} "
               "MiB\n",
               start.seconds, n, start.peakMiB);
    if (!args.startupFloor.empty())
        fmt::print("  LibTorch alone {:.3f} s  (an empty program linked with it), peak RSS "
                   "{:.0f} MiB: {:.0f} % of t2n's start-up, t2n/LibTorch {:.2f}x\n",
                   floor.seconds, floor.peakMiB, 100 * ratio(floor.seconds, start.seconds),
                   ratio(start.seconds, floor.seconds));
    fmt::print("copy of the .pt  {:.3f} s  (best of {}); with fsync, as exports do: {:.3f} "
               "s\n",
               copy.seconds, n, durableCopy.seconds);
    fmt::print("export           {:.3f} s  (--no-check, level-0 .tar of {:.1f} MiB, "
               "best of {})  export/copy {:.1f}x, export/copy+fsync {:.1f}x\n",
               exported.seconds, static_cast<double>(artifactBytes) / 1048576.0, n,
               ratio(exported.seconds, copy.seconds), ratio(exported.seconds, durableCopy.seconds));
    fmt::print("  stages         {}\n", stageLine(exportReport));
    fmt::print("  peak RSS       {:.0f} MiB  RSS/.pt {:.2f}x  (above start-up: {:.2f}x)\n",
               exported.peakMiB, ratio(exported.peakMiB, ptMiB),
               ratio(exported.peakMiB - start.peakMiB, ptMiB));
    fmt::print("export + check   {:.3f} s  (best of {}; {})\n", checked.seconds, n,
               check.value("passed", false) ? "passed" : "FAILED");
    fmt::print("  stages         {}\n", stageLine(checkReport));
    fmt::print("  peak RSS       {:.0f} MiB  RSS/.pt {:.2f}x  (above start-up: {:.2f}x)\n",
               checked.peakMiB, ratio(checked.peakMiB, ptMiB),
               ratio(checked.peakMiB - start.peakMiB, ptMiB));
    fmt::print("LibTorch forward {:.3f} s  (warm, best of {}; first call {:.3f} s)\n", warmForward,
               n, coldForward);
    fmt::print("  ATen threads   {} ({})", runtime.intraOpThreads, runtime.intraOpSource);
    if (!oneThread.empty()) {
        const double warmOne = *std::min_element(oneThread.begin() + 1, oneThread.end());
        fmt::print("; on 1 thread {:.3f} s, {:.2f}x the time", warmOne,
                   ratio(warmOne, warmForward));
    }
    fmt::print("\n");
    fmt::print("threads          export + check, default/--threads 1 (median of {} pairs): "
               "idle {:.2f}x, one core busy {:.2f}x\n",
               n, idleRatio, busyRatio);
    fmt::print("check            {:.3f} s  (best of {}) check/forward {:.2f}x\n", checkSeconds, n,
               ratio(checkSeconds, warmForward));
    fmt::print("  interpreter    {:.3f} s  interpreter/forward {:.1f}x\n", interpSeconds,
               ratio(interpSeconds, warmForward));
    return 0;
}

} // namespace

Command addBenchCommand(CLI::App& root) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* app = root.add_subcommand(
        "bench", "time an export and its check against a copy of the .pt and LibTorch's "
                 "forward, with peak memory (each on a fresh process)");
    addExportFlags(*app, args->flags);
    app->add_option("--dir", args->dir, "folder for the temporary artifacts (default: temp dir)");
    app->add_option("--startup-floor", args->startupFloor,
                    "an empty program linked with LibTorch (the bench target builds one): its "
                    "start-up is LibTorch's share of t2n's");
    app->add_option("--repeat", args->repeat, "runs per figure (best time is reported)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    return {app, [args] {
                try {
                    return runBench(*args);
                } catch (const ChildFailed& failed) {
                    return failed.code;
                }
            }};
}

} // namespace t2n::cli
