// Tensor-introducing kernels (variable, constant; external is the graph
// runner's business, §1.2) and tract's shape_of, range and scan (§2.3).
#include "interp/kernel_util.h"
#include "interp/op_list.h"
#include "jit/torch_bridge.h"
#include "t2n/tensor_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace t2n::interp::kernels {

std::vector<Value> kExternal(const Call& call) {
    throw InterpError(fmt::format("{} may only introduce a graph input, as a statement of the "
                                  "graph body",
                                  call.op));
}

std::vector<Value> kVariable(const Call& call) {
    if (!call.runtime)
        throw InterpError("variable needs a model to read its tensor from");
    std::string label = call.string("label");
    if (!call.runtime->findTensor(label) && !label.empty() &&
        label.front() == '/') // tract trims a leading '/'
        label.erase(0, 1);
    const TensorData* data = call.runtime->findTensor(label);
    if (!data)
        throw InterpError(fmt::format("no tensor data for label '{}'", label));
    // No copy: the bytes stay alive with the model and no kernel writes to
    // its operands.
    at::Tensor t = jit::toTensor(*data);
    const auto shape = call.integers("shape");
    if (!t.sizes().equals(shape)) // tract refuses the model in that case
        throw InterpError(fmt::format("variable '{}' is declared {} but its .dat holds {}", label,
                                      describeShape(shape), describeTensor(t)));
    if (!call.tract()) {
        // The Khronos interpreter normalises variables: floats to f32, integers to i64.
        if (t.is_floating_point())
            t = t.to(at::kFloat);
        else if (t.scalar_type() != at::kBool)
            t = t.to(at::kLong);
    }
    Value v = Value::makeTensor(t, true);
    v.blockQuantized = call.runtime->blockQuantized(label);
    return {std::move(v)};
}

std::vector<Value> kConstant(const Call& call) {
    const auto shape = call.integers("shape");
    const auto dt = dtypeOfTypeName(call.typeArg);
    at::Tensor values = literalTensor(call.arg("value")).to(dt).flatten();
    int64_t count = 1;
    for (int64_t d : shape)
        count *= d;
    if (values.numel() == 1) // a single value fills the whole tensor
        return {Value::makeTensor(values.reshape({}).expand(shape).contiguous(), true)};
    if (values.numel() != count)
        throw InterpError(fmt::format("constant of shape {} has {} values", describeShape(shape),
                                      values.numel()));
    return {Value::makeTensor(values.reshape(shape), true)};
}

std::vector<Value> kShapeOf(const Call& call) {
    // tract wires the shape as a constant (ops/core/shape_of.rs).
    const at::Tensor x = call.tensor("input");
    return {Value::makeTensor(at::tensor(x.sizes().vec(), at::kLong), true)};
}

std::vector<Value> kRange(const Call& call) {
    const at::Tensor start = call.tensor("start"), end = call.tensor("end"),
                     step = call.tensor("step");
    if (start.numel() != 1 || end.numel() != 1 || step.numel() != 1)
        throw InterpError("range start, end and step must be single values");
    if (step.item<double>() == 0)
        throw InterpError("range step must not be 0");
    if (start.is_floating_point())
        return one(at::arange(start.item<double>(), end.item<double>(), step.item<double>(),
                              start.options()));
    return one(at::arange(start.item<int64_t>(), end.item<int64_t>(), step.item<int64_t>(),
                          start.options()));
}

namespace {

double parameterValue(const Value& v) {
    if (v.kind == Value::Kind::Scalar)
        return v.scalar;
    if (v.kind == Value::Kind::Integer)
        return static_cast<double>(v.integer);
    if (v.isTensor() && v.tensor.numel() == 1)
        return v.tensor.item<double>();
    throw InterpError(
        fmt::format("tract_onnx_random parameters must be numbers, got {}", describe(v)));
}

// `count` draws of T: uniform [a, b) or normal (a, b).
template <typename T>
void drawInto(T* out, int64_t count, bool uniform, double a, double b, uint64_t seed) {
    std::mt19937_64 engine(seed);
    if (uniform) {
        const T lo = static_cast<T>(a), hi = static_cast<T>(b);
        std::uniform_real_distribution<T> u(lo, hi);
        // libstdc++ may round a draw up to hi (LWG 2524); tract's never reaches it.
        const T below = std::nextafter(hi, lo);
        for (int64_t i = 0; i < count; ++i)
            out[i] = std::min(u(engine), below);
    } else if (b == 0) {
        std::fill(out, out + count, static_cast<T>(a));
    } else {
        std::normal_distribution<T> n(static_cast<T>(a), static_cast<T>(b));
        for (int64_t i = 0; i < count; ++i)
            out[i] = n(engine);
    }
}

} // namespace

