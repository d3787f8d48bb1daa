#include "interp/interpreter.h"

#include "interp/exec.h"
#include "interp/kernel_util.h"
#include "interp/operation_times.h"
#include "interp/quant.h"
#include "jit/tensor_block_cache.h"
#include "t2n/error.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>

#include <set>
#include <sstream>

namespace t2n::interp {

using nnef::ast::Assignment;
using nnef::ast::Expr;
using nnef::ast::invocationArgument;

namespace {

bool isExternal(const Expr& e) {
    return e.kind == Expr::Kind::Invocation &&
           (e.text == "external" || e.text == "tract_core_external");
}

/// The operation a statement performs: its invocation, or the operation an
/// operator expression stands for.
std::string statementOperation(const Expr& rhs) {
    if (rhs.kind == Expr::Kind::Invocation)
        return rhs.text;
    if (rhs.kind == Expr::Kind::Unary || rhs.kind == Expr::Kind::Binary) {
        std::string op = operatorOperation(rhs.op, rhs.kind == Expr::Kind::Unary);
        return op.empty() ? rhs.op : op;
    }
    return "expression";
}

/// Every identifier an expression reads (comprehension variables included:
/// counting too many only keeps a value a little longer).
void readIdentifiers(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == Expr::Kind::Identifier)
        out.push_back(e.text);
    for (const auto& i : e.items)
        if (i)
            readIdentifiers(*i, out);
    for (const auto& [name, a] : e.args)
        if (a)
            readIdentifiers(*a, out);
    for (const auto& [name, it] : e.iterators)
        if (it)
            readIdentifiers(*it, out);
    if (e.condition)
        readIdentifiers(*e.condition, out);
    if (e.yield)
        readIdentifiers(*e.yield, out);
}

/// Per statement of the graph body, the identifiers read for the last time
/// there (or assigned there and never read), graph outputs excepted: the run
/// drops their values after it, so that a graph needs memory for what is live,
/// not for everything it ever computed.
std::vector<std::vector<std::string>> lastUses(const nnef::ast::Graph& graph) {
    std::map<std::string, std::size_t> last;
    for (std::size_t i = 0; i < graph.body.size(); ++i) {
        std::vector<std::string> names;
        readIdentifiers(*graph.body[i].rhs, names);
        Evaluator::lhsNames(*graph.body[i].lhs, names);
        for (const auto& n : names)
            last[n] = i;
    }
    for (const auto& out : graph.outputs)
        last.erase(out);
    std::vector<std::vector<std::string>> after(graph.body.size());
    for (const auto& [name, i] : last)
        after[i].push_back(name);
    return after;
}

} // namespace

struct Interpreter::Impl {
    const nnef::LoadedModel& model;
    InterpreterOptions options;
    std::vector<std::string> symbols;
    std::vector<std::string> lines;
    mutable Executor exec;
    QuantTable quant;                                   ///< graph.quant
    std::vector<std::vector<std::string>> releaseAfter; ///< per graph statement
    /// Identifiers bound to `variable` or `constant`: tract wires them as Const
    /// nodes, whose type its binary operations do not trust (tractRefusesQuantized).
    std::set<std::string> constants;

    Impl(const nnef::LoadedModel& m, InterpreterOptions o)
        : model(m), options(o), exec(&m.document, &m.tensors, o.mode, &m.blockQuantized),
          quant(readQuantTable(m.quant)), releaseAfter(lastUses(m.document.graph)) {
        exec.setReadings(o.readings);
        for (const auto& a : m.document.graph.body)
            if (a.rhs && a.rhs->kind == Expr::Kind::Invocation &&
                (a.rhs->text == "variable" || a.rhs->text == "constant")) {
                std::vector<std::string> names;
                Evaluator::lhsNames(*a.lhs, names);
                constants.insert(names.begin(), names.end());
            }
        std::istringstream text(m.graphText);
        for (std::string line; std::getline(text, line);)
            lines.push_back(line);
        for (const auto& ext : m.document.extensions) {
            std::istringstream words(ext.text);
            std::string head, name;
            words >> head;
            if (head == "tract_symbol" || head == "tract_pulse_streaming_symbol")
                while (words >> name)
                    symbols.push_back(name);
        }
    }

