// What an export did, as one JSON document (also what the studio shows).
#pragma once

#include "t2n/artifact.h"
#include "t2n/dtype.h"
#include "t2n/error.h"
#include "t2n/harden.h"

#include <map>
#include <string>
#include <vector>

namespace t2n {

struct StageTiming {
    Stage stage;
    double seconds = 0;
    /// The process's peak resident memory when the stage ended (MiB): the
    /// stage that raised it is where the memory went.
    double peakRssMiB = 0;
};

struct VariableRecord {
    std::string identifier;
    std::string label;
    std::string dtype;
    std::vector<int64_t> shape;
    /// "parameter" (bytes of a model parameter or buffer) or "derived".
    std::string origin;
    /// For derived variables: what they were computed from.
    std::string from;
    /// Over the finite elements, filled by the write stage.
    double min = 0, max = 0, mean = 0;
};

/// The figures of one run's values, over its finite elements.
struct ValueMoments {
    int64_t count = 0;     ///< finite elements
    int64_t nonFinite = 0; ///< NaN and infinite elements
    double min = 0, max = 0, mean = 0, std = 0;
    double kurtosis = 0; ///< fourth standardized moment (normal: 3, uniform: 1.8)
};

/// An output that depends on a random draw (issue 26): its values cannot
/// equal the model's element by element, so shape and dtype are compared
/// exactly and the values by range and moments (check/compare.h,
/// compareDistributions, says how the bounds follow from the element count).
struct DistributionCheck {
    bool applied = false;
    /// The draw it depends on: "aten::rand at model.py:4".
    std::string source;
    /// Independent values the bounds count on: the elements, or fewer when a
    /// smaller draw is broadcast (the smallest draw the output depends on).
    int64_t independent = 0;
    /// False when too few independent values: shape and dtype only.
    bool valuesCompared = false;
    ValueMoments expected, got;
    double meanBound = 0; ///< the largest |mean difference| allowed
    double stdBound = 0;  ///< the largest |std difference| allowed
    /// Elements of one run beyond the other run's [min, max] (the larger of
    /// the two counts), and how many are allowed.
    int64_t outside = 0, outsideAllowed = 0;
    std::string failure; ///< what differs, when the check fails
};

/// One graph output compared with the TorchScript model's.
struct OutputComparison {
    std::string name;
    bool ok = false;
    int64_t elements = 0;
    int64_t mismatches = 0;
    double mismatchRatio = 0;
    double maxAbsError = 0;
    double maxRelError = 0;
    std::vector<int64_t> worstIndex;
    double expected = 0, got = 0; ///< values at the worst index
    std::string note;             ///< shape or dtype mismatch, ...
    /// A quantized output (or one dequantized from a quantized tensor): its
    /// quantization step and the error counted in steps. 0 otherwise.
    double quantStep = 0;
    double maxErrorSteps = 0; ///< max abs error / quantStep
    int64_t offByOne = 0;     ///< elements one step from the model's
    int64_t offByMore = 0;    ///< elements two or more steps from it
    /// Compared by distribution, not element by element (applied = true).
    DistributionCheck distribution;
};

/// The first NNEF operation (in graph order) whose value differs from the
/// TorchScript value it stands for.
struct Divergence {
    std::string identifier; ///< NNEF identifier of the first differing value
    std::string operation;  ///< NNEF operation (or "variable")
    int nnefLine = 0;       ///< line in graph.nnef
    NodeRef node;           ///< the TorchScript node the value comes from
    std::string detail;     ///< what differs, with figures

    /// The one JSON shape of a divergence: the report's check.divergence and
    /// the debug bundle's divergence.json.
    std::string toJson() const;
};

/// One NNEF value against the TorchScript value it stands for, the operation
/// that computed it fed TorchScript's operands: the error that operation
/// alone adds.
struct ValueError {
    std::string identifier;
    std::string operation;
    int nnefLine = 0;
    double maxAbs = 0;   ///< max |nnef - torch|
    double relative = 0; ///< maxAbs / max |torch| (0 when both are 0)
    bool ok = true;      ///< within the check's tolerance
};

/// The criterion for graphs with quantized activations (docs/quantized.md):
/// every quantized value, computed by its operation fed the model's own
/// operands, equals the model's at quantize, dequantize and data movement and
/// is within one quantization step of it after a quantized arithmetic
/// operation (conv, linear, add, ...). The outputs' end-to-end error is
/// reported in steps (OutputComparison::maxErrorSteps) without deciding.
struct QuantizedCheck {
    bool applied = false; ///< the archive has quantized activations
    bool passed = false;
    int values = 0;   ///< quantized values compared
    int exact = 0;    ///< equal to the model's
    int offByOne = 0; ///< one step off somewhere (allowed after arithmetic)
    int beyond = 0;   ///< beyond their bound (the check fails)
    int64_t elements = 0, offByOneElements = 0; ///< over every compared value
    double worstSteps = 0;                      ///< the largest error of one value, in steps
    std::string worst;                          ///< its NNEF identifier
    std::string worstKind;                      ///< the TorchScript kind that made it
};

/// A value of a dynamic export that should have followed a symbol (a
/// dynamic axis) but kept its example size: "where a size froze". Found by
/// the translation (a size it needs fixed at export time, or cannot compute
/// in the graph) or by the check's run at the second size (an NNEF value
/// whose shape is not TorchScript's there, though its operands' were).
struct FrozenSize {
    std::string value;      ///< debug name of the TorchScript value ("len.1")
    std::string identifier; ///< the NNEF identifier standing for it, when there is one
    NodeRef node;           ///< the TorchScript node computing it
    std::string atExample;  ///< TorchScript's value or shape at the example sizes: "4", "[2, 6, 3]"
    std::string atSecond;   ///< the same at the second sizes
    /// What the archive does at the second sizes: "[2, 6, 3]", "holds the
    /// example's 6", "cannot compute it", "fails: ...".
    std::string archive;
    std::string readBy; ///< the node that needs it fixed (translation), "" otherwise
};

struct FrozenSizes {
    std::string exampleSizes;       ///< the symbols at the example sizes: "S=6"
    std::string secondSizes;        ///< and at the second sizes: "S=7"
    std::vector<FrozenSize> values; ///< in graph order
    bool empty() const { return values.empty(); }