// tract_onnx_random(datum_type, shape, dist, parameters, seed): `shape` floats
// drawn from uniform [low, high) or normal (mean, std), as tract's Random
// (onnx-opl/src/random.rs) whose values no one can repeat without its
// generator: a std engine seeded by `seed`, or by the run (Runtime::drawSeed)
// when none is given. tract refuses other dists, a parameter count other
// than 2, low >= high (rand's Uniform::new) and a negative or NaN std
// (rand_distr's Normal::new); so does this. tract draws an f16 tensor in f32
// and casts it, and its f16 normal path samples a uniform distribution
// instead (a tract bug; t2n writes f16 draws as f32 draws and a cast); here
// f16 is drawn in f32, normal or uniform as asked, and cast.
std::vector<Value> kRandom(const Call& call) {
    const c10::ScalarType dt = dtypeFromName(call.string("datum_type"));
    if (dt != at::kFloat && dt != at::kDouble && dt != at::kHalf)
        throw InterpError(fmt::format("tract_onnx_random draws f16, f32 or f64, not {}",
                                      call.string("datum_type")));
    const std::vector<int64_t> shape = call.integers("shape");
    int64_t count = 1;
    for (int64_t d : shape) {
        if (d < 0)
            throw InterpError(fmt::format("tract_onnx_random shape {} has a negative size",
                                          describeShape(shape)));
        count *= d;
    }
    const std::string& dist = call.string("dist");
    const bool uniform = dist == "uniform";
    if (!uniform && dist != "normal")
        throw InterpError(fmt::format("tract_onnx_random: unexpected distribution '{}' (uniform "
                                      "or normal)",
                                      dist));
    const Value& params = call.arg("parameters");
    if (!params.isSequence() || params.items.size() != 2)
        throw InterpError(
            fmt::format("tract_onnx_random expects two parameters, got {}", describe(params)));
    const double a = parameterValue(params.items[0]), b = parameterValue(params.items[1]);
    if (uniform && !(a < b))
        throw InterpError(
            fmt::format("tract_onnx_random uniform needs low < high, got [{}, {})", a, b));
    if (!uniform && !(b >= 0 && std::isfinite(b)))
        throw InterpError(
            fmt::format("tract_onnx_random normal needs a finite std >= 0, got {}", b));
    const int64_t seed = call.integer("seed");
    const uint64_t s = seed >= 0      ? static_cast<uint64_t>(seed)
                       : call.runtime ? call.runtime->drawSeed()
                                      : 0x5eedULL;
    at::Tensor out =
        at::empty(shape, at::TensorOptions().dtype(dt == at::kDouble ? at::kDouble : at::kFloat));
    if (dt == at::kDouble)
        drawInto(out.data_ptr<double>(), count, uniform, a, b, s);
    else
        drawInto(out.data_ptr<float>(), count, uniform, a, b, s);
    return one(dt == at::kHalf ? out.to(at::kHalf) : out);
}

namespace {

const Value& tupleItem(const Value& t, std::size_t i, std::string_view what) {
    if (!t.isSequence() || t.items.size() <= i)
        throw InterpError(fmt::format("bad {} entry {}", what, describe(t)));
    return t.items[i];
}

const std::string& tupleString(const Value& t, std::size_t i, std::string_view what) {
    const Value& v = tupleItem(t, i, what);
    if (v.kind != Value::Kind::String)
        throw InterpError(
            fmt::format("bad {} entry {}: item {} must be a string", what, describe(t), i));
    return v.text;
}

int64_t tupleInt(const Value& t, std::size_t i, std::string_view what, int64_t fallback) {
    if (!t.isSequence() || t.items.size() <= i)
        return fallback;
    const Value& v = t.items[i];
    if (v.kind != Value::Kind::Integer)
        throw InterpError(
            fmt::format("bad {} entry {}: item {} must be an integer", what, describe(t), i));
    return v.integer;
}

const std::vector<Value>& entries(const Call& call, std::string_view name) {
    const Value& v = call.arg(name);
    if (!v.isSequence())
        throw InterpError(fmt::format("scan '{}' must be an array of tuples", name));
    return v.items;
}

/// Chunk `i` of `x` along `axis` with `step` cells per iteration; a negative
/// step walks from the end (tract's backward scan).
at::Tensor chunk(const at::Tensor& x, int64_t axis, int64_t step, int64_t i) {
    const int64_t n = x.size(axis), len = std::abs(step);
    const int64_t begin = step > 0 ? i * len : std::max<int64_t>(0, n - (i + 1) * len);
    const int64_t end = step > 0 ? std::min(n, (i + 1) * len) : n - i * len;
    return x.slice(axis, begin, end);
}

} // namespace

