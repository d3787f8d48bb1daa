// Shape and indexing kernels: reshape, transpose, concat, split, slice,
// squeeze, unsqueeze, stack, unstack, tile, pad (§1.2, §1.3) and tract's
// gather, gather_elements, broadcast, dyn_slice, trilu (§2.3).
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>

namespace t2n::interp::kernels {

namespace {

int64_t product(at::IntArrayRef dims) {
    return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

/// Index of output position p (in [-before, n + after)) into an axis of size n.
int64_t borderIndex(int64_t p, int64_t n, std::string_view border) {
    if (p >= 0 && p < n)
        return p;
    if (border == "replicate" || border == "replicated")
        return std::clamp<int64_t>(p, 0, n - 1);
    if (border == "reflect") { // mirror around the edge element: period 2(n-1)
        if (n == 1)
            return 0;
        const int64_t period = 2 * (n - 1);
        int64_t m = ((p % period) + period) % period;
        return m < n ? m : period - m;
    }
    // reflect-even: mirror including the edge element: period 2n
    const int64_t period = 2 * n;
    int64_t m = ((p % period) + period) % period;
    return m < n ? m : period - 1 - m;
}

/// The values of `values` in one dtype: constants (literals, variables) take
/// the dtype of the first computed tensor, as tract's binary rule would.
std::vector<at::Tensor> sameDtype(const Value& values, std::string_view op) {
    if (!values.isSequence() || values.items.empty())
        throw InterpError(fmt::format("{} needs a non-empty array of tensors", op));
    std::optional<c10::ScalarType> dt;
    for (const auto& v : values.items)
        if (v.isTensor() && !v.constant && !dt)
            dt = v.tensor.scalar_type();
    std::vector<at::Tensor> out;
    for (const auto& v : values.items) {
        at::Tensor t = literalTensor(v);
        if (dt && t.scalar_type() != *dt) {
            if (v.isTensor() && !v.constant)
                throw InterpError(fmt::format("{} of {} and {} tensors", op,
                                              describeTensor(out.front()), describeTensor(t)));
            t = t.to(*dt);
        }
        out.push_back(t);
    }
    return out;
}

void checkConcatShapes(const std::vector<at::Tensor>& ts, int64_t axis, std::string_view op) {
    for (const auto& t : ts) {
        bool ok = t.dim() == ts[0].dim();
        for (int64_t d = 0; ok && d < t.dim(); ++d)
            ok = d == axis || t.size(d) == ts[0].size(d);
        if (!ok)
            throw InterpError(fmt::format("{} along axis {} of {} and {}: the other axes differ",
                                          op, axis, describeTensor(ts[0]), describeTensor(t)));
    }
}

} // namespace

at::Tensor padBorder(const at::Tensor& x, const std::vector<std::pair<int64_t, int64_t>>& padding,
                     std::string_view border, double value) {
    if (static_cast<int64_t>(padding.size()) != x.dim())
        throw InterpError(
            fmt::format("padding has {} entries for a rank-{} tensor", padding.size(), x.dim()));
    for (const auto& [b, a] : padding)
        if (b < 0 || a < 0)
            throw InterpError("padding must not be negative");
    if (border == "constant") {
        std::vector<int64_t> pads; // constant_pad_nd lists the LAST axis first
        for (auto it = padding.rbegin(); it != padding.rend(); ++it) {
            pads.push_back(it->first);
            pads.push_back(it->second);
        }
        return at::constant_pad_nd(x, pads, value);
    }
    if (border != "reflect" && border != "reflect-even" && border != "replicate" &&
        border != "replicated")
        throw InterpError(fmt::format("unknown border '{}'", border));
    at::Tensor out = x;
    for (int64_t axis = 0; axis < x.dim(); ++axis) {
        const auto [before, after] = padding[static_cast<std::size_t>(axis)];
        if (before == 0 && after == 0)
            continue;
        const int64_t n = x.size(axis);
        if (n == 0)
            throw InterpError("cannot pad an empty axis with a non-constant border");
        std::vector<int64_t> idx;
        for (int64_t p = -before; p < n + after; ++p)
            idx.push_back(borderIndex(p, n, border));
        out = out.index_select(axis, at::tensor(idx, at::kLong));
    }
    return out;
}

std::vector<Value> kReshape(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const auto in = x.sizes().vec();
    const int64_t rank = x.dim();
    const int64_t start = call.integer("axis_start");
    int64_t count = call.integer("axis_count");
    if (start < 0 || start > rank)
        throw InterpError(fmt::format("axis_start {} is out of range for rank {}", start, rank));
    if (count == -1)
        count = rank - start;
    if (count < 0 || start + count > rank)
        throw InterpError(
            fmt::format("axis_count {} from axis {} exceeds rank {}", count, start, rank));
    auto shape = call.integers("shape");
    int64_t inferred = -1;
    int64_t known = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) { // 0 copies the input dimension at the same position
            const int64_t src = start + static_cast<int64_t>(i);
            if (src >= rank)
                throw InterpError(
                    fmt::format("shape item {} is 0 but input has no axis {}", i, src));
            shape[i] = in[static_cast<std::size_t>(src)];
        }
        if (shape[i] == -1) {
            if (inferred >= 0)
                throw InterpError("shape has more than one -1");
            inferred = static_cast<int64_t>(i);
        } else if (shape[i] < 0) {
            throw InterpError(fmt::format("shape item {} is negative", shape[i]));
        } else {
            known *= shape[i];
        }
    }
    const int64_t sub = product(at::IntArrayRef(in).slice(static_cast<std::size_t>(start),
                                                          static_cast<std::size_t>(count)));
    if (inferred >= 0) {
        if (known == 0 || sub % known != 0)
            throw InterpError(
                fmt::format("cannot infer -1: {} elements into {}", sub, describeShape(shape)));
        shape[static_cast<std::size_t>(inferred)] = sub / known;
    }
    std::vector<int64_t> out(in.begin(), in.begin() + start);
    out.insert(out.end(), shape.begin(), shape.end());
    out.insert(out.end(), in.begin() + start + count, in.end());
    if (product(out) != x.numel())
        throw InterpError(
            fmt::format("cannot reshape {} to {}", describeTensor(x), describeShape(out)));
    return one(x.reshape(out));
}

