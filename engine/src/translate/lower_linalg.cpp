// Determinants and singular value decompositions of small square matrices
// (issue 39: the Kabsch alignment of molecular collective variables takes the
// SVD of a 3x3 covariance and the determinant's sign). NNEF and tract have no
// decomposition operation, so both are spelled with slices, element-wise
// arithmetic and small matmuls, over the last two axes; leading (batch) axes
// broadcast through every step and may stay symbolic.
//
// det: a cofactor (Laplace) expansion along the rows, each minor written
// once (15 for 4x4), limited to 4x4 (kMaxDetSize).
//
// SVD: cyclic two-sided Jacobi (Kogbetliantz) with a fixed, unrolled number
// of sweeps (kSweeps). Each step makes the 2x2 block (p, q) diagonal: a left
// rotation makes it symmetric, a symmetric Jacobi rotation diagonalizes it;
// U and V accumulate the rotations, so they stay orthogonal whatever the rank
// (a one-sided Jacobi divides by zero singular values to get U). The matrix is
// first divided by its largest |element| (no overflow in the squares), and a
// rotation whose defining values are below 1e-18 is the identity (their
// squares would underflow and give a non-orthogonal "rotation"). Measured in
// f32 over 56,000 random, ill-conditioned, rank-deficient, near-equal and
// orthogonal matrices against LAPACK in f64 (docs/real-world.md, issue 39
// note): singular values within 1.5e-6 of the largest, U diag(S) Vh within
// 2.3e-6 of A, U and V orthogonal within 1.7e-6, for the sweep counts below
// (LAPACK's own f32 results: 6.6e-7 and 8.9e-7).
//
// Singular vectors are unique only up to a common sign of (u_i, v_i), and up
// to a rotation among equal singular values: t2n's are what the rotations
// give, with diagonal entries made nonnegative through U's columns and the
// sign of each pair chosen so that v_i's components sum to >= 0. LAPACK
// chooses otherwise, so U and Vh themselves may differ from PyTorch's by a
// column sign (a warning says so); S, U diag(S) Vh, and Kabsch's rotation
// U diag(1, .., det(U Vh)) Vh do not depend on the choice.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <utility>

