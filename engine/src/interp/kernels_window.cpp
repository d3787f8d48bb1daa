// Sliding-window kernels (§1.2, §1.3): conv / deconv (1-3 spatial axes,
// groups, depthwise, explicit or automatic padding), separable variants,
// box / debox and the pools over EVERY axis, local normalisations, and the
// up/down-sampling operations.
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <limits>
#include <numeric>

namespace t2n::interp::kernels {

Window windowOf(at::IntArrayRef input, std::vector<int64_t> size, std::vector<int64_t> stride,
                std::vector<int64_t> dilation, std::vector<std::pair<int64_t, int64_t>> padding,
                std::string_view what) {
    const std::size_t rank = input.size();
    if (size.size() != rank)
        throw InterpError(fmt::format("{} size {} does not match the {} axes of the input {}", what,
                                      describeShape(size), rank, describeShape(input)));
    if (stride.empty())
        stride.assign(rank, 1);
    if (dilation.empty())
        dilation.assign(rank, 1);
    if (stride.size() != rank || dilation.size() != rank)
        throw InterpError(fmt::format("{} stride {} / dilation {} must have {} items", what,
                                      describeShape(stride), describeShape(dilation), rank));
    for (std::size_t i = 0; i < rank; ++i)
        if (size[i] < 1 || stride[i] < 1 || dilation[i] < 1)
            throw InterpError(fmt::format("{} size, stride and dilation must be positive", what));
    if (padding.empty()) {
        // Automatic padding (§1.2): the output size is ceil(i / s).
        for (std::size_t i = 0; i < rank; ++i) {
            const int64_t out = (input[i] + stride[i] - 1) / stride[i];
            const int64_t total = std::max<int64_t>(
                0, (out - 1) * stride[i] + (size[i] - 1) * dilation[i] + 1 - input[i]);
            padding.emplace_back(total / 2, total - total / 2);
        }
    } else if (padding.size() != rank) {
        throw InterpError(
            fmt::format("{} padding has {} items for {} axes", what, padding.size(), rank));
    }
    for (std::size_t i = 0; i < rank; ++i) {
        if (padding[i].first < 0 || padding[i].second < 0)
            throw InterpError(fmt::format("{} padding must not be negative", what));
        if (input[i] + padding[i].first + padding[i].second < (size[i] - 1) * dilation[i] + 1)
            throw InterpError(fmt::format("{} window {} is larger than the padded input {}", what,
                                          describeShape(size), describeShape(input)));
    }
    return Window{size, stride, dilation, padding};
}

namespace {

enum class Reduce { Sum, Max };

/// Applies the window axis by axis (a box is separable): output size
/// floor((i + p + q - (k-1)d - 1) / s) + 1 per axis. `x` is already padded.
at::Tensor windowReduce(at::Tensor x, const Window& w, Reduce how) {
    for (int64_t axis = 0; axis < x.dim(); ++axis) {
        const auto a = static_cast<std::size_t>(axis);
        if (w.size[a] == 1 && w.stride[a] == 1)
            continue;
        const int64_t span = (w.size[a] - 1) * w.dilation[a] + 1;
        at::Tensor u = x.unfold(axis, span, w.stride[a]);
        if (w.dilation[a] > 1)
            u = u.slice(-1, 0, span, w.dilation[a]);
        // amax: max(-1)'s values without the i64 indices it would also write.
        x = how == Reduce::Sum ? u.sum(-1) : u.amax(-1);
    }
    return x.contiguous();
}

std::vector<std::pair<int64_t, int64_t>> zeroPads(int64_t n) {
    return std::vector<std::pair<int64_t, int64_t>>(static_cast<std::size_t>(n), {0, 0});
}

/// box / avg / max over every axis with the border semantics of `mode`.
at::Tensor pool(const Call& call, const at::Tensor& x, const Window& w, std::string_view border,
                Reduce how, bool normalize) {
    bool ignore = border == "ignore";
    if (call.tract()) {
        // tract reads box and max_pool_with_index with border 'constant' or
        // 'ignore' only (nnef/src/ops/nnef/deser.rs). A max pool excludes the
        // padded cells both ways ("FIXME: constant is not actually
        // supported"); a sum pool counts them in the divisor for 'constant'
        // only from the release after 0.23.5 (`count_include_pad: border ==
        // "constant"`; `false` before, whatever the border).
        if (border != "constant" && border != "ignore")
            throw InterpError(fmt::format("tract pools with border 'constant' or 'ignore' only, "
                                          "got '{}'",
                                          border));
        ignore = how == Reduce::Max || border == "ignore" ||
                 !call.readings.constantPoolBorderCountsPadding;
    }
    at::Tensor padded;
    if (ignore || border == "constant") {
        double fill = 0.0;
        if (how == Reduce::Max && ignore)
            fill = x.is_floating_point() ? -std::numeric_limits<double>::infinity()
                                         : static_cast<double>(std::numeric_limits<int64_t>::min());
        padded = padBorder(x, w.padding, "constant", fill);
    } else {
        padded = padBorder(x, w.padding, border, 0.0);
    }
    at::Tensor out = windowReduce(padded, w, how);
    if (how == Reduce::Max || !normalize)
        return out;
    if (ignore) { // divide by the number of real (non-padded) cells of each window
        at::Tensor ones = padBorder(at::ones_like(x), w.padding, "constant", 0.0);
        return out / windowReduce(ones, w, Reduce::Sum);
    }
    const int64_t cells =
        std::accumulate(w.size.begin(), w.size.end(), int64_t{1}, std::multiplies<>());
    return out / static_cast<double>(cells);
}

at::Tensor boxOf(const Call& call, const at::Tensor& x, std::vector<int64_t> size,
                 std::string_view border, bool normalize) {
    Window w = windowOf(x.sizes(), std::move(size), {}, {}, {}, "box");
    return pool(call, x, w, border, Reduce::Sum, normalize);
}

/// The transposed box on one axis: each input cell adds to its window.
at::Tensor deboxAxis(const at::Tensor& x, int64_t axis, int64_t k, int64_t s, int64_t d) {
    const int64_t n = x.size(axis);
    auto shape = x.sizes().vec();
    shape[static_cast<std::size_t>(axis)] = (n - 1) * s + (k - 1) * d + 1;
    at::Tensor out = at::zeros(shape, x.options());
    const at::Tensor base = at::arange(n, at::kLong) * s;
    for (int64_t m = 0; m < k; ++m)
        out.index_add_(axis, base + m * d, x);
    return out;
}

/// Keeps `length` cells from `start` along `axis`, reading zeros past the end.
at::Tensor window1d(const at::Tensor& x, int64_t axis, int64_t start, int64_t length) {
    const int64_t have = x.size(axis);
    at::Tensor t = x;
    if (start + length > have) {
        auto pads = zeroPads(x.dim());
        pads[static_cast<std::size_t>(axis)].second = start + length - have;
        t = padBorder(x, pads, "constant", 0.0);
    }
    return t.narrow(axis, start, length);
}

/// Output extent and leading crop of a transposed window on one axis.
/// `full` = (i-1)s + (k-1)d + 1; explicit padding crops p before and q after
/// unless `outSize` (> 0) asks for another extent; automatic padding centres
/// a total crop of full - outSize (outSize defaulting to i*s).
std::pair<int64_t, int64_t> transposedExtent(int64_t i, int64_t k, int64_t s, int64_t d,
                                             std::optional<std::pair<int64_t, int64_t>> pad,
                                             int64_t outSize) {
    const int64_t full = (i - 1) * s + (k - 1) * d + 1;
    if (pad) {
        const int64_t o = outSize > 0 ? outSize : full - pad->first - pad->second;
        return {pad->first, o};
    }
    const int64_t o = outSize > 0 ? outSize : i * s;
    const int64_t total = std::max<int64_t>(0, full - o);
    return {total / 2, o};
}

/// `out` is the convolution's own fresh result, which the bias is added to in
/// place: the same sums as `out + b`, without a second output-sized buffer.
at::Tensor addConvBias(at::Tensor out, const Value& biasValue) {
    // The bias is [1, O] by the spec; tract drops its unit axes and adds it
    // per channel (deser.rs conv_or_deconv), a one-element bias everywhere.
    at::Tensor b = literalTensor(biasValue).to(out.scalar_type());
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < b.dim(); ++d)
        if (b.size(d) != 1)
            kept.push_back(b.size(d));
    if (kept.empty())
        return out.add_(b.reshape({}));
    if (kept.size() != 1 || kept[0] != out.size(1))
        throw InterpError(fmt::format("bias {} does not match the {} output channels",
                                      describeTensor(b), out.size(1)));
    std::vector<int64_t> shape(static_cast<std::size_t>(out.dim()), 1);
    shape[1] = kept[0];
    return out.add_(b.reshape(shape));
}

struct ConvArgs {
    Value bias;
    std::string border;
    std::vector<std::pair<int64_t, int64_t>> padding;
    std::vector<int64_t> stride, dilation, outputShape;
    int64_t groups = 1;
};

at::Tensor convolve(const Call& call, const at::Tensor& input, const Value& filterValue,
                    const ConvArgs& a, bool transposed) {
    const std::string_view what = transposed ? "deconv" : "conv";
    at::Tensor x = input;
    at::Tensor f = literalTensor(filterValue).to(x.scalar_type());
    if (x.dim() < 3 || x.dim() > 5 || f.dim() != x.dim())
        throw InterpError(fmt::format("{} of {} with filter {}: ranks must be equal, 3 to 5", what,
                                      describeTensor(x), describeTensor(f)));
    const int64_t spatial = x.dim() - 2;
    if (call.tract() && a.border != "constant")
        throw InterpError(
            fmt::format("tract's {} supports border 'constant' only, got '{}'", what, a.border));
    int64_t groups = a.groups;
    if (groups == 0) // depthwise: one group per input channel (tract: the filter's first axis)
        groups = call.tract() ? f.size(0) : x.size(1);
    // tract reads a deconv filter as a conv filter, [O, C/groups, k...]
    // (deser.rs read_conv_parameters: input channels are kernel[1] * groups),
    // the spec as [C, O/groups, k...]: tract's is checked like a conv filter,
    // then regrouped into the spec's layout, which LibTorch computes with.
    const bool oihw = transposed && call.tract();
    const int64_t inPerGroup = transposed && !oihw ? 1 : f.size(1);
    if (groups < 1 ||
        (transposed && !oihw ? f.size(0) != x.size(1) || x.size(1) % groups != 0
                             : x.size(1) != inPerGroup * groups || f.size(0) % groups != 0))
        throw InterpError(fmt::format("{} of {} with filter {} and groups = {}: channels do not "
                                      "match",
                                      what, describeTensor(x), describeTensor(f), groups));
    if (oihw) {
        std::vector<int64_t> grouped{groups, f.size(0) / groups, f.size(1)};
        std::vector<int64_t> merged{x.size(1), f.size(0) / groups};
        for (int64_t d = 2; d < f.dim(); ++d) {
            grouped.push_back(f.size(d));
            merged.push_back(f.size(d));
        }
        f = f.reshape(grouped).transpose(1, 2).reshape(merged);
    }
    const auto kernel = f.sizes().slice(2).vec();
    const auto inSpatial = x.sizes().slice(2).vec();
    if (!transposed) {
        Window w = windowOf(inSpatial, kernel, a.stride, a.dilation, a.padding, what);
        // Khronos' own PyTorch interpreter hands symmetric zero padding and a
        // per-channel bias to the convolution itself: padding first or adding
        // the bias afterwards picks another algorithm or rounds differently,
        // beyond torch.allclose wherever a sum nearly cancels out.
        std::vector<int64_t> symmetric;
        for (auto [before, after] : w.padding)
            if (before == after)
                symmetric.push_back(before);
        const at::Tensor perChannel = literalTensor(a.bias).to(x.scalar_type());
        if (!call.tract() && (a.border == "constant" || a.border == "ignore") &&
            symmetric.size() == w.padding.size()) {
            std::vector<int64_t> none(static_cast<std::size_t>(spatial), 0);
            const bool fused = perChannel.numel() == f.size(0);
            at::Tensor out = at::convolution(x, f, fused ? perChannel.reshape({-1}) : at::Tensor(),
                                             w.stride, symmetric, w.dilation, false, none, groups);
            return fused ? out : addConvBias(out, a.bias);
        }
        auto pads = zeroPads(2);
        pads.insert(pads.end(), w.padding.begin(), w.padding.end());
        x = padBorder(x, pads, a.border == "ignore" ? "constant" : a.border, 0.0);
        std::vector<int64_t> zeros(static_cast<std::size_t>(spatial), 0);
        at::Tensor out =
            at::convolution(x, f, {}, w.stride, zeros, w.dilation, false, zeros, groups);
        return addConvBias(out, a.bias);
    }
    auto stride = a.stride.empty() ? std::vector<int64_t>(spatial, 1) : a.stride;
    auto dilation = a.dilation.empty() ? std::vector<int64_t>(spatial, 1) : a.dilation;
    if (static_cast<int64_t>(stride.size()) != spatial ||
        static_cast<int64_t>(dilation.size()) != spatial ||
        (!a.padding.empty() && static_cast<int64_t>(a.padding.size()) != spatial))
        throw InterpError(
            fmt::format("deconv stride, dilation and padding need {} items", spatial));
    // output_shape: the whole output shape by the spec; tract uses it only
    // when it lists the spatial axes alone (deser.rs: `os.len() == pool_spec.rank()`).
    std::vector<int64_t> outSpatial;
    if (call.tract() ? static_cast<int64_t>(a.outputShape.size()) == spatial
                     : !a.outputShape.empty()) {
        outSpatial = a.outputShape;
        if (static_cast<int64_t>(outSpatial.size()) == spatial + 2)
            outSpatial.erase(outSpatial.begin(), outSpatial.begin() + 2);
        else if (static_cast<int64_t>(outSpatial.size()) != spatial)
            throw InterpError(fmt::format("deconv output_shape {} has a wrong length",
                                          describeShape(a.outputShape)));
    }
    std::vector<int64_t> zeros(static_cast<std::size_t>(spatial), 0);
    at::Tensor out = at::convolution(x, f, {}, stride, zeros, dilation, true, zeros, groups);
    for (int64_t i = 0; i < spatial; ++i) {
        const auto s = static_cast<std::size_t>(i);
        std::optional<std::pair<int64_t, int64_t>> pad;
        if (!a.padding.empty())
            pad = a.padding[s];
        auto [start, length] = transposedExtent(inSpatial[s], kernel[s], stride[s], dilation[s],
                                                pad, outSpatial.empty() ? 0 : outSpatial[s]);
        if (length < 0)
            throw InterpError("deconv padding exceeds the output");
        out = window1d(out, i + 2, start, length);
    }
    return addConvBias(out.contiguous(), a.bias);
}

ConvArgs convArgs(const Call& call, bool transposed) {
    ConvArgs a;
    a.bias = call.arg("bias");
    a.border = call.string("border");
    a.padding = call.pairs("padding");
    a.stride = call.integers("stride");
    a.dilation = call.integers("dilation");
    if (transposed)
        a.outputShape = call.integers("output_shape");
    a.groups = call.integer("groups");
    return a;
}

} // namespace

