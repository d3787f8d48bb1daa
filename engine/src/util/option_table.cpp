// The option table: one row per ExportOptions field (HardenOptions' fields
// as "harden.*"), in the order of the recipe's keys.
//
// To add an export option:
//   1. the field in ExportOptions (t2n/options.h), with a comment saying why;
//   2. one row below: field name, recipe key, flag, value name, help, form
//      label (empty: not on the form) and the stage that reads it. A bool, a
//      string or a list of strings is switchRow / oneRow / manyRow (see
//      util/option_codecs.h), which fill in the arity and the accessors; any
//      other type gives its arity and JSON and text accessors itself;
//   3. the stage that reads the field.
// The recipe, every command's flags and --help, and the studio's form then
// have it; tests/cli/tst_option_table.cpp checks that the row round-trips
// (give the field a value in tests/every_option.h). See docs/adding-an-option.md.
#include "t2n/option_table.h"

#include "util/option_codecs.h"

#include <fmt/format.h>

#include <array>
#include <charconv>

// A row names only what the option has (no flag, no form label ...); the
// rest keep OptionRow's empty defaults, which GCC 12 still warns about for
// designated initializers.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace t2n {

using namespace t2n::options;
using json::bad;
using json::Json;
using O = ExportOptions;

namespace {

// --compression's text: none (a folder), or a level from 0 (.tar) to 9.
std::optional<int> compressionFromText(const std::string& text) {
    if (text == "none")
        return std::nullopt;
    int level = -1;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, level);
    if (ec != std::errc() || ptr != end || level < 0 || level > 9)
        throw usage(fmt::format("bad compression level '{}'", text), "use none, or 0 to 9");
    return level;
}

