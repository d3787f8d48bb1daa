// Target Khronos NNEF 1.0.5 (torch_to_nnef's KhronosNNEF): standard
// operations only, no extensions but KHR_*, no tract_core_properties, no
// nested-array tensor literals (reference/nnef-and-tract.md §1, §6).
// Lowerings write tract spellings where tract needs them; finishDocument()
// turns those with a standard equivalent into it (tract_core_external ->
// external, tract_core_cast -> cast, tract_core_gather -> gather, recip ->
// rcp, square -> sqr) and refuses the rest, naming the IR node behind each.
#pragma once

#include "target/inference_target.h"

namespace t2n::target {

class KhronosTarget final : public InferenceTarget {
public:
    TargetKind kind() const override { return TargetKind::Khronos; }
    std::string displayName() const override;
    bool has(std::string_view) const override { return false; }
    std::string_view replicateBorder() const override { return "replicate"; }
    bool inlineTensorLiterals() const override { return false; }
    const std::string& versionWarning() const override { return noWarning_; }

    /// Refuses dynamic axes (tract symbols), user properties
    /// (tract_core_properties) and custom extensions that are not KHR_*.
    void checkOptions(const ExportOptions& options) const override;
    void finishDocument(nnef::Document& doc, const ir::Graph& graph, const ExportOptions& options,
                        const PropertyContext& props,
                        std::vector<std::string>& warnings) const override;
    /// Every operation standard or a declared fragment, only KHR_* extension
    /// lines, no tract_ operation anywhere in the text.
    void checkDocument(const nnef::Document& doc, const std::string& text,
                       bool allowSameIoNames) const override;

private:
    std::string noWarning_;
};

/// The standard spelling of a tract operation t2n emits, or "" when Khronos
/// NNEF has none (then only tract can run it).
std::string_view standardEquivalent(std::string_view tractOp);

} // namespace t2n::target