std::vector<Value> kTranspose(const Call& call) {
    const at::Tensor x = call.tensor("input");
    auto perm = call.integers("axes");
    // axes may be shorter than the rank: the remaining axes stay in place.
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int64_t>(i) || static_cast<int64_t>(sorted.size()) > x.dim())
            throw InterpError(
                fmt::format("axes {} are not a permutation of the first {} axes of {}",
                            describeShape(perm), perm.size(), describeTensor(x)));
    for (int64_t i = static_cast<int64_t>(perm.size()); i < x.dim(); ++i)
        perm.push_back(i);
    return one(x.permute(perm).contiguous());
}

std::vector<Value> kConcat(const Call& call) {
    auto ts = sameDtype(call.arg("values"), "concat");
    const int64_t axis = checkAxis(call.integer("axis"), ts[0].dim(), "concat axis");
    checkConcatShapes(ts, axis, "concat");
    // tract 0.23.5 copies each input in blocks of byte_len / (product of the
    // axes before `axis`): a zero there divides by zero and panics, also
    // while it folds constants at load (data/src/tensor.rs, stack_tensors).
    if (call.tract() && ts.size() > 1)
        for (int64_t a = 0; a < axis; ++a)
            if (ts[0].size(a) == 0)
                throw InterpError(fmt::format(
                    "tract's concat panics on inputs empty before the concatenation axis (axis {} "
                    "of {} has size 0 before axis {}: \"attempt to divide by zero\" in "
                    "stack_tensors): write the empty result without a concat",
                    a, describeTensor(ts[0]), axis));
    return one(at::cat(ts, axis));
}

std::vector<Value> kSplit(const Call& call) {
    const at::Tensor x = call.tensor("value");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "split axis");
    const auto ratios = call.integers("ratios");
    const int64_t total = std::accumulate(ratios.begin(), ratios.end(), int64_t{0});
    if (total <= 0 || x.size(axis) % total != 0)
        throw InterpError(fmt::format("axis {} of size {} does not split by ratios {}", axis,
                                      x.size(axis), describeShape(ratios)));
    const int64_t unit = x.size(axis) / total;
    std::vector<Value> items;
    int64_t offset = 0;
    for (int64_t r : ratios) {
        items.push_back(Value::makeTensor(x.narrow(axis, offset, r * unit).contiguous()));
        offset += r * unit;
    }
    return {Value::makeArray(std::move(items))};
}