    NodeRef nodeRef(const Assignment& a) const {
        NodeRef ref;
        ref.kind = statementOperation(*a.rhs);
        std::vector<std::string> names;
        Evaluator::lhsNames(*a.lhs, names);
        if (!names.empty())
            ref.valueName = names.front();
        ref.sourceFile = a.loc.file.empty() ? "graph.nnef" : a.loc.file;
        ref.sourceLine = a.loc.line;
        if (a.loc.line >= 1 && static_cast<std::size_t>(a.loc.line) <= lines.size()) {
            std::string s = lines[static_cast<std::size_t>(a.loc.line - 1)];
            const auto b = s.find_first_not_of(" \t");
            ref.sourceText = b == std::string::npos ? std::string() : s.substr(b);
        }
        return ref;
    }

    void validate() {
        const auto& graph = model.document.graph;
        for (const auto& a : graph.body) {
            if (isExternal(*a.rhs)) {
                if (!findOp(a.rhs->text, options.mode))
                    throw Error(Stage::Check, ErrorCode::Unsupported,
                                unknownOperationMessage(a.rhs->text, options.mode), nodeRef(a));
                std::vector<std::string> names;
                Evaluator::lhsNames(*a.lhs, names);
                if (names.size() != 1 || std::find(graph.inputs.begin(), graph.inputs.end(),
                                                   names[0]) == graph.inputs.end())
                    throw Error(Stage::Check, ErrorCode::InvalidOption,
                                "external may only assign a graph input", nodeRef(a));
                continue;
            }
            if (auto unknown = exec.findUnknown(*a.rhs))
                throw Error(Stage::Check, ErrorCode::Unsupported, *unknown, nodeRef(a),
                            fmt::format("the graph cannot run on the {} target",
                                        options.mode == TargetMode::Tract ? "tract" : "Khronos"));
        }
    }

    /// A graph input: checks dtype and shape against the declaration and
    /// binds the symbols of the declared shape from the actual dimensions.
    Value bindExternal(const Expr& e, const std::string& name,
                       const std::map<std::string, at::Tensor>& inputs, Scope& scope,
                       Evaluator& ev) const {
        auto it = inputs.find(name);
        if (it == inputs.end())
            throw InterpError(fmt::format("no value given for graph input '{}'", name));
        at::Tensor x = it->second;
        c10::ScalarType dt;
        if (e.text == "external") {
            dt = kernels::dtypeOfTypeName(e.typeArg);
        } else {
            const Expr* d = invocationArgument(e, "datum_type", 0);
            Value v = d ? ev.eval(*d, scope) : Value();
            if (v.kind != Value::Kind::String)
                throw InterpError("tract_core_external needs a datum_type string");
            dt = kernels::dtypeFromName(v.text);
        }
        if (x.scalar_type() != dt) {
            // Float inputs of another width are converted (tract's
            // --allow-float-casts); other mismatches are refused.
            if (!(x.is_floating_point() && at::isFloatingType(dt)))
                throw InterpError(fmt::format("graph input '{}' is {} but is declared {}", name,
                                              describeTensor(x), c10::toString(dt)));
            x = x.to(dt);
        }
        const Expr* shapeExpr = invocationArgument(e, "shape", e.text == "external" ? 0 : 1);
        if (!shapeExpr)
            throw InterpError("external needs a shape");
        if (shapeExpr->kind != Expr::Kind::Array) {
            Value s = ev.eval(*shapeExpr, scope);
            std::vector<int64_t> dims;
            for (const auto& item : s.items)
                dims.push_back(item.integer);
            if (!x.sizes().equals(dims))
                throw InterpError(fmt::format("graph input '{}' has shape {} but is declared {}",
                                              name, describeShape(x.sizes()), describeShape(dims)));
        } else {
            if (static_cast<int64_t>(shapeExpr->items.size()) != x.dim())
                throw InterpError(fmt::format("graph input '{}' is {} but is declared with rank {}",
                                              name, describeTensor(x), shapeExpr->items.size()));
            for (std::size_t k = 0; k < shapeExpr->items.size(); ++k) {
                const Expr& item = *shapeExpr->items[k];
                const int64_t actual = x.size(static_cast<int64_t>(k));
                if (item.kind == Expr::Kind::Identifier && !scope.find(item.text)) {
                    scope.define(item.text, Value::makeInteger(actual)); // a symbol: bound here
                    continue;
                }
                // k * S: a symbol the axis is a multiple of (tract solves it
                // from the input's size the same way).
                if (item.kind == Expr::Kind::Binary && item.op == "*" && item.items.size() == 2 &&
                    item.items[0]->kind == Expr::Kind::Integer && item.items[0]->integer > 0 &&
                    item.items[1]->kind == Expr::Kind::Identifier &&
                    !scope.find(item.items[1]->text)) {
                    const int64_t multiple = item.items[0]->integer;
                    if (actual % multiple != 0)
                        throw InterpError(fmt::format(
                            "graph input '{}' has size {} on axis {} where the graph declares "
                            "{} * {}: not a multiple of {}",
                            name, actual, k, multiple, item.items[1]->text, multiple));
                    scope.define(item.items[1]->text, Value::makeInteger(actual / multiple));
                    continue;
                }
                Value v = ev.eval(item, scope);
                if (v.kind != Value::Kind::Integer || v.integer != actual)
                    throw InterpError(fmt::format(
                        "graph input '{}' has size {} on axis {} where the graph declares {} = {}",
                        name, actual, k, item.kind == Expr::Kind::Identifier ? item.text : "size",
                        describe(v)));
            }
        }
        return Value::makeTensor(x.contiguous());
    }
};

