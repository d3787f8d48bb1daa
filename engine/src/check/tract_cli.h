// Tier 2 of the check (reference/nnef-and-tract.md §3, §6): run the real
// tract command line on the exported archive and io.npz the way
// torch_to_nnef's TractCli.assert_io does, when a tract binary is at hand.
// No tract is not a failure: the result says "skipped".
// Torch-free: the io.npz is written beforehand (check/npz_writer.h).
#pragma once

#include "check/compare.h"
#include "target/tract_target.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::check {

/// Environment variable naming the tract binary (after --tract-bin).
inline constexpr const char* kTractBinEnv = "T2N_TRACT_BIN";

struct TractBinary {
    std::filesystem::path path; ///< empty: no tract found
    std::string source;         ///< "--tract-bin", "T2N_TRACT_BIN" or "PATH"
    bool found() const { return !path.empty(); }
};

/// `explicitPath` (--tract-bin), else $T2N_TRACT_BIN, else `tract` on $PATH.
/// An explicit path or variable naming no executable file throws
/// t2n::Error (Check, Usage): the user asked for that binary. Nothing found
/// at all is not an error (found() == false).
TractBinary findTract(const std::filesystem::path& explicitPath = {});

/// The version in `tract --version` output: "tract 0.21.13", "tract v0.22.0",
/// "0.23.6-pre". Empty when there is none.
std::optional<target::SemVer> parseTractVersion(std::string_view versionOutput);

/// What the tract command line depends on.
struct TractCommandOptions {
    target::SemVer version;
    Tolerance tolerance;       ///< default: approximate (torch_to_nnef's default)
    bool usesResource = false; ///< the graph calls tract_resource_get
    bool usesOnnx = false;     ///< the graph declares the tract_onnx registry
    std::string archive = "model.nnef.tgz";
    std::string ioBundle = "io.npz";
    /// Outputs the io bundle leaves out (they depend on a random draw and
    /// cannot be compared element by element): --allow-missing-outputs.
    std::vector<std::string> missingOutputs;
    /// Where tract saves its outputs (--save-outputs); empty: not saved.
    std::string saveOutputs;
};

struct TractCommand {
    std::vector<std::string> args;     ///< everything after the program name
    std::vector<std::string> warnings; ///< tolerance the version cannot express exactly
};

/// `<archive> --nnef-tract-core --nnef-tract-pulse [--nnef-tract-extra]
/// [--nnef-tract-transformers] [--nnef-tract-resource] [--nnef-tract-onnx] -O
/// run --input-from-bundle <io> --assert-output-bundle <io> --allow-float-casts
/// [--approx L | --approx-custom a,r,o] [--allow-missing-outputs]
/// [--save-outputs <file>]`, gated on the version as torch_to_nnef does.
TractCommand buildTractCommand(const TractCommandOptions& options);

/// Why tract `version` cannot check an io bundle that leaves `missing`
/// outputs out (--allow-missing-outputs came with tract 0.21.8); empty when
/// it can.
std::string cannotLeaveOutputsOut(const target::SemVer& version,
                                  const std::vector<std::string>& missing);

/// A child process's outcome. No shell is involved.
struct ProcessOutput {
    bool started = false;
    std::string startError; ///< why it did not start
    int exitCode = -1;      ///< -1 unless it exited normally
    int signal = 0;         ///< the signal that ended it, if any
    bool timedOut = false;  ///< killed (with its process group) at the deadline
    bool cancelled = false; ///< killed (with its process group) on a cancel
    double seconds = 0;
    std::string out, err; ///< each capped at 16 MiB
};
/// `cancelled` is polled while the process runs: true kills it.
ProcessOutput runProcess(const std::filesystem::path& program, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout,
                         const std::filesystem::path& workDir = {},
                         const std::function<bool()>& cancelled = {});

/// stderr lines that fail the check: non-blank lines left after dropping
/// torch_to_nnef's benign ones ("Ignore unknown extension", the WARN about the
/// deprecated tract_pulse_streaming_symbol, the WARN "Flattening the shape
/// will be deprecated" from Reshape; tract's WARN "Missing reference output in
/// bundle for X" when X is one of `leftOut`, the outputs the bundle leaves out
/// on purpose). Lines with ERROR or RUST_BACKTRACE are never benign.
std::vector<std::string> unexpectedStderrLines(std::string_view stderrText,
                                               const std::vector<std::string>& leftOut = {});

/// tract's report of an output outside the tolerance, e.g.
/// "Mismatch. First outlier: Approximate for F32) at [0, 3] 0.0274 != 0.0277.
/// Outliers: 69 / 786432 = 0.00009 > 0.00000."
struct TractMismatch {
    std::string text;                  ///< the line(s) as tract printed them
    int outputIndex = -1;              ///< from "Checking output N", if printed
    std::string level, dtype;          ///< "Approximate", "F32"
    std::vector<int64_t> index;        ///< first outlier
    std::string expected, got;         ///< values as printed
    int64_t outliers = -1, total = -1; ///< -1 when not printed
};
std::optional<TractMismatch> parseTractMismatch(std::string_view stderrText);

enum class TractStatus { Passed, Failed, Skipped };
std::string_view tractStatusName(TractStatus s);

struct TractCheckOptions {
    std::filesystem::path tractBin; ///< --tract-bin; empty: environment, then PATH
    /// Passed to tract as given, or through a link whose name tract reads as
    /// what the archive is (an export is checked under its temporary name).
    std::filesystem::path archive;
    std::filesystem::path ioBundle; ///< passed to tract as given
    std::filesystem::path workDir;  ///< tract's working directory (empty: ours)
    Tolerance tolerance;
    bool usesResource = false;
    bool usesOnnx = false;
    /// Outputs left out of the io bundle (TractCommandOptions::missingOutputs)
    /// and where tract saves its outputs for the caller to compare them.
    std::vector<std::string> missingOutputs;
    std::filesystem::path saveOutputs;
    /// Use this version instead of asking `tract --version`.
    std::optional<target::SemVer> version;
    std::chrono::milliseconds timeout{std::chrono::minutes(10)};
    /// Polled while tract runs: true kills it (the result's process says cancelled).
    std::function<bool()> cancelled;
};

struct TractCheckResult {
    TractStatus status = TractStatus::Skipped;
    std::string summary; ///< "tract: passed", "tract: skipped (not found)", "tract: failed (...)"
    std::string hint;    ///< what to do about a skip or a failure
    std::string tractPath, tractSource, version;
    std::vector<std::string> command; ///< argv, program first
    ProcessOutput process;
    std::vector<std::string> unexpectedStderr;
    std::optional<TractMismatch> mismatch;
    std::vector<std::string> warnings;

    bool failed() const { return status == TractStatus::Failed; }
    std::string toJson() const;
};

/// Finds tract, asks its version, builds the command and runs it. Pass only
/// when tract exits with 0 and its stderr holds no unexpected line. Throws
/// only for a bad --tract-bin / $T2N_TRACT_BIN (see findTract).
TractCheckResult runTractCheck(const TractCheckOptions& options);

} // namespace t2n::check