namespace t2n::translate {

namespace {

constexpr int64_t kMaxDetSize = 4, kMaxSvdSize = 4;
// Sweeps by matrix size: the fewest at which the measured errors stop
// falling, plus one (3x3 reached f32 precision at 4, 4x4 at 7).
constexpr int kSweeps[kMaxSvdSize + 1] = {0, 0, 1, 5, 8};

// The compute type: f64 stays f64, every other float computes in f32.
DType linalgType(const ir::Value& v) {
    return v.dtype == DType::F64 ? DType::F64 : DType::F32;
}

// The size n of input 0, an [..., n, n] matrix with static n <= limit;
// refuses otherwise, naming the size and the limit.
int64_t squareSize(Context& ctx, const std::string& what, int64_t limit) {
    const ir::Value& a = ctx.in(0);
    const int64_t r = rankOf(a);
    if (r < 2)
        ctx.unsupported(fmt::format("{} of a {}-d tensor", what, r), "it needs a matrix");
    if (dynamicAxis(a, r - 2) || dynamicAxis(a, r - 1))
        ctx.unsupported(fmt::format("{} of a matrix with a dynamic size", what),
                        "t2n unrolls it for a fixed size: export with a fixed matrix size");
    const int64_t rows = a.shape[static_cast<size_t>(r - 2)];
    const int64_t cols = a.shape[static_cast<size_t>(r - 1)];
    if (rows != cols || rows > limit || rows < 1)
        ctx.unsupported(fmt::format("{} of a {}x{} matrix", what, rows, cols),
                        fmt::format("t2n writes it for square matrices up to {0}x{0} (tract has "
                                    "no decomposition operation; larger sizes would need "
                                    "loops): compute it outside the exported model",
                                    limit));
    return rows;
}

// Element (i, j) of the [..., n, n] matrix `a` (rank r) as [..., 1, 1].
Expr element(Context& ctx, const Expr& a, int64_t r, int64_t i, int64_t j, const std::string& tag) {
    return ctx.emitTemp("slice", {a},
                        {{"axes", Expr::ints({r - 2, r - 1})},
                         {"begin", Expr::ints({i, j})},
                         {"end", Expr::ints({i + 1, j + 1})}},
                        fmt::format("{}{}{}", tag, i, j));
}

// A constant tensor of `shape` in type t. tract reads every literal as f32
// and its select (Iff) takes no f32 branch for f64 values: for f64 the f32
// literal (exact for the values used here) is cast by tract_core_cast.
Expr typedConstant(Context& ctx, const std::vector<double>& values, std::vector<int64_t> shape,
                   DType t, const std::string& hint) {
    Expr e =
        floatTable(ctx, std::vector<float>(values.begin(), values.end()), std::move(shape), hint);
    if (t != DType::F64)
        return e;
    return ctx.emitTemp("tract_core_cast", {e}, {{"to", Expr::str("f64")}}, hint + "_f64");
}

// A constant [1, .., 1, n, n] matrix (rank r) in type t.
Expr constantMatrix(Context& ctx, const std::vector<double>& values, int64_t r, int64_t n, DType t,
                    const std::string& hint) {
    std::vector<int64_t> shape(static_cast<size_t>(r - 2), 1);
    shape.push_back(n);
    shape.push_back(n);
    return typedConstant(ctx, values, std::move(shape), t, hint);
}

std::vector<double> identity(int64_t n) {
    std::vector<double> m(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i)
        m[static_cast<size_t>(i * n + i)] = 1.0;
    return m;
}

// ---- determinant ----------------------------------------------------------

// The determinant of rows [row, n) and the columns in `columns` (a bit set)
// of the elements `el`, expanded along its first row; minors memoized by
// column set.
Expr minorDet(Context& ctx, const std::vector<Expr>& el, int64_t n, int64_t row, unsigned columns,
              std::map<unsigned, Expr>& memo) {
    if (auto it = memo.find(columns); it != memo.end())
        return it->second;
    Expr det;
    int position = 0;
    for (int64_t j = 0; j < n; ++j) {
        if (!(columns & (1u << j)))
            continue;
        const Expr& a = el[static_cast<size_t>(row * n + j)];
        const unsigned rest = columns & ~(1u << j);
        Expr term = rest == 0 ? a
                              : ctx.emitTemp("mul", {a, minorDet(ctx, el, n, row + 1, rest, memo)},
                                             {}, fmt::format("det_term{}_{}", row, j));
        if (position == 0)
            det = term;
        else
            det = ctx.emitTemp(position % 2 ? "sub" : "add", {det, term}, {},
                               fmt::format("det_sum{}_{:x}", row, columns));
        ++position;
    }
    memo.emplace(columns, det);
    return det;
}

// linalg_det(A): [..., n, n] -> [...]. (TorchScript compiles torch.det to
// aten::linalg_det: no graph loaded from a file holds aten::det.)
void lowerDet(Context& ctx) {
    const int64_t n = squareSize(ctx, "determinant", kMaxDetSize);
    const int64_t r = rankOf(ctx.in(0));
    const DType t = linalgType(ctx.out());
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    std::vector<Expr> el;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            el.push_back(element(ctx, a, r, i, j, "a"));
    std::map<unsigned, Expr> memo;
    Expr det = minorDet(ctx, el, n, 0, (1u << n) - 1, memo);
    det = ctx.emitTemp("squeeze", {det}, {{"axes", Expr::ints({r - 2, r - 1})}}, "det");
    bindAs(ctx, det, t);
}

// ---- singular value decomposition -------------------------------------------

struct Svd {
    Expr u, s, v; ///< [..., n, n], [..., 1, n], [..., n, n]: A = U diag(S) V^T
};

// Builds the steps of one decomposition; `t` is the compute type.
class JacobiSvd {
public:
    JacobiSvd(Context& ctx, int64_t r, int64_t n, DType t) : ctx_(ctx), r_(r), n_(n), t_(t) {}

