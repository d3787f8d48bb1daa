// tract's writing operations, element by element as tract defines them
// (core/src/ops/array/scatter_elements.rs, scatter_nd.rs, one_hot.rs) rather
// than through LibTorch's scatter, index_put or one_hot, which are what the
// exported models call: the check then does not share their mistakes.
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <functional>
#include <numeric>

namespace t2n::interp::kernels {

namespace {

enum class Reduction { None, Add, Mul, Min, Max };

Reduction reductionOf(const Call& call) {
    const std::string& r = call.string("reduction");
    if (r == "none")
        return Reduction::None;
    if (r == "add")
        return Reduction::Add;
    if (r == "mul")
        return Reduction::Mul;
    if (r == "min")
        return Reduction::Min;
    if (r == "max")
        return Reduction::Max;
    throw InterpError(fmt::format("unknown scatter reduction '{}'", r));
}

template <typename T> void apply(T& d, T u, Reduction r) {
    switch (r) {
    case Reduction::None:
        d = u;
        return;
    case Reduction::Add:
        d = static_cast<T>(d + u);
        return;
    case Reduction::Mul:
        d = static_cast<T>(d * u);
        return;
    case Reduction::Min:
        if (u < d)
            d = u;
        return;
    case Reduction::Max:
        if (u > d)
            d = u;
        return;
    }
}

template <> void apply<bool>(bool& d, bool u, Reduction r) {
    if (r != Reduction::None)
        throw InterpError("scatter reductions need numbers, not booleans");
    d = u;
}

std::vector<int64_t> stridesOf(at::IntArrayRef shape) {
    std::vector<int64_t> s(shape.size(), 1);
    for (int64_t a = static_cast<int64_t>(shape.size()) - 2; a >= 0; --a)
        s[static_cast<size_t>(a)] =
            s[static_cast<size_t>(a) + 1] * shape[static_cast<size_t>(a) + 1];
    return s;
}

// The data and updates of a scatter in one dtype (tract casts both to their
// common super type; t2n's lowerings give them the same one).
std::pair<at::Tensor, at::Tensor> dataAndUpdates(const Call& call) {
    at::Tensor data = call.tensor("input");
    at::Tensor updates = call.tensor("updates");
    if (updates.scalar_type() != data.scalar_type()) {
        const auto t = at::promote_types(data.scalar_type(), updates.scalar_type());
        data = data.to(t);
        updates = updates.to(t);
    }
    return {data.contiguous().clone(), updates.contiguous()};
}

} // namespace

std::vector<Value> kScatterElements(const Call& call) {
    auto [data, updates] = dataAndUpdates(call);
    const at::Tensor indices = call.tensor("indices").to(at::kLong).contiguous();
    const int64_t axis = checkAxis(call.integer("axis"), data.dim(), "scatter_elements axis");
    const Reduction reduction = reductionOf(call);
    if (!indices.sizes().equals(updates.sizes()) || indices.dim() != data.dim())
        throw InterpError(fmt::format("scatter_elements indices {} and updates {} must have one "
                                      "shape, of the rank of input {}",
                                      describeTensor(indices), describeTensor(updates),
                                      describeTensor(data)));
    const auto dataStrides = stridesOf(data.sizes());
    const auto updStrides = stridesOf(updates.sizes());
    const int64_t n = data.size(axis);
    const int64_t* idx = indices.data_ptr<int64_t>();
    AT_DISPATCH_ALL_TYPES_AND2(at::kHalf, at::kBool, data.scalar_type(), "scatter_elements", [&] {
        scalar_t* d = data.data_ptr<scalar_t>();
        const scalar_t* u = updates.data_ptr<scalar_t>();
        for (int64_t k = 0; k < updates.numel(); ++k) {
            // Coordinates of k in updates; the same place in data but on `axis`.
            int64_t offset = 0, rest = k;
            for (int64_t a = 0; a < updates.dim(); ++a) {
                int64_t c = rest / updStrides[static_cast<size_t>(a)];
                rest %= updStrides[static_cast<size_t>(a)];
                if (a == axis) {
                    c = idx[k] < 0 ? idx[k] + n : idx[k];
                    if (c < 0 || c >= n)
                        throw InterpError(fmt::format(
                            "scatter_elements index {} out of range for axis {} of size {}", idx[k],
                            axis, n));
                } else if (c >= data.size(a)) {
                    throw InterpError("scatter_elements updates exceed the input");
                }
                offset += c * dataStrides[static_cast<size_t>(a)];
            }
            apply<scalar_t>(d[offset], u[k], reduction);
        }
    });
    return one(data);
}

std::vector<Value> kScatterNd(const Call& call) {
    auto [data, updates] = dataAndUpdates(call);
    const at::Tensor indices = call.tensor("indices").to(at::kLong).contiguous();
    const Reduction reduction = reductionOf(call);
    if (indices.dim() < 1)
        throw InterpError("scatter_nd indices need a last axis of coordinates");
    const int64_t k = indices.size(-1);
    if (k > data.dim())
        throw InterpError(
            fmt::format("scatter_nd coordinates of {} axes into {}", k, describeTensor(data)));
    // updates = B + data.shape[k:]
    std::vector<int64_t> want(indices.sizes().begin(), indices.sizes().end() - 1);
    want.insert(want.end(), data.sizes().begin() + k, data.sizes().end());
    if (!updates.sizes().equals(want))
        throw InterpError(fmt::format("scatter_nd updates {} must be {}", describeTensor(updates),
                                      describeShape(want)));
    const auto dataStrides = stridesOf(data.sizes());
    int64_t slice = 1;
    for (int64_t a = k; a < data.dim(); ++a)
        slice *= data.size(a);
    const int64_t tuples = k == 0 ? 0 : indices.numel() / k;
    const int64_t* idx = indices.data_ptr<int64_t>();
    AT_DISPATCH_ALL_TYPES_AND2(at::kHalf, at::kBool, data.scalar_type(), "scatter_nd", [&] {
        scalar_t* d = data.data_ptr<scalar_t>();
        const scalar_t* u = updates.data_ptr<scalar_t>();
        for (int64_t t = 0; t < tuples; ++t) {
            int64_t offset = 0;
            for (int64_t a = 0; a < k; ++a) {
                const int64_t c = idx[t * k + a];
                // tract reads the coordinates as unsigned offsets: no wrapping.
                if (c < 0 || c >= data.size(a))
                    throw InterpError(
                        fmt::format("scatter_nd coordinate {} out of range for axis {} of size {}",
                                    c, a, data.size(a)));
                offset += c * dataStrides[static_cast<size_t>(a)];
            }
            for (int64_t e = 0; e < slice; ++e)
                apply<scalar_t>(d[offset + e], u[t * slice + e], reduction);
        }
    });
    return one(data);
}

// GatherNd (core/src/ops/array/gather_nd.rs): the last axis of `indices`
// holds coordinates into the axes after the `batch_dims` leading ones; the
// output is indices.shape[:-1] + input.shape[batch_dims + n:]. tract reads
// the coordinates as unsigned offsets: no wrapping of negative ones.
std::vector<Value> kGatherNd(const Call& call) {
    const at::Tensor data = call.tensor("input");
    const at::Tensor indices = call.tensor("indices").to(at::kLong).contiguous();
    const int64_t batch = call.integer("batch_dims");
    if (indices.dim() < 1)
        throw InterpError("gather_nd indices need a last axis of coordinates");
    const int64_t n = indices.size(-1);
    if (batch < 0 || batch + n > data.dim() || batch >= indices.dim())
        throw InterpError(fmt::format("gather_nd of {} coordinates after {} batch axes into {}", n,
                                      batch, describeTensor(data)));
    for (int64_t a = 0; a < batch; ++a)
        if (indices.size(a) != data.size(a))
            throw InterpError(fmt::format("gather_nd batch axes of {} and {} differ",
                                          describeTensor(indices), describeTensor(data)));
    std::vector<int64_t> shape(indices.sizes().begin(), indices.sizes().end() - 1);
    shape.insert(shape.end(), data.sizes().begin() + batch + n, data.sizes().end());
    int64_t batches = 1, slice = 1, inner = 1;
    for (int64_t a = 0; a < batch; ++a)
        batches *= data.size(a);
    for (int64_t a = batch + n; a < data.dim(); ++a)
        slice *= data.size(a);
    for (int64_t a = batch; a < data.dim(); ++a)
        inner *= data.size(a);
    const int64_t tuples = n == 0 ? 0 : indices.numel() / n / std::max<int64_t>(batches, 1);
    const at::Tensor flat = data.contiguous().reshape({batches, inner});
    at::Tensor out = at::empty({batches, tuples, slice}, data.options());
    const int64_t* idx = indices.data_ptr<int64_t>();
    const auto strides = stridesOf(data.sizes().slice(static_cast<size_t>(batch)));
    for (int64_t b = 0; b < batches; ++b)
        for (int64_t t = 0; t < tuples; ++t) {
            int64_t offset = 0;
            for (int64_t a = 0; a < n; ++a) {
                const int64_t c = idx[(b * tuples + t) * n + a];
                const int64_t size = data.size(batch + a);
                if (c < 0 || c >= size)
                    throw InterpError(
                        fmt::format("gather_nd coordinate {} out of range for axis {} of size {}",
                                    c, batch + a, size));
                offset += c * strides[static_cast<size_t>(a)];
            }
            out[b][t].copy_(flat[b].narrow(0, offset, slice));
        }
    return one(out.reshape(shape));
}

std::vector<Value> kOneHot(const Call& call) {
    // OneHot::eval: the output has value_off's type (an NNEF scalar: f32),
    // `dim` inserted at `axis`; a negative class counts from the end.
    const at::Tensor input = call.tensor("input").to(at::kLong).contiguous();
    const int64_t dim = call.integer("dim");
    const int64_t axis = checkAxis(call.integer("axis"), input.dim() + 1, "one_hot axis");
    std::vector<int64_t> shape = input.sizes().vec();
    shape.insert(shape.begin() + axis, dim);
    at::Tensor out = at::full(shape, call.scalar("value_off"), at::kFloat);
    const float on = static_cast<float>(call.scalar("value_on"));
    const auto inStrides = stridesOf(input.sizes());
    const auto outStrides = stridesOf(shape);
    float* o = out.data_ptr<float>();
    const int64_t* v = input.data_ptr<int64_t>();
    for (int64_t k = 0; k < input.numel(); ++k) {
        const int64_t c = v[k] < 0 ? v[k] + dim : v[k];
        if (c < 0 || c >= dim)
            throw InterpError(
                fmt::format("one_hot class {} out of range for {} classes", v[k], dim));
        int64_t offset = 0, rest = k;
        for (int64_t a = 0, oa = 0; a < input.dim(); ++a, ++oa) {
            if (oa == axis)
                ++oa;
            offset +=
                (rest / inStrides[static_cast<size_t>(a)]) * outStrides[static_cast<size_t>(oa)];
            rest %= inStrides[static_cast<size_t>(a)];
        }
        o[offset + c * outStrides[static_cast<size_t>(axis)]] = on;
    }
    return one(out);
}

} // namespace t2n::interp::kernels
