// Compares a model output with the reference under tract's tolerance levels
// (reference/nnef-and-tract.md §3: data/src/tensor.rs Approximation and
// Tensor::close_enough, cli/src/utils.rs check_outputs) or, for the Khronos
// target, under torch.allclose(equal_nan=True).
#pragma once

#include "t2n/report.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Declared only: Tolerance is used by torch-free code (tract_cli), and the
// callers of compare() include LibTorch themselves.
namespace at {
class Tensor;
} // namespace at

namespace t2n::check {

/// tract's `--approx` levels, `--approx-custom`, and torch.allclose.
enum class ToleranceLevel { Exact, Close, Approximate, Very, Super, Ultra, Custom, AllClose };

/// How the expected tensor's elements are judged; it selects the row of
/// tract's table (tract picks it from the expected tensor's datum type).
enum class ElementClass {
    Float,     ///< f32, f64
    Half,      ///< f16 or bf16, also f32 expected against an f16 result (--allow-float-casts)
    Quantized, ///< per-tensor affine qint8/quint8/qint32
    Integer,   ///< integers and bool: always compared exactly
};

struct Bounds {
    double atol = 0;
    double rtol = 0;
    double outliers = 0; ///< largest allowed fraction of failing elements
    bool operator==(const Bounds&) const = default;
};

struct Tolerance {
    ToleranceLevel level = ToleranceLevel::Approximate;
    Bounds custom; ///< Custom: atol, rtol, outliers; AllClose: atol, rtol

    static Tolerance named(ToleranceLevel level); ///< Exact .. Ultra
    static Tolerance makeCustom(double atol, double rtol, double outliers);
    /// torch.allclose defaults, as the Khronos check uses them.
    static Tolerance allclose(double rtol = 1e-5, double atol = 1e-8);

    /// "exact" | "close" | "approximate" | "very" | "super" | "ultra" | "allclose" |
    /// "custom:ATOL,RTOL,OUTLIERS". Throws t2n::Error (Check, Usage) otherwise.
    static Tolerance parse(std::string_view text);
    /// The text parse() reads back, e.g. "approximate" or "custom:0.001,0.01,0.0001".
    std::string str() const;

    /// tract's table: the bounds for an expected tensor of class `cls`;
    /// `quantScale` is the expected tensor's scale (Quantized + Approximate).
    Bounds bounds(ElementClass cls, double quantScale = 0) const;

    bool operator==(const Tolerance&) const = default;
};

std::string_view toleranceLevelName(ToleranceLevel level);

struct Comparison {
    bool ok = false;
    std::string tolerance; ///< Tolerance::str() of the request
    ElementClass elementClass = ElementClass::Float;
    Bounds applied;            ///< the bounds used after the dtype selection
    std::string expectedDtype; ///< "f32", "f16", "i64", "bool", "qint8", ...
    std::string gotDtype;
    std::vector<int64_t> expectedShape;
    std::vector<int64_t> gotShape;
    std::string shapeMismatch; ///< non-empty when the shapes differ (then ok == false)
    std::string dtypeMismatch; ///< non-empty when the dtypes differ (values still compared)

    int64_t elements = 0;
    int64_t mismatches = 0;
    double mismatchRatio = 0; ///< mismatches / elements
    double maxAbsError = 0;   ///< over pairs where both values are finite
    double maxRelError = 0;   ///< |expected - got| / |got|, over finite pairs with got != 0

    /// The failing element furthest beyond its bound (a NaN or infinity
    /// mismatch counts as infinitely far); when nothing fails, the element with
    /// the largest absolute error. Empty index for a 0-d tensor.
    bool hasWorst = false;
    std::vector<int64_t> worstIndex;
    double worstExpected = 0;
    double worstGot = 0;
    /// tract reports the first failing element in C order: the same here.
    std::vector<int64_t> firstMismatchIndex;

    /// "ok: 0 / 6 elements differ (approximate, max abs 1e-06)" or the reason it failed.
    std::string summary() const;
    std::string toJson() const;
};

/// `expected` is the reference (TorchScript), `got` what the exported model
/// produced. An element passes when |expected - got| <= atol + rtol * |got|,
/// NaN equals NaN and infinities of the same sign are equal; the tensor passes
/// when the fraction of failing elements does not exceed the outlier ratio.
/// tract levels compute in f32 like tract; allclose computes in f64 when
/// either side is f64.
Comparison compare(const at::Tensor& expected, const at::Tensor& got, const Tolerance& tolerance);

/// Every value of `t` is 0 (a NaN is not; an empty tensor has none): a match
/// against it says little, an archive that outputs zeros would match too.
bool everyValueZero(const at::Tensor& t);

/// An output that depends on a random draw, compared by distribution: two
/// runs of a draw share no element, so shape and dtype are compared exactly
/// (an f16 result of an f32 reference is accepted, as tract's
/// --allow-float-casts does) and the values by range and moments, with
/// bounds that follow from n, the number of independent values (the
/// elements, or fewer when a smaller draw is broadcast):
///   - n < kMinIndependent: too few to say anything; shape and dtype only.
///   - mean: |mean_e - mean_g| <= 6 sqrt((std_e^2 + std_g^2) / n), the
///     difference of two sample means at six standard errors (the output's
///     own std stands for the draw's, which only widens the bound);
///   - std: |std_e - std_g| <= 6 sqrt(2) s sqrt((k - 1) / (4 n)), s the larger
///     std and k the larger kurtosis (the delta method's standard error of a
///     sample std, for any distribution with that kurtosis);
///   - range: at most 32 n'/n elements of one run lie beyond the other run's
///     [min, max] (n' elements in all): for two samples of one continuous
///     distribution, the chance that j of one lie above the other's maximum
///     is about 2^-j, whatever the distribution;
///   - non-finite values in one run and none in the other fail.
/// Each bound also allows f32 (f16: 1e-3) rounding. A correct export fails
/// one of them with a probability below about 1e-8.
struct DistributionComparison {
    bool ok = false;
    std::string expectedDtype, gotDtype;
    std::vector<int64_t> expectedShape, gotShape;
    std::string shapeMismatch; ///< non-empty when the shapes differ (then ok == false)
    std::string dtypeMismatch; ///< non-empty when the dtypes differ (then ok == false)
    std::string dtypeNote;     ///< an accepted float cast
    int64_t elements = 0;
    DistributionCheck figures; ///< failure says what differs
    /// "4096 independent values: mean 0.4987 vs the model's 0.5021 (bound ...",
    /// "shape and dtype only: 6 independent values are too few ..." or what failed.
    std::string summary() const;
};

inline constexpr int64_t kMinIndependent = 32;

/// `expected` is the TorchScript output, `got` the archive's; `independent`
/// is n above (clamped to the element count; <= 0: the element count).
DistributionComparison compareDistributions(const at::Tensor& expected, const at::Tensor& got,
                                            int64_t independent);
/// The figures of one tensor's finite values (quantized: the real values).
ValueMoments momentsOf(const at::Tensor& t);

} // namespace t2n::check
