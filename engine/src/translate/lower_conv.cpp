// Convolutions, plain and transposed, 1d to 3d. NNEF's conv filter layout
// [O, C/groups, k...] is PyTorch's own, and so is the Khronos deconv layout
// [C, O/groups, k...]: weights are written unchanged; the bias becomes [1, C].
// tract reads a deconv filter as it reads a conv filter, [O, C/groups, k...]
// (nnef/src/ops/nnef/deser.rs, read_conv_parameters: input channels are
// kernel[1] * groups, output channels kernel[0]; KernelFormat::OIHW), as
// torch_to_nnef writes it: for tract the filter is regrouped in the graph
// (tractDeconvFilter), so the variable keeps PyTorch's bytes and label.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

namespace t2n::translate {

namespace {

struct ConvArgs {
    size_t input = 0, weight = 1, bias = 2;
    std::vector<int64_t> stride, dilation, outputPadding;
    std::vector<std::pair<int64_t, int64_t>> padding;
    bool transposed = false;
    int64_t groups = 1;
};

// [1, C] bias, or 0.0 when absent.
Expr biasOperand(Context& ctx, const ConvArgs& a, int64_t channels) {
    if (ctx.isNone(a.bias))
        return Expr::f(0.0);
    const ir::Value& b = ctx.in(a.bias);
    if (b.constant)
        if (auto* t = std::get_if<TensorData>(&*b.constant))
            return ctx.constantTensor(t->reshaped({1, channels}), b.paramName,
                                      b.name.empty() ? b.debugName : b.name);
    return ctx.emitTemp("unsqueeze", {ctx.input(a.bias)}, {{"axes", Expr::ints({0})}}, "bias");
}

std::vector<std::pair<int64_t, int64_t>> symmetric(const std::vector<int64_t>& p) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int64_t v : p)
        out.emplace_back(v, v);
    return out;
}

// padding='same' pads dilation*(k-1) in total, the odd unit after (as PyTorch).
std::vector<std::pair<int64_t, int64_t>> stringPadding(Context& ctx, const std::string& mode,
                                                       const std::vector<int64_t>& kernel,
                                                       const std::vector<int64_t>& dilation) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t i = 0; i < kernel.size(); ++i) {
        if (mode == "valid") {
            out.emplace_back(0, 0);
        } else if (mode == "same") {
            int64_t total = dilation[i] * (kernel[i] - 1);
            out.emplace_back(total / 2, total - total / 2);
        } else {
            ctx.unsupported(fmt::format("convolution padding '{}'", mode));
        }
    }
    return out;
}

// PyTorch's transposed-convolution weight [C, O/g, k...] as tract's deconv
// filter [O, C/g, k...]: per group, the two channel axes swapped.
Expr tractDeconvFilter(Context& ctx, Expr filter, const std::vector<int64_t>& shape,
                       int64_t groups) {
    const auto rank = static_cast<int64_t>(shape.size());
    const int64_t in = shape[0], outPerGroup = shape[1];
    std::vector<int64_t> kernel(shape.begin() + 2, shape.end());
    if (groups == 1) {
        std::vector<int64_t> axes{1, 0};
        for (int64_t d = 2; d < rank; ++d)
            axes.push_back(d);
        return ctx.emitTemp("transpose", {std::move(filter)}, {{"axes", Expr::ints(axes)}},
                            "filter_oihw");
    }
    std::vector<int64_t> split{groups, in / groups, outPerGroup};
    split.insert(split.end(), kernel.begin(), kernel.end());
    Expr grouped = ctx.emitTemp("reshape", {std::move(filter)}, {{"shape", Expr::ints(split)}},
                                "filter_groups");
    std::vector<int64_t> axes{0, 2, 1};
    for (int64_t d = 3; d < rank + 1; ++d)
        axes.push_back(d);
    Expr swapped =
        ctx.emitTemp("transpose", {grouped}, {{"axes", Expr::ints(axes)}}, "filter_swapped");
    std::vector<int64_t> merged{groups * outPerGroup, in / groups};
    merged.insert(merged.end(), kernel.begin(), kernel.end());
    return ctx.emitTemp("reshape", {swapped}, {{"shape", Expr::ints(merged)}}, "filter_oihw");
}

