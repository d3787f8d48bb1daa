#include "check/compare.h"

#include "jit/torch_bridge.h"
#include "t2n/error.h"
#include "util/strings.h"

#include <ATen/ATen.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace t2n::check {

namespace {

constexpr std::array<std::pair<ToleranceLevel, std::string_view>, 8> kLevelNames{{
    {ToleranceLevel::Exact, "exact"},
    {ToleranceLevel::Close, "close"},
    {ToleranceLevel::Approximate, "approximate"},
    {ToleranceLevel::Very, "very"},
    {ToleranceLevel::Super, "super"},
    {ToleranceLevel::Ultra, "ultra"},
    {ToleranceLevel::Custom, "custom"},
    {ToleranceLevel::AllClose, "allclose"},
}};

[[noreturn]] void badTolerance(std::string_view text, std::string_view why) {
    throw Error(Stage::Check, ErrorCode::Usage, fmt::format("bad tolerance '{}': {}", text, why),
                "use exact, close, approximate, very, super, ultra, allclose, "
                "allclose:RTOL,ATOL or custom:ATOL,RTOL,OUTLIERS (e.g. custom:1e-3,1e-3,0.001)");
}

/// Comma-separated non-negative finite numbers, exactly `count` of them.
std::vector<double> parseNumbers(std::string_view text, std::string_view list, std::size_t count) {
    std::vector<double> out;
    for (auto part : util::split(list, ',')) {
        double v = 0;
        auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size())
            badTolerance(text, fmt::format("'{}' is not a number", part));
        if (!std::isfinite(v) || v < 0)
            badTolerance(text, fmt::format("'{}' must be a finite number >= 0", part));
        out.push_back(v);
    }
    if (out.size() != count)
        badTolerance(text, fmt::format("expected {} numbers, found {}", count, out.size()));
    return out;
}

std::string dtypeName(c10::ScalarType t) {
    switch (t) {
    case at::kFloat:
        return "f32";
    case at::kDouble:
        return "f64";
    case at::kHalf:
        return "f16";
    case at::kBFloat16:
        return "bf16";
    case at::kLong:
        return "i64";
    case at::kInt:
        return "i32";
    case at::kShort:
        return "i16";
    case at::kChar:
        return "i8";
    case at::kByte:
        return "u8";
    case at::kBool:
        return "bool";
    case at::kQInt8:
        return "qint8";
    case at::kQUInt8:
        return "quint8";
    case at::kQInt32:
        return "qint32";
    default:
        return c10::toString(t);
    }
}

ElementClass classify(c10::ScalarType expected, c10::ScalarType got) {
    if (c10::isQIntType(expected))
        return ElementClass::Quantized;
    if (jit::isHalfLike(expected))
        return ElementClass::Half;
    if (c10::isFloatingType(expected))
        // tract casts an f32 reference to the f16 result's type (--allow-float-casts)
        // and then picks the f16 row of the table.
        return expected == at::kFloat && jit::isHalfLike(got) ? ElementClass::Half
                                                              : ElementClass::Float;
    return ElementClass::Integer;
}

std::string_view className(ElementClass c) {
    switch (c) {
    case ElementClass::Float:
        return "float";
    case ElementClass::Half:
        return "half";
    case ElementClass::Quantized:
        return "quantized";
    case ElementClass::Integer:
        return "integer";
    }
    return "?";
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = shape[d] == 0 ? 0 : flat % shape[d];
        flat = shape[d] == 0 ? 0 : flat / shape[d];
    }
    return index;
}

/// Running figures of one element-by-element scan.
struct Scan {
    int64_t mismatches = 0;
    int64_t firstMismatch = -1;
    int64_t worst = -1;
    bool worstFails = false;
    double worstScore = -std::numeric_limits<double>::infinity();
    double worstExpected = 0, worstGot = 0;
    double maxAbs = 0, maxRel = 0;
};