    Svd run(Expr a) {
        Expr scale = largestMagnitude(a);
        a = temp("div", {a, scale}, "scaled");
        std::optional<Expr> u, v; // identity until the first rotation
        for (int sweep = 0; sweep < kSweeps[n_]; ++sweep)
            for (int64_t p = 0; p < n_; ++p)
                for (int64_t q = p + 1; q < n_; ++q)
                    rotate(a, u, v, p, q, fmt::format("j{}_{}{}_", sweep, p, q));
        Expr eye = constantMatrix(ctx_, identity(n_), r_, n_, t_, "svd_identity");
        Expr uu = u ? *u : eye, vv = v ? *v : eye;
        // The diagonal as a row [..., 1, n]; negative entries flip U's column.
        Expr diag = temp("sum_reduce", {temp("mul", {a, eye}, "diagonal_only")},
                         {{"axes", Expr::ints({r_ - 2})}}, "diagonal");
        Expr diagSign = signOf(diag, "diagonal_sign");
        Expr s = temp("mul", {diag, diagSign}, "singular");
        // The pair's sign: v_i's components sum to >= 0.
        Expr pairSign = signOf(temp("sum_reduce", {vv}, {{"axes", Expr::ints({r_ - 2})}}, "v_sums"),
                               "pair_sign");
        uu = temp("mul", {uu, temp("mul", {diagSign, pairSign}, "u_sign")}, "u_signed");
        vv = temp("mul", {vv, pairSign}, "v_signed");
        sortDescending(s, uu, vv);
        s = temp("mul", {s, scale}, "singular_rescaled");
        return {uu, s, vv};
    }

private:
    Expr temp(const std::string& op, std::vector<Expr> args, const std::string& suffix) {
        return ctx_.emitTemp(op, std::move(args), {}, suffix);
    }
    Expr temp(const std::string& op, std::vector<Expr> args, Kwargs k, const std::string& suffix) {
        return ctx_.emitTemp(op, std::move(args), std::move(k), suffix);
    }
    Expr num(double v) const { return Context::scalarLiteral(v, t_); }
    // A constant operand of select or a threshold: a literal, except for
    // f64 (typedConstant).
    Expr branch(double v) {
        if (t_ != DType::F64)
            return num(v);
        auto [it, fresh] = branches_.try_emplace(v);
        if (fresh)
            it->second = typedConstant(ctx_, {v}, std::vector<int64_t>(static_cast<size_t>(r_), 1),
                                       t_, "svd_constant");
        return it->second;
    }
    // Below tiny, a rotation's defining values are negligible (the matrix is
    // scaled to a largest |element| of 1) and their squares may underflow;
    // tiny^2 is an f32 normal number (the literal tract reads).
    double tiny() const { return 1e-18; }

    // max |a| over the matrix, [..., 1, 1]; 1 for a zero matrix.
    Expr largestMagnitude(const Expr& a) {
        Expr m = temp("max_reduce", {temp("abs", {a}, "abs")},
                      {{"axes", Expr::ints({r_ - 2, r_ - 1})}}, "largest");
        return temp("select", {temp("eq", {m, num(0.0)}, "zero_matrix"), branch(1.0), m}, "scale");
    }
    // -1 where x < 0, else 1 (sign(0) = 0 would erase a column).
    Expr signOf(const Expr& x, const std::string& tag) {
        return temp("select",
                    {temp("lt", {x, num(0.0)}, tag + "_negative"), branch(-1.0), branch(1.0)}, tag);
    }
    // The [n, n] rotation that is [[c, s], [-s, c]] at rows/columns (p, q)
    // and the identity elsewhere: rest + c * diagonal + s * skew.
    Expr rotation(int64_t p, int64_t q, const Expr& c, const Expr& s, const std::string& tag) {
        auto& m = tables_[{p, q}];
        if (m.empty()) {
            std::vector<double> rest = identity(n_), diag(rest.size(), 0.0), skew(rest.size(), 0.0);
            for (int64_t i : {p, q}) {
                rest[static_cast<size_t>(i * n_ + i)] = 0.0;
                diag[static_cast<size_t>(i * n_ + i)] = 1.0;
            }
            skew[static_cast<size_t>(p * n_ + q)] = 1.0;
            skew[static_cast<size_t>(q * n_ + p)] = -1.0;
            const std::string pq = fmt::format("{}{}", p, q);
            for (auto [values, name] :
                 {std::pair{&rest, "rest"}, {&diag, "diagonal"}, {&skew, "skew"}})
                m.push_back(constantMatrix(ctx_, *values, r_, n_, t_,
                                           fmt::format("svd_rotation{}_{}", pq, name)));
        }
        Expr withC = temp("add", {m[0], temp("mul", {c, m[1]}, tag + "cos")}, tag + "with_cos");
        return temp("add", {withC, temp("mul", {s, m[2]}, tag + "sin")}, tag);
    }