    /// The table as every front end shows it (CLI, HTML report, studio):
    /// the column titles, then one cell per column for a value.
    std::vector<std::string> columns() const;
    std::vector<std::string> cells(const FrozenSize& f) const;
    enum Column {
        ValueColumn,
        NodeColumn,
        SourceColumn,
        ExampleColumn,
        SecondColumn,
        ArchiveColumn
    };
};

/// How the check ran one symbol of a dynamic export: at the example size
/// and at a second size the model accepts, or at the example size only.
struct DynamicSizeCheck {
    std::string symbol;
    int64_t example = 0;
    int64_t second = 0;    ///< 0: checked at the example size only
    std::string rule;      ///< "multiple-of=32,min=64"; "" when any size goes
    bool declared = false; ///< the rule came with --dynamic-axis, else from the graph
    /// In words, as the CLI, the HTML report and the studio say it: "H: checked
    /// at 64 and 96 (a multiple of 32: ...)", "H: checked at 64 only: ...".
    std::string words;
};

struct CheckReport {
    bool ran = false;
    bool passed = false;
    /// False when the archive could not be read back at all (not a tar, an
    /// entry refused by the reader's limits, ...): structureProblems says why.
    bool readable = true;
    std::string tolerance;
    std::vector<std::string> structureProblems;
    std::vector<OutputComparison> outputs;
    bool diverged = false;
    Divergence divergence;
    /// Every compared value in graph order (ExportOptions::checkEveryValue).
    std::vector<ValueError> valueErrors;
    QuantizedCheck quantized;
    /// "passed (tract 0.21.13)", "failed: ...", "skipped (not found)"
    std::string tract;
    std::string tractCommand;
    std::string debugBundle; ///< where the debug bundle was written, if any
    double seconds = 0;
    double torchForwardSeconds = 0; ///< the TorchScript model's forward on the inputs
    double interpreterSeconds = 0;  ///< the reference interpreter on the same inputs
    /// graph.nnef as the check read it from the archive (empty when it could
    /// not be read): what the studio shows after a check, without a second
    /// read. Not in the JSON report (the archive holds it).
    std::string graphText;
    /// One per symbol of a dynamic export, in symbol order.
    std::vector<DynamicSizeCheck> dynamicSizes;
    /// Some symbol was checked at its example size only.
    bool oneSizeOnly() const {
        for (const auto& d : dynamicSizes)
            if (d.second == 0)
                return true;
        return false;
    }
};

/// State forward() keeps in a module attribute, carried by the archive as
/// one extra input and one extra output (the caller feeds the output back).
struct CarriedState {
    std::string attribute; ///< "_state", "memory.h"
    std::string input;     ///< the archive's input holding the state
    std::string output;    ///< the archive's output holding its new value
    std::vector<int64_t> shape;
    DType dtype = DType::F32;
};

struct ExportReport {
    std::string model;
    std::string t2nVersion;
    std::string target;
    Artifact artifact;
    /// The artifact is (or, for a report written along with it, will be) in
    /// place: false when the check failed or nothing was exported.
    bool written = false;
    std::vector<StageTiming> timings;
    std::vector<std::string> warnings;
    std::map<std::string, int> torchOps; ///< TorchScript kinds translated
    std::map<std::string, int> nnefOps;  ///< NNEF operations emitted
    std::vector<VariableRecord> variables;
    std::vector<std::string> inputs, outputs;
    std::vector<std::string> extensions;
    int64_t bytesWritten = 0;
    int graphNodes = 0;
    harden::HardenDiagnostics harden;
    CheckReport check;
    /// Filled when a dynamic axis failed: by the translation or by the
    /// check at the second size.
    FrozenSizes frozenSizes;
    /// State carried as inputs and outputs (empty: forward() keeps none).
    std::vector<CarriedState> state;
    /// forward() arguments that are not tensors, folded into the archive as
    /// constants: "sr = 16000".
    std::vector<std::string> specialisedFor;

    std::string toJson() const;
};

} // namespace t2n
