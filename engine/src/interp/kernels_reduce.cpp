// Reductions (keeping the reduced axes, §1.2), moments, softmax family,
// top-k, matrix products (matmul, linear, tract einsum, tract's SDPA) and the
// normalisations computed by stdlib bodies (batch, l1, l2).
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace t2n::interp::kernels {

namespace {

/// The reduced axes moved last and flattened into one: [..., prod(axes)].
at::Tensor flattenAxes(const at::Tensor& x, const std::vector<int64_t>& axes) {
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end())
            perm.push_back(d);
    std::vector<int64_t> kept;
    for (int64_t d : perm)
        kept.push_back(x.size(d));
    perm.insert(perm.end(), axes.begin(), axes.end());
    kept.push_back(-1);
    return x.permute(perm).reshape(kept);
}

std::vector<int64_t> keptShape(const at::Tensor& x, const std::vector<int64_t>& axes) {
    auto shape = x.sizes().vec();
    for (int64_t a : axes)
        shape[static_cast<std::size_t>(a)] = 1;
    return shape;
}

/// sum_reduce(normalize): the sum in the input's dtype, divided by the
/// number of reduced elements cast to that dtype (tract deser.rs reduce).
at::Tensor sumReduce(const at::Tensor& x, const std::vector<int64_t>& axes, bool normalize) {
    if (axes.empty())
        return x.clone();
    at::Tensor s = at::sum(x, axes, true, x.scalar_type());
    if (!normalize)
        return s;
    int64_t count = 1;
    for (int64_t a : axes)
        count *= x.size(a);
    return applyBinary("div", Value::makeTensor(s), Value::makeInteger(count));
}

at::Tensor argReduce(const at::Tensor& x, const std::vector<int64_t>& axes, bool max, bool last) {
    if (axes.empty())
        return at::zeros_like(x, x.options().dtype(at::kLong));
    // The index is the position within the flattened reduced axes; ties go to
    // the first occurrence (or the last for tract's *_reduce_last).
    at::Tensor flat = flattenAxes(x, axes);
    const int64_t n = flat.size(-1);
    if (last)
        flat = flat.flip(-1);
    at::Tensor idx = max ? flat.argmax(-1) : flat.argmin(-1);
    if (last)
        idx = (n - 1) - idx;
    return idx.reshape(keptShape(x, axes));
}

at::Tensor matmul(const Call& call, const Value& av, const Value& bv, bool ta, bool tb) {
    auto [a, b] = alignOperands(av, bv);
    if (a.dim() < 2 || b.dim() < 2)
        throw InterpError(fmt::format("matmul needs operands of rank >= 2, got {} and {}",
                                      describeTensor(a), describeTensor(b)));
    // tract's deserializer requires equal ranks (deser.rs matmul: ensure!(a_rank == b_rank))
    // and broadcasts the batch axes (unit vs n); the Khronos reading here
    // also accepts different ranks with NumPy's leading broadcast.
    if (call.tract() && a.dim() != b.dim())
        throw InterpError(fmt::format("tract's matmul needs operands of equal rank, got {} and {}",
                                      describeTensor(a), describeTensor(b)));
    if (ta)
        a = a.transpose(-1, -2);
    if (tb)
        b = b.transpose(-1, -2);
    if (a.size(-1) != b.size(-2))
        throw InterpError(fmt::format("matmul inner dimensions differ: {}{} x {}{}",
                                      describeTensor(a), ta ? " (transposed)" : "",
                                      describeTensor(b), tb ? " (transposed)" : ""));
    const int64_t batch = std::min(a.dim(), b.dim()) - 2;
    for (int64_t i = 1; i <= batch; ++i) {
        const int64_t da = a.size(-2 - i), db = b.size(-2 - i);
        if (da != db && da != 1 && db != 1)
            throw InterpError(fmt::format("matmul batch axes do not broadcast: {} and {}",
                                          describeTensor(a), describeTensor(b)));
    }
    return at::matmul(a, b);
}

} // namespace

std::vector<Value> kReduce(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const auto axes = checkAxes(call.integers("axes"), x.dim(), "reduce axis");
    const std::string& op = call.op;
    if (op == "sum_reduce")
        return one(sumReduce(x, axes, call.logical("normalize")));
    if (op == "mean_reduce") // stdlib body: sum_reduce(normalize = true)
        return one(sumReduce(x, axes, true));
    if (op == "max_reduce" || op == "min_reduce") {
        if (axes.empty())
            return one(x.clone());
        return one(op == "max_reduce" ? at::amax(x, axes, true) : at::amin(x, axes, true));
    }
    if (op == "argmax_reduce" || op == "argmin_reduce")
        return one(argReduce(x, axes, op == "argmax_reduce", false));
    if (op == "tract_core_argmax_reduce_last" || op == "tract_core_argmin_reduce_last")
        return one(argReduce(x, axes, op == "tract_core_argmax_reduce_last", true));
    at::Tensor r = x;
    if (op == "any_reduce" || op == "all_reduce") {
        if (x.scalar_type() != at::kBool)
            throw InterpError(
                fmt::format("{} needs a logical tensor, got {}", op, describeTensor(x)));
        for (int64_t a : axes)
            r = op == "any_reduce" ? at::any(r, a, true) : at::all(r, a, true);
        return one(r);
    }
    if (op == "tract_core_product_reduce") {
        for (int64_t a : axes)
            r = at::prod(r, a, true, x.scalar_type());
        return one(r);
    }
    throw InterpError(fmt::format("no reduce kernel for '{}'", op));
}