template <typename T> void scanValues(const T* a, const T* b, int64_t n, T atol, T rtol, Scan& s) {
    for (int64_t i = 0; i < n; ++i) {
        const T x = a[i], y = b[i];
        bool pass;
        double diff;
        if constexpr (std::is_integral_v<T>) {
            pass = x == y;
            diff = std::abs(static_cast<double>(x) - static_cast<double>(y));
        } else {
            const T d = std::abs(x - y);
            diff = static_cast<double>(d);
            if (std::isnan(x) && std::isnan(y))
                pass = true;
            else if (std::isinf(x) && std::isinf(y))
                pass = std::signbit(x) == std::signbit(y);
            else
                // Same arithmetic as tract (in T). A non-finite difference never
                // passes: tract's formula lets 1.0 vs +inf through when rtol > 0
                // (inf <= inf); t2n reports that as the mismatch it is.
                pass = std::isfinite(d) && d <= atol + rtol * std::abs(y);
        }
        const bool finite =
            std::isfinite(static_cast<double>(x)) && std::isfinite(static_cast<double>(y));
        if (finite) {
            s.maxAbs = std::max(s.maxAbs, diff);
            if (y != T(0))
                s.maxRel = std::max(s.maxRel, diff / std::abs(static_cast<double>(y)));
        }
        // Worst element: among failures, the one furthest beyond its bound;
        // while nothing fails, the largest absolute error. First one wins ties.
        double score;
        if (!pass) {
            score = finite ? diff - (static_cast<double>(atol) +
                                     static_cast<double>(rtol) * std::abs(static_cast<double>(y)))
                           : std::numeric_limits<double>::infinity();
            if (s.mismatches++ == 0)
                s.firstMismatch = i;
        } else {
            score = finite ? diff : 0;
        }
        const bool better = !pass ? (!s.worstFails || score > s.worstScore)
                                  : (!s.worstFails && score > s.worstScore && diff > 0);
        if (better) {
            s.worst = i;
            s.worstFails = !pass;
            s.worstScore = score;
            s.worstExpected = static_cast<double>(x);
            s.worstGot = static_cast<double>(y);
        }
    }
}

template <typename T>
void scanTensors(const at::Tensor& a, const at::Tensor& b, const Bounds& bounds, Scan& s) {
    const at::ScalarType type = std::is_same_v<T, float>    ? at::kFloat
                                : std::is_same_v<T, double> ? at::kDouble
                                                            : at::kLong;
    const at::Tensor ca = a.to(type).contiguous();
    const at::Tensor cb = b.to(type).contiguous();
    scanValues<T>(ca.data_ptr<T>(), cb.data_ptr<T>(), ca.numel(), static_cast<T>(bounds.atol),
                  static_cast<T>(bounds.rtol), s);
}

std::string shapeText(const std::vector<int64_t>& shape) {
    return fmt::format("[{}]", fmt::join(shape, ", "));
}

} // namespace

std::string_view toleranceLevelName(ToleranceLevel level) {
    for (const auto& [l, name] : kLevelNames)
        if (l == level)
            return name;
    return "?";
}

Tolerance Tolerance::named(ToleranceLevel level) {
    Tolerance t;
    t.level = level;
    return t;
}

Tolerance Tolerance::makeCustom(double atol, double rtol, double outliers) {
    Tolerance t;
    t.level = ToleranceLevel::Custom;
    t.custom = {atol, rtol, outliers};
    return t;
}

Tolerance Tolerance::allclose(double rtol, double atol) {
    Tolerance t;
    t.level = ToleranceLevel::AllClose;
    t.custom = {atol, rtol, 0};
    return t;
}

Tolerance Tolerance::parse(std::string_view text) {
    const auto colon = text.find(':');
    const std::string_view head = text.substr(0, colon);
    const std::optional<std::string_view> args =
        colon == std::string_view::npos ? std::nullopt : std::optional(text.substr(colon + 1));
    if (head == "custom") {
        if (!args)
            badTolerance(text, "custom needs ATOL,RTOL,OUTLIERS");
        const auto v = parseNumbers(text, *args, 3);
        if (v[2] > 1)
            badTolerance(text, "the outlier ratio is a fraction between 0 and 1");
        return makeCustom(v[0], v[1], v[2]);
    }
    if (head == "allclose") {
        if (!args)
            return allclose();
        const auto v = parseNumbers(text, *args, 2);
        return allclose(v[0], v[1]);
    }
    for (const auto& [level, name] : kLevelNames) {
        if (head != name || level == ToleranceLevel::Custom)
            continue;
        if (args)
            badTolerance(text, fmt::format("'{}' takes no numbers", name));
        return named(level);
    }
    badTolerance(text, "unknown level");
}

