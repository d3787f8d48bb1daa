// Every knob of an export, mirroring torch_to_nnef's export_model_to_nnef and
// TractNNEF options (seed 000) where they exist there.
#pragma once

#include "t2n/harden.h"
#include "t2n/input_spec.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace t2n {

/// How NNEF identifiers of intermediate values are chosen. Graph inputs and
/// outputs keep their given names, variables are named after their label.
enum class NamingScheme {
    Raw,                 ///< TorchScript debug names, sanitized (input_3, v9)
    NaturalVerbose,      ///< module path and operator: layer1_0_conv1__conv
    NaturalVerboseCamel, ///< the same in camelCase: layer1_0Conv1Conv
    Numeric,             ///< v0, v1, v2 ... in emission order
};
std::string_view namingSchemeName(NamingScheme s);
std::optional<NamingScheme> parseNamingScheme(std::string_view name);

enum class LogLevel { Trace, Debug, Info, Warn, Error, Off };
std::optional<LogLevel> parseLogLevel(std::string_view name);
std::string_view logLevelName(LogLevel l);

/// Who reads the archive: tract (with its extensions), or any consumer of the
/// Khronos NNEF 1.0.5 standard (standard operations only).
enum class TargetKind { Tract, Khronos };

/// The one place that knows how targets are spelled ("tract@0.21.13",
/// "khronos"): front ends list and show targets through parse()/toString().
struct TargetSpec {
    TargetKind kind = TargetKind::Tract;
    /// Tract: empty means the newest version t2n knows (knownTractVersions()).
    /// Khronos: always empty, 1.0.5 is the only version t2n writes.
    std::string version;

    /// "tract", "tract@0.21.13", "khronos" or "khronos@1.0.5". Throws t2n::Error (Usage).
    static TargetSpec parse(std::string_view text);
    /// "tract@0.23.9" or "khronos@1.0.5"; with resolveDefault false an unpinned
    /// target keeps its bare name ("tract", "khronos"), as recipes store it so
    /// that they follow the newest tract t2n knows.
    std::string toString(bool resolveDefault = true) const;
    bool operator==(const TargetSpec&) const = default;
};
/// The Khronos NNEF version t2n writes.
inline constexpr std::string_view kKhronosNnefVersion = "1.0.5";
/// Versions t2n has rules for, oldest first; the last is the default.
const std::vector<std::string>& knownTractVersions();

struct DynamicAxis {
    std::string tensor; ///< an input (or output) name
    int axis = 0;       ///< may be negative
    std::string symbol; ///< e.g. B or S
    /// The sizes the axis accepts, for the check's second size (0: inferred
    /// from the graph): a multiple of `multipleOf`, at least `min`.
    int64_t multipleOf = 0;
    int64_t min = 0;

    /// "NAME:AXIS=SYMBOL", or with the sizes the axis accepts
    /// "NAME:AXIS=SYMBOL:multiple-of=32,min=64". Throws t2n::Error (Usage).
    static DynamicAxis parse(std::string_view text);
    /// The text parse() reads back.
    std::string toString() const;
    /// "multiple-of=32,min=64"; "" when none is given.
    std::string ruleText() const;
    bool operator==(const DynamicAxis&) const = default;
};