std::vector<Value> kConv(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const std::string& op = call.op;
    if (op == "conv" || op == "deconv")
        return one(
            convolve(call, x, call.arg("filter"), convArgs(call, op == "deconv"), op == "deconv"));
    const bool transposed = op == "separable_deconv";
    ConvArgs outer = convArgs(call, transposed);
    ConvArgs plain; // defaults of the inner invocations of the stdlib body
    plain.bias = Value::makeScalar(0.0);
    plain.border = "constant";
    plain.groups = outer.groups;
    if (!transposed) {
        // filtered = conv(input, plane_filter, border, padding, stride, dilation, groups = 0)
        // output = conv(filtered, point_filter, bias, groups = groups)
        ConvArgs plane = outer;
        plane.bias = Value::makeScalar(0.0);
        plane.groups = 0;
        at::Tensor filtered = convolve(call, x, call.arg("plane_filter"), plane, false);
        plain.bias = outer.bias;
        return one(convolve(call, filtered, call.arg("point_filter"), plain, false));
    }
    // filtered = deconv(input, point_filter, groups = groups)
    // output = deconv(filtered, plane_filter, bias, border, padding, stride,
    //                 dilation, output_shape, groups = 0)
    at::Tensor filtered = convolve(call, x, call.arg("point_filter"), plain, true);
    ConvArgs plane = outer;
    plane.groups = 0;
    return one(convolve(call, filtered, call.arg("plane_filter"), plane, true));
}