std::string Tolerance::str() const {
    if (level == ToleranceLevel::Custom)
        return fmt::format("custom:{},{},{}", custom.atol, custom.rtol, custom.outliers);
    if (level == ToleranceLevel::AllClose && (custom.rtol != 1e-5 || custom.atol != 1e-8))
        return fmt::format("allclose:{},{}", custom.rtol, custom.atol);
    return std::string(toleranceLevelName(level));
}

Bounds Tolerance::bounds(ElementClass cls, double quantScale) const {
    if (cls == ElementClass::Integer)
        return {};
    const bool half = cls == ElementClass::Half;
    switch (level) {
    case ToleranceLevel::Exact:
        return {};
    case ToleranceLevel::Close:
        return half ? Bounds{1e-3, 1e-3, 0} : Bounds{1e-7, 1e-7, 0};
    case ToleranceLevel::Approximate:
        if (half)
            return {1e-3, 5e-3, 0};
        if (cls == ElementClass::Quantized)
            return {quantScale, 0, 0};
        return {1e-4, 5e-4, 0};
    case ToleranceLevel::Very:
        return {5e-2, 1e-2, 0};
    case ToleranceLevel::Super:
        return {0.1, 0.05, 1e-4};
    case ToleranceLevel::Ultra:
        return {0.2, 0.1, 5e-4};
    case ToleranceLevel::Custom:
        return custom;
    case ToleranceLevel::AllClose:
        return {custom.atol, custom.rtol, 0};
    }
    return {};
}

Comparison compare(const at::Tensor& expected, const at::Tensor& got, const Tolerance& tolerance) {
    Comparison c;
    c.tolerance = tolerance.str();
    c.expectedDtype = dtypeName(expected.scalar_type());
    c.gotDtype = dtypeName(got.scalar_type());
    c.expectedShape = expected.sizes().vec();
    c.gotShape = got.sizes().vec();
    c.elements = expected.numel();
    if (c.expectedShape != c.gotShape) {
        c.shapeMismatch = fmt::format("shape mismatch: expected {} but got {}",
                                      shapeText(c.expectedShape), shapeText(c.gotShape));
        return c;
    }
    if (expected.scalar_type() != got.scalar_type())
        c.dtypeMismatch = fmt::format("dtype mismatch: expected {} but got {}; values compared "
                                      "after a cast",
                                      c.expectedDtype, c.gotDtype);
    for (const auto* t : {&expected, &got})
        if (t->is_complex())
            throw Error(Stage::Check, ErrorCode::Unsupported, "t2n cannot compare complex tensors",
                        "compare real and imaginary parts");

    c.elementClass = classify(expected.scalar_type(), got.scalar_type());
    double scale = 0;
    if (c.elementClass == ElementClass::Quantized)
        scale = expected.qscheme() == at::kPerTensorAffine
                    ? expected.q_scale()
                    : expected.q_per_channel_scales().max().item<double>();
    c.applied = tolerance.bounds(c.elementClass, scale);

    at::Tensor e = expected.cpu(), g = got.cpu();
    if (e.is_quantized())
        e = e.dequantize();
    if (g.is_quantized())
        g = g.dequantize();
    Scan s;
    if (c.elementClass == ElementClass::Integer) {
        if (g.is_floating_point())
            scanTensors<double>(e, g, c.applied, s);
        else
            scanTensors<int64_t>(e, g, c.applied, s);
    } else {
        // tract rounds an f32 reference to the f16 result before comparing.
        if (c.elementClass == ElementClass::Half && e.scalar_type() == at::kFloat)
            e = e.to(g.scalar_type());
        const bool wide = tolerance.level == ToleranceLevel::AllClose &&
                          (e.scalar_type() == at::kDouble || g.scalar_type() == at::kDouble);
        if (wide)
            scanTensors<double>(e, g, c.applied, s);
        else
            scanTensors<float>(e, g, c.applied, s); // tract casts both sides to f32
    }

    c.mismatches = s.mismatches;
    c.mismatchRatio = c.elements > 0 ? static_cast<double>(s.mismatches) / c.elements : 0;
    c.ok = c.elements == 0 || c.mismatchRatio <= c.applied.outliers;
    c.maxAbsError = s.maxAbs;
    c.maxRelError = s.maxRel;
    if (s.worst >= 0) {
        c.hasWorst = true;
        c.worstIndex = unravel(s.worst, c.expectedShape);
        c.worstExpected = s.worstExpected;
        c.worstGot = s.worstGot;
    }
    if (s.firstMismatch >= 0)
        c.firstMismatchIndex = unravel(s.firstMismatch, c.expectedShape);
    return c;
}

