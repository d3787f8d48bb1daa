#include "load/input_hints.h"

#include "harden/default_arguments.h"
#include "harden/graph_utils.h"
#include "jit/packed_params.h"
#include "jit/torch_bridge.h"

#include "t2n/error.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/csrc/jit/passes/inliner.h>

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_set>

namespace t2n::load {

using torch::jit::Node;
using torch::jit::Value;

namespace {

// ---------------------------------------------------------------------------
// Reading weights: a prim::Constant after freezing, or a chain of
// prim::GetAttr from self (the graph is only inlined, so no weight is copied).

std::optional<c10::IValue> objectOf(const torch::jit::Module& module, const Value* v) {
    if (v == v->owningGraph()->inputs().at(0))
        return c10::IValue(module._ivalue());
    const Node* n = v->node();
    // Constants, and lists or tuples built of them.
    if (n->kind() != c10::prim::GetAttr)
        return harden::constantValue(v);
    auto owner = objectOf(module, n->input(0));
    if (!owner || !owner->isObject())
        return std::nullopt;
    const auto& object = owner->toObjectRef();
    const std::string& name = n->s(c10::attr::name);
    if (!object.type()->hasAttribute(name))
        return std::nullopt;
    return object.getAttr(name);
}

std::optional<at::Tensor> tensorOf(const torch::jit::Module& module, const Value* v) {
    auto iv = objectOf(module, v);
    if (iv && iv->isTensor() && iv->toTensor().defined())
        return iv->toTensor();
    return std::nullopt;
}

// The weight inside a quantized module's packed parameters, through the
// operator that quantized modules themselves use to print their weights.
std::optional<at::Tensor> unpackedWeight(const torch::jit::Module& module, const Value* packed,
                                         const char* unpackOp) {
    auto iv = objectOf(module, packed);
    if (!iv)
        return std::nullopt;
    try {
        auto op = c10::Dispatcher::singleton().findSchemaOrThrow(unpackOp, "");
        torch::jit::Stack stack{*iv};
        op.callBoxed(&stack);
        if (!stack.empty() && stack[0].isTensor())
            return stack[0].toTensor();
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

std::optional<int64_t> intOf(const Value* v) {
    auto iv = harden::constantValue(v);
    if (iv && iv->isInt())
        return iv->toInt();
    return std::nullopt;
}

// A bool or int list may also be a module attribute (scripted modules pass
// self.batch_first, self.normalized_shape).
std::optional<bool> boolOf(const torch::jit::Module& m, const Value* v) {
    auto iv = objectOf(m, v);
    if (iv && iv->isBool())
        return iv->toBool();
    return std::nullopt;
}

std::optional<std::vector<int64_t>> intsOf(const torch::jit::Module& m, const Value* v) {
    auto iv = objectOf(m, v);
    if (!iv)
        return std::nullopt;
    if (iv->isIntList())
        return iv->toIntList().vec();
    std::vector<c10::IValue> items;
    if (iv->isTuple())
        items = iv->toTupleRef().elements().vec();
    else if (iv->isList())
        items = iv->toListRef().vec();
    else
        return std::nullopt;
    std::vector<int64_t> out;
    for (const auto& e : items) {
        if (!e.isInt())
            return std::nullopt;
        out.push_back(e.toInt());
    }
    return out;
}

std::string sizesText(const at::Tensor& t) {
    return fmt::format("{}", fmt::join(t.sizes(), "x"));
}

// ---------------------------------------------------------------------------
// The way from the input to a consumer: the steps that move or add axes.

struct Step {
    enum Kind { Unsqueeze, Squeeze, Transpose, Permute, Flatten } kind;
    std::vector<int64_t> args;
};

int64_t normalized(int64_t axis, size_t rank) {
    return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

// The input's template for a consumer's view of it, or nothing when the
// steps cannot be undone for that view.
std::optional<ShapeTemplate> undo(ShapeTemplate shape, const std::vector<Step>& path) {
    for (auto step = path.rbegin(); step != path.rend(); ++step) {
        const size_t rank = shape.size();
        switch (step->kind) {
        case Step::Unsqueeze: {
            const int64_t d = normalized(step->args[0], rank);
            if (d < 0 || d >= static_cast<int64_t>(rank) || shape[d].free || shape[d].size != 1)
                return std::nullopt;
            shape.erase(shape.begin() + d);
            break;
        }
        case Step::Squeeze: {
            const int64_t d = normalized(step->args[0], rank + 1);
            if (d < 0 || d > static_cast<int64_t>(rank))
                return std::nullopt;
            shape.insert(shape.begin() + d, HintDim{1, std::nullopt});
            break;
        }
        case Step::Transpose: {
            const int64_t a = normalized(step->args[0], rank), b = normalized(step->args[1], rank);
            if (a < 0 || b < 0 || a >= static_cast<int64_t>(rank) ||
                b >= static_cast<int64_t>(rank))
                return std::nullopt;
            std::swap(shape[a], shape[b]);
            break;
        }
        case Step::Permute: {
            if (step->args.size() != rank)
                return std::nullopt;
            ShapeTemplate in(rank);
            for (size_t i = 0; i < rank; ++i) {
                const int64_t d = normalized(step->args[i], rank);
                if (d < 0 || d >= static_cast<int64_t>(rank))
                    return std::nullopt;
                in[d] = shape[i];
            }
            shape = in;
            break;
        }
        case Step::Flatten:
            // flatten(start) of a tensor of rank start + 1 changes nothing:
            // the only view of the input this walk can vouch for.
            if (normalized(step->args[0], rank) != static_cast<int64_t>(rank) - 1)
                return std::nullopt;
            break;
        }
    }
    return shape;
}

// ---------------------------------------------------------------------------
// Consumers: what an operation's weights say about the operand it reads.

struct Finding {
    std::vector<ShapeTemplate> shapes; ///< the consumer's view of the operand
    bool weak = false;                 ///< a constant view, not a weight
    std::string reason;
    std::optional<DType> dtype;
    std::optional<InputSpec::IntegerRange> range;
};

HintDim fixed(int64_t size) {
    return {size, std::nullopt};
}
HintDim free(FreeSize kind) {
    return {1, kind};
}

// "conv2d 'features.0'": the operation as a person knows it, and where.
std::string where(const Node* n, std::string_view name = {}) {
    // A module's call of its own method shows as a SELF step of the path.
    std::string path = harden::callPath(n);
    for (size_t at; (at = path.find(".SELF")) != std::string::npos;)
        path.erase(at, 5);
    const std::string what = name.empty() ? n->kind().toUnqualString() : std::string(name);
    return path.empty() ? what : fmt::format("{} '{}'", what, path);
}

// Channels first, then `spatial` free sizes; batched and unbatched.
Finding channelsFirst(const Node* n, std::string_view name, int64_t channels, int spatial,
                      const std::string& because) {
    Finding f;
    ShapeTemplate batched{fixed(1), fixed(channels)};
    FreeSize kind = spatial == 2    ? FreeSize::Image
                    : spatial == 3  ? FreeSize::Frames
                    : channels <= 2 ? FreeSize::Signal
                                    : FreeSize::Sequence;
    for (int i = 0; i < spatial; ++i)
        batched.push_back(free(spatial == 3 && i > 0 ? FreeSize::Image : kind));
    f.shapes.push_back(batched);
    // Video transformers want 16 frames of 224x224 exactly: that pair too.
    if (spatial == 3) {
        ShapeTemplate clip = batched;
        clip[2] = fixed(16);
        f.shapes.push_back(clip);
    }
    f.shapes.push_back(ShapeTemplate(batched.begin() + 1, batched.end()));
    f.reason = fmt::format("{} channel(s) read by {} ({})", channels, where(n, name), because);
    return f;
}

Finding features(const Node* n, int64_t count, const std::string& because) {
    Finding f;
    // Unbatched rows last: a point cloud's [P, 4] points, a set of tokens.
    f.shapes = {{fixed(1), fixed(count)},
                {fixed(1), free(FreeSize::Sequence), fixed(count)},
                {free(FreeSize::Sequence), fixed(count)}};
    f.reason = fmt::format("{} features read by {} ({})", count, where(n), because);
    return f;
}

// A 2-D convolution; one whose kernel is one row high may read a 1-D signal
// given a height of 1 (unsqueeze(x, 2), as optimize_for_mobile writes
// conv1d): that template too, after the image's.
Finding convolution2d(const Node* n, std::string_view name, const at::Tensor& w, int64_t groups) {
    const int64_t channels = w.size(1) * groups;
    Finding f = channelsFirst(n, name, channels, 2,
                              fmt::format("weight {}{}", sizesText(w),
                                          groups > 1 ? fmt::format(", {} groups", groups) : ""));
    if (w.size(2) == 1) {
        const HintDim length = free(channels <= 2 ? FreeSize::Signal : FreeSize::Sequence);
        f.shapes.insert(f.shapes.begin() + 1,
                        ShapeTemplate{fixed(1), fixed(channels), fixed(1), length});
    }
    return f;
}

std::optional<Finding> convolution(const torch::jit::Module& m, const Node* n,
                                   const std::string& kind) {
    std::optional<at::Tensor> w;
    bool transposed = kind.find("transpose") != std::string::npos;
    int64_t groups = 1;
    if (kind.rfind("quantized::", 0) == 0) {
        const std::string base = kind.substr(11, kind.find("_relu") - 11);
        w = unpackedWeight(m, n->input(1), fmt::format("quantized::{}_unpack", base).c_str());
        if (!w)
            w = unpackedWeight(m, n->input(1), "quantized::conv_unpack");
        // The packed weight does not say its groups: a depthwise first layer
        // is refused by the run and the next candidate follows.
    } else {
        w = tensorOf(m, n->input(1));
        if (kind == "aten::_convolution") {
            transposed = boolOf(m, n->input(6)).value_or(false);
            groups = intOf(n->input(8)).value_or(1);
        } else {
            groups = intOf(n->input(6)).value_or(1);
        }
    }
    if (!w || w->dim() < 3)
        return std::nullopt;
    if (!transposed && w->dim() == 4)
        return convolution2d(
            n, fmt::format("{}conv2d", kind.rfind("quantized::", 0) == 0 ? "quantized " : ""), *w,
            groups);
    const int64_t channels = transposed ? w->size(0) : w->size(1) * groups;
    const std::string name =
        fmt::format("{}conv{}{}d", kind.rfind("quantized::", 0) == 0 ? "quantized " : "",
                    transposed ? "_transpose" : "", w->dim() - 2);
    return channelsFirst(n, name, channels, static_cast<int>(w->dim() - 2),
                         fmt::format("weight {}{}", sizesText(*w),
                                     groups > 1 ? fmt::format(", {} groups", groups) : ""));
}

std::optional<Finding> recurrent(const torch::jit::Module& m, const Node* n) {
    // aten::lstm/gru/rnn_*(input, hx, params, has_biases, layers, dropout,
    // train, bidirectional, batch_first); the packed overload has no batch_first.
    if (n->inputs().size() < 9)
        return std::nullopt;
    // The weights: a list built in the graph (traced), or the module's
    // _flat_weights attribute (scripted).
    std::optional<at::Tensor> w;
    const Node* list = n->input(2)->node();
    if (list->kind() == c10::prim::ListConstruct && !list->inputs().empty())
        w = tensorOf(m, list->input(0));
    else if (auto iv = objectOf(m, n->input(2));
             iv && iv->isList() && !iv->toListRef().empty() && iv->toListRef()[0].isTensor())
        w = iv->toListRef()[0].toTensor();
    const auto batchFirst = boolOf(m, n->input(8));
    if (!w || w->dim() != 2 || !batchFirst)
        return std::nullopt;
    Finding f;
    const HintDim steps = free(FreeSize::Sequence);
    f.shapes = {*batchFirst ? ShapeTemplate{fixed(1), steps, fixed(w->size(1))}
                            : ShapeTemplate{steps, fixed(1), fixed(w->size(1))},
                {steps, fixed(w->size(1))}};
    f.reason = fmt::format("{} features per step read by {} (weight_ih_l0 {}, batch_first={})",
                           w->size(1), where(n), sizesText(*w), *batchFirst);
    return f;
}

std::optional<Finding> normalization(const torch::jit::Module& m, const Node* n,
                                     const std::string& kind) {
    if (kind == "aten::layer_norm") {
        auto dims = intsOf(m, n->input(1));
        if (!dims || dims->empty())
            return std::nullopt;
        Finding f;
        ShapeTemplate trailing;
        for (int64_t d : *dims)
            trailing.push_back(fixed(d));
        // Only the trailing sizes are fixed: the batch may come first or,
        // time-major, second.
        ShapeTemplate seq{fixed(1), free(FreeSize::Sequence)},
            timeMajor{free(FreeSize::Sequence), fixed(1)}, flat{fixed(1)};
        for (ShapeTemplate* t : {&seq, &timeMajor, &flat})
            t->insert(t->end(), trailing.begin(), trailing.end());
        f.shapes = {seq, timeMajor, flat};
        f.reason = fmt::format("trailing size(s) {} read by {}", fmt::join(*dims, "x"), where(n));
        return f;
    }
    // batch_norm(x, w, b, mean, var, ...), instance_norm(x, w, b, mean, var, ...),
    // group_norm(x, groups, w, b, ...)
    std::optional<at::Tensor> per;
    if (kind == "aten::group_norm")
        per = tensorOf(m, n->input(2));
    else
        for (size_t i : {size_t(3), size_t(1)})
            if (!per && n->inputs().size() > i)
                per = tensorOf(m, n->input(i));
    if (!per || per->dim() != 1)
        return std::nullopt;
    const int64_t c = per->size(0);
    Finding f;
    f.shapes = {{fixed(1), fixed(c), free(FreeSize::Image), free(FreeSize::Image)},
                {fixed(1), fixed(c), free(FreeSize::Sequence)},
                {fixed(1), fixed(c)}};
    f.reason = fmt::format("{} channel(s) read by {}", c, where(n));
    return f;
}

std::optional<Finding> reshape(const Node* n) {
    auto sizes = harden::constantValue(n->input(1));
    if (!sizes || !sizes->isIntList())
        return std::nullopt;
    const auto list = sizes->toIntList().vec();
    ShapeTemplate shape;
    for (size_t i = 0; i < list.size(); ++i) {
        if (list[i] == -1 && i == 0)
            shape.push_back(fixed(1)); // the batch, by convention
        else if (list[i] > 0)
            shape.push_back(fixed(list[i]));
        else
            return std::nullopt;
    }
    Finding f;
    f.shapes = {shape};
    f.weak = true;
    f.reason = fmt::format("reshaped to [{}] by {}", fmt::join(list, ", "), where(n));
    return f;
}

// Indices into another tensor (a point cloud's cells scattered into a
// canvas: index_put_((cells,), f, accumulate=True); index(x, (idx,)),
// index_select(x, 0, idx)): integers, one per row taken or written, so 1-D
// first, then batched.
Finding indices(const Node* n) {
    Finding f;
    f.shapes = {{free(FreeSize::Sequence)}, {fixed(1), free(FreeSize::Sequence)}};
    f.dtype = DType::I64;
    f.reason = fmt::format("indices read by {}", where(n));
    return f;
}

bool readsIndexList(const std::string& kind) {
    return kind == "aten::index" || kind == "aten::index_put" || kind == "aten::index_put_" ||
           kind == "aten::_index_put_impl_";
}

// What the consumer `n` (reading the walked value as its input `offset`)
// says; nothing when it says nothing.
std::optional<Finding> consumer(const torch::jit::Module& m, const Node* n, size_t offset) {
    const std::string kind = n->kind().toQualString();
    auto is = [&](std::initializer_list<const char*> kinds) {
        return std::any_of(kinds.begin(), kinds.end(), [&](const char* k) { return kind == k; });
    };
    if (offset == 0 &&
        (is({"aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d",
             "aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d"}) ||
         (kind.rfind("quantized::conv", 0) == 0 && kind.find("unpack") == std::string::npos)))
        return convolution(m, n, kind);
    if (offset == 0 && is({"aten::linear"}))
        if (auto w = tensorOf(m, n->input(1)); w && w->dim() == 2)
            return features(n, w->size(1), "weight " + sizesText(*w));
    if (offset == 0 && is({"quantized::linear", "quantized::linear_relu",
                           "quantized::linear_dynamic", "quantized::linear_relu_dynamic"}))
        if (auto w = unpackedWeight(m, n->input(1), "quantized::linear_unpack"); w && w->dim() == 2)
            return features(n, w->size(1), "weight " + sizesText(*w));
    // XNNPACK's prepacked conv2d/linear (optimize_for_mobile, .ptl files).
    if (offset == 0 && is({"prepacked::conv2d_clamp_run", "prepacked::linear_clamp_run"}))
        if (auto iv = objectOf(m, n->input(1)))
            if (auto p = jit::unpackMobileContext(*iv); p && p->weight.defined()) {
                const at::Tensor& w = p->weight;
                if (!p->conv && w.dim() == 2)
                    return features(n, w.size(1), "weight " + sizesText(w));
                if (p->conv && !p->transposed && w.dim() == 4)
                    return convolution2d(n, "prepacked conv2d", w, p->groups);
            }
    // mv(weight, x): x is a vector of the weight's columns.
    if (offset == 1 && is({"aten::mv"}))
        if (auto w = tensorOf(m, n->input(0)); w && w->dim() == 2) {
            Finding f;
            f.shapes = {{fixed(w->size(1))}};
            f.reason = fmt::format("a vector of {} read by {} (weight {})", w->size(1), where(n),
                                   sizesText(*w));
            return f;
        }
    if ((offset == 0 && is({"aten::matmul", "aten::mm"})) || (offset == 1 && is({"aten::addmm"})))
        if (auto w = tensorOf(m, n->input(offset + 1)); w && w->dim() == 2)
            return features(n, w->size(0), "weight " + sizesText(*w));
    if (offset == 1 && is({"aten::embedding"}))
        if (auto w = tensorOf(m, n->input(0)); w && w->dim() == 2) {
            Finding f;
            // [1]: one class label per sample of a batch of one (a DiT's y),
            // before an unbatched sequence.
            f.shapes = {
                {fixed(1), free(FreeSize::Sequence)}, {fixed(1)}, {free(FreeSize::Sequence)}};
            f.dtype = DType::I64;
            f.range = InputSpec::IntegerRange{0, w->size(0) - 1};
            f.reason = fmt::format("token ids from 0 to {}, the rows of {} (weight {})",
                                   w->size(0) - 1, where(n), sizesText(*w));
            return f;
        }
    if (offset == 0 && is({"aten::lstm", "aten::gru", "aten::rnn_tanh", "aten::rnn_relu"}))
        return recurrent(m, n);
    if (offset == 0 &&
        is({"aten::layer_norm", "aten::batch_norm", "aten::instance_norm", "aten::group_norm"}))
        return normalization(m, n, kind);
    if (offset == 0 && is({"aten::stft"})) {
        Finding f;
        f.shapes = {{fixed(1), free(FreeSize::Signal)}, {free(FreeSize::Signal)}};
        f.reason = fmt::format("an audio signal read by {}", where(n));
        return f;
    }
    if (offset == 0 && is({"aten::view", "aten::reshape"}))
        return reshape(n);
    if (offset == 2 && is({"aten::index_select"}))
        return indices(n);
    return std::nullopt;
}

// Operations whose output keeps the facts the walk is after (rank, and the
// size of every axis a consumer could fix).
bool keepsAxes(const std::string& kind) {
    static const std::unordered_set<std::string> kinds = {"aten::relu",
                                                          "aten::relu_",
                                                          "aten::sigmoid",
                                                          "aten::tanh",
                                                          "aten::gelu",
                                                          "aten::silu",
                                                          "aten::hardswish",
                                                          "aten::hardsigmoid",
                                                          "aten::hardtanh",
                                                          "aten::leaky_relu",
                                                          "aten::elu",
                                                          "aten::selu",
                                                          "aten::softplus",
                                                          "aten::mish",
                                                          "aten::dropout",
                                                          "aten::dropout_",
                                                          "aten::feature_dropout",
                                                          "aten::alpha_dropout",
                                                          "aten::contiguous",
                                                          "aten::clone",
                                                          "aten::detach",
                                                          "aten::to",
                                                          "aten::type_as",
                                                          "aten::float",
                                                          "aten::double",
                                                          "aten::half",
                                                          "aten::add",
                                                          "aten::add_",
                                                          "aten::sub",
                                                          "aten::sub_",
                                                          "aten::mul",
                                                          "aten::mul_",
                                                          "aten::div",
                                                          "aten::div_",
                                                          "aten::neg",
                                                          "aten::abs",
                                                          "aten::exp",
                                                          "aten::log",
                                                          "aten::log1p",
                                                          "aten::sqrt",
                                                          "aten::rsqrt",
                                                          "aten::pow",
                                                          "aten::clamp",
                                                          "aten::clamp_",
                                                          "aten::clamp_min",
                                                          "aten::clamp_max",
                                                          "aten::sin",
                                                          "aten::cos",
                                                          "aten::erf",
                                                          "aten::square",
                                                          "aten::sign",
                                                          "aten::quantize_per_tensor",
                                                          "aten::dequantize",
                                                          "aten::constant_pad_nd",
                                                          "aten::pad",
                                                          "aten::reflection_pad1d",
                                                          "aten::reflection_pad2d",
                                                          "aten::replication_pad1d",
                                                          "aten::replication_pad2d",
                                                          "aten::max_pool1d",
                                                          "aten::max_pool2d",
                                                          "aten::max_pool3d",
                                                          "aten::avg_pool1d",
                                                          "aten::avg_pool2d",
                                                          "aten::avg_pool3d",
                                                          "aten::upsample_nearest2d",
                                                          "aten::upsample_bilinear2d",
                                                          "prim::unchecked_cast",
                                                          "aten::masked_fill",
                                                          "aten::where",
                                                          "aten::softmax",
                                                          "aten::log_softmax"};
    return kinds.count(kind) > 0;
}

// Uses that say the value is a mask.
bool readsAsMask(const std::string& kind, size_t offset) {
    return (kind == "aten::masked_fill" && offset == 1) || (kind == "aten::where" && offset == 0) ||
           kind == "aten::logical_not" || kind == "aten::logical_and" ||
           kind == "aten::logical_or" || kind == "aten::__and__" || kind == "aten::__or__" ||
           kind == "aten::bitwise_not";
}

std::optional<Step> stepOf(const Node* n) {
    const std::string kind = n->kind().toQualString();
    if (kind == "aten::unsqueeze" || kind == "aten::unsqueeze_")
        if (auto d = intOf(n->input(1)))
            return Step{Step::Unsqueeze, {*d}};
    if (kind == "aten::squeeze" && n->inputs().size() == 2)
        if (auto d = intOf(n->input(1)))
            return Step{Step::Squeeze, {*d}};
    if (kind == "aten::transpose" || kind == "aten::transpose_")
        if (auto a = intOf(n->input(1)), b = intOf(n->input(2)); a && b)
            return Step{Step::Transpose, {*a, *b}};
    if (kind == "aten::permute")
        if (auto p = harden::constantValue(n->input(1)); p && p->isIntList())
            return Step{Step::Permute, p->toIntList().vec()};
    if (kind == "aten::flatten")
        if (auto s = intOf(n->input(1)), e = intOf(n->input(2)); s && e && *e == -1)
            return Step{Step::Flatten, {*s}};
    // view(x.size(0), -1) and reshape alike: a flatten from axis 1
    if (kind == "aten::view" || kind == "aten::reshape") {
        const Node* list = n->input(1)->node();
        if (list->kind() == c10::prim::ListConstruct && list->inputs().size() == 2 &&
            intOf(list->input(1)) == -1 && !intOf(list->input(0)))
            return Step{Step::Flatten, {1}};
    }
    return std::nullopt;
}

struct Walked {
    std::optional<Finding> finding;
    std::optional<Finding> weak; ///< the first weak one, used when no other
    std::optional<DType> maskDtype;
};

// Breadth first from the input: the nearest consumer that says something.
// The walk also follows the input packed as element k of a tuple (a helper
// returning (x, flag), possibly from the branches of an If) to where the
// tuple is unpacked, and into a cat along another axis.
Walked walk(const torch::jit::Module& m, const Value* input) {
    struct Item {
        const Value* value;
        std::vector<Step> path;
        int element = -1; ///< >= 0: `value` is a tuple, the input its element
    };
    Walked out;
    std::deque<Item> queue{{input, {}}};
    std::set<std::pair<const Value*, int>> seen{{input, -1}};
    auto push = [&](const Value* v, const std::vector<Step>& path, int element) {
        if (seen.insert({v, element}).second)
            queue.push_back({v, path, element});
    };
    for (int visited = 0; !queue.empty() && visited < 400; ++visited) {
        Item item = std::move(queue.front());
        queue.pop_front();
        for (const auto& use : item.value->uses()) {
            const Node* n = use.user;
            const std::string kind = n->kind().toQualString();
            // A branch of an If returns it (a scripted "unbatched input?"
            // test): the If's output carries it on.
            if (n->kind() == c10::prim::Return) {
                const Node* owner = n->owningBlock()->owningNode();
                if (owner && owner->kind() == c10::prim::If && use.offset < owner->outputs().size())
                    push(owner->output(use.offset), item.path, item.element);
                continue;
            }
            if (item.element >= 0) {
                const auto k = static_cast<size_t>(item.element);
                if (n->kind() == c10::prim::TupleUnpack && k < n->outputs().size())
                    push(n->output(k), item.path, -1);
                else if (n->kind() == c10::prim::TupleIndex &&
                         intOf(n->input(1)) == static_cast<int64_t>(k))
                    push(n->output(), item.path, -1);
                continue;
            }
            if (n->kind() == c10::prim::TupleConstruct) {
                push(n->output(), item.path, static_cast<int>(use.offset));
                continue;
            }
            // cat([x, padding], dim): the other axes are x's; an index list
            // (x[idx], index_put_((idx,), v)): integers.
            if (n->kind() == c10::prim::ListConstruct) {
                for (const auto& l : n->output()->uses()) {
                    const std::string user = l.user->kind().toQualString();
                    if (user == "aten::cat" && l.offset == 0)
                        push(l.user->output(), item.path, -1);
                    if (readsIndexList(user) && l.offset == 1 && !out.finding) {
                        Finding f = indices(l.user);
                        std::vector<ShapeTemplate> shapes;
                        for (const auto& t : f.shapes)
                            if (auto in = undo(t, item.path))
                                shapes.push_back(*in);
                        if (!shapes.empty()) {
                            f.shapes = shapes;
                            out.finding = f;
                        }
                    }
                }
                if (out.finding)
                    return out;
                continue;
            }
            if (readsAsMask(kind, use.offset))
                out.maskDtype = DType::Bool;
            if (auto f = consumer(m, n, use.offset)) {
                std::vector<ShapeTemplate> shapes;
                for (const auto& s : f->shapes)
                    if (auto in = undo(s, item.path))
                        shapes.push_back(*in);
                if (!shapes.empty()) {
                    f->shapes = shapes;
                    // A constant view is a weak witness (a traced model bakes
                    // the example's sizes into it): a weight read later wins.
                    if (!f->weak) {
                        out.finding = f;
                        return out;
                    }
                    if (!out.weak)
                        out.weak = f;
                }
            }
            auto step = stepOf(n);
            if (!step && !keepsAxes(kind))
                continue;
            // masked_fill and where keep axes through their first input only
            if ((kind == "aten::masked_fill" || kind == "aten::where") && use.offset != 0 &&
                !(kind == "aten::where" && use.offset == 1))
                continue;
            if (n->outputs().empty())
                continue;
            std::vector<Step> path = item.path;
            if (step)
                path.push_back(*step);
            push(n->output(0), path, -1);
        }
    }
    if (!out.finding)
        out.finding = std::move(out.weak);
    return out;
}

bool namedLikeLengths(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    return name.find("length") != std::string::npos || name.find("lens") != std::string::npos ||
           name == "len" || name.rfind("len_", 0) == 0 ||
           (name.size() > 4 && name.compare(name.size() - 4, 4, "_len") == 0);
}

// An int, float or bool argument: the constants forward() compares it with
// (`if sr != 16000`, `sr in self.sample_rates`), in the order the graph
// reads them, else a common value (16000 for a sample rate).
std::optional<InputHint> numberHint(const torch::jit::Module& m, const c10::Argument& arg,
                                    const Value* input) {
    c10::TypePtr type = arg.type();
    if (type->kind() == c10::TypeKind::OptionalType)
        type = type->expectRef<c10::OptionalType>().getElementType();
    const auto kind = type->kind();
    if (kind != c10::TypeKind::IntType && kind != c10::TypeKind::FloatType &&
        kind != c10::TypeKind::BoolType)
        return std::nullopt;
    InputHint hint;
    hint.name = arg.name();
    hint.number = true;
    hint.dtype = kind == c10::TypeKind::FloatType  ? DType::F32
                 : kind == c10::TypeKind::BoolType ? DType::Bool
                                                   : DType::I64;
    std::vector<double> compared;
    auto add = [&](const c10::IValue& iv) {
        double v = 0;
        if (iv.isInt())
            v = static_cast<double>(iv.toInt());
        else if (iv.isDouble() && kind == c10::TypeKind::FloatType)
            v = iv.toDouble();
        else
            return;
        if (std::find(compared.begin(), compared.end(), v) == compared.end())
            compared.push_back(v);
    };
    static const std::set<std::string> comparisons = {"aten::eq", "aten::ne", "aten::lt",
                                                      "aten::le", "aten::gt", "aten::ge"};
    if (kind != c10::TypeKind::BoolType)
        for (const auto& use : input->uses()) {
            const Node* n = use.user;
            const std::string k = n->kind().toQualString();
            if (comparisons.count(k) && n->inputs().size() == 2) {
                if (auto other = harden::constantValue(n->input(1 - use.offset)))
                    add(*other);
            } else if (k == "aten::__contains__" && use.offset == 1) {
                if (auto list = objectOf(m, n->input(0)); list && list->isList())
                    for (const auto& e : list->toListRef())
                        add(e);
            }
        }
    std::string name = hint.name;
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    if (!compared.empty()) {
        hint.values = compared;
        hint.reason = fmt::format("the first of the values the model compares '{}' with ({})",
                                  arg.name(), fmt::join(compared, ", "));
    } else if (kind == c10::TypeKind::IntType &&
               (name == "sr" || name.find("rate") != std::string::npos)) {
        hint.values = {16000, 8000};
        hint.reason = "a common sample rate (its name says it is one)";
    } else {
        hint.values = {kind == c10::TypeKind::BoolType ? 0.0 : 1.0};
        hint.reason =
            fmt::format("no operation of the model says which {}; a common value", type->str());
    }
    hint.shapes.assign(hint.values.size(), ShapeTemplate{});
    return hint;
}

} // namespace

std::string templateText(const ShapeTemplate& shape) {
    if (shape.empty())
        return "scalar";
    std::vector<std::string> dims;
    for (const auto& d : shape) {
        if (!d.free)
            dims.push_back(std::to_string(d.size));
        else
            dims.push_back(*d.free == FreeSize::Image      ? "{image}"
                           : *d.free == FreeSize::Sequence ? "{sequence}"
                           : *d.free == FreeSize::Signal   ? "{signal}"
                                                           : "{frames}");
    }
    return fmt::format("{}", fmt::join(dims, "x"));
}

InputHints readInputHints(const torch::jit::Module& module) {
    const auto& method = module.get_method("forward");
    const auto& schema = method.function().getSchema();
    const size_t arguments = schema.arguments().size() - 1;
    // Trailing arguments with defaults keep them.
    size_t given = arguments;
    while (given > 0 && schema.arguments()[given].default_value())
        --given;
    InputHints out;
    std::vector<bool> shaped; ///< per hint: an operation or the signature gave its shape
    for (size_t i = given; i < arguments; ++i) {
        const auto& arg = schema.arguments()[i + 1];
        std::ostringstream value;
        value << *arg.default_value();
        out.defaulted.push_back(fmt::format("{} (default {})", arg.name(), value.str()));
    }
    auto graph = method.graph()->copy();
    torch::jit::Inline(*graph);
    for (size_t i = 0; i < given; ++i) {
        const auto& arg = schema.arguments()[i + 1];
        auto tensorType = arg.type()->cast<c10::TensorType>();
        if (!tensorType)
            if (auto number = numberHint(module, arg, graph->inputs().at(i + 1))) {
                out.hints.push_back(std::move(*number));
                continue;
            }
        if (!tensorType)
            throw Error(Stage::Load, ErrorCode::Usage,
                        fmt::format("forward()'s argument '{}' is of type {}, not a tensor or a "
                                    "number, and has no default: t2n gives forward() tensors "
                                    "and numbers only",
                                    arg.name(), arg.type()->str()),
                        "export a wrapper module whose forward() takes tensors and passes the "
                        "other values itself");
        InputHint hint;
        hint.name = arg.name();
        // A traced model's signature may record the example's dtype and sizes.
        const auto recordedType = tensorType->scalarType();
        const auto recordedSizes = tensorType->sizes().concrete_sizes();
        Walked w = walk(module, graph->inputs().at(i + 1));
        if (recordedSizes) {
            shaped.resize(out.hints.size() + 1, false);
            shaped.back() = true;
            ShapeTemplate shape;
            for (int64_t d : *recordedSizes)
                shape.push_back(fixed(d));
            hint.shapes = {shape};
            hint.reason = "the shape recorded in the model's TorchScript signature";
        } else if (w.finding) {
            shaped.resize(out.hints.size() + 1, false);
            shaped.back() = true;
            hint.shapes = w.finding->shapes;
            hint.reason = w.finding->reason;
            hint.range = w.finding->range;
            if (w.finding->dtype)
                hint.dtype = *w.finding->dtype;
        } else if (namedLikeLengths(hint.name)) {
            hint.lengths = true;
            hint.dtype = DType::I64;
            hint.shapes = {{fixed(1)}, {}};
            hint.reason = "its name says it holds lengths: the sequence length of the other "
                          "inputs";
        } else {
            hint.reason = "no operation of the model fixes its shape; common shapes tried";
        }
        // After what the graph says (which a traced model's baked sizes can
        // contradict), the common shapes, for the search to go on with.
        if (!recordedSizes && !hint.lengths)
            for (ShapeTemplate common :
                 {ShapeTemplate{fixed(1), fixed(3), free(FreeSize::Image), free(FreeSize::Image)},
                  ShapeTemplate{fixed(1), free(FreeSize::Sequence)},
                  ShapeTemplate{fixed(1), free(FreeSize::Sequence), free(FreeSize::Sequence)},
                  ShapeTemplate{free(FreeSize::Sequence)}})
                if (std::find(hint.shapes.begin(), hint.shapes.end(), common) == hint.shapes.end())
                    hint.shapes.push_back(common);
        if (w.maskDtype && !hint.range)
            hint.dtype = *w.maskDtype;
        if (recordedType)
            if (auto dt = jit::fromScalarType(*recordedType))
                hint.dtype = *dt;
        out.hints.push_back(std::move(hint));
    }
    shaped.resize(out.hints.size(), false);
    // An input no operation shapes beside inputs that are shaped: a mask first
    // takes the shapes of its sibling token ids (ids [1, S], mask [1, S]);
    // then the first common shape (whose errors lead to a KV cache's) and a
    // batch of one, [1], the batch the others are given (a diffusion model's
    // timesteps t, a per-sample scale), before the other common shapes.
    const bool anyShaped = std::find(shaped.begin(), shaped.end(), true) != shaped.end();
    for (size_t i = 0; i < out.hints.size() && anyShaped; ++i) {
        InputHint& h = out.hints[i];
        if (shaped[i] || h.lengths || h.number)
            continue;
        std::vector<ShapeTemplate> first;
        std::string name = h.name;
        std::transform(name.begin(), name.end(), name.begin(), ::tolower);
        if (name.find("mask") != std::string::npos)
            for (size_t j = 0; j < out.hints.size(); ++j)
                for (const auto& s : out.hints[j].shapes)
                    if (j != i && shaped[j] && !s.empty() && s.size() <= 2 &&
                        std::find(first.begin(), first.end(), s) == first.end())
                        first.push_back(s);
        std::vector<ShapeTemplate> rest = h.shapes;
        rest.insert(rest.begin() + std::min<std::ptrdiff_t>(1, std::ssize(rest)), {fixed(1)});
        for (const auto& s : rest)
            if (std::find(first.begin(), first.end(), s) == first.end())
                first.push_back(s);
        h.shapes = std::move(first);
        h.reason = "no operation of the model fixes its shape; the shapes of the inputs beside "
                   "it and common ones tried";
    }
    // Lengths go with sequences: the other inputs try their sequence shapes
    // first ([1, L, F] before [1, F] for a linear layer's input).
    const bool sequences = std::any_of(out.hints.begin(), out.hints.end(),
                                       [](const InputHint& h) { return h.lengths; });
    for (auto& h : out.hints)
        if (sequences && !h.lengths)
            std::stable_partition(h.shapes.begin(), h.shapes.end(), [](const ShapeTemplate& s) {
                return std::any_of(s.begin(), s.end(),
                                   [](const HintDim& d) { return d.free == FreeSize::Sequence; });
            });
    return out;
}

} // namespace t2n::load