std::vector<Value> kSlice(const Call& call) {
    at::Tensor x = call.tensor("input");
    const auto axes = call.integers("axes");
    const auto begin = call.integers("begin");
    const auto end = call.integers("end");
    auto stride = call.integers("stride");
    if (stride.empty())
        stride.assign(axes.size(), 1);
    if (begin.size() != axes.size() || end.size() != axes.size() || stride.size() != axes.size())
        throw InterpError("axes, begin, end and stride must have the same length");
    checkAxes(axes, x.dim(), "slice axis");
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const int64_t n = x.size(axes[i]);
        const int64_t s = stride[i];
        if (s == 0)
            throw InterpError("slice stride must not be 0");
        int64_t b = begin[i] < 0 ? begin[i] + n : begin[i];
        int64_t e = end[i];
        // §1.2: a negative end counts from the end; end == 0 means "to the
        // end" (tract applies "end <= 0 -> end + size" for every stride,
        // nnef/src/ops/nnef/deser.rs slice; the spec states it for stride 1).
        if (e < 0 || (e == 0 && (s == 1 || (call.tract() && s > 0))))
            e += n;
        if (s > 0) { // values are clamped into the axis
            b = std::clamp<int64_t>(b, 0, n);
            e = std::clamp<int64_t>(e, b, n);
            x = x.slice(axes[i], b, e, s);
        } else {
            // Negative stride, Python's reading: from begin down to end (exclusive).
            b = std::clamp<int64_t>(b, -1, n - 1);
            e = std::clamp<int64_t>(e, -1, n - 1);
            std::vector<int64_t> idx;
            for (int64_t p = b; p > e; p += s)
                idx.push_back(p);
            x = x.index_select(axes[i], at::tensor(idx, at::kLong));
        }
    }
    return one(x.contiguous());
}

std::vector<Value> kSqueeze(const Call& call) {
    const at::Tensor x = call.tensor("input");
    auto axes = checkAxes(call.integers("axes"), x.dim(), "squeeze axis");
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < x.dim(); ++d) {
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            shape.push_back(x.size(d));
        } else if (x.size(d) != 1) {
            throw InterpError(fmt::format("cannot squeeze axis {} of {}: its size is not 1", d,
                                          describeTensor(x)));
        }
    }
    return one(x.reshape(shape));
}

std::vector<Value> kUnsqueeze(const Call& call) {
    const at::Tensor x = call.tensor("input");
    auto axes = call.integers("axes");
    std::sort(axes.begin(), axes.end()); // axes refer to the output: inserted in order
    auto shape = x.sizes().vec();
    for (int64_t a : axes) {
        if (a < 0 || a > static_cast<int64_t>(shape.size()))
            throw InterpError(
                fmt::format("unsqueeze axis {} is out of range for {}", a, describeTensor(x)));
        shape.insert(shape.begin() + a, 1);
    }
    return one(x.reshape(shape));
}

std::vector<Value> kStack(const Call& call) {
    auto ts = sameDtype(call.arg("values"), "stack");
    const int64_t axis = call.integer("axis");
    if (axis < 0 || axis > ts[0].dim())
        throw InterpError(
            fmt::format("stack axis {} is out of range for rank {}", axis, ts[0].dim()));
    for (const auto& t : ts)
        if (!t.sizes().equals(ts[0].sizes()))
            throw InterpError(fmt::format("stack of {} and {}: shapes differ",
                                          describeTensor(ts[0]), describeTensor(t)));
    return one(at::stack(ts, axis));
}

std::vector<Value> kUnstack(const Call& call) {
    const at::Tensor x = call.tensor("value");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "unstack axis");
    std::vector<Value> items;
    for (int64_t i = 0; i < x.size(axis); ++i)
        items.push_back(Value::makeTensor(x.select(axis, i).contiguous()));
    return {Value::makeArray(std::move(items))};
}

std::vector<Value> kTile(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const auto repeats = call.integers("repeats");
    if (static_cast<int64_t>(repeats.size()) != x.dim())
        throw InterpError(
            fmt::format("tile has {} repeats for {}", repeats.size(), describeTensor(x)));
    return one(x.repeat(repeats));
}

