// What the translator asks of an inference target (torch_to_nnef's
// InferenceTarget): which operation variants lowerings may pick, how small
// tensors are written, and what happens to the document once every node is
// lowered (extension lines, properties, the target's own rules). TractTarget
// and KhronosTarget implement it; makeTarget() picks one from a TargetSpec.
#pragma once

#include "nnef/document.h"
#include "t2n/ir.h"
#include "t2n/options.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::target {

/// Facts about the export that end up in the archive's metadata.
struct PropertyContext {
    std::string torchVersion;
    std::string modelFile; ///< file name of the exported TorchScript model
};

class InferenceTarget {
public:
    virtual ~InferenceTarget() = default;

    virtual TargetKind kind() const = 0;
    bool isKhronos() const { return kind() == TargetKind::Khronos; }
    /// "tract" or "Khronos NNEF 1.0.5", for messages.
    virtual std::string displayName() const = 0;

    /// True when lowerings may use `what`, an operation or parameter of
    /// tract's that the version table (nnef/tract_versions.h) limits to some
    /// versions ("tract_core_log_softmax", "tract_core_scatter_nd:reduction"):
    /// never for Khronos, whose lowerings then take their spelled-out
    /// standard form or refuse.
    virtual bool has(std::string_view what) const = 0;
    /// tract reads `inf` and `-inf` as numeric literals since 0.20.19 (its
    /// nnef crate's numeric_literal); Khronos NNEF has no such literal.
    bool readsInfinityLiterals() const { return has("literal:inf"); }
    /// The border name of the spec's 'replicate' padding.
    virtual std::string_view replicateBorder() const = 0;
    /// Whether small non-parameter tensors may be written as nested-array
    /// literals (tract) or need a `constant` operation (Khronos' flat grammar).
    virtual bool inlineTensorLiterals() const = 0;
    /// A warning about the requested version; empty when there is none.
    virtual const std::string& versionWarning() const = 0;

    /// Refuses, before any lowering, export options the target cannot honour
    /// (throws t2n::Error, InvalidOption).
    virtual void checkOptions(const ExportOptions& options) const = 0;
    /// After lowering: rewrites operations into the target's spelling, adds
    /// extension lines and properties. Throws t2n::Error (Translate,
    /// Unsupported) naming each IR node whose operations the target lacks.
    virtual void finishDocument(nnef::Document& doc, const ir::Graph& graph,
                                const ExportOptions& options, const PropertyContext& props,
                                std::vector<std::string>& warnings) const = 0;
    /// Throws t2n::Error (Translate, Internal) when the printed document
    /// breaks one of the target's rules: a bug in t2n, not in the model.
    virtual void checkDocument(const nnef::Document& doc, const std::string& text,
                               bool allowSameIoNames) const = 0;
};

/// Throws t2n::Error (Translate, InvalidOption) for a tract version too old.
std::unique_ptr<InferenceTarget> makeTarget(const TargetSpec& spec);

} // namespace t2n::target
