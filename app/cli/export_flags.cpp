#include "export_flags.h"

#include "t2n/error.h"

#include <charconv>

#include <fmt/format.h>

namespace t2n::cli {

void addModelFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("model", f.model, "TorchScript file written by torch.jit.save")->required();
    addInputFlags(app, f);
}

void addInputFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("-i,--input", f.inputs,
                   "one per forward() argument, in order: NAME:SHAPE:DTYPE, e.g. "
                   "input:1x3x224x224:f32 (dtypes f32 f16 f64 i64 i32 i16 i8 u8 bool)");
    app.add_option("--seed", f.seed, "seed of the random example inputs")->capture_default_str();
    app.add_option("--log-level", f.logLevel, "trace, debug, info, warn, error or off")
        ->capture_default_str();
}

void addExportFlags(CLI::App& app, ExportFlags& f) {
    addModelFlags(app, f);
    addExportOptionFlags(app, f);
    addCheckFlags(app, f);
}

void addCheckFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("--tolerance", f.tolerance,
                   "check tolerance: exact, close, approximate, very, super, ultra, "
                   "custom:ATOL,RTOL,OUTLIERS")
        ->capture_default_str();
    app.add_option("--tract-bin", f.tractBin,
                   "tract binary for the check (default: $T2N_TRACT_BIN, then tract on PATH)");
    app.add_option("--debug-bundle", f.debugBundle,
                   "when the check fails, write a debug bundle (folder, or .tgz) here");
}

void addExportOptionFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("--input-name", f.inputNames,
                   "NNEF names of the inputs, replacing the --input names (same count)");
    app.add_option("--output-name", f.outputNames, "NNEF names of the outputs (default output_N)");
    app.add_option("--target", f.target, "tract or tract@X.Y.Z (default: newest known tract)")
        ->capture_default_str();
    app.add_option("--dynamic-axis", f.dynamicAxes,
                   "NAME:AXIS=SYMBOL makes an input axis symbolic, e.g. input:0=B");
    app.add_option("--property", f.properties, "KEY=VALUE added to tract_core_properties");
    app.add_flag("--no-identity-properties", f.noIdentityProperties,
                 "leave os, hostname and user out of tract_core_properties");
    app.add_flag("--date-property", f.dateProperty,
                 "add export_date to tract_core_properties (the archive then differs per run)");
    app.add_option("--naming", f.naming, "raw, natural_verbose, natural_verbose_camel or numeric")
        ->capture_default_str();
    app.add_option("--compression", f.compression,
                   "none (folder), 0 (.tar, or .tgz stored when the path says .tgz) or 1-9 (.tgz)")
        ->capture_default_str();
    app.add_flag("--no-check-io-names", f.noCheckIoNames,
                 "allow fewer output names than outputs and inputs that reach no output");
    app.add_flag("--allow-same-io-names", f.allowSameIoNames,
                 "allow an output named like an input (a pass-through output)");
    app.add_option("--extension", f.extensions,
                   "extra 'extension' line, e.g. \"tract_assert B >= 1\"");
}

namespace {
Error usage(std::string message, std::string hint) {
    return Error(Stage::Load, ErrorCode::Usage, std::move(message), std::move(hint));
}
} // namespace

ExportOptions toOptions(const ExportFlags& f) {
    ExportOptions o;
    for (const auto& s : f.inputs)
        o.inputs.push_back(InputSpec::parse(s));
    o.inputNames = f.inputNames;
    o.outputNames = f.outputNames;
    o.target = TargetSpec::parse(f.target);
    for (const auto& s : f.dynamicAxes)
        o.dynamicAxes.push_back(DynamicAxis::parse(s));
    for (const auto& p : f.properties) {
        auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0)
            throw usage(fmt::format("bad property '{}'", p), "write KEY=VALUE");
        o.properties.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
    o.identityProperties = !f.noIdentityProperties;
    o.stampExportDate = f.dateProperty;
    auto naming = parseNamingScheme(f.naming);
    if (!naming)
        throw usage(fmt::format("unknown naming scheme '{}'", f.naming),
                    "use raw, natural_verbose, natural_verbose_camel or numeric");
    o.naming = *naming;
    if (f.compression == "none") {
        o.compressionLevel.reset();
    } else {
        int level = -1;
        const char* end = f.compression.data() + f.compression.size();
        auto [ptr, ec] = std::from_chars(f.compression.data(), end, level);
        if (ec != std::errc() || ptr != end || level < 0 || level > 9)
            throw usage(fmt::format("bad compression level '{}'", f.compression),
                        "use none, or 0 to 9");
        o.compressionLevel = level;
    }
    o.checkIoNamesQuantityMatch = !f.noCheckIoNames;
    o.allowSameIoNames = f.allowSameIoNames;
    o.customExtensions = f.extensions;
    auto level = parseLogLevel(f.logLevel);
    if (!level)
        throw usage(fmt::format("unknown log level '{}'", f.logLevel),
                    "use trace, debug, info, warn, error or off");
    o.logLevel = *level;
    o.seed = f.seed;
    o.check = !f.noCheck;
    o.checkTolerance = f.tolerance;
    o.tractBinary = f.tractBin;
    o.debugBundle = f.debugBundle;
    return o;
}

} // namespace t2n::cli