std::vector<Value> kPad(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const std::string& border = call.string("border");
    // tract reads 'constant', 'reflect' and 'replicated' (deser.rs pad_mode);
    // the spec has 'constant', 'reflect', 'reflect-even' and 'replicate'.
    const bool ok = call.tract()
                        ? (border == "constant" || border == "reflect" || border == "replicated")
                        : (border == "constant" || border == "reflect" ||
                           border == "reflect-even" || border == "replicate");
    if (!ok)
        throw InterpError(
            fmt::format("pad border '{}' is not supported by {}", border,
                        call.tract() ? "tract (it knows constant, reflect, replicated)"
                                     : "NNEF 1.0.5 (constant, reflect, reflect-even, replicate)"));
    return one(padBorder(x, call.pairs("padding"), border, call.scalar("value")));
}

std::vector<Value> kGather(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "gather axis");
    at::Tensor idx = call.tensor("indices");
    if (idx.is_floating_point() || idx.scalar_type() == at::kBool)
        throw InterpError(
            fmt::format("gather indices must be integers, got {}", describeTensor(idx)));
    const int64_t n = x.size(axis);
    idx = idx.to(at::kLong);
    idx = at::where(idx < 0, idx + n, idx); // negative indices count from the end (ONNX)
    if (idx.numel() > 0 && (idx.min().item<int64_t>() < 0 || idx.max().item<int64_t>() >= n))
        throw InterpError(fmt::format("gather index out of range for axis {} of size {}", axis, n));
    auto shape = x.sizes().vec();
    std::vector<int64_t> out(shape.begin(), shape.begin() + axis);
    out.insert(out.end(), idx.sizes().begin(), idx.sizes().end());
    out.insert(out.end(), shape.begin() + axis + 1, shape.end());
    return one(x.index_select(axis, idx.flatten()).reshape(out));
}

// tract_core_gather's datum_type (tract >= 0.21.11, ops/array/gather.rs):
// the type a block-quantized input is dequantized to, required for one; a
// plain input must already have it.
std::vector<Value> kTractGather(const Call& call) {
    const Value& input = call.arg("input");
    const std::string& name = call.string("datum_type");
    if (input.blockQuantized && name.empty())
        throw InterpError("tract_core_gather of block-quantized (Q4_0) data needs a datum_type "
                          "for its output: tract refuses it without one");
    if (name.empty())
        return kGather(call);
    const auto dt = dtypeFromName(name);
    if (!input.blockQuantized && input.tensor.scalar_type() != dt)
        throw InterpError(fmt::format("tract_core_gather: datum_type is '{}' but the input is {}",
                                      name, describeTensor(input.tensor)));
    Call typed = call;
    for (auto& [param, value] : typed.args)
        if (param == "input")
            value = Value::makeTensor(input.tensor.to(dt), input.constant);
    return kGather(typed);
}

std::vector<Value> kGatherElements(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "gather_elements axis");
    at::Tensor idx = call.tensor("indices").to(at::kLong);
    if (idx.dim() != x.dim())
        throw InterpError(fmt::format("gather_elements indices {} and input {} differ in rank",
                                      describeTensor(idx), describeTensor(x)));
    idx = at::where(idx < 0, idx + x.size(axis), idx);
    return one(at::gather(x, axis, idx));
}

std::vector<Value> kBroadcast(const Call& call) {
    // tract's MultiBroadcastTo: NumPy broadcasting (leading axes) of the
    // input's shape with `shape` — unlike the trailing rule of binary ops.
    const at::Tensor x = call.tensor("input");
    const auto target = at::infer_size(x.sizes(), call.integers("shape"));
    return one(x.expand(target).contiguous());
}

std::vector<Value> kDynSlice(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const int64_t axis = checkAxis(call.integer("axis"), x.dim(), "dyn_slice axis");
    const int64_t start = call.integer("start"), end = call.integer("end");
    if (start < 0 || end < start || end > x.size(axis))
        throw InterpError(fmt::format("dyn_slice [{}, {}) is out of range for axis {} of {}", start,
                                      end, axis, describeTensor(x)));
    return one(x.slice(axis, start, end).contiguous());
}

std::vector<Value> kTrilu(const Call& call) {
    const at::Tensor x = call.tensor("input");
    if (x.dim() < 2)
        throw InterpError(fmt::format("trilu needs a rank >= 2 tensor, got {}", describeTensor(x)));
    const int64_t k = call.integer("k");
    return one(call.logical("upper") ? at::triu(x, k) : at::tril(x, k));
}

} // namespace t2n::interp::kernels