    // One Kogbetliantz step on the block (p, q) of `a`.
    void rotate(Expr& a, std::optional<Expr>& u, std::optional<Expr>& v, int64_t p, int64_t q,
                const std::string& tag) {
        Expr app = element(ctx_, a, r_, p, p, tag + "a"),
             apq = element(ctx_, a, r_, p, q, tag + "a");
        Expr aqp = element(ctx_, a, r_, q, p, tag + "a"),
             aqq = element(ctx_, a, r_, q, q, tag + "a");
        // Left rotation [[cg, sg], [-sg, cg]] making the block symmetric:
        // tan = (aqp - apq) / (app + aqq); the identity when both are
        // negligible (x^2 + y^2 < tiny^2, also where the squares underflow).
        Expr x = temp("add", {app, aqq}, tag + "x"), y = temp("sub", {aqp, apq}, tag + "y");
        Expr len2 = temp("add", {temp("mul", {x, x}, tag + "xx"), temp("mul", {y, y}, tag + "yy")},
                         tag + "len2");
        Expr flat = temp("lt", {len2, branch(tiny() * tiny())}, tag + "flat");
        Expr len =
            temp("select", {flat, branch(1.0), temp("sqrt", {len2}, tag + "len_raw")}, tag + "len");
        x = temp("select", {flat, branch(1.0), x}, tag + "x_safe");
        Expr cg = temp("div", {x, len}, tag + "cg"), sg = temp("div", {y, len}, tag + "sg");
        auto combine = [&](const Expr& c1, const Expr& e1, const Expr& c2, const Expr& e2,
                           const char* op, const std::string& name) {
            return temp(
                op, {temp("mul", {c1, e1}, name + "_1"), temp("mul", {c2, e2}, name + "_2")}, name);
        };
        // The symmetric block [[sp, sq], [sq, sr]] and its Jacobi rotation
        // [[cj, sj], [-sj, cj]] (Golub & Van Loan's sym.schur2, written
        // without the quotient (sr - sp) / 2 sq, which overflows for small
        // sq): t = 2 sq sign(diff) / (|diff| + sqrt(diff^2 + 4 sq^2)), 0 when
        // the block is already diagonal.
        Expr sp = combine(cg, app, sg, aqp, "add", tag + "sp");
        Expr sq = combine(cg, apq, sg, aqq, "add", tag + "sq");
        Expr sr = combine(cg, aqq, sg, apq, "sub", tag + "sr");
        Expr diff = temp("sub", {sr, sp}, tag + "diff");
        Expr sq2 = temp("mul", {sq, num(2.0)}, tag + "sq2");
        Expr disc = temp(
            "add", {temp("mul", {diff, diff}, tag + "dd"), temp("mul", {sq2, sq2}, tag + "qq")},
            tag + "disc");
        Expr den =
            temp("add", {temp("abs", {diff}, tag + "abs_diff"), temp("sqrt", {disc}, tag + "root")},
                 tag + "den");
        den =
            temp("select",
                 {temp("lt", {disc, branch(tiny() * tiny())}, tag + "diagonal"), branch(1.0), den},
                 tag + "den_safe");
        Expr numer = temp("mul", {sq2, signOf(diff, tag + "dsign")}, tag + "numer");
        Expr tj = temp("div", {numer, den}, tag + "t");
        Expr cj =
            temp("rsqrt", {temp("add", {temp("mul", {tj, tj}, tag + "tt"), num(1.0)}, tag + "tt1")},
                 tag + "cj");
        Expr sj = temp("mul", {tj, cj}, tag + "sj");
        // Left = J^T G, itself a rotation [[lc, ls], [-ls, lc]].
        Expr lc = combine(cj, cg, sj, sg, "add", tag + "lc");
        Expr ls = combine(cj, sg, sj, cg, "sub", tag + "ls");
        Expr left = rotation(p, q, lc, ls, tag + "left");
        Expr right = rotation(p, q, cj, sj, tag + "right");
        const Kwargs plain{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
        const Kwargs byTransposed{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}};
        a = temp("matmul", {left, temp("matmul", {a, right}, plain, tag + "a_right")}, plain,
                 tag + "a_next");
        // A0 = U A V^T stays true: U <- U L^T, V <- V J.
        u = u ? temp("matmul", {*u, left}, byTransposed, tag + "u")
              : temp("transpose", {left}, {{"axes", Expr::ints(lastTwoSwapped())}}, tag + "u");
        v = v ? temp("matmul", {*v, right}, plain, tag + "v") : right;
    }

