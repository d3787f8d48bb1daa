#include "export_flags.h"

#include "t2n/error.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace t2n::cli {

void addModelFlags(CLI::App& app, ExportFlags& f, bool modelRequired) {
    auto* model = app.add_option("model", f.model, "TorchScript file written by torch.jit.save");
    if (modelRequired)
        model->required();
    addInputFlags(app, f);
}

void addInputFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("-i,--input", f.inputs,
                   "one per forward() argument, in order: NAME:SHAPE:DTYPE, e.g. "
                   "input:1x3x224x224:f32 (dtypes f32 f16 f64 i64 i32 i16 i8 u8 bool; "
                   "floats are random N(0,1), integers random in [0, 10)); values that matter "
                   "inline: lengths:1:i64=60 (one for all elements), ids:1x4:i64=[3,1,4,1] "
                   "(one per element); or from a file: NAME=@FILE.npy, NAME=@FILE.npz#MEMBER, "
                   "NAME=@FILE.pt (shape and dtype from the file)");
    // CLI11 reads "-1" into an unsigned as 2^64-1: digits only.
    const CLI::Validator digits(
        [](std::string& v) {
            return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos
                       ? std::string()
                       : "'" + v + "' is not a non-negative integer";
        },
        "UINT");
    app.add_option("--seed", f.seed, "seed of the random example inputs")
        ->capture_default_str()
        ->check(digits);
    app.add_option("--log-level", f.logLevel, "trace, debug, info, warn, error or off")
        ->capture_default_str();
}

void addExportFlags(CLI::App& app, ExportFlags& f, bool modelRequired) {
    addModelFlags(app, f, modelRequired);
    addExportOptionFlags(app, f);
    addCheckFlags(app, f);
}

void addCheckFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("--tolerance", f.tolerance,
                   "check tolerance: exact, close, approximate, very, super, ultra, allclose, "
                   "custom:ATOL,RTOL,OUTLIERS (allclose: torch.allclose's defaults, as "
                   "torch_to_nnef checks Khronos archives)")
        ->capture_default_str();
    app.add_option("--tract-bin", f.tractBin,
                   "tract binary for the check (default: $T2N_TRACT_BIN, then tract on PATH)");
    app.add_option("--debug-bundle", f.debugBundle,
                   "when the check fails, write a debug bundle (folder, or .tgz) here");
    app.add_flag("--check-every-value", f.checkEveryValue,
                 "also compare every NNEF value with its TorchScript value (each operation fed "
                 "TorchScript's operands) and list the errors in the JSON report");
}

void addExportOptionFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("--input-name", f.inputNames,
                   "NNEF names of the inputs, replacing the --input names (same count)");
    app.add_option("--output-name", f.outputNames, "NNEF names of the outputs (default output_N)");
    app.add_option(
           "--target", f.target,
           "tract, tract@X.Y.Z (default: newest known tract) or khronos (Khronos NNEF 1.0.5)")
        ->capture_default_str();
    app.add_option("--dynamic-axis", f.dynamicAxes,
                   "NAME:AXIS=SYMBOL makes an input axis symbolic, e.g. input:0=B");
    app.add_flag("--weights-q4-0", f.weightsQ4_0,
                 "store Linear, Conv and Embedding weights as tract's Q4_0 blocks (4.5 bits per "
                 "weight, tract >= 0.21.11); the check compares with the model given the "
                 "rounded weights");
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
    app.add_flag("--reify-sdpa", f.reifySdpa,
                 "write the attention of nn.MultiheadAttention and nn.TransformerEncoderLayer as "
                 "one tract_transformers_sdpa (tract 0.22.0 or newer) instead of matmul, softmax, "
                 "matmul");
    app.add_flag("--upsample-with-debox", f.upsampleWithDebox,
                 "write nearest upsampling by whole factors as debox (tract 0.23.0 or newer, "
                 "Khronos) instead of gathers");
    app.add_option("--compute", f.compute,
                   "f16: trace and check the model in f32, write f16 weights and an f16 graph "
                   "(checked at the f16 row of the tolerance level)");
    app.add_flag("--f32-attention", f.f32Attention,
                 "in f16 graphs, attention scores, softmax and weighted sum in f32");
    app.add_flag("--f32-linear-accumulation", f.f32LinearAccumulation,
                 "in f16 graphs, linear and matmul as tract_core_einsum accumulating in f32 "
                 "(tract 0.21.11 or newer)");
    app.add_flag("--f32-norm", f.f32Norm,
                 "in f16 graphs, layer, group, instance and batch norms computed in f32");
}

void addExportCommandFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("-o,--output", f.output,
                   "artifact path ending in .nnef (folder), .nnef.tar or .nnef.tgz");
    app.add_option("--recipe", f.recipe,
                   "export recipe (JSON) giving the model, output and options; flags on the "
                   "command line override its values");
    app.add_option("--save-recipe", f.saveRecipe,
                   "also write the export's recipe (model, output, every option) to FILE; t2n "
                   "export writes it with the artifact, and not at all when the export fails");
    app.add_option("--report", f.report, "write the JSON report to FILE ('-' for stdout)");
    app.add_flag("--no-check", f.noCheck,
                 "do not check the archive against the model (reference interpreter, tract)");
}

namespace {
Error usage(std::string message, std::string hint) {
    return Error(Stage::Load, ErrorCode::Usage, std::move(message), std::move(hint));
}
} // namespace