void emitConv(Context& ctx, ConvArgs a) {
    const ir::Value& w = ctx.in(a.weight);
    const int64_t spatial = rankOf(w) - 2;
    if (spatial < 1 || spatial > 3 || rankOf(ctx.in(a.input)) != spatial + 2)
        ctx.unsupported(fmt::format("convolution of a rank-{} input with a rank-{} weight "
                                    "(unbatched inputs are not supported yet)",
                                    rankOf(ctx.in(a.input)), rankOf(w)),
                        "give the model a batch dimension");
    const auto n = static_cast<size_t>(spatial);
    a.stride = expandInts(a.stride, n, 1);
    a.dilation = expandInts(a.dilation, n, 1);
    if (a.padding.size() == 1 && n > 1)
        a.padding.assign(n, a.padding[0]);
    if (a.padding.empty())
        a.padding.assign(n, {0, 0});
    const int64_t outChannels = a.transposed ? w.shape[1] * a.groups : w.shape[0];

    Kwargs k;
    k.emplace_back("border", Expr::str("constant"));
    if (a.transposed) {
        // PyTorch's output_padding extends the end: crop less there.
        a.outputPadding = expandInts(a.outputPadding, n, 0);
        bool fits = true;
        for (size_t i = 0; i < n; ++i)
            fits = fits && a.outputPadding[i] <= a.padding[i].second;
        if (fits) {
            for (size_t i = 0; i < n; ++i)
                a.padding[i].second -= a.outputPadding[i];
        } else {
            // tract honours output_shape only when it lists the spatial axes.
            const auto& o = ctx.out().shape;
            k.emplace_back("output_shape",
                           Expr::ints(std::vector<int64_t>(o.end() - spatial, o.end())));
        }
    }
    std::vector<Expr> pads;
    for (auto [b, e] : a.padding)
        pads.push_back(Expr::tuple({Expr::i(b), Expr::i(e)}));
    k.emplace_back("padding", Expr::array(pads));
    k.emplace_back("stride", Expr::ints(a.stride));
    k.emplace_back("dilation", Expr::ints(a.dilation));
    k.emplace_back("groups", Expr::i(a.groups));
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[a.input], spatial + 2, t);
    Expr filter = ctx.operand(ctx.node().inputs[a.weight], spatial + 2, t);
    if (a.transposed && !ctx.target().isKhronos())
        filter = tractDeconvFilter(ctx, std::move(filter), w.shape, a.groups);
    Expr bias = biasOperand(ctx, a, outChannels);
    ctx.emitOut(a.transposed ? "deconv" : "conv", {x, filter, bias}, std::move(k));
}

// aten::_convolution(input, weight, bias, stride, padding, dilation,
//                    transposed, output_padding, groups, ...) and
// aten::convolution(input, weight, bias, stride, padding, dilation,
//                   transposed, output_padding, groups)
void lowerConvolution(Context& ctx) {
    ConvArgs a;
    a.stride = ctx.intsArg(3);
    a.dilation = ctx.intsArg(5);
    a.transposed = ctx.boolArg(6);
    a.outputPadding = ctx.intsArg(7);
    a.groups = ctx.intArg(8);
    a.padding = symmetric(ctx.intsArg(4));
    emitConv(ctx, a);
}

// aten::conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups),
// padding an int list or 'same' / 'valid'; also aten::_convolution_mode.
void lowerConvNd(Context& ctx) {
    ConvArgs a;
    a.stride = ctx.intsArg(3);
    a.dilation = ctx.intsArg(5);
    a.groups = ctx.intArg(6);
    const ir::Value& p = ctx.in(4);
    if (p.constant && std::holds_alternative<std::string>(*p.constant)) {
        const ir::Value& w = ctx.in(1);
        std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
        a.padding =
            stringPadding(ctx, ctx.stringArg(4), kernel, expandInts(a.dilation, kernel.size(), 1));
    } else {
        a.padding = symmetric(ctx.intsArg(4));
    }
    emitConv(ctx, a);
}

