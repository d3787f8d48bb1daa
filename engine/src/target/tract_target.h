// Target tract (TractNNEF): its version, the rules that depend on it, and
// the quirks of its NNEF reader (reference/nnef-and-tract.md §2 and §6).
#pragma once

#include "nnef/document.h"
#include "t2n/options.h"
#include "target/inference_target.h"
#include "target/tract_versions.h"

#include <string>
#include <string_view>

namespace t2n::target {

class TractTarget final : public InferenceTarget {
public:
    explicit TractTarget(const TargetSpec& spec);

    TargetKind kind() const override { return TargetKind::Tract; }
    std::string displayName() const override { return "tract"; }
    const SemVer& version() const { return version_; }
    bool has(std::string_view what) const override { return target::tractHas(what, version_); }
    /// A warning when the version is not one t2n has rules for; else empty.
    const std::string& versionWarning() const override { return versionWarning_; }

    /// tract spells the spec's 'replicate' border 'replicated'.
    std::string_view replicateBorder() const override { return "replicated"; }
    /// tract reads nested-array tensor literals (reference §2.2).
    bool inlineTensorLiterals() const override { return true; }
    /// Refuses a graph option (--reify-sdpa, --upsample-with-debox) whose
    /// operation this tract version lacks, naming the version that has it.
    void checkOptions(const ExportOptions& options) const override;
    /// tract_core_properties, then the registries the document uses.
    void finishDocument(nnef::Document& doc, const ir::Graph& graph, const ExportOptions& options,
                        const PropertyContext& props,
                        std::vector<std::string>& warnings) const override;

    /// Adds `extension tract_registry X;` for each registry whose operations
    /// the body uses, and nothing else.
    void declareRegistries(nnef::Document& doc) const;

    /// Throws t2n::Error (Translate, Internal) when the document breaks a tract
    /// rule: forbidden operations (rcp, split, constant), template markers
    /// ({{ {% {#) anywhere in the text, dot-prefixed label components, or a
    /// graph output that is also an input (unless the user allowed it).
    void checkDocument(const nnef::Document& doc, const std::string& text,
                       bool allowSameIoNames) const override;

private:
    SemVer version_;
    std::string versionWarning_;
};

/// A property value as the text between the double quotes of its string
/// literal: newlines become spaces, both quotes and the backslash are escaped
/// with a backslash (tract's string literal admits neither quote unescaped:
/// a '"' once written as '\'' made tract refuse the whole archive), and
/// {{ {% {# (tract's template pass) are split.
std::string sanitizePropertyValue(std::string_view v);

} // namespace t2n::target
