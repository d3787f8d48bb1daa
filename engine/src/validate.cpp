// The front of the write protocol (t2n/outputs.h): everything about an
// export request that can be refused without running the model is refused
// before any work, so that a bad option never costs a translation and never
// reaches a stage that writes.
#include "t2n/session.h"

#include "archive/archive_writer.h"
#include "check/compare.h"
#include "check/debug_bundle.h"
#include "target/inference_target.h"
#include "util/memory_limits.h"
#include "util/name_limits.h"

#include <fmt/format.h>

namespace t2n {

void validateOptions(const ExportOptions& options) {
    util::checkNameLengths(options);
    util::checkOptionPaths(options);
    // Parsed here as the check would parse it (Error: Check, Usage).
    check::Tolerance::parse(options.checkTolerance);
    for (size_t i = 0; i < options.dynamicAxes.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const DynamicAxis& a = options.dynamicAxes[j];
            const DynamicAxis& b = options.dynamicAxes[i];
            if (a.tensor == b.tensor && a.axis == b.axis && a.symbol != b.symbol)
                throw Error(Stage::Load, ErrorCode::InvalidOption,
                            fmt::format("dynamic axis {} of '{}' is given twice, as {} and as {}",
                                        a.axis, a.tensor, a.symbol, b.symbol),
                            "give each axis one symbol");
        }
    std::vector<util::ExampleShape> shapes;
    bool allShapesKnown = true;
    for (const auto& s : options.inputs) {
        if (!s.valuesFile.empty()) {
            allShapesKnown = false;
            continue;
        }
        util::checkedTensorBytes(s.shape, s.dtype, Stage::Load, fmt::format("input '{}'", s.name));
        shapes.push_back({s.name, s.shape});
    }
    if (allShapesKnown)
        util::checkExamplesHaveData(shapes);
    if (options.compute && *options.compute != DType::F16)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("compute type {} is not supported", dtypeName(*options.compute)),
                    "use f16 (an f16 graph from an f32 model), or none for the model's own types");
    // What the target cannot honour (a graph option or a .dat type this tract
    // lacks, --reify-sdpa or Q4_0 for Khronos, symbols for Khronos) is known
    // from the options alone; the translation asks the same again.
    target::makeTarget(options.target)->checkOptions(options);
    if (options.harden.maxRounds < 0)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("the hardening round limit is {}", options.harden.maxRounds),
                    "give a number of rounds >= 0");
    if (options.harden.rewriteLimit && *options.harden.rewriteLimit < 0)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("the rewrite limit is {}", *options.harden.rewriteLimit),
                    "give a number of rewrites >= 0, or none");
}

Artifact validateExport(const std::filesystem::path& output, const ExportOptions& options,
                        const std::vector<std::filesystem::path>& protect) {
    util::checkPathText(output.native(), "output path", Stage::Write, ErrorCode::OutputPath);
    for (const auto& p : protect)
        util::checkPathText(p.native(), "path");
    validateOptions(options);
    const Artifact artifact = resolveArtifact(output, options.compressionLevel);
    std::vector<std::filesystem::path> inputs = protect;
    for (const auto& s : options.inputs)
        if (!s.valuesFile.empty())
            inputs.emplace_back(s.valuesFile);
    archive::checkArtifactDestination(artifact, inputs);
    if (options.check && !options.debugBundle.empty()) {
        inputs.push_back(artifact.path);
        check::checkDebugBundleDestination(options.debugBundle, inputs);
    }
    return artifact;
}

void validateCheck(const ExportOptions& options,
                   const std::vector<std::filesystem::path>& protect) {
    validateOptions(options);
    if (!options.debugBundle.empty())
        check::checkDebugBundleDestination(options.debugBundle, protect);
}

} // namespace t2n