bool everyValueZero(const at::Tensor& t) {
    const at::Tensor v = t.is_quantized() ? t.dequantize() : t;
    return v.numel() > 0 && !v.ne(0).any().item<bool>();
}

ValueMoments momentsOf(const at::Tensor& t) {
    ValueMoments m;
    at::Tensor v = t.is_quantized() ? t.dequantize() : t;
    v = v.detach().cpu().to(at::kDouble).reshape({-1});
    const at::Tensor finite = at::isfinite(v);
    v = v.masked_select(finite);
    m.count = v.numel();
    m.nonFinite = t.numel() - m.count;
    if (m.count == 0)
        return m;
    m.min = v.min().item<double>();
    m.max = v.max().item<double>();
    m.mean = v.mean().item<double>();
    const at::Tensor centred = v - m.mean;
    const double var = centred.pow(2).mean().item<double>();
    m.std = std::sqrt(var);
    m.kurtosis = var > 0 ? centred.pow(4).mean().item<double>() / (var * var) : 0.0;
    return m;
}

DistributionComparison compareDistributions(const at::Tensor& expected, const at::Tensor& got,
                                            int64_t independent) {
    DistributionComparison c;
    DistributionCheck& f = c.figures;
    f.applied = true;
    c.expectedDtype = dtypeName(expected.scalar_type());
    c.gotDtype = dtypeName(got.scalar_type());
    c.expectedShape = expected.sizes().vec();
    c.gotShape = got.sizes().vec();
    c.elements = expected.numel();
    if (c.expectedShape != c.gotShape) {
        c.shapeMismatch = fmt::format("shape mismatch: expected {} but got {}",
                                      shapeText(c.expectedShape), shapeText(c.gotShape));
        f.failure = c.shapeMismatch;
        return c;
    }
    const bool floatCast =
        expected.scalar_type() == at::kFloat && jit::isHalfLike(got.scalar_type());
    if (expected.scalar_type() != got.scalar_type()) {
        if (floatCast) {
            c.dtypeNote = fmt::format("{} where the model gives {} (a float cast)", c.gotDtype,
                                      c.expectedDtype);
        } else {
            c.dtypeMismatch =
                fmt::format("dtype mismatch: expected {} but got {}", c.expectedDtype, c.gotDtype);
            f.failure = c.dtypeMismatch;
            return c;
        }
    }
    f.independent = independent > 0 ? std::min(independent, c.elements) : c.elements;
    f.expected = momentsOf(expected);
    f.got = momentsOf(got);
    f.valuesCompared = f.independent >= kMinIndependent;
    if (!f.valuesCompared) {
        c.ok = true;
        return c;
    }
    constexpr double kSigmas = 6;
    constexpr int64_t kOutside = 32;
    const double n = static_cast<double>(f.independent);
    const ValueMoments &e = f.expected, &g = f.got;
    // What f32 (f16) rounding alone may move.
    const bool half = floatCast || jit::isHalfLike(expected.scalar_type());
    const double rounding = half ? 1e-3 : 1e-6;
    const double spread = std::max(e.std, g.std);
    f.meanBound = kSigmas * std::sqrt((e.std * e.std + g.std * g.std) / n) +
                  rounding * (std::max(std::abs(e.mean), std::abs(g.mean)) + spread);
    const double kurtosis = std::max({e.kurtosis, g.kurtosis, 1.05});
    f.stdBound =
        kSigmas * std::sqrt(2.0) * spread * std::sqrt((kurtosis - 1) / (4 * n)) + rounding * spread;
    f.outsideAllowed = (kOutside * c.elements + f.independent - 1) / f.independent;
    // Elements of `a` beyond [lo, hi] (the other run's range).
    auto beyond = [](const at::Tensor& a, double lo, double hi) {
        const at::Tensor v = a.detach().cpu().to(at::kDouble);
        return ((v < lo) | (v > hi)).sum().item<int64_t>();
    };
    const at::Tensor ev = expected.is_quantized() ? expected.dequantize() : expected;
    const at::Tensor gv = got.is_quantized() ? got.dequantize() : got;
    if (e.count > 0 && g.count > 0)
        f.outside = std::max(beyond(gv, e.min, e.max), beyond(ev, g.min, g.max));
    std::vector<std::string> failures;
    if ((e.nonFinite == 0) != (g.nonFinite == 0))
        failures.push_back(fmt::format("{} non-finite values in the model's run, {} in the "
                                       "archive's",
                                       e.nonFinite, g.nonFinite));
    if (std::abs(e.mean - g.mean) > f.meanBound)
        failures.push_back(fmt::format("mean {:.6g} where the model's is {:.6g} (bound +-{:.3g})",
                                       g.mean, e.mean, f.meanBound));
    if (std::abs(e.std - g.std) > f.stdBound)
        failures.push_back(fmt::format("std {:.6g} where the model's is {:.6g} (bound +-{:.3g})",
                                       g.std, e.std, f.stdBound));
    if (f.outside > f.outsideAllowed)
        failures.push_back(fmt::format("{} values beyond the other run's range [{:.6g}, {:.6g}] "
                                       "vs [{:.6g}, {:.6g}] ({} allowed)",
                                       f.outside, g.min, g.max, e.min, e.max, f.outsideAllowed));
    f.failure = util::join(failures, "; ");
    c.ok = failures.empty();
    return c;
}