std::vector<Value> kMoments(const Call& call) {
    // stdlib body: mean = mean_reduce(x); variance = mean_reduce(sqr(x - mean))
    const at::Tensor x = call.tensor("input");
    const auto axes = checkAxes(call.integers("axes"), x.dim(), "moments axis");
    at::Tensor mean = sumReduce(x, axes, true);
    at::Tensor variance = sumReduce(at::pow(x - mean, 2.0), axes, true);
    return {Value::makeTensor(mean), Value::makeTensor(variance)};
}

std::vector<Value> kSoftmax(const Call& call) {
    // stdlib body: m = max_reduce(x); e = exp(x - m); y = e / sum_reduce(e).
    // log_softmax: (x - m) - log(sum_reduce(exp(x - m))).
    const at::Tensor x = call.tensor("x");
    const auto axes = checkAxes(call.integers("axes"), x.dim(), "softmax axis");
    if (axes.empty())
        return one(call.op == "tract_core_log_softmax" ? at::zeros_like(x) : at::ones_like(x));
    const at::Tensor shifted = x - at::amax(x, axes, true);
    const at::Tensor e = at::exp(shifted);
    const at::Tensor s = at::sum(e, axes, true);
    if (call.op == "tract_core_log_softmax")
        return one(shifted - at::log(s));
    return one(e / s);
}

std::vector<Value> kTopk(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "topk axis");
    const int64_t k = call.integer("k");
    if (k < 0 || k > x.size(axis))
        throw InterpError(fmt::format("topk k = {} for axis {} of {}", k, axis, describeTensor(x)));
    // Topk::eval: per lane, a stable sort of (index, value) pairs by value,
    // reversed for `largest` (equal values keep their order), the first k.
    const bool largest = call.logical("largest");
    const at::Tensor lanes = x.movedim(axis, -1).contiguous().to(at::kDouble);
    const int64_t n = x.size(axis), count = n == 0 ? 0 : lanes.numel() / n;
    std::vector<int64_t> shape = lanes.sizes().vec();
    shape.back() = k;
    at::Tensor indices = at::empty(shape, at::kLong);
    const double* v = lanes.data_ptr<double>();
    int64_t* out = indices.data_ptr<int64_t>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t lane = 0; lane < count; ++lane) {
        const double* row = v + lane * n;
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
            return largest ? row[a] > row[b] : row[a] < row[b];
        });
        std::copy_n(order.begin(), k, out + lane * k);
    }
    indices = indices.movedim(-1, axis).contiguous();
    return {Value::makeTensor(x.gather(axis, indices)), Value::makeTensor(indices)};
}

std::vector<Value> kMatmul(const Call& call) {
    return one(matmul(call, call.arg("A"), call.arg("B"), call.logical("transposeA"),
                      call.logical("transposeB")));
}

std::vector<Value> kLinear(const Call& call) {
    // stdlib body: matmul(input, filter, transposeB = true) + bias
    at::Tensor c = matmul(call, call.arg("input"), call.arg("filter"), false, true);
    return one(applyBinary("add", Value::makeTensor(c), call.arg("bias")));
}

std::vector<Value> kEinsum(const Call& call) {
    // tract's EinSum computes in the `acc` datum type and returns it.
    // An f16 accumulator is computed in f32 and rounded (LibTorch 1.13's CPU
    // has no f16 matrix product).
    const auto acc = dtypeFromName(call.string("acc"));
    const auto compute = acc == at::kHalf ? at::kFloat : acc;
    std::vector<at::Tensor> inputs;
    for (auto& t : call.tensors("inputs"))
        inputs.push_back(t.to(acc).to(compute));
    return one(at::einsum(call.string("expr"), inputs).to(acc));
}

