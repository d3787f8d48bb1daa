// Dynamic axes that only take multiples of a number, written for tract as
// that multiple of a new symbol (H = 32 * H_32).
//
// Why: tract proves shapes symbolically when it loads an archive. A YOLO
// head's stride-32 path upsampled twice meets its stride-16 path at a
// concat, and tract compares 2 * ((H + 31) / 32) with (H + 15) / 16 — equal
// for the sizes the model accepts, not for every H — and refuses the archive
// ("Inconsistent concat"); pair-merging reshapes fail the same way
// ("12*L should be equal to 24*(L)/2"). With the axis declared 32 * H_32,
// every size on the way is a multiple of H_32 plus a constant, and the
// archive says so where tract would compute a floor division: after a
// strided convolution or pooling its output is pinned to that expression by
// a slice covering the whole axis ("16 * H_32"), and size arithmetic from
// the graph (L // 2) is written simplified (2 * L_4). The archive then
// accepts exactly the sizes the graph requires (multiples of 32).
//
// The multiple comes from the trace's size rule (declared with
// --dynamic-axis x:2=H:multiple-of=32 or inferred from the graph,
// ir/size_rules.h); the affine form of an axis is fitted to its sizes in the
// example, probe and far-probe runs and must agree at all three.
#pragma once

#include "nnef/document.h"
#include "t2n/ir.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace t2n::translate {

/// coef * S + constant, S a scaled symbol (e.g. H_32); coef 0: a constant.
struct AxisAffine {
    std::string symbol; ///< the scaled symbol's name ("H_32")
    int64_t coef = 0;
    int64_t constant = 0;
    bool operator==(const AxisAffine&) const = default;
};

class ScaledSymbols {
public:
    struct Scaled {
        std::string symbol; ///< the axis symbol of the export ("H")
        int64_t multiple = 1;
        std::string name;    ///< the archive's symbol ("H_32")
        int64_t example = 0; ///< the scaled symbol's value in the example run
        int64_t probe = 0;   ///< ... in the probe run
        int64_t far = 0;     ///< ... in the far probe run (0: none)
    };

    /// The symbols of `g` with a multiple > 1 whose example and probe sizes
    /// (and far size, when it ran) are multiples of it. `enabled` false (a
    /// target without symbols): none.
    ScaledSymbols(const ir::Graph& g, bool enabled);

    bool empty() const { return scaled_.empty(); }
    /// The scaled form of export symbol `symbol`, or null.
    const Scaled* find(const std::string& symbol) const;
    /// Every scaled symbol, by export symbol.
    const std::map<std::string, Scaled>& all() const { return scaled_; }

    /// The affine form of axis `axis` of `v` over `s`, fitted to the value's
    /// sizes in the three runs; nullopt unless integer and exact at all of
    /// them (the far run is required).
    static std::optional<AxisAffine> fit(const ir::Value& v, size_t axis, const Scaled& s);

private:
    std::map<std::string, Scaled> scaled_;
};

/// floor(a / b) for b > 0.
int64_t floorDivide(int64_t a, int64_t b);

/// "16 * H_32", "H_32 + 1", "3": the integer expression of `a`.
nnef::Expr affineExpr(const AxisAffine& a);

} // namespace t2n::translate