std::string DistributionComparison::summary() const {
    if (!shapeMismatch.empty() || !dtypeMismatch.empty())
        return "failed: " + figures.failure;
    const DistributionCheck& f = figures;
    std::string out;
    if (!f.valuesCompared)
        out = fmt::format("shape and dtype only: {} independent value{} too few to compare range "
                          "and moments (at least {})",
                          f.independent, f.independent == 1 ? " is" : "s are", kMinIndependent);
    else if (!ok)
        out = fmt::format("failed with {} independent values: {}", f.independent, f.failure);
    else
        out = fmt::format("{} independent values: mean {:.4g} vs the model's {:.4g} (bound "
                          "+-{:.2g}), std {:.4g} vs {:.4g} (bound +-{:.2g}), range [{:.4g}, "
                          "{:.4g}] vs [{:.4g}, {:.4g}] ({} beyond the other's, {} allowed)",
                          f.independent, f.got.mean, f.expected.mean, f.meanBound, f.got.std,
                          f.expected.std, f.stdBound, f.got.min, f.got.max, f.expected.min,
                          f.expected.max, f.outside, f.outsideAllowed);
    if (!dtypeNote.empty())
        out += "; " + dtypeNote;
    return out;
}

std::string Comparison::summary() const {
    if (!shapeMismatch.empty())
        return "failed: " + shapeMismatch;
    std::string out = fmt::format(
        "{}: {} of {} elements outside {} (atol {:g}, rtol {:g}, outliers allowed {:g}%)",
        ok ? "ok" : "failed", mismatches, elements, tolerance, applied.atol, applied.rtol,
        applied.outliers * 100);
    if (hasWorst)
        out += fmt::format("; worst at {}: expected {:g}, got {:g}", shapeText(worstIndex),
                           worstExpected, worstGot);
    out += fmt::format("; max abs error {:g}", maxAbsError);
    if (!dtypeMismatch.empty())
        out += "; " + dtypeMismatch;
    return out;
}

std::string Comparison::toJson() const {
    nlohmann::json j{
        {"ok", ok},
        {"tolerance", tolerance},
        {"element_class", className(elementClass)},
        {"atol", applied.atol},
        {"rtol", applied.rtol},
        {"outliers_allowed", applied.outliers},
        {"expected_dtype", expectedDtype},
        {"got_dtype", gotDtype},
        {"expected_shape", expectedShape},
        {"got_shape", gotShape},
        {"elements", elements},
        {"mismatches", mismatches},
        {"mismatch_ratio", mismatchRatio},
        {"max_abs_error", maxAbsError},
        {"max_rel_error", maxRelError},
        {"summary", summary()},
    };
    if (!shapeMismatch.empty())
        j["shape_mismatch"] = shapeMismatch;
    if (!dtypeMismatch.empty())
        j["dtype_mismatch"] = dtypeMismatch;
    if (hasWorst)
        j["worst"] = {{"index", worstIndex}, {"expected", worstExpected}, {"got", worstGot}};
    if (mismatches > 0)
        j["first_mismatch_index"] = firstMismatchIndex;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace t2n::check