// tract's pools (max_pool, box, avg_pool, rms_pool) read the first two axes
// as batch and channels (nnef/src/ops/nnef/deser.rs, pool_spec_for_pools)
// and refuse a stride or dilation other than 1 there; its window covers the
// spatial axes only.
void checkTractPoolAxes(const Call& call, const at::Tensor& x) {
    const auto size = call.integers("size");
    const auto stride = call.integers("stride");
    const auto dilation = call.integers("dilation");
    auto unit = [](const std::vector<int64_t>& v) {
        return v.empty() || (v.size() >= 2 && v[0] == 1 && v[1] == 1);
    };
    if (x.dim() < 3 || !unit(size) || !unit(stride) || !unit(dilation))
        throw InterpError(fmt::format(
            "tract's {} reads the first two axes of {} as batch and channels: size, stride "
            "and dilation must be 1 there (size {}, stride {}, dilation {}; tract: \"stride "
            "should be like [1, 1, ...]\")",
            call.op, describeTensor(x), describeShape(size), describeShape(stride),
            describeShape(dilation)));
}

std::vector<Value> kBox(const Call& call) {
    at::Tensor x = call.tensor("input");
    Window w = windowOf(x.sizes(), call.integers("size"), call.integers("stride"),
                        call.integers("dilation"), call.pairs("padding"), call.op);
    if (call.tract())
        checkTractPoolAxes(call, x);
    const std::string& border = call.string("border");
    const std::string& op = call.op;
    if (op == "max_pool")
        return one(pool(call, x, w, border, Reduce::Max, false));
    if (op == "box")
        return one(pool(call, x, w, border, Reduce::Sum, call.logical("normalize")));
    if (op == "avg_pool") // stdlib body: box(..., normalize = true)
        return one(pool(call, x, w, border, Reduce::Sum, true));
    // rms_pool: sqrt(avg_pool(sqr(input)))
    return one(at::sqrt(pool(call, at::pow(x, 2.0), w, border, Reduce::Sum, true)));
}

