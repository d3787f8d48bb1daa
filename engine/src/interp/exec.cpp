#include "interp/exec.h"

#include "interp/tdim.h"

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>
#include <fmt/format.h>

#include <algorithm>

namespace t2n::interp {

using nnef::ast::Expr;
using nnef::ast::Fragment;
using nnef::ast::TypeSpec;

namespace {

constexpr int kMaxDepth = 256; // fragment nesting (recursive fragments such as add_n)

std::string where(const nnef::ast::Location& loc) {
    return fmt::format("{}:{}", loc.file.empty() ? "graph.nnef" : loc.file, loc.line);
}

/// "x: f32[1,3], y: f32[4]" for the tensor arguments of a bound call.
std::string describeOperands(const std::vector<std::pair<std::string, Value>>& args) {
    std::vector<std::string> parts;
    for (const auto& [name, v] : args) {
        if (v.isTensor())
            parts.push_back(fmt::format("{}: {}", name, describe(v)));
        else if (v.isSequence() && !v.items.empty() && v.items.front().isTensor())
            parts.push_back(fmt::format("{}: {}", name, describe(v)));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

void markConstant(Value& v) {
    if (v.isTensor())
        v.constant = true;
    for (auto& item : v.items)
        markConstant(item);
}

bool allTensorsConstant(const Value& v) {
    if (v.isTensor())
        return v.constant;
    for (const auto& item : v.items)
        if (!allTensorsConstant(item))
            return false;
    return true;
}

/// "scalar", "integer" or "logical": the NNEF type family of a dtype.
std::string typeFamily(const at::Tensor& t) {
    if (t.is_floating_point())
        return "scalar";
    return t.scalar_type() == at::kBool ? "logical" : "integer";
}

/// Runs `f`, turning LibTorch and standard exceptions into InterpError.
template <typename F> auto guarded(F&& f) {
    try {
        return f();
    } catch (const InterpError&) {
        throw;
    } catch (const c10::Error& e) {
        throw InterpError(e.what_without_backtrace());
    } catch (const std::exception& e) {
        throw InterpError(e.what());
    }
}

} // namespace

std::string unknownOperationMessage(const std::string& op, TargetMode mode) {
    const TargetMode other = mode == TargetMode::Tract ? TargetMode::Khronos : TargetMode::Tract;
    if (findOp(op, other))
        return mode == TargetMode::Tract
                   ? fmt::format("operation '{}' is standard NNEF but tract does not implement it "
                                 "(reference §2.2)",
                                 op)
                   : fmt::format("operation '{}' is a tract extension, not Khronos NNEF 1.0.5", op);
    return fmt::format("unknown operation '{}'", op);
}

Executor::Executor(const nnef::ast::Document* document,
                   const std::map<std::string, TensorData>* tensors, TargetMode mode,
                   const std::set<std::string>* blockQuantized)
    : document_(document), tensors_(tensors), blockQuantized_(blockQuantized), mode_(mode) {
    if (document_)
        for (const auto& f : document_->fragments)
            if (f.hasBody && f.name != "tract_core_properties") // metadata, never run
                fragments_[f.name] = &f;
}

const Fragment* Executor::fragment(const std::string& name) const {
    auto it = fragments_.find(name);
    return it == fragments_.end() ? nullptr : it->second;
}

const TensorData* Executor::findTensor(const std::string& label) const {
    if (!tensors_)
        return nullptr;
    auto it = tensors_->find(label);
    return it == tensors_->end() ? nullptr : &it->second;
}

bool Executor::blockQuantized(const std::string& label) const {
    return blockQuantized_ && blockQuantized_->count(label) > 0;
}

std::optional<std::vector<std::string>> Executor::fragmentResults(const std::string& name) const {
    const Fragment* f = fragment(name);
    if (!f)
        return std::nullopt;
    std::vector<std::string> names;
    for (const auto& r : f->results)
        names.push_back(r.name);
    return names;
}

uint64_t Executor::drawSeed() {
    // splitmix64 of the draw's number: distinct, well-mixed seeds.
    uint64_t z = 0x7432'6e5f'7261'6e64ULL + 0x9e37'79b9'7f4a'7c15ULL * ++draws_;
    z = (z ^ (z >> 30)) * 0xbf58'476d'1ce4'e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d0'49bb'1331'11ebULL;
    return z ^ (z >> 31);
}

std::vector<Value> Executor::runFragment(const std::string& name, Arguments args) {
    const Fragment* f = fragment(name);
    if (!f)
        throw InterpError(fmt::format("fragment '{}' is not defined", name));
    return callFragment(*f, "", std::move(args));
}

namespace {
/// Matches positional then named arguments to `params` (anything with a
/// `name`); unbound slots stay empty for the caller's defaults.
template <typename Param>
std::vector<std::optional<Value>> bindArguments(const std::vector<Param>& params, Arguments args,
                                                std::string_view who) {
    std::vector<std::optional<Value>> bound(params.size());
    std::size_t next = 0;
    for (auto& [name, value] : args) {
        std::size_t i = 0;
        if (name.empty()) {
            if (next >= params.size())
                throw InterpError(
                    fmt::format("{} takes {} parameters, got more arguments", who, params.size()));
            i = next++;
        } else {
            while (i < params.size() && params[i].name != name)
                ++i;
            if (i == params.size())
                throw InterpError(fmt::format("{} has no parameter '{}'", who, name));
        }
        if (bound[i])
            throw InterpError(
                fmt::format("{}: parameter '{}' is given twice", who, params[i].name));
        bound[i] = std::move(value);
    }
    return bound;
}

// f16 graphs (--compute f16) on LibTorch 1.13's CPU, which lacks f16 kernels
// for most operations (matmul, exp, softmax, convolutions): an operation
// whose floating operands are f16 tensors (and literals) computes in f32 and
// rounds its floating results to f16 once, the exact result correctly
// rounded. Operations that choose their result type (casts, einsum's and
// SDPA's accumulators, tensor introductions) are left alone, and so are
// operands mixing f16 with a computed f32 tensor, which tract refuses: the
// kernel then reports the mismatch as before.
bool choosesItsType(std::string_view op) {
    return op == "tract_core_cast" || op == "cast" || op == "tract_core_einsum" ||
           op == "tract_transformers_sdpa" || op == "variable" || op == "constant" ||
           op == "external" || op == "tract_core_external" ||
           op == "tract_core_scan"; // its body's operations round on their own
}

template <typename Fn> void forEachTensor(std::vector<Value>& values, Fn&& fn) {
    for (auto& v : values) {
        if (v.isTensor())
            fn(v);
        forEachTensor(v.items, fn);
    }
}

bool computesInF32ForF16(const std::string& op, std::vector<std::pair<std::string, Value>>& args) {
    if (choosesItsType(op))
        return false;
    std::vector<Value> values;
    for (auto& a : args)
        values.push_back(a.second);
    bool half = false, computedF32 = false;
    forEachTensor(values, [&](Value& v) {
        half = half || v.tensor.scalar_type() == at::kHalf;
        computedF32 = computedF32 || (v.tensor.scalar_type() == at::kFloat && !v.constant);
    });
    return half && !computedF32;
}

void upcastHalf(std::vector<std::pair<std::string, Value>>& args) {
    for (auto& a : args) {
        std::vector<Value> one{std::move(a.second)};
        forEachTensor(one, [](Value& v) {
            if (v.tensor.scalar_type() == at::kHalf)
                v.tensor = v.tensor.to(at::kFloat);
        });
        a.second = std::move(one.front());
    }
}

// tract keeps a Q4_0 variable compressed; only matrix products, convolutions
// and a typed gather dequantize it (core/src/ops: einsum, cnn/conv,
// array/gather). Any other reader makes tract refuse the model.
bool holdsBlocks(const Value& v) {
    return v.blockQuantized || std::any_of(v.items.begin(), v.items.end(), holdsBlocks);
}

void refuseBlockQuantizedOperands(const std::string& op,
                                  const std::vector<std::pair<std::string, Value>>& args) {
    if (op == "matmul" || op == "linear" || op == "conv" || op == "tract_core_einsum" ||
        op == "tract_core_gather")
        return;
    for (const auto& a : args) {
        if (holdsBlocks(a.second))
            throw InterpError(fmt::format("{}: '{}' is block-quantized (Q4_0) data, which tract "
                                          "dequantizes only in matmul, conv, tract_core_einsum "
                                          "and a typed tract_core_gather",
                                          op, a.first));
    }
}

void roundToHalf(std::vector<Value>& results) {
    forEachTensor(results, [](Value& v) {
        if (v.tensor.scalar_type() == at::kFloat)
            v.tensor = v.tensor.to(at::kHalf);
    });
}
} // namespace

Value Executor::invoke(const std::string& op, const std::string& typeArg, Arguments args) {
    auto results = call(op, typeArg, std::move(args));
    if (results.size() == 1)
        return std::move(results.front());
    return Value::makeTuple(std::move(results));
}

std::vector<Value> Executor::call(const std::string& op, const std::string& typeArg,
                                  Arguments args) {
    if (const Fragment* f = fragment(op))
        return callFragment(*f, typeArg, std::move(args));
    if (const OpDef* def = findOp(op, mode_))
        return callKernel(*def, typeArg, std::move(args));
    throw InterpError(unknownOperationMessage(op, mode_));
}

std::vector<Value> Executor::callKernel(const OpDef& def, const std::string& typeArg,
                                        Arguments args) {
    const auto& params = def.params;
    std::vector<std::optional<Value>> bound = bindArguments(params, std::move(args), def.name);
    Call c;
    c.op = std::string(def.name);
    c.typeArg = typeArg;
    c.mode = mode_;
    c.readings = readings_;
    c.runtime = this;
    bool constant = true;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const ParamSpec& p = params[i];
        if (!bound[i]) {
            if (!p.defaultValue)
                throw InterpError(fmt::format("{}: missing argument '{}'", def.name, p.name));
            bound[i] = *p.defaultValue;
        }
        Value v = std::move(*bound[i]);
        if (p.kind == ParamSpec::Kind::Tensor) {
            // Khronos' flat grammar passes a tensor as an identifier or one
            // scalar literal; an array literal is tract's reading only.
            if (mode_ == TargetMode::Khronos && v.isSequence())
                throw InterpError(fmt::format("{}: '{}' is an array literal, which Khronos NNEF "
                                              "does not read as a tensor (use a constant or a "
                                              "variable)",
                                              def.name, p.name));
            v = guarded([&] { return asTensorValue(v); });
            constant = constant && v.constant;
        } else if (p.kind == ParamSpec::Kind::TensorArray) {
            if (!v.isSequence())
                throw InterpError(fmt::format("{}: '{}' must be an array of tensors, got {}",
                                              def.name, p.name, describe(v)));
            for (auto& item : v.items) {
                item = guarded([&] { return asTensorValue(item); });
                constant = constant && item.constant;
            }
            v.kind = Value::Kind::Array;
        } else if (!allTensorsConstant(v)) {
            constant = false; // e.g. scan's tuples carrying computed tensors
        }
        c.args.emplace_back(p.name, std::move(v));
    }
    refuseBlockQuantizedOperands(c.op, c.args);
    const bool viaF32 = computesInF32ForF16(c.op, c.args);
    if (viaF32)
        upcastHalf(c.args);
    std::vector<Value> results;
    try {
        refuseTDimOperands(c);
        results = guarded([&] { return def.kernel(c); });
        markTDimResults(c, results);
        if (viaF32)
            roundToHalf(results);
    } catch (const InterpError& e) {
        const std::string operands = describeOperands(c.args);
        throw InterpError(operands.empty() ? std::string(e.what())
                                           : fmt::format("{} (operands {})", e.what(), operands));
    }
    // tract sees through constants: a result of constants only is a constant.
    if (constant)
        for (auto& r : results)
            markConstant(r);
    return results;
}

std::vector<Value> Executor::callFragment(const Fragment& f, const std::string& typeArg,
                                          Arguments args) {
    if (depth_ >= kMaxDepth)
        throw InterpError(
            fmt::format("fragment '{}' nests deeper than {} calls", f.name, kMaxDepth));
    const auto& params = f.params;
    std::vector<std::optional<Value>> bound =
        bindArguments(params, std::move(args), fmt::format("fragment '{}'", f.name));
    Scope scope;
    std::string generic = typeArg;
    Evaluator defaults(*this);
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto& p = params[i];
        if (!bound[i]) {
            if (!p.defaultValue)
                throw InterpError(
                    fmt::format("fragment '{}': missing argument '{}'", f.name, p.name));
            bound[i] = defaults.eval(*p.defaultValue, Scope());
        }
        Value v = std::move(*bound[i]);
        const TypeSpec& t = p.type;
        if (t.kind == TypeSpec::Kind::Tensor) {
            v = guarded([&] { return asTensorValue(v); });
            if (f.generic && t.name == "?" && generic.empty())
                generic = typeFamily(v.tensor); // the generic type follows the argument
        } else if (t.kind == TypeSpec::Kind::Array && !t.items.empty() &&
                   t.items[0].kind == TypeSpec::Kind::Tensor && v.isSequence()) {
            for (auto& item : v.items)
                item = guarded([&] { return asTensorValue(item); });
        } else if (t.kind == TypeSpec::Kind::Name && t.name == "scalar" &&
                   v.kind == Value::Kind::Integer) {
            v = Value::makeScalar(static_cast<double>(v.integer));
        }
        scope.define(p.name, std::move(v));
    }
    if (f.generic && generic.empty())
        generic = f.genericDefault.empty() ? "scalar" : f.genericDefault;