    std::vector<int64_t> lastTwoSwapped() const {
        std::vector<int64_t> perm;
        for (int64_t i = 0; i < r_; ++i)
            perm.push_back(i);
        std::swap(perm[static_cast<size_t>(r_ - 2)], perm[static_cast<size_t>(r_ - 1)]);
        return perm;
    }

    // A sorting network over the singular values (descending, as LAPACK),
    // swapping U's and V's columns with them.
    void sortDescending(Expr& s, Expr& u, Expr& v) {
        static const std::vector<std::pair<int64_t, int64_t>> networks[kMaxSvdSize + 1] = {
            {}, {}, {{0, 1}}, {{0, 1}, {1, 2}, {0, 1}}, {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}}};
        const Kwargs plain{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
        int step = 0;
        for (auto [i, j] : networks[n_]) {
            const std::string tag = fmt::format("sort{}_", step++);
            Expr si = temp("slice", {s}, sliceArgs(r_ - 1, i, i + 1), tag + "first");
            Expr sj = temp("slice", {s}, sliceArgs(r_ - 1, j, j + 1), tag + "second");
            Expr swap = temp("lt", {si, sj}, tag + "swap");
            std::vector<double> perm = identity(n_);
            for (auto [k, l] : {std::pair{i, i}, {j, j}})
                perm[static_cast<size_t>(k * n_ + l)] = 0.0;
            perm[static_cast<size_t>(i * n_ + j)] = perm[static_cast<size_t>(j * n_ + i)] = 1.0;
            Expr pm = constantMatrix(ctx_, perm, r_, n_, t_, fmt::format("svd_swap{}{}", i, j));
            auto swapped = [&](Expr& e, const std::string& name) {
                e = temp("select",
                         {swap, temp("matmul", {e, pm}, plain, tag + name + "_swapped"), e},
                         tag + name);
            };
            swapped(s, "s");
            swapped(u, "u");
            swapped(v, "v");
        }
    }