std::vector<Value> kDebox(const Call& call) {
    at::Tensor x = call.tensor("input");
    const auto size = call.integers("size");
    auto stride = call.integers("stride");
    auto dilation = call.integers("dilation");
    const auto padding = call.pairs("padding");
    const auto outputShape = call.integers("output_shape");
    const auto rank = static_cast<std::size_t>(x.dim());
    if (stride.empty())
        stride.assign(rank, 1);
    if (dilation.empty())
        dilation.assign(rank, 1);
    if (size.size() != rank || stride.size() != rank || dilation.size() != rank ||
        (!padding.empty() && padding.size() != rank) ||
        (!outputShape.empty() && outputShape.size() != rank))
        throw InterpError(fmt::format("debox parameters need {} items (one per axis)", rank));
    const std::string& border = call.string("border");
    if (border != "constant" && border != "ignore")
        throw InterpError(
            fmt::format("debox supports border 'constant' or 'ignore', got '{}'", border));
    const auto inShape = x.sizes().vec();
    for (std::size_t a = 0; a < rank; ++a) {
        const auto axis = static_cast<int64_t>(a);
        at::Tensor full = deboxAxis(x, axis, size[a], stride[a], dilation[a]);
        std::optional<std::pair<int64_t, int64_t>> pad;
        if (!padding.empty())
            pad = padding[a];
        auto [start, length] = transposedExtent(inShape[a], size[a], stride[a], dilation[a], pad,
                                                outputShape.empty() ? 0 : outputShape[a]);
        x = window1d(full, axis, start, length);
    }
    if (call.logical("normalize"))
        x = x / static_cast<double>(
                    std::accumulate(size.begin(), size.end(), int64_t{1}, std::multiplies<>()));
    return one(x.contiguous());
}