    ++depth_;
    struct DepthGuard {
        int& d;
        ~DepthGuard() { --d; }
    } guard{depth_};
    Evaluator ev(*this, generic);
    for (const auto& a : f.body) {
        try {
            guarded([&] {
                Value v = ev.eval(*a.rhs, scope);
                Evaluator::bind(*a.lhs, v, scope);
                return 0;
            });
        } catch (const InterpError& e) {
            throw InterpError(
                fmt::format("{}\n  in fragment '{}' at {}", e.what(), f.name, where(a.loc)));
        }
    }
    std::vector<Value> results;
    for (const auto& r : f.results) {
        const Value* v = scope.find(r.name);
        if (!v)
            throw InterpError(
                fmt::format("fragment '{}' does not assign its result '{}'", f.name, r.name));
        results.push_back(*v);
    }
    return results;
}

std::optional<std::string> Executor::findUnknown(const Expr& e) {
    std::vector<std::string> stack;
    return unknownIn(e, stack);
}

std::optional<std::string> Executor::unknownIn(const Expr& e, std::vector<std::string>& stack) {
    auto inFragment = [&](const Fragment& f) -> std::optional<std::string> {
        auto memo = checkedFragments_.find(f.name);
        if (memo != checkedFragments_.end())
            return std::nullopt; // checked (or being checked: recursion)
        checkedFragments_[f.name] = true;
        for (const auto& p : f.params)
            if (p.defaultValue)
                if (auto u = unknownIn(*p.defaultValue, stack))
                    return u;
        for (const auto& a : f.body)
            if (auto u = unknownIn(*a.rhs, stack))
                return fmt::format(
                    "{}{}", *u,
                    u->find(" in fragment ") == std::string::npos
                        ? fmt::format(" in fragment '{}' at {}", f.name, where(a.loc))
                        : std::string());
        return std::nullopt;
    };
    if (e.kind == Expr::Kind::Invocation) {
        if (const Fragment* f = fragment(e.text)) {
            if (auto u = inFragment(*f))
                return u;
        } else if (!findOp(e.text, mode_)) {
            return unknownOperationMessage(e.text, mode_);
        }
        if (e.text == "tract_core_scan")
            for (const auto& [name, arg] : e.args)
                if (name == "body" && arg->kind == Expr::Kind::String) {
                    const Fragment* body = fragment(arg->text);
                    if (!body)
                        return fmt::format("scan body fragment '{}' is not defined", arg->text);
                    if (auto u = inFragment(*body))
                        return u;
                }
        for (const auto& [name, arg] : e.args)
            if (auto u = unknownIn(*arg, stack))
                return u;
        return std::nullopt;
    }
    if (e.kind == Expr::Kind::Unary || e.kind == Expr::Kind::Binary) {
        // Operators on tensors become operations (+ -> add, ...).
        const std::string op = operatorOperation(e.op, e.kind == Expr::Kind::Unary);
        if (!op.empty() && !fragment(op) && !findOp(op, mode_))
            return fmt::format("{} (operator '{}')", unknownOperationMessage(op, mode_), e.op);
    }
    for (const auto& item : e.items)
        if (item)
            if (auto u = unknownIn(*item, stack))
                return u;
    for (const auto& [name, it] : e.iterators)
        if (auto u = unknownIn(*it, stack))
            return u;
    if (e.condition)
        if (auto u = unknownIn(*e.condition, stack))
            return u;
    if (e.yield)
        if (auto u = unknownIn(*e.yield, stack))
            return u;
    return std::nullopt;
}

} // namespace t2n::interp