    Context& ctx_;
    const int64_t r_, n_;
    const DType t_;
    std::map<std::pair<int64_t, int64_t>, std::vector<Expr>> tables_; // rest, diagonal, skew
    std::map<double, Expr> branches_;
};

// The decomposition of input 0, with the warning about singular vectors'
// signs when the node's U or V is used.
Svd decompose(Context& ctx, const std::string& what, bool vectorsUsed) {
    const int64_t n = squareSize(ctx, what, kMaxSvdSize);
    const int64_t r = rankOf(ctx.in(0));
    const DType t = linalgType(ctx.in(0));
    if (vectorsUsed)
        ctx.warn(fmt::format(
            "{}: singular vectors are unique only up to sign (and rotation among equal singular "
            "values); the archive's U and V come from {} Jacobi sweeps and may differ from "
            "LAPACK's by a column sign, while S, U diag(S) Vh and products such as Kabsch's "
            "rotation agree",
            ctx.node().kind, kSweeps[n]));
    return JacobiSvd(ctx, r, n, t).run(ctx.operand(ctx.node().inputs[0], r, t));
}

void bindOutput(Context& ctx, const Expr& e, DType t, size_t i) {
    if (ctx.out(i).dtype == t)
        ctx.bindOut(e, i);
    else
        ctx.bindOut(ctx.cast(e, t, ctx.out(i).dtype, fmt::format("out{}", i)), i);
}

Expr squeezedS(Context& ctx, const Svd& d) {
    return ctx.emitTemp("squeeze", {d.s}, {{"axes", Expr::ints({rankOf(ctx.in(0)) - 2})}}, "s");
}

// linalg_svd(A, full_matrices, driver) -> (U, S, Vh); square matrices, so
// full_matrices changes nothing.
void lowerLinalgSvd(Context& ctx) {
    const auto& outs = ctx.node().outputs;
    const bool vectors = ctx.isUsed(outs.at(0)) || ctx.isUsed(outs.at(2));
    Svd d = decompose(ctx, "singular value decomposition", vectors);
    const DType t = linalgType(ctx.in(0));
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < r; ++i)
        perm.push_back(i);
    std::swap(perm[static_cast<size_t>(r - 2)], perm[static_cast<size_t>(r - 1)]);
    bindOutput(ctx, d.u, t, 0);
    bindOutput(ctx, squeezedS(ctx, d), t, 1);
    bindOutput(ctx, ctx.emitTemp("transpose", {d.v}, {{"axes", Expr::ints(perm)}}, "vh"), t, 2);
}

// svd(A, some, compute_uv) -> (U, S, V): V itself; without compute_uv,
// PyTorch returns U and V filled with zeros.
void lowerSvd(Context& ctx) {
    const auto& outs = ctx.node().outputs;
    const bool uv = ctx.boolArg(2);
    const bool vectors = uv && (ctx.isUsed(outs.at(0)) || ctx.isUsed(outs.at(2)));
    Svd d = decompose(ctx, "singular value decomposition", vectors);
    const DType t = linalgType(ctx.in(0));
    if (!uv) {
        d.u = ctx.emitTemp("mul", {d.u, Context::scalarLiteral(0.0, t)}, {}, "u_zeros");
        d.v = ctx.emitTemp("mul", {d.v, Context::scalarLiteral(0.0, t)}, {}, "v_zeros");
    }
    bindOutput(ctx, d.u, t, 0);
    bindOutput(ctx, squeezedS(ctx, d), t, 1);
    bindOutput(ctx, d.v, t, 2);
}

// linalg_svdvals(A, driver) -> S.
void lowerSvdvals(Context& ctx) {
    Svd d = decompose(ctx, "singular values", false);
    bindOutput(ctx, squeezedS(ctx, d), linalgType(ctx.in(0)), 0);
}

} // namespace

void registerLinalgOps(Registry& r) {
    r.beginFamily("matmul");
    const char* det = "slice mul add sub squeeze";
    r.add("aten::linalg_det", lowerDet,
          "square matrices up to 4x4 (cofactor expansion); also torch.det, which TorchScript "
          "compiles to it",
          det);
    const std::string svd = "abs max_reduce eq select div slice add sub lt sqrt mul rsqrt "
                            "matmul transpose sum_reduce squeeze +tract_core_cast";
    const char* note = "square matrices up to 4x4: unrolled Jacobi sweeps (f32 precision); U and "
                       "V may differ from LAPACK's by a column sign";
    r.add("aten::linalg_svd", lowerLinalgSvd, note, svd);
    r.add("aten::svd", lowerSvd, note, svd);
    r.add("aten::linalg_svdvals", lowerSvdvals, "square matrices up to 4x4: unrolled Jacobi sweeps",
          svd);
}

} // namespace t2n::translate