namespace {
// Sets the options of the flags `given` says were given (all when null).
void apply(const ExportFlags& f, ExportOptions& o, const CLI::App* app) {
    auto given = [app](const char* flag) {
        const CLI::Option* opt = app ? app->get_option_no_throw(flag) : nullptr;
        return !app || (opt && opt->count() > 0);
    };
    if (given("--input")) {
        o.inputs.clear();
        for (const auto& s : f.inputs)
            o.inputs.push_back(InputSpec::parse(s));
    }
    if (given("--input-name"))
        o.inputNames = f.inputNames;
    if (given("--output-name"))
        o.outputNames = f.outputNames;
    if (given("--target"))
        o.target = TargetSpec::parse(f.target);
    if (given("--dynamic-axis")) {
        o.dynamicAxes.clear();
        for (const auto& s : f.dynamicAxes)
            o.dynamicAxes.push_back(DynamicAxis::parse(s));
    }
    if (given("--property"))
        o.properties.clear();
    for (const auto& p : given("--property") ? f.properties : std::vector<std::string>{}) {
        auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0)
            throw usage(fmt::format("bad property '{}'", p), "write KEY=VALUE");
        o.properties.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
    if (given("--no-identity-properties"))
        o.identityProperties = !f.noIdentityProperties;
    if (given("--date-property"))
        o.stampExportDate = f.dateProperty;
    auto naming = parseNamingScheme(f.naming);
    if (!naming)
        throw usage(fmt::format("unknown naming scheme '{}'", f.naming),
                    "use raw, natural_verbose, natural_verbose_camel or numeric");
    if (given("--naming"))
        o.naming = *naming;
    if (!given("--compression")) {
    } else if (f.compression == "none") {
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
    if (given("--no-check-io-names"))
        o.checkIoNamesQuantityMatch = !f.noCheckIoNames;
    if (given("--allow-same-io-names"))
        o.allowSameIoNames = f.allowSameIoNames;
    if (given("--extension"))
        o.customExtensions = f.extensions;
    if (given("--reify-sdpa"))
        o.reifySdpa = f.reifySdpa;
    if (given("--upsample-with-debox"))
        o.upsampleWithDebox = f.upsampleWithDebox;
    // Empty: a command without the flag (inspect, check) or not given.
    if (given("--compute") && !f.compute.empty()) {
        if (f.compute != "f16" && f.compute != "f32")
            throw usage(fmt::format("--compute {} is not a compute type", f.compute),
                        "use f16 (an f16 graph from an f32 model), or f32 (the model's own)");
        o.compute = f.compute == "f16" ? std::optional<DType>(DType::F16) : std::nullopt;
    }
    if (given("--f32-attention"))
        o.f32Attention = f.f32Attention;
    if (given("--f32-linear-accumulation"))
        o.f32LinearAccumulation = f.f32LinearAccumulation;
    if (given("--f32-norm"))
        o.f32Norm = f.f32Norm;
    auto level = parseLogLevel(f.logLevel);
    if (!level)
        throw usage(fmt::format("unknown log level '{}'", f.logLevel),
                    "use trace, debug, info, warn, error or off");
    if (given("--log-level"))
        o.logLevel = *level;
    if (given("--seed"))
        o.seed = f.seed;
    if (given("--no-check"))
        o.check = !f.noCheck;
    if (given("--tolerance"))
        o.checkTolerance = f.tolerance;
    if (given("--check-every-value"))
        o.checkEveryValue = f.checkEveryValue;
    if (given("--weights-q4-0"))
        o.weightsQ4_0 = f.weightsQ4_0;
    if (given("--tract-bin"))
        o.tractBinary = f.tractBin;
    if (given("--debug-bundle"))
        o.debugBundle = f.debugBundle;
}
} // namespace

ExportOptions toOptions(const ExportFlags& f) {
    ExportOptions o;
    apply(f, o, nullptr);
    return o;
}

ExportOptions applyGivenFlags(const ExportFlags& f, ExportOptions base, const CLI::App& app) {
    apply(f, base, &app);
    return base;
}

ExportRecipe resolveRecipe(const ExportFlags& f, const CLI::App& app) {
    ExportRecipe r;
    if (!f.recipe.empty())
        r = loadRecipe(f.recipe);
    r.options = applyGivenFlags(f, r.options, app);
    if (!f.model.empty())
        r.model = f.model;
    if (!f.output.empty())
        r.output = f.output;
    return r;
}

std::filesystem::path failedRecipePath(const std::filesystem::path& target) {
    namespace fs = std::filesystem;
    fs::path state;
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg == '/')
        state = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home == '/')
        state = fs::path(home) / ".local" / "state";
    else
        return {};
    fs::path p = target;
    if (!p.has_filename()) // "out.nnef/"
        p = p.parent_path();
    std::error_code ec;
    const std::string where = fs::absolute(p, ec).lexically_normal().string();
    return state / "t2n" / "failed" /
           fmt::format("{}-{:08x}.recipe.json", p.filename().string(),
                       static_cast<uint32_t>(std::hash<std::string>{}(where)));
}

std::string studioCommand(const std::filesystem::path& path) {
    const std::string s = path.string();
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./,:=+-@%", c);
    });
    if (plain)
        return "t2n-studio " + s;
    std::string quoted = "'";
    for (char c : s)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "t2n-studio " + quoted + "'";
}

} // namespace t2n::cli
