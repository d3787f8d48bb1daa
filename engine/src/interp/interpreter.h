// The reference interpreter: runs an NNEF graph read back from an exported
// archive with LibTorch kernels, so that an export can be compared with the
// TorchScript model it came from (DESIGN.md stage 6). Written from the NNEF
// spec and tract's semantics (reference/nnef-and-tract.md §1-2), sharing no
// code with the exporter's lowerings, so that the two cannot share a mistake.
#pragma once

#include "interp/value.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace t2n::interp {

struct InterpreterOptions {
    /// Tract: tract_* operations and tract's readings (pool borders, matmul
    /// ranks, 'replicated' pads, elu without alpha); Khronos: NNEF 1.0.5 only.
    TargetMode mode = TargetMode::Tract;
    /// Tract only: the readings of the release being modelled.
    TractReadings readings;
};

/// The value of one graph-body identifier, in assignment order.
struct TracedValue {
    std::string name;      ///< the identifier
    std::string operation; ///< the statement's operation (external, conv, add, ...)
    int line = 0;          ///< the statement's line in graph.nnef
    at::Tensor value;
};

struct RunResult {
    /// The graph outputs by name.
    std::map<std::string, at::Tensor> outputs;
    /// Filled when run() is asked to keep intermediates: every tensor the
    /// graph body assigns (inputs and variables included), in order.
    std::vector<TracedValue> values;
    /// With captureFailure: the failing statement's error (outputs are then
    /// empty and `values` holds what was computed before it).
    std::optional<Error> failure;
};

class Interpreter {
public:
    /// Checks that every operation the graph reaches is known to the target
    /// (throws t2n::Error, Stage::Check, naming the first unknown one).
    /// `model` must outlive the interpreter.
    explicit Interpreter(const nnef::LoadedModel& model, InterpreterOptions options = {});
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    const std::vector<std::string>& inputNames() const;
    const std::vector<std::string>& outputNames() const;
    /// Symbols declared with `extension tract_symbol S;`.
    const std::vector<std::string>& symbols() const;

    /// Runs the graph on `inputs` (by graph input name). Symbolic dimensions
    /// are bound from the input shapes. A failing statement throws
    /// t2n::Error (Stage::Check) whose NodeRef names the NNEF operation
    /// (kind), the statement's first identifier (valueName), graph.nnef and
    /// the line, with the operand shapes in the message.
    RunResult run(const std::map<std::string, at::Tensor>& inputs,
                  bool keepIntermediates = false) const;

    struct RunOptions {
        bool keepIntermediates = false;
        /// A failing statement ends the run without throwing: RunResult::failure
        /// says why, `values` holds what was computed before it.
        bool captureFailure = false;
        /// After each statement, identifiers listed here continue with the given
        /// tensor (reshaped and cast to the computed value's shape and dtype when
        /// the element counts agree) instead of the computed one, which is still
        /// what `values` records. Feeding every operation its reference inputs
        /// makes the first faulty operation stand out from accumulated error.
        const std::map<std::string, at::Tensor>* substitutes = nullptr;
        /// Identifiers recorded in `values` even without keepIntermediates
        /// (the check reads the shapes of the random draws).
        const std::set<std::string>* record = nullptr;
    };
    RunResult run(const std::map<std::string, at::Tensor>& inputs, const RunOptions& options) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Runs one operation (standard, compound, tract) outside any graph:
/// positional arguments first, then named ones. Returns every result. A
/// failure throws t2n::Error (Stage::Check) with NodeRef kind = `op`.
std::vector<Value> runOperation(const std::string& op, std::vector<Value> positional,
                                std::vector<std::pair<std::string, Value>> named = {},
                                InterpreterOptions options = {}, const std::string& typeArg = {});

/// The operation names the interpreter implements for `mode`, sorted.
std::vector<std::string> supportedOperations(TargetMode mode);

} // namespace t2n::interp