std::vector<Value> kScan(const Call& call) {
    // tract_core_scan (ops/core/scan.rs): the body fragment's parameters are
    // fed from `scan` (one chunk per iteration), `full` (the whole tensor) and
    // `state` (the initial value, then the named body result of the previous
    // iteration); `output` lists the results returned: "full" ones are the
    // per-iteration values concatenated along their axis (in input order for
    // a backward scan), "last" ones the value of the final iteration. The
    // first `skip` iterations are not run at all (optimized.rs: the position
    // advances, the body and the states do not); tract leaves their part of a
    // "full" output uninitialized, here it is left out. A backward "full"
    // output is only well defined for chunk -1 in tract (assign_output's
    // offset), which is what t2n emits.
    if (!call.runtime)
        throw InterpError("tract_core_scan needs a model holding its body fragment");
    const std::string& body = call.string("body");
    const auto resultNames = call.runtime->fragmentResults(body);
    if (!resultNames)
        throw InterpError(fmt::format("scan body fragment '{}' is not defined", body));
    const auto& scans = entries(call, "scan");
    const auto& fulls = entries(call, "full");
    const auto& states = entries(call, "state");
    const auto& outputs = entries(call, "output");
    const int64_t skip = call.integer("skip");

    int64_t iterations = -1;
    for (const auto& s : scans) {
        const at::Tensor x = literalTensor(tupleItem(s, 1, "scan"));
        const int64_t axis = checkAxis(tupleInt(s, 2, "scan", 0), x.dim(), "scan axis");
        const int64_t step = tupleInt(s, 3, "scan", 1);
        if (step == 0)
            throw InterpError("scan step must not be 0");
        const int64_t n = (x.size(axis) + std::abs(step) - 1) / std::abs(step);
        if (iterations >= 0 && n != iterations)
            throw InterpError("scan inputs give different iteration counts");
        iterations = n;
    }
    if (iterations < 0)
        throw InterpError("tract_core_scan without scan inputs");

    auto resultIndex = [&](const std::string& name) {
        for (std::size_t i = 0; i < resultNames->size(); ++i)
            if ((*resultNames)[i] == name)
                return i;
        throw InterpError(fmt::format("scan body '{}' has no result '{}'", body, name));
    };
    std::vector<Value> stateValues;
    for (const auto& st : states)
        stateValues.push_back(asTensorValue(tupleItem(st, 1, "state")));

    std::vector<std::vector<at::Tensor>> collected(outputs.size());
    std::vector<at::Tensor> last(outputs.size());
    for (int64_t it = skip; it < iterations; ++it) {
        std::vector<std::pair<std::string, Value>> args;
        for (const auto& s : scans) {
            const at::Tensor x = literalTensor(tupleItem(s, 1, "scan"));
            args.emplace_back(tupleString(s, 0, "scan"),
                              Value::makeTensor(chunk(x, tupleInt(s, 2, "scan", 0),
                                                      tupleInt(s, 3, "scan", 1), it)));
        }
        for (const auto& f : fulls)
            args.emplace_back(tupleString(f, 0, "full"), asTensorValue(tupleItem(f, 1, "full")));
        for (std::size_t k = 0; k < states.size(); ++k)
            args.emplace_back(tupleString(states[k], 0, "state"), stateValues[k]);
        const std::vector<Value> results = call.runtime->runFragment(body, std::move(args));
        for (std::size_t k = 0; k < states.size(); ++k)
            stateValues[k] = results.at(resultIndex(tupleString(states[k], 2, "state")));
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            const at::Tensor v =
                literalTensor(results.at(resultIndex(tupleString(outputs[k], 0, "output"))));
            last[k] = v;
            collected[k].push_back(v);
        }
    }
    std::vector<Value> out;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const std::string& kind = tupleString(outputs[k], 1, "output");
        if (kind == "last") {
            if (!last[k].defined())
                throw InterpError("scan ran no iteration (skip covers them all) for a \"last\" "
                                  "output");
            out.push_back(Value::makeTensor(last[k]));
        } else if (kind == "full") {
            auto parts = collected[k];
            if (tupleInt(outputs[k], 3, "output", 1) < 0)
                std::reverse(parts.begin(), parts.end());
            if (parts.empty())
                throw InterpError("scan produced no iteration for a \"full\" output");
            out.push_back(Value::makeTensor(at::cat(parts, tupleInt(outputs[k], 2, "output", 0))));
        } else {
            throw InterpError(
                fmt::format("scan output kind must be \"full\" or \"last\", got '{}'", kind));
        }
    }
    return out;
}

} // namespace t2n::interp::kernels