const std::array kRows{
    OptionRow{
        .name = "inputs",
        .jsonKey = "inputs",
        .cliFlag = "-i,--input",
        .arity = OptionArity::Many,
        .valueName = "NAME:SHAPE:DTYPE",
        .help = "one per forward() argument, in order: NAME:SHAPE:DTYPE, e.g. "
                "input:1x3x224x224:f32 (dtypes f32 f16 f64 i64 i32 i16 i8 u8 bool; "
                "floats are random N(0,1), integers random in [0, 10)); values that matter "
                "inline: lengths:1:i64=60 (one for all elements), ids:1x4:i64=[3,1,4,1] "
                "(one per element), ids:1x16:i64=0..999 (random integers in a range); or from "
                "a file: NAME=@FILE.npy, NAME=@FILE.npz#MEMBER, NAME=@FILE.pt (shape and dtype "
                "from the file). Without any --input, t2n proposes the inputs from the model "
                "and prints the flags that repeat them",
        .label = "Inputs",
        .stage = OptionStage::Load,
        .toJson = inputsJson,
        .fromJson = inputsFromJson,
        .toText = inputsText,
        .fromText = inputsFromText,
    },
    namesRow<&O::inputNames>({
        .name = "inputNames",
        .jsonKey = "input_names",
        .cliFlag = "--input-name",
        .valueName = "NAME",
        .help = "NNEF names of the inputs, replacing the --input names (same count)",
        .stage = OptionStage::Translate,
    }),
    namesRow<&O::outputNames>({
        .name = "outputNames",
        .jsonKey = "output_names",
        .cliFlag = "--output-name",
        .valueName = "NAME",
        .help = "NNEF names of the outputs (default output_N)",
        .label = "Output names",
        .stage = OptionStage::Translate,
    }),
    OptionRow{
        .name = "target",
        .jsonKey = "target",
        .cliFlag = "--target",
        .arity = OptionArity::One,
        .valueName = "TARGET",
        .help = "tract, tract@X.Y.Z (default: newest known tract) or khronos (Khronos NNEF 1.0.5)",
        .label = "Target",
        .stage = OptionStage::Translate,
        // Unpinned targets keep their bare name: such recipes follow the newest tract.
        .toJson = [](const O& o) { return Json(o.target.toString(/*resolveDefault=*/false)); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                o.target = json::parsed(p, [&] { return TargetSpec::parse(json::str(j, p)); });
            },
        .toText = [](const O& o) { return Texts{o.target.toString(false)}; },
        .fromText = [](O& o, const Texts& v) { o.target = TargetSpec::parse(v.at(0)); },
    },
    OptionRow{
        .name = "dynamicAxes",
        .jsonKey = "dynamic_axes",
        .cliFlag = "--dynamic-axis",
        .arity = OptionArity::Many,
        .valueName = "NAME:AXIS=SYMBOL[:RULE]",
        .help = "NAME:AXIS=SYMBOL makes an input axis symbolic, e.g. input:0=B; "
                "x:2=H:multiple-of=32,min=64 also gives the sizes it accepts (the check's second "
                "size is one of them; without a rule, t2n infers it from the graph)",
        .label = "Dynamic axes (checked at two sizes on export)",
        .stage = OptionStage::Translate,
        .toJson = dynamicAxesJson,
        .fromJson = dynamicAxesFromJson,
        .toText = dynamicAxesText,
        .fromText = dynamicAxesFromText,
    },
    OptionRow{
        .name = "properties",
        .jsonKey = "properties",
        .cliFlag = "--property",
        .arity = OptionArity::Many,
        .valueName = "KEY=VALUE",
        .help = "KEY=VALUE added to tract_core_properties",
        .label = "tract properties",
        .stage = OptionStage::Write,
        .toJson = propertiesJson,
        .fromJson = propertiesFromJson,
        .toText = propertiesText,
        .fromText = propertiesFromText,
    },
    switchRow<&O::identityProperties, false>({
        .name = "identityProperties",
        .jsonKey = "identity_properties",
        .cliFlag = "--no-identity-properties",
        .help = "leave os, hostname and user out of tract_core_properties",
        .label = "write os, hostname and user into tract_core_properties",
        .stage = OptionStage::Write,
    }),
    switchRow<&O::stampExportDate, true>({
        .name = "stampExportDate",
        .jsonKey = "stamp_export_date",
        .cliFlag = "--date-property",
        .help = "add export_date to tract_core_properties (the archive then differs per run)",
        .stage = OptionStage::Write,
    }),
    OptionRow{
        .name = "naming",
        .jsonKey = "naming",
        .cliFlag = "--naming",
        .arity = OptionArity::One,
        .valueName = "SCHEME",
        .help = "raw, natural_verbose, natural_verbose_camel or numeric",
        .label = "Naming",
        .stage = OptionStage::Translate,
        .toJson = [](const O& o) { return Json(std::string(namingSchemeName(o.naming))); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                auto n = parseNamingScheme(json::str(j, p));
                if (!n)
                    throw bad(p, fmt::format("'{}' is not a naming scheme", j.get<std::string>()),
                              "use raw, natural_verbose, natural_verbose_camel or numeric");
                o.naming = *n;
            },
        .toText = [](const O& o) { return Texts{std::string(namingSchemeName(o.naming))}; },
        .fromText =
            [](O& o, const Texts& v) {
                auto n = parseNamingScheme(v.at(0));
                if (!n)
                    throw usage(fmt::format("unknown naming scheme '{}'", v.at(0)),
                                "use raw, natural_verbose, natural_verbose_camel or numeric");
                o.naming = *n;
            },
    },
    switchRow<&O::checkIoNamesQuantityMatch, false>({
        .name = "checkIoNamesQuantityMatch",
        .jsonKey = "check_io_names_quantity_match",
        .cliFlag = "--no-check-io-names",
        .help = "allow fewer output names than outputs and inputs that reach no output",
        .stage = OptionStage::Translate,
    }),
    switchRow<&O::allowSameIoNames, true>({
        .name = "allowSameIoNames",
        .jsonKey = "allow_same_io_names",
        .cliFlag = "--allow-same-io-names",
        .help = "allow an output named like an input (a pass-through output)",
        .stage = OptionStage::Translate,
    }),
    manyRow<&O::customExtensions>({
        .name = "customExtensions",
        .jsonKey = "custom_extensions",
        .cliFlag = "--extension",
        .valueName = "TEXT",
        .help = "extra 'extension' line, e.g. \"tract_assert B >= 1\"",
        .stage = OptionStage::Translate,
    }),
    switchRow<&O::reifySdpa, true>({
        .name = "reifySdpa",
        .jsonKey = "reify_sdpa",
        .cliFlag = "--reify-sdpa",
        .help = "write the attention of nn.MultiheadAttention and nn.TransformerEncoderLayer as "
                "one tract_transformers_sdpa (tract 0.22.0 or newer) instead of matmul, softmax, "
                "matmul",
        .label = "attention as one tract_transformers_sdpa (tract 0.22.0 or newer)",
        .stage = OptionStage::Translate,
    }),
    switchRow<&O::upsampleWithDebox, true>({
        .name = "upsampleWithDebox",
        .jsonKey = "upsample_with_debox",
        .cliFlag = "--upsample-with-debox",
        .help = "write nearest upsampling by whole factors as debox (tract 0.23.0 or newer, "
                "Khronos) instead of gathers",
        .label = "nearest upsampling by whole factors as debox (tract 0.23.0 or newer)",
        .stage = OptionStage::Translate,
    }),
    OptionRow{
        .name = "compute",
        .jsonKey = "compute",
        .cliFlag = "--compute",
        .arity = OptionArity::One,
        .valueName = "TYPE",
        .help = "f16: trace and check the model in f32, write f16 weights and an f16 graph "
                "(checked at the f16 row of the tolerance level)",
        .label = "Compute",
        .stage = OptionStage::Translate,
        .toJson = [](const O& o) { return o.compute ? Json(dtypeName(*o.compute)) : Json(); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                if (j.is_null()) {
                    o.compute.reset();
                    return;
                }
                const std::string name = json::str(j, p);
                if (name != "f16")
                    throw bad(p, fmt::format("'{}' is not a compute type", name),
                              "use \"f16\", or null for the model's own types");
                o.compute = DType::F16;
            },
        .toText = [](const O& o) { return Texts{o.compute ? "f16" : ""}; },
        .fromText =
            [](O& o, const Texts& v) {
                // Empty: left out (the model's own types).
                const std::string& c = v.at(0);
                if (c.empty())
                    return;
                if (c != "f16" && c != "f32")
                    throw usage(fmt::format("--compute {} is not a compute type", c),
                                "use f16 (an f16 graph from an f32 model), or f32 (the model's "
                                "own)");
                o.compute = c == "f16" ? std::optional<DType>(DType::F16) : std::nullopt;
            },
    },
    switchRow<&O::f32Attention, true>({
        .name = "f32Attention",
        .jsonKey = "f32_attention",
        .cliFlag = "--f32-attention",
        .help = "in f16 graphs, attention scores, softmax and weighted sum in f32",
        .label = "attention in f32 inside f16 graphs",
        .stage = OptionStage::Translate,
    }),
    switchRow<&O::f32LinearAccumulation, true>({
        .name = "f32LinearAccumulation",
        .jsonKey = "f32_linear_accumulation",
        .cliFlag = "--f32-linear-accumulation",
        .help = "in f16 graphs, linear and matmul as tract_core_einsum accumulating in f32 "
                "(tract 0.21.11 or newer)",
        .label = "linear and matmul accumulate in f32 inside f16 graphs (tract 0.21.11 or newer)",
        .stage = OptionStage::Translate,
    }),
    switchRow<&O::f32Norm, true>({
        .name = "f32Norm",
        .jsonKey = "f32_norm",
        .cliFlag = "--f32-norm",
        .help = "in f16 graphs, layer, group, instance and batch norms computed in f32",
        .label = "norms in f32 inside f16 graphs",
        .stage = OptionStage::Translate,
    }),
    OptionRow{
        .name = "compressionLevel",
        .jsonKey = "compression_level",
        .cliFlag = "--compression",
        .arity = OptionArity::One,
        .valueName = "LEVEL",
        .help = "none (folder), 0 (.tar, or .tgz stored when the path says .tgz) or 1-9 (.tgz)",
        .label = "Archive",
        .stage = OptionStage::Write,
        .toJson =
            [](const O& o) { return o.compressionLevel ? Json(*o.compressionLevel) : Json(); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                if (j.is_null()) {
                    o.compressionLevel.reset();
                    return;
                }
                const int64_t level = json::integer(j, p);
                if (level < 0 || level > 9)
                    throw bad(p, fmt::format("is {}", level), "use null (folder), or 0 to 9");
                o.compressionLevel = static_cast<int>(level);
            },
        .toText =
            [](const O& o) {
                return Texts{o.compressionLevel ? std::to_string(*o.compressionLevel) : "none"};
            },
        .fromText = [](O& o, const Texts& v) { o.compressionLevel = compressionFromText(v.at(0)); },
    },
    OptionRow{
        .name = "logLevel",
        .jsonKey = "log_level",
        .cliFlag = "--log-level",
        .arity = OptionArity::One,
        .valueName = "LEVEL",
        .help = "trace, debug, info, warn, error or off",
        .stage = OptionStage::Load,
        .toJson = [](const O& o) { return Json(std::string(logLevelName(o.logLevel))); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                auto l = parseLogLevel(json::str(j, p));
                if (!l)
                    throw bad(p, fmt::format("'{}' is not a log level", j.get<std::string>()),
                              "use trace, debug, info, warn, error or off");
                o.logLevel = *l;
            },
        .toText = [](const O& o) { return Texts{std::string(logLevelName(o.logLevel))}; },
        .fromText =
            [](O& o, const Texts& v) {
                auto l = parseLogLevel(v.at(0));
                if (!l)
                    throw usage(fmt::format("unknown log level '{}'", v.at(0)),
                                "use trace, debug, info, warn, error or off");
                o.logLevel = *l;
            },
    },
    // The hardening options sit in the recipe's "harden" object. `t2n export`
    // has no flags for them; `t2n harden` has its own (--no-freeze, --skip,
    // --step), which set them for that command only.
    OptionRow{
        .name = "harden.freeze",
        .jsonKey = "harden.freeze",
        .help = "try torch::jit::freeze_module first (fallback: inline_unresolvable_submodules)",
        .label = "freeze the module first (fallback: inline calls)",
        .stage = OptionStage::Harden,
        .toJson = [](const O& o) { return Json(o.harden.freeze); },
        .fromJson = [](O& o, const Json& j,
                       const std::string& p) { o.harden.freeze = json::boolean(j, p); },
    },
    OptionRow{
        .name = "harden.skip",
        .jsonKey = "harden.skip",
        .help = "hardening passes not to run",
        .label = "Passes",
        .stage = OptionStage::Harden,
        .toJson =
            [](const O& o) { return Json(Texts(o.harden.skip.begin(), o.harden.skip.end())); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                auto names = json::strings(j, p);
                o.harden.skip = std::set<std::string>(names.begin(), names.end());
            },
    },
    OptionRow{
        .name = "harden.rewriteLimit",
        .jsonKey = "harden.rewrite_limit",
        .help = "stop after this many rewrites in total (null: no limit)",
        .stage = OptionStage::Harden,
        .toJson =
            [](const O& o) {
                return o.harden.rewriteLimit ? Json(*o.harden.rewriteLimit) : Json();
            },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                if (j.is_null())
                    o.harden.rewriteLimit.reset();
                else
                    o.harden.rewriteLimit = json::counted(j, p, INT64_MAX);
            },
    },
    OptionRow{
        .name = "harden.snapshots",
        .jsonKey = "harden.snapshots",
        .help = "keep the graph text after every pass",
        .stage = OptionStage::Harden,
        .toJson = [](const O& o) { return Json(o.harden.snapshots); },
        .fromJson = [](O& o, const Json& j,
                       const std::string& p) { o.harden.snapshots = json::boolean(j, p); },
    },
    OptionRow{
        .name = "harden.maxRounds",
        .jsonKey = "harden.max_rounds",
        .help = "the folding passes repeat until a round changes nothing, at most this often",
        .stage = OptionStage::Harden,
        .toJson = [](const O& o) { return Json(o.harden.maxRounds); },
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                o.harden.maxRounds = static_cast<int>(json::counted(j, p, 1 << 20));
            },
    },
    switchRow<&O::check, false>({
        .name = "check",
        .jsonKey = "check",
        .cliFlag = "--no-check",
        .help = "do not check the archive against the model (reference interpreter, tract)",
        .label = "check the archive against the model",
        .stage = OptionStage::Check,
    }),
    oneRow<&O::checkTolerance>({
        .name = "checkTolerance",
        .jsonKey = "check_tolerance",
        .cliFlag = "--tolerance",
        .valueName = "LEVEL",
        .help = "check tolerance: exact, close, approximate, very, super, ultra, allclose, "
                "custom:ATOL,RTOL,OUTLIERS (allclose: torch.allclose's defaults, as "
                "torch_to_nnef checks Khronos archives)",
        .label = "Tolerance",
        .stage = OptionStage::Check,
    }),
    switchRow<&O::checkEveryValue, true>({
        .name = "checkEveryValue",
        .jsonKey = "check_every_value",
        .cliFlag = "--check-every-value",
        .help = "also compare every NNEF value with its TorchScript value (each operation fed "
                "TorchScript's operands) and list the errors in the JSON report",
        .label = "compare every value, each op fed TorchScript's operands (colours the graph by "
                 "error)",
        .stage = OptionStage::Check,
    }),
    switchRow<&O::weightsQ4_0, true>({
        .name = "weightsQ4_0",
        .jsonKey = "weights_q4_0",
        .cliFlag = "--weights-q4-0",
        .help = "store Linear, Conv and Embedding weights as tract's Q4_0 blocks (4.5 bits per "
                "weight, tract >= 0.21.11); the check compares with the model given the "
                "rounded weights",
        .label = "store Linear, Conv and Embedding weights as Q4_0 (4.5 bits, tract >= 0.21.11)",
        .stage = OptionStage::Translate,
    }),
    oneRow<&O::tractBinary>({
        .name = "tractBinary",
        .jsonKey = "tract_binary",
        .cliFlag = "--tract-bin",
        .valueName = "FILE",
        .help = "tract binary for the check (default: $T2N_TRACT_BIN, then tract on PATH); "
                "never taken from a recipe: recipes name no program to run",
        .stage = OptionStage::Check,
    }),
    oneRow<&O::debugBundle>({
        .name = "debugBundle",
        .jsonKey = "debug_bundle",
        .cliFlag = "--debug-bundle",
        .valueName = "PATH",
        .help = "when the check fails, write a debug bundle (folder, or .tgz) here",
        .stage = OptionStage::Check,
    }),
    OptionRow{
        .name = "seed",
        .jsonKey = "seed",
        .cliFlag = "--seed",
        .arity = OptionArity::One,
        .valueName = "UINT",
        .help = "seed of the random example inputs",
        .label = "Random input seed",
        .stage = OptionStage::Load,
        .toJson = plainJson<&O::seed>,
        .fromJson =
            [](O& o, const Json& j, const std::string& p) {
                if (!j.is_number_unsigned())
                    throw bad(p,
                              fmt::format("is {}, expected a non-negative integer", j.type_name()),
                              "write a whole number without quotes");
                o.seed = j.get<uint64_t>();
            },
        .toText = [](const O& o) { return Texts{std::to_string(o.seed)}; },
        .fromText =
            [](O& o, const Texts& v) {
                // Digits only: "-1" must not wrap around to 2^64-1.
                const std::string& s = v.at(0);
                uint64_t seed = 0;
                auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), seed);
                if (s.empty() || ec != std::errc() || ptr != s.data() + s.size())
                    throw usage(fmt::format("--seed: '{}' is not a non-negative integer", s),
                                "give the seed as digits, e.g. --seed 7");
                o.seed = seed;
            },
    },
};

constexpr std::array kStages{OptionStage::Load, OptionStage::Harden, OptionStage::Translate,
                             OptionStage::Write, OptionStage::Check};
} // namespace

std::string_view optionStageName(OptionStage stage) {
    switch (stage) {
    case OptionStage::Load:
        return "load";
    case OptionStage::Harden:
        return "harden";
    case OptionStage::Translate:
        return "translate";
    case OptionStage::Write:
        return "write";
    case OptionStage::Check:
        return "check";
    }
    return "?";
}

std::span<const OptionStage> optionStages() {
    return kStages;
}

std::span<const OptionRow> exportOptionTable() {
    return kRows;
}

const OptionRow* findOption(std::string_view name) {
    for (const auto& row : kRows)
        if (row.name == name)
            return &row;
    return nullptr;
}

} // namespace t2n