std::vector<Value> kSdpa(const Call& call) {
    // tract_transformers_sdpa (transformers/src/ops/sdpa.rs, 0.22.0 and HEAD):
    // q, k, v of rank 3 [B, T, D] or 4 [B, H, T, D], K/V heads shared by
    // groups of H / Hkv query heads (query head h reads K/V head h / groups);
    // in acc_datum_type: softmax(scale * q k^T + mask) v, scale 1/sqrt(D)
    // when absent, the mask cast to acc_datum_type and broadcast (leading
    // axes added); the result in q's datum type.
    const at::Tensor q0 = call.tensor("q");
    const auto acc = dtypeFromName(call.string("acc_datum_type"));
    // LibTorch 1.13's CPU has no f16 matrix product: f16 accumulation is
    // computed in f32, each stage rounded to f16.
    const auto compute = acc == at::kHalf ? at::kFloat : acc;
    auto stage = [&](const at::Tensor& t) { return t.to(acc).to(compute); };
    at::Tensor q = stage(q0), k = stage(call.tensor("k")), v = stage(call.tensor("v"));
    const int64_t rank = q.dim();
    if ((rank != 3 && rank != 4) || k.dim() != rank || v.dim() != rank)
        throw InterpError(fmt::format("tract_transformers_sdpa: q, k, v must all be of rank 3 or "
                                      "4, got {}, {}, {}",
                                      describeTensor(q), describeTensor(k), describeTensor(v)));
    if (rank == 4 && k.size(1) != q.size(1)) {
        if (k.size(1) == 0 || q.size(1) % k.size(1) != 0 || v.size(1) != k.size(1))
            throw InterpError(fmt::format("tract_transformers_sdpa: {} query heads for {} key "
                                          "and {} value heads",
                                          q.size(1), k.size(1), v.size(1)));
        const int64_t groups = q.size(1) / k.size(1);
        k = k.repeat_interleave(groups, 1);
        v = v.repeat_interleave(groups, 1);
    }
    const Value& scaleArg = call.arg("scale");
    const double scale = scaleArg.isNumber()
                             ? call.scalar("scale")
                             : 1.0 / std::sqrt(static_cast<double>(q.size(rank - 1)));
    at::Tensor scores = stage(at::matmul(q, k.transpose(-1, -2)));
    scores = stage(scores * at::scalar_tensor(scale, at::TensorOptions().dtype(acc)).to(compute));
    at::Tensor mask = stage(call.tensor("mask"));
    const int64_t rows = q.size(rank - 2), cols = k.size(rank - 2);
    if (call.logical("is_causal")) {
        // 0.22.0 masks column c > row r; HEAD aligns the diagonal bottom-right
        // (c > r + cols - rows). They agree only for square scores.
        if (rows != cols)
            throw InterpError("tract_transformers_sdpa: is_causal with a query length other than "
                              "the key length (tract versions disagree on that mask)");
        mask = mask + at::full({rows, cols}, -INFINITY, at::TensorOptions().dtype(compute)).triu(1);
    }
    at::Tensor weights = stage(at::softmax(stage(scores + mask), -1));
    return one(stage(at::matmul(weights, v)).to(q0.scalar_type()));
}

std::vector<Value> kBatchNorm(const Call& call) {
    // Per-channel parameters (or single values) over axis 1 of a rank >= 2
    // input: F.batch_norm, as Khronos' own PyTorch interpreter runs it and as
    // the model ran. The stdlib body below computes the same function in four
    // roundings, a few ulps away per layer, which deep networks amplify past
    // the check's tolerance (an Inception v3 reached 2e-4, FPN bodies 5e-4,
    // where this gives 0).
    const at::Tensor x = call.tensor("input");
    if (x.dim() >= 2) {
        std::vector<at::Tensor> perChannel;
        for (const char* name : {"scale", "offset", "mean", "variance"}) {
            at::Tensor p = call.tensor(name).to(x.scalar_type());
            if (p.numel() == 1)
                p = p.reshape({1}).expand({x.size(1)});
            if (p.numel() == x.size(1))
                perChannel.push_back(p.reshape({-1}).contiguous());
        }
        if (perChannel.size() == 4)
            return one(at::batch_norm(x, perChannel[0], perChannel[1], perChannel[2], perChannel[3],
                                      false, 0.0, call.scalar("epsilon"), false));
    }
    // stdlib body: offset + scale * (input - mean) / sqrt(variance + epsilon),
    // evaluated in that order with trailing broadcasting ([1, C] parameters).
    auto T = [](at::Tensor t) { return Value::makeTensor(std::move(t)); };
    Value centered = T(applyBinary("sub", call.arg("input"), call.arg("mean")));
    Value scaled = T(applyBinary("mul", call.arg("scale"), centered));
    Value denom = T(at::sqrt(
        applyBinary("add", call.arg("variance"), Value::makeScalar(call.scalar("epsilon")))));
    Value normed = T(applyBinary("div", scaled, denom));
    return one(applyBinary("add", call.arg("offset"), normed));
}

std::vector<Value> kLpNorm(const Call& call) {
    // l1: sigma = sum_reduce(abs(x)); l2: sigma = sqrt(sum_reduce(sqr(x)));
    // output = x / max(sigma + bias, epsilon)
    const at::Tensor x = call.tensor("input");
    const auto axes = checkAxes(call.integers("axes"), x.dim(), "normalization axis");
    at::Tensor sigma = call.op == "l1_normalization"
                           ? sumReduce(at::abs(x), axes, false)
                           : at::sqrt(sumReduce(at::pow(x, 2.0), axes, false));
    at::Tensor denom = at::maximum(sigma + call.scalar("bias"),
                                   at::scalar_tensor(call.scalar("epsilon"), sigma.options()));
    return one(x / denom);
}

} // namespace t2n::interp::kernels
