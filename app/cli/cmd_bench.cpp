// t2n bench MODEL --input ...: export wall time and peak memory, beside the
// time to copy the artifact's bytes on the same disk (the floor any
// exporter that writes those bytes must pay).
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"

#include "t2n/session.h"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <vector>

namespace t2n::cli {

namespace {
struct BenchArgs {
    ExportFlags flags;
    std::string dir;
    int repeat = 3;
};

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// A user-space copy (read and write through a buffer, as any exporter that
// writes these bytes must at least do); copy_file could use reflinks.
void copyBytes(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::ifstream in(from, std::ios::binary);
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    std::vector<char> buf(4 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        out.write(buf.data(), in.gcount());
    }
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}
} // namespace

Command addBenchCommand(CLI::App& root) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* app = root.add_subcommand(
        "bench", "time an export (and its peak memory) against a plain copy of its bytes");
    addExportFlags(*app, args->flags);
    app->add_option("--dir", args->dir, "folder for the temporary artifacts (default: temp dir)");
    app->add_option("--repeat", args->repeat, "exports to time (best is reported)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    return {app, [args] {
                ExportOptions options = toOptions(args->flags);
                const bool check = options.check;
                options.check = false; // timed apart below: export and check are different work
                namespace fs = std::filesystem;
                fs::path dir = args->dir.empty() ? fs::temp_directory_path() : fs::path(args->dir);
                fs::path out = dir / "t2n-bench.nnef.tar";
                double rssBefore = peakRssMiB();
                double best = 1e30;
                ExportReport report;
                for (int i = 0; i < args->repeat; ++i) {
                    CliObserver observer(LogLevel::Error);
                    Session session(&observer);
                    auto start = std::chrono::steady_clock::now();
                    session.load(args->flags.model);
                    report = session.exportModel(out, options);
                    best = std::min(best, seconds(start));
                }
                double rss = peakRssMiB();
                std::optional<CheckReport> checked;
                if (check) {
                    CliObserver observer(LogLevel::Error);
                    Session session(&observer);
                    session.load(args->flags.model);
                    checked = session.check(report.artifact.path, options);
                }
                fs::path copy = dir / "t2n-bench-copy.tar";
                double bestCopy = 1e30;
                for (int i = 0; i < args->repeat; ++i) {
                    auto start = std::chrono::steady_clock::now();
                    copyBytes(report.artifact.path, copy);
                    bestCopy = std::min(bestCopy, seconds(start));
                }
                uintmax_t bytes = fs::file_size(report.artifact.path);
                fs::remove(copy);
                fs::remove(report.artifact.path);
                fmt::print("model            {}\n", args->flags.model);
                fmt::print("artifact bytes   {} ({:.1f} MiB, {} variables)\n", bytes,
                           static_cast<double>(bytes) / (1024.0 * 1024.0), report.variables.size());
                for (const auto& t : report.timings)
                    fmt::print("  {:<10}     {:.3f} s\n", stageName(t.stage), t.seconds);
                fmt::print("export (best of {}) {:.3f} s\n", args->repeat, best);
                fmt::print("copy of the bytes  {:.3f} s  (export / copy = {:.1f}x)\n", bestCopy,
                           bestCopy > 0 ? best / bestCopy : 0.0);
                fmt::print("peak RSS         {:.0f} MiB (process baseline {:.0f} MiB)\n", rss,
                           rssBefore);
                if (checked) {
                    const double ratio =
                        checked->torchForwardSeconds > 0
                            ? checked->interpreterSeconds / checked->torchForwardSeconds
                            : 0.0;
                    fmt::print("check            {:.3f} s ({})\n", checked->seconds,
                               checked->passed ? "passed" : "FAILED");
                    fmt::print("  TorchScript forward     {:.3f} s\n",
                               checked->torchForwardSeconds);
                    fmt::print("  reference interpreter   {:.3f} s  (interpreter / forward = "
                               "{:.1f}x)\n",
                               checked->interpreterSeconds, ratio);
                }
                return 0;
            }};
}

} // namespace t2n::cli