std::vector<Value> kLocalNorm(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const auto size = call.integers("size");
    const std::string& op = call.op;
    auto variance = [&](const at::Tensor& t) {
        // sigma = sqrt(box(sqr(t), size, normalize = true)); t / max(sigma + bias, epsilon)
        at::Tensor sigma = at::sqrt(boxOf(call, at::pow(t, 2.0), size, "constant", true));
        return t / at::maximum(sigma + call.scalar("bias"),
                               at::scalar_tensor(call.scalar("epsilon"), sigma.options()));
    };
    if (op == "local_response_normalization") {
        // sigma = bias + alpha * box(sqr(input), size, normalize = true); input / sigma ^ beta
        at::Tensor sigma =
            call.scalar("bias") +
            call.scalar("alpha") * boxOf(call, at::pow(x, 2.0), size, "constant", true);
        return one(x / at::pow(sigma, call.scalar("beta")));
    }
    if (op == "local_mean_normalization")
        return one(x - boxOf(call, x, size, "constant", true));
    if (op == "local_variance_normalization")
        return one(variance(x));
    // local_contrast_normalization: variance normalisation of the mean-centred input
    return one(variance(x - boxOf(call, x, size, "constant", true)));
}

std::vector<Value> kResample(const Call& call) {
    at::Tensor x = call.tensor("input");
    const auto factor = call.integers("factor");
    if (static_cast<int64_t>(factor.size()) + 2 != x.dim())
        throw InterpError(fmt::format("factor {} needs {} items for {}", describeShape(factor),
                                      x.dim() - 2, describeTensor(x)));
    const std::string& op = call.op;
    if (op == "nearest_downsample") { // box(size 1, stride [1,1] + factor)
        for (std::size_t i = 0; i < factor.size(); ++i)
            x = x.slice(static_cast<int64_t>(i) + 2, 0, x.size(static_cast<int64_t>(i) + 2),
                        factor[i]);
        return one(x.contiguous());
    }
    if (op == "area_downsample") { // box(size = stride = [1,1] + factor, normalize = true)
        std::vector<int64_t> win{1, 1};
        win.insert(win.end(), factor.begin(), factor.end());
        Window w = windowOf(x.sizes(), win, win, {}, zeroPads(x.dim()), op);
        at::Tensor s = windowReduce(x, w, Reduce::Sum);
        return one(s / static_cast<double>(std::accumulate(factor.begin(), factor.end(), int64_t{1},
                                                           std::multiplies<>())));
    }
    if (op == "nearest_upsample") { // debox(size = stride = [1,1] + factor): each cell repeated
        for (std::size_t i = 0; i < factor.size(); ++i)
            x = x.repeat_interleave(factor[i], static_cast<int64_t>(i) + 2);
        return one(x.contiguous());
    }
    // multilinear_upsample: separable linear interpolation per spatial axis.
    // Source coordinate of output cell j: 'aligned' j (n-1)/(o-1), 'symmetric'
    // (j + 0.5)/f - 0.5, 'asymmetric' j/f; border 'replicate' clamps the
    // neighbours into the input, 'constant' reads zeros outside.
    const std::string& method = call.string("method");
    const std::string& border = call.string("border");
    if (method != "aligned" && method != "symmetric" && method != "asymmetric")
        throw InterpError(fmt::format("unknown multilinear_upsample method '{}'", method));
    if (border != "replicate" && border != "constant")
        throw InterpError(fmt::format("multilinear_upsample border '{}' is not supported", border));
    for (std::size_t i = 0; i < factor.size(); ++i) {
        const int64_t axis = static_cast<int64_t>(i) + 2, n = x.size(axis), f = factor[i];
        const int64_t o = n * f;
        std::vector<int64_t> lo, hi;
        std::vector<double> wlo, whi;
        for (int64_t j = 0; j < o; ++j) {
            double src = method == "aligned"
                             ? (o > 1 ? double(j) * double(n - 1) / double(o - 1) : 0.0)
                         : method == "symmetric" ? (double(j) + 0.5) / double(f) - 0.5
                                                 : double(j) / double(f);
            const int64_t i0 = static_cast<int64_t>(std::floor(src));
            const double t = src - double(i0);
            auto use = [&](int64_t k, double weight, std::vector<int64_t>& idx,
                           std::vector<double>& wt) {
                if (k < 0 || k >= n) {
                    if (border == "constant")
                        weight = 0.0;
                    k = std::clamp<int64_t>(k, 0, n - 1);
                }
                idx.push_back(k);
                wt.push_back(weight);
            };
            use(i0, 1.0 - t, lo, wlo);
            use(i0 + 1, t, hi, whi);
        }
        std::vector<int64_t> wshape(static_cast<std::size_t>(x.dim()), 1);
        wshape[static_cast<std::size_t>(axis)] = o;
        auto weights = [&](const std::vector<double>& w) {
            return at::tensor(w, at::kDouble).to(x.scalar_type()).reshape(wshape);
        };
        x = x.index_select(axis, at::tensor(lo, at::kLong)) * weights(wlo) +
            x.index_select(axis, at::tensor(hi, at::kLong)) * weights(whi);
    }
    return one(x.contiguous());
}

} // namespace t2n::interp::kernels