struct ExportOptions {
    std::vector<InputSpec> inputs;
    /// Replace the input names of `inputs` when non-empty (same count).
    std::vector<std::string> inputNames;
    /// Names of the graph outputs; default output_0, output_1, ...
    std::vector<std::string> outputNames;
    TargetSpec target;
    std::vector<DynamicAxis> dynamicAxes;
    /// Extra key/values for tract_core_properties, in order.
    std::vector<std::pair<std::string, std::string>> properties;
    /// os, hostname and user in tract_core_properties (torch_to_nnef's
    /// dump_identity_properties). The export date only with stampExportDate,
    /// so that identical inputs give identical bytes by default.
    bool identityProperties = true;
    bool stampExportDate = false;
    NamingScheme naming = NamingScheme::NaturalVerbose;
    /// Refuse to drop graph inputs that do not reach any output.
    bool checkIoNamesQuantityMatch = true;
    bool allowSameIoNames = false;
    /// Appended verbatim as `extension <text>;` after the automatic ones.
    std::vector<std::string> customExtensions;
    /// None: folder; 0: .tar (or .tgz at level 0 when the path says .tgz);
    /// 1-9: .tgz at that gzip level. See resolveArtifact().
    std::optional<int> compressionLevel = 0;
    LogLevel logLevel = LogLevel::Info;
    /// The JIT-only hardening chain (seed 001): freeze, passes to skip, a
    /// rewrite limit to step through it.
    harden::HardenOptions harden;
    /// Check the written artifact against the TorchScript model (torch_to_nnef's
    /// check_io): reference interpreter always, the tract CLI when found.
    bool check = true;
    /// exact, close, approximate, very, super, ultra, custom:ATOL,RTOL,OUTLIERS
    std::string checkTolerance = "approximate";
    /// After the outputs, compare every NNEF value with the TorchScript value
    /// it stands for, each operation fed TorchScript's operands, and report
    /// the error of each (CheckReport::valueErrors). Costs one more run of
    /// both graphs; the studio's error overlay colours nodes with it.
    bool checkEveryValue = false;
    /// tract binary; empty: T2N_TRACT_BIN, then `tract` on PATH.
    std::string tractBinary;
    /// Where to write a debug bundle when the check fails (folder or .tgz).
    std::string debugBundle;
    /// Seed of the random example inputs used for shape recording.
    uint64_t seed = 0;
    /// Store the weights of Linear, Conv and Embedding modules as tract's
    /// Q4_0 blocks (torch_to_nnef's min_max_q4_0_all compression): 4.5 bits
    /// per weight, tract >= 0.21.11. The model is first given the weights the
    /// blocks decode to, so the check compares against the model with one
    /// quantization step applied, as upstream does.
    bool weightsQ4_0 = false;

    // --- graph choices of torch_to_nnef's TractNNEF (reference §1.2) --------
    /// Write the attention t2n lowers (nn.MultiheadAttention's and
    /// nn.TransformerEncoderLayer's fused kernels) as one
    /// tract_transformers_sdpa (tract 0.22.0 or newer) instead of matmul,
    /// softmax, matmul (upstream's reify_sdpa_operator). Off by default,
    /// where upstream 0.23 turns it on for tract > 0.22.0: upstream's own
    /// documentation calls it experimental, tract changed the operation's
    /// semantics since 0.22.0 (mask rank and broadcasting, bool masks, the
    /// causal mask's alignment, rewritten as FlashSDPA in 0.23.6-pre), and
    /// the decomposed form runs in every registry, so that an archive
    /// exported yesterday keeps its bytes unless the option is asked for.
    bool reifySdpa = false;
    /// Write nearest upsampling by integer factors as `debox` (upstream's
    /// upsample_with_debox; a primitive of tract 0.23.0 or newer and of the
    /// Khronos standard) instead of one gather per axis.
    bool upsampleWithDebox = false;

    // --- f16 graphs ----------------------------------------------------------
    /// Beyond upstream: F16 traces and checks the model in f32 (LibTorch 1.13's
    /// CPU lacks f16 kernels for matmul, softmax, norms, convolutions), then
    /// writes every f32 tensor of the graph as f16: weights, inputs, outputs
    /// and intermediate types. The check feeds the archive the f32 example
    /// inputs rounded to f16 and compares with the f32 model at the f16 row of
    /// the tolerance level (as tract does with --allow-float-casts). Empty:
    /// the model's own types. Only F16 is accepted (validateOptions).
    std::optional<DType> compute;
    /// In f16 graphs (the model's own, or --compute f16), upstream's
    /// force_attention_inner_in_f32: attention scores, softmax and the
    /// weighted sum in f32 (tract_transformers_sdpa's acc_datum_type f32).
    bool f32Attention = false;
    /// force_linear_accumulation_in_f32: f16 linear and matmul as
    /// tract_core_einsum with acc 'f32', the result cast back to f16.
    bool f32LinearAccumulation = false;
    /// force_norm_in_f32: layer, group, instance and batch norms computed
    /// in f32 on f16 graphs, the result cast back to f16.
    bool f32Norm = false;

    bool operator==(const ExportOptions&) const = default;
};

} // namespace t2n
