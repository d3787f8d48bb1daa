// Helpers of the reference interpreter's test suites (tst_interpreter*.cpp):
// value builders, one-operation calls, tensor comparison, models from text.
#pragma once

#include "interp/interpreter.h"
#include "jit/torch_bridge.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <ATen/ATen.h>
#include <QTest>

#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace interp_test {

using t2n::interp::InterpreterOptions;
using t2n::interp::TargetMode;
using t2n::interp::Value;
using Named = std::vector<std::pair<std::string, Value>>;

inline at::Tensor F(std::vector<float> values, std::vector<int64_t> shape) {
    return at::tensor(values, at::kFloat).reshape(shape);
}
inline at::Tensor L64(std::vector<int64_t> values, std::vector<int64_t> shape) {
    return at::tensor(values, at::kLong).reshape(shape);
}
/// 0, 1, 2, ... as f32 of `shape`.
inline at::Tensor iota(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return at::arange(n, at::kFloat).reshape(shape);
}
/// Seeded normal values.
inline at::Tensor randn(std::vector<int64_t> shape, uint64_t seed = 1) {
    auto gen = at::detail::createCPUGenerator(seed);
    return at::normal(0.0, 1.0, shape, gen);
}

inline Value tv(at::Tensor t) {
    return Value::makeTensor(std::move(t));
}
inline Value I(int64_t v) {
    return Value::makeInteger(v);
}
inline Value S(double v) {
    return Value::makeScalar(v);
}
inline Value B(bool v) {
    return Value::makeLogical(v);
}
inline Value Str(std::string v) {
    return Value::makeString(std::move(v));
}
inline Value Ints(std::vector<int64_t> v) {
    return Value::makeIntegers(v);
}
inline Value Pairs(std::vector<std::pair<int64_t, int64_t>> v) {
    std::vector<Value> items;
    for (auto [a, b] : v)
        items.push_back(Value::makeTuple({I(a), I(b)}));
    return Value::makeArray(std::move(items));
}
inline Value Arr(std::vector<Value> v) {
    return Value::makeArray(std::move(v));
}

inline InterpreterOptions mode(TargetMode m) {
    InterpreterOptions o;
    o.mode = m;
    return o;
}
constexpr TargetMode Tract = TargetMode::Tract;
constexpr TargetMode Khronos = TargetMode::Khronos;

/// The first result of one operation.
inline at::Tensor op(const std::string& name, std::vector<Value> positional, Named named = {},
                     TargetMode m = Tract, const std::string& typeArg = {}) {
    return t2n::interp::runOperation(name, std::move(positional), std::move(named), mode(m),
                                     typeArg)
        .at(0)
        .tensor;
}

inline std::string str(const at::Tensor& t) {
    std::ostringstream s;
    s << t.sizes() << " " << t.scalar_type() << "\n" << t;
    return s.str();
}

/// Same shape, same dtype, |got - exp| <= atol + rtol * |exp| (NaN == NaN).
inline bool close(const at::Tensor& got, const at::Tensor& expected, double atol = 1e-5,
                  double rtol = 1e-5) {
    if (!got.sizes().equals(expected.sizes()) || got.scalar_type() != expected.scalar_type())
        return false;
    if (!got.is_floating_point())
        return at::equal(got, expected);
    return at::allclose(got.to(at::kDouble), expected.to(at::kDouble), rtol, atol, true);
}

/// The message t2n::Error carries, or "" when `f` does not throw.
template <typename Fn> t2n::Error expectError(Fn&& f) {
    try {
        f();
    } catch (const t2n::Error& e) {
        return e;
    }
    return t2n::Error(t2n::Stage::Report, t2n::ErrorCode::Internal, "no error was thrown");
}

inline t2n::nnef::LoadedModel modelOf(const std::string& text,
                                      std::map<std::string, at::Tensor> tensors = {}) {
    t2n::nnef::LoadedModel m;
    m.graphText = text;
    m.document = t2n::nnef::parseDocument(text, "graph.nnef", t2n::nnef::ReadMode::Tract);
    for (auto& [label, t] : tensors)
        m.tensors.emplace(label, t2n::jit::toTensorData(t.contiguous()));
    return m;
}

} // namespace interp_test

#define T2N_COMPARE_TENSOR(got, expected)                                                          \
    do {                                                                                           \
        const at::Tensor g_ = (got), e_ = (expected);                                              \
        QVERIFY2(interp_test::close(g_, e_),                                                       \
                 qPrintable(QString::fromStdString("got " + interp_test::str(g_) + "\nexpected " + \
                                                   interp_test::str(e_))));                        \
    } while (false)

#define T2N_COMPARE_TENSOR_TOL(got, expected, atol, rtol)                                          \
    do {                                                                                           \
        const at::Tensor g_ = (got), e_ = (expected);                                              \
        QVERIFY2(interp_test::close(g_, e_, atol, rtol),                                           \
                 qPrintable(QString::fromStdString("got " + interp_test::str(g_) + "\nexpected " + \
                                                   interp_test::str(e_))));                        \
    } while (false)