// aten::conv_transpose{1,2,3}d(input, weight, bias, stride, padding,
//                             output_padding, groups, dilation)
void lowerConvTranspose(Context& ctx) {
    ConvArgs a;
    a.transposed = true;
    a.stride = ctx.intsArg(3);
    a.padding = symmetric(ctx.intsArg(4));
    a.outputPadding = ctx.intsArg(5);
    a.groups = ctx.intArg(6);
    a.dilation = ctx.intsArg(7);
    emitConv(ctx, a);
}

// conv_tbc(x [T, B, Cin], weight [K, Cin, Cout], bias [Cout], pad): a 1-d
// convolution over time in (time, batch, channel) layout: x to [B, Cin, T],
// the constant filter permuted to [Cout, Cin, K] at export time, conv
// with `pad` on both ends, back to [T, B, Cout].
void lowerConvTbc(Context& ctx) {
    const ir::Value& w = ctx.in(1);
    if (rankOf(ctx.in(0)) != 3 || rankOf(w) != 3)
        ctx.unsupported("conv_tbc of other than 3-d input and weight");
    if (ctx.out().dtype != DType::F32 || w.dtype != DType::F32)
        ctx.unsupported("conv_tbc of non-f32 tensors");
    const int64_t k = w.shape[0], cin = w.shape[1], cout = w.shape[2], pad = ctx.intArg(3);
    const auto* d = w.constant ? std::get_if<TensorData>(&*w.constant) : nullptr;
    if (!d)
        ctx.unsupported("conv_tbc with a computed weight",
                        "t2n permutes a constant weight into NNEF's filter layout");
    std::vector<float> permuted(static_cast<size_t>(k * cin * cout));
    for (int64_t o = 0; o < cout; ++o)
        for (int64_t c = 0; c < cin; ++c)
            for (int64_t j = 0; j < k; ++j)
                permuted[static_cast<size_t>((o * cin + c) * k + j)] =
                    static_cast<float>(d->asDouble((j * cin + c) * cout + o));
    Expr filter = floatTable(ctx, permuted, {cout, cin, k}, "filter");
    ConvArgs a;
    a.bias = 2;
    Expr bias = biasOperand(ctx, a, cout);
    Expr x = ctx.emitTemp("transpose", {ctx.input(0)}, {{"axes", Expr::ints({1, 2, 0})}}, "bct");
    Expr y = ctx.emitTemp("conv", {x, filter, bias},
                          {{"border", Expr::str("constant")},
                           {"padding", Expr::array({Expr::tuple({Expr::i(pad), Expr::i(pad)})})},
                           {"stride", Expr::ints({1})},
                           {"dilation", Expr::ints({1})},
                           {"groups", Expr::i(1)}},
                          "conv");
    ctx.emitOut("transpose", {y}, {{"axes", Expr::ints({2, 0, 1})}});
}

} // namespace

void registerConvOps(Registry& r) {
    r.beginFamily("conv");
    r.add("aten::_convolution", lowerConvolution, "1d-3d, groups, dilation, transposed");
    r.add("aten::convolution", lowerConvolution, "1d-3d, groups, dilation, transposed");
    r.add("aten::conv1d", lowerConvNd, "padding ints, 'same' or 'valid'");
    r.add("aten::conv2d", lowerConvNd, "padding ints, 'same' or 'valid'");
    r.add("aten::conv3d", lowerConvNd, "padding ints, 'same' or 'valid'");
    r.add("aten::_convolution_mode", lowerConvNd, "padding 'same' or 'valid'");
    r.add("aten::conv_transpose1d", lowerConvTranspose, "output_padding, groups, dilation");
    r.add("aten::conv_transpose2d", lowerConvTranspose, "output_padding, groups, dilation");
    r.add("aten::conv_transpose3d", lowerConvTranspose, "output_padding, groups, dilation");
    r.add("aten::conv_tbc", lowerConvTbc, "(time, batch, channel) layout; f32, constant weight",
          "transpose conv");
}

} // namespace t2n::translate