Interpreter::Interpreter(const nnef::LoadedModel& model, InterpreterOptions options)
    : impl_(std::make_unique<Impl>(model, options)) {
    impl_->validate();
}

Interpreter::~Interpreter() = default;

const std::vector<std::string>& Interpreter::inputNames() const {
    return impl_->model.document.graph.inputs;
}
const std::vector<std::string>& Interpreter::outputNames() const {
    return impl_->model.document.graph.outputs;
}
const std::vector<std::string>& Interpreter::symbols() const {
    return impl_->symbols;
}

RunResult Interpreter::run(const std::map<std::string, at::Tensor>& inputs,
                           bool keepIntermediates) const {
    RunOptions options;
    options.keepIntermediates = keepIntermediates;
    return run(inputs, options);
}

RunResult Interpreter::run(const std::map<std::string, at::Tensor>& inputs,
                           const RunOptions& options) const {
    const bool keepIntermediates = options.keepIntermediates;
    const bool captureFailure = options.captureFailure;
    const auto& graph = impl_->model.document.graph;
    for (const auto& [name, t] : inputs)
        if (std::find(graph.inputs.begin(), graph.inputs.end(), name) == graph.inputs.end())
            throw Error(Stage::Check, ErrorCode::Usage,
                        fmt::format("'{}' is not an input of graph '{}' (inputs: {})", name,
                                    graph.name, fmt::join(graph.inputs, ", ")));
    Scope scope;
    Evaluator ev(impl_->exec);
    impl_->exec.restartDraws();
    RunResult result;
    OperationTimes times;
    const jit::TransientValues transient; // its values may take whole huge pages
    for (std::size_t statement = 0; statement < graph.body.size(); ++statement) {
        const auto& a = graph.body[statement];
        std::vector<std::string> names;
        Evaluator::lhsNames(*a.lhs, names);
        const OperationTimes::Stopwatch stopwatch(times, [&](bool withNames) {
            const std::string op = statementOperation(*a.rhs);
            return withNames ? fmt::format("{} {}", op, fmt::join(names, ", ")) : op;
        });
        auto fail = [&](const std::string& message) {
            return Error(Stage::Check, ErrorCode::ModelRun,
                         fmt::format("{} failed: {}", statementOperation(*a.rhs), message),
                         impl_->nodeRef(a));
        };
        std::optional<Error> failed;
        try {
            if (impl_->options.mode == TargetMode::Tract)
                if (auto why = tractRefusesQuantized(*a.rhs, impl_->quant, impl_->constants))
                    throw InterpError(*why);
            // Quantized conv/linear: tract's integer accumulator and requantization.
            std::optional<Value> product;
            if (!isExternal(*a.rhs) && names.size() == 1)
                product = quantizedProduct(*a.rhs, names[0], scope, impl_->quant,
                                           [&] { return ev.eval(*a.rhs, scope); });
            if (!product && names.size() == 1)
                product = storedIntegers(*a.rhs, scope, impl_->quant);
            // Otherwise a quantized conv/linear's integer bias is read in
            // accumulator units.
            auto bias = product ? std::nullopt : realBias(*a.rhs, scope, impl_->quant);
            std::optional<Value> storedBias;
            if (bias) {
                storedBias = *scope.find(bias->first);
                scope.replace(bias->first, std::move(bias->second));
            }
            Value v = product ? std::move(*product)
                      : isExternal(*a.rhs)
                          ? impl_->bindExternal(*a.rhs, names.at(0), inputs, scope, ev)
                          : ev.eval(*a.rhs, scope);
            if (storedBias)
                scope.replace(bias->first, std::move(*storedBias));
            Evaluator::bind(*a.lhs, v, scope);
            for (const auto& n : names)
                if (auto q = impl_->quant.find(n); q != impl_->quant.end())
                    if (const Value* bound = scope.find(n); bound && bound->isTensor()) {
                        Value quantized = *bound;
                        quantized.tensor = applyQuant(bound->tensor, q->second,
                                                      roundingOf(*a.rhs, n, impl_->quant));
                        scope.replace(n, std::move(quantized));
                    }
        } catch (const InterpError& e) {
            failed = fail(e.what());
        } catch (const c10::Error& e) {
            failed = fail(e.what_without_backtrace());
        } catch (const Error& e) {
            failed = fail(e.message());
        } catch (const std::exception& e) {
            failed = fail(e.what());
        }
        if (failed) {
            if (!captureFailure)
                throw *failed;
            result.failure = std::move(failed);
            return result;
        }
        for (const auto& n : names)
            if (keepIntermediates || (options.record && options.record->count(n)))
                if (const Value* v = scope.find(n); v && v->isTensor())
                    result.values.push_back(
                        TracedValue{n, statementOperation(*a.rhs), a.loc.line, v->tensor});
        if (options.substitutes)
            for (const auto& n : names) {
                auto sub = options.substitutes->find(n);
                const Value* v = scope.find(n);
                if (sub == options.substitutes->end() || !v || !v->isTensor() ||
                    sub->second.numel() != v->tensor.numel())
                    continue;
                Value replaced = *v;
                replaced.tensor =
                    sub->second.reshape(v->tensor.sizes()).to(v->tensor.scalar_type());
                scope.replace(n, std::move(replaced));
            }
        for (const auto& n : impl_->releaseAfter[statement])
            scope.release(n);
    }
    for (const auto& name : graph.outputs) {
        const Value* v = scope.find(name);
        if (!v || !v->isTensor())
            throw Error(Stage::Check, ErrorCode::ModelRun,
                        fmt::format("graph output '{}' is not assigned a tensor", name));
        result.outputs[name] = v->tensor;
    }
    return result;
}

std::vector<Value> runOperation(const std::string& op, std::vector<Value> positional,
                                std::vector<std::pair<std::string, Value>> named,
                                InterpreterOptions options, const std::string& typeArg) {
    Executor exec(nullptr, nullptr, options.mode);
    exec.setReadings(options.readings);
    Arguments args;
    for (auto& v : positional)
        args.emplace_back("", std::move(v));
    for (auto& [n, v] : named)
        args.emplace_back(n, std::move(v));
    NodeRef ref;
    ref.kind = op;
    try {
        if (!findOp(op, options.mode))
            throw Error(Stage::Check, ErrorCode::Unsupported,
                        unknownOperationMessage(op, options.mode), ref);
        return exec.call(op, typeArg, std::move(args));
    } catch (const InterpError& e) {
        throw Error(Stage::Check, ErrorCode::ModelRun, fmt::format("{} failed: {}", op, e.what()),
                    ref);
    } catch (const c10::Error& e) {
        throw Error(Stage::Check, ErrorCode::ModelRun,
                    fmt::format("{} failed: {}", op, e.what_without_backtrace()), ref);
    }
}

std::vector<std::string> supportedOperations(TargetMode mode) {
    return operationNames(mode);
}

} // namespace t2n::interp
