#include "ir/size_rules.h"

#include "ir/ir_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

namespace t2n::ir {

namespace {

using JitValue = torch::jit::Value;
using JitNode = torch::jit::Node;

// How an axis' size follows a symbol: about symbol / factor, and the largest
// factor of the path that led there (an upsample divides the factor back, not
// the rounding the strides did on the way down).
struct Dep {
    std::string symbol; ///< "": the axis follows no single symbol
    int64_t factor = 1;
    int64_t need = 1;
};
using Deps = std::vector<Dep>;

std::optional<std::vector<int64_t>> intList(const JitValue* v) {
    if (auto iv = torch::jit::toIValue(v)) {
        if (iv->isIntList())
            return iv->toIntVector();
        if (iv->isInt())
            return std::vector<int64_t>{iv->toInt()};
        return std::nullopt;
    }
    if (v->node()->kind() != c10::prim::ListConstruct)
        return std::nullopt;
    std::vector<int64_t> out;
    for (const JitValue* in : v->node()->inputs()) {
        auto iv = torch::jit::toIValue(in);
        if (!iv || !iv->isInt())
            return std::nullopt;
        out.push_back(iv->toInt());
    }
    return out;
}

std::optional<int64_t> intConstant(const JitValue* v) {
    auto iv = torch::jit::toIValue(v);
    return iv && iv->isInt() ? std::optional<int64_t>(iv->toInt()) : std::nullopt;
}

int64_t at(const std::vector<int64_t>& list, size_t i, int64_t fallback) {
    if (list.empty())
        return fallback;
    return i < list.size() ? list[i] : list.back();
}

std::string where(const JitNode* n) {
    const NodeRef ref = describeNode(n);
    if (ref.sourceLine <= 0)
        return ref.kind;
    return fmt::format("{} at {}:{}", ref.kind,
                       std::filesystem::path(ref.sourceFile).filename().string(), ref.sourceLine);
}

class Inference {
public:
    explicit Inference(const jit::Recorded& main) : main_(main) {}

    std::map<std::string, SizeRule> rules;

    void input(const JitValue* v, const std::map<int, std::string>& axes) {
        const auto shape = shapeOf(v);
        Deps d(shape.size());
        for (const auto& [axis, symbol] : axes)
            if (axis >= 0 && static_cast<size_t>(axis) < d.size()) {
                d[static_cast<size_t>(axis)].symbol = symbol;
                rules.try_emplace(symbol);
            }
        deps_[v] = d;
    }

    void node(const JitNode* n) {
        const std::string kind = n->kind().toQualString();
        if (n->outputs().empty() || n->inputs().empty())
            return;
        if (isWindowed(kind))
            windowed(n, kind);
        else if (kind.starts_with("aten::upsample_") || kind.starts_with("aten::_upsample_") ||
                 kind == "aten::conv_transpose1d" || kind == "aten::conv_transpose2d" ||
                 kind == "aten::conv_transpose3d")
            scaled(n);
        else if (kind == "aten::cat" || kind == "aten::concat")
            concatenated(n);
        else if (kind == "aten::view" || kind == "aten::reshape" || kind == "aten::flatten" ||
                 kind == "aten::_unsafe_view" || kind == "aten::unflatten")
            reshaped(n);
        else if (kind == "aten::transpose" || kind == "aten::swapaxes")
            transposed(n);
        else if (kind == "aten::permute")
            permuted(n);
        else if (kind == "aten::unfold")
            unfolded(n);
        else
            elementwise(n);
    }

private:
    const jit::Recorded& main_;
    std::unordered_map<const JitValue*, Deps> deps_;

    std::vector<int64_t> shapeOf(const JitValue* v) const {
        auto it = main_.find(v);
        if (it == main_.end() || !it->second.isTensor())
            return {};
        return it->second.toTensor().sizes().vec();
    }
    const Deps* depsOf(const JitValue* v) const {
        auto it = deps_.find(v);
        return it == deps_.end() ? nullptr : &it->second;
    }
    static bool any(const Deps& d) {
        return std::any_of(d.begin(), d.end(), [](const Dep& x) { return !x.symbol.empty(); });
    }

    void require(const std::string& symbol, int64_t multiple, int64_t min, const std::string& why) {
        SizeRule& r = rules[symbol];
        const int64_t lcm = std::lcm(r.multipleOf, std::max<int64_t>(multiple, 1));
        // Past this, the rule is more likely a misreading than a need.
        if (lcm > r.multipleOf && lcm <= 4096) {
            r.multipleOf = lcm;
            r.why = why;
        }
        if (min > r.min && min <= 1 << 20) {
            r.min = min;
            if (r.why.empty() || multiple <= 1)
                r.why = why;
        }
    }

    static bool isWindowed(const std::string& kind) {
        static const std::set<std::string> kinds{
            "aten::conv1d",       "aten::conv2d",      "aten::conv3d",
            "aten::_convolution", "aten::convolution", "aten::max_pool1d",
            "aten::max_pool2d",   "aten::max_pool3d",  "aten::max_pool2d_with_indices",
            "aten::avg_pool1d",   "aten::avg_pool2d",  "aten::avg_pool3d"};
        return kinds.count(kind) > 0;
    }

    // Convolutions and pools: each spatial axis is divided by its stride and
    // needs at least the kernel's extent (less the padding).
    void windowed(const JitNode* n, const std::string& kind) {
        const Deps* in = depsOf(n->inputs()[0]);
        const auto inShape = shapeOf(n->inputs()[0]);
        const auto outShape = shapeOf(n->outputs()[0]);
        if (!in || !any(*in) || inShape.size() != outShape.size() || inShape.size() < 3)
            return;
        const bool conv = kind.find("conv") != std::string::npos;
        if ((kind == "aten::_convolution" || kind == "aten::convolution") && n->inputs().size() > 6)
            if (auto t = torch::jit::toIValue(n->inputs()[6]); t && t->isBool() && t->toBool())
                return scaled(n); // transposed
        std::vector<int64_t> kernel, stride, padding, dilation;
        if (conv) {
            if (auto w = torch::jit::toIValue(n->inputs()[1]); w && w->isTensor())
                kernel = w->toTensor().sizes().slice(2).vec();
            stride = intList(n->inputs()[3]).value_or(std::vector<int64_t>{});
            padding = intList(n->inputs()[4]).value_or(std::vector<int64_t>{});
            dilation = intList(n->inputs()[5]).value_or(std::vector<int64_t>{});
        } else {
            kernel = intList(n->inputs()[1]).value_or(std::vector<int64_t>{});
            stride = intList(n->inputs()[2]).value_or(std::vector<int64_t>{});
            padding = intList(n->inputs()[3]).value_or(std::vector<int64_t>{});
            if (kind.find("max_pool") != std::string::npos)
                dilation = intList(n->inputs()[4]).value_or(std::vector<int64_t>{});
            if (stride.empty())
                stride = kernel; // a pool's default stride is its window
        }
        const size_t spatial = kernel.empty() ? inShape.size() - 2 : kernel.size();
        const size_t first = inShape.size() - std::min(spatial, inShape.size());
        Deps out(outShape.size());
        if (inShape[0] == outShape[0])
            out[0] = (*in)[0];
        for (size_t a = first; a < inShape.size(); ++a) {
            const Dep& d = (*in)[a];
            if (d.symbol.empty())
                continue;
            const size_t j = a - first;
            const int64_t s = std::max<int64_t>(at(stride, j, 1), 1);
            const int64_t extent = (at(kernel, j, 1) - 1) * at(dilation, j, 1) + 1;
            const int64_t least = std::max<int64_t>(extent - 2 * at(padding, j, 0), 1);
            if (least > 1)
                require(d.symbol, 1, least * d.factor,
                        fmt::format("a window of {} at {}", extent, where(n)));
            out[a] = {d.symbol, d.factor * s, std::max(d.need, d.factor * s)};
        }
        deps_[n->outputs()[0]] = out;
    }

    // Upsampling by a whole factor divides the stride back; the need stays.
    // One to a size (interpolate(size=skip.shape[2:])) meets its partner
    // whatever the rounding: nothing follows from it.
    void scaled(const JitNode* n) {
        const std::string kind = n->kind().toQualString();
        if (kind.find("upsample") != std::string::npos && n->inputs().size() > 1 &&
            !n->inputs()[1]->type()->cast<c10::NoneType>())
            return; // an output size, not a scale
        const Deps* in = depsOf(n->inputs()[0]);
        const auto inShape = shapeOf(n->inputs()[0]);
        const auto outShape = shapeOf(n->outputs()[0]);
        if (!in || inShape.size() != outShape.size())
            return;
        Deps out(outShape.size());
        for (size_t a = 0; a < inShape.size(); ++a) {
            const Dep& d = (*in)[a];
            if (d.symbol.empty() || inShape[a] <= 0)
                continue;
            if (inShape[a] == outShape[a])
                out[a] = d;
            else if (outShape[a] % inShape[a] == 0 && d.factor % (outShape[a] / inShape[a]) == 0)
                out[a] = {d.symbol, d.factor / (outShape[a] / inShape[a]), d.need};
        }
        deps_[n->outputs()[0]] = out;
    }

    // Where paths of different strides meet, every one of them must have
    // divided exactly: the symbol is a multiple of the largest need.
    Deps merged(const JitNode* n, const std::vector<const JitValue*>& pieces, int64_t skipAxis) {
        const auto outShape = shapeOf(n->outputs()[0]);
        Deps out(outShape.size());
        for (size_t a = 0; a < outShape.size(); ++a) {
            if (static_cast<int64_t>(a) == skipAxis)
                continue;
            std::string symbol;
            int64_t lowest = 0, highest = 0;
            Dep first;
            for (const JitValue* p : pieces) {
                const Deps* d = depsOf(p);
                const auto shape = shapeOf(p);
                if (!d || d->size() != shape.size() || shape.size() > outShape.size())
                    continue;
                const size_t offset = outShape.size() - shape.size(); // broadcast from the right
                if (a < offset || (*d)[a - offset].symbol.empty())
                    continue;
                const Dep& x = (*d)[a - offset];
                if (symbol.empty()) {
                    symbol = x.symbol;
                    first = x;
                    lowest = highest = x.need;
                } else if (x.symbol == symbol) {
                    lowest = std::min(lowest, x.need);
                    highest = std::max(highest, x.need);
                }
            }
            if (symbol.empty())
                continue;
            if (highest != lowest)
                require(symbol, highest, 1,
                        fmt::format("the strides to 1/{} meeting a path strided to 1/{} at {}",
                                    highest, lowest, where(n)));
            out[a] = {symbol, first.factor, highest};
        }
        return out;
    }

    void concatenated(const JitNode* n) {
        const JitValue* list = n->inputs()[0];
        if (list->node()->kind() != c10::prim::ListConstruct || n->inputs().size() < 2)
            return;
        const auto outShape = shapeOf(n->outputs()[0]);
        auto dim = intConstant(n->inputs()[1]);
        if (!dim || outShape.empty())
            return;
        const int64_t axis = *dim < 0 ? *dim + static_cast<int64_t>(outShape.size()) : *dim;
        std::vector<const JitValue*> pieces(list->node()->inputs().begin(),
                                            list->node()->inputs().end());
        deps_[n->outputs()[0]] = merged(n, pieces, axis);
    }

    void elementwise(const JitNode* n) {
        std::vector<const JitValue*> tensors;
        for (const JitValue* in : n->inputs())
            if (const Deps* d = depsOf(in); d && any(*d))
                tensors.push_back(in);
        if (tensors.empty())
            return;
        const auto outShape = shapeOf(n->outputs()[0]);
        if (outShape.empty())
            return;
        if (tensors.size() > 1) {
            deps_[n->outputs()[0]] = merged(n, tensors, -1);
            return;
        }
        // One operand carries symbols: an axis keeps its symbol where the
        // sizes agree (a linear layer changes the last axis only).
        const Deps& in = *depsOf(tensors[0]);
        const auto inShape = shapeOf(tensors[0]);
        if (inShape.size() != outShape.size())
            return;
        Deps out(outShape.size());
        for (size_t a = 0; a < outShape.size(); ++a)
            if (inShape[a] == outShape[a])
                out[a] = in[a];
        deps_[n->outputs()[0]] = out;
    }

    void transposed(const JitNode* n) {
        const Deps* in = depsOf(n->inputs()[0]);
        auto a = intConstant(n->inputs()[1]);
        auto b = intConstant(n->inputs()[2]);
        if (!in || !a || !b)
            return;
        Deps out = *in;
        const int64_t rank = static_cast<int64_t>(out.size());
        const int64_t i = *a < 0 ? *a + rank : *a, j = *b < 0 ? *b + rank : *b;
        if (i < 0 || j < 0 || i >= rank || j >= rank)
            return;
        std::swap(out[static_cast<size_t>(i)], out[static_cast<size_t>(j)]);
        deps_[n->outputs()[0]] = out;
    }

    void permuted(const JitNode* n) {
        const Deps* in = depsOf(n->inputs()[0]);
        auto order = intList(n->inputs()[1]);
        if (!in || !order || order->size() != in->size())
            return;
        Deps out(in->size());
        const int64_t rank = static_cast<int64_t>(in->size());
        for (size_t k = 0; k < order->size(); ++k) {
            const int64_t from = (*order)[k] < 0 ? (*order)[k] + rank : (*order)[k];
            if (from < 0 || from >= rank)
                return;
            out[k] = (*in)[static_cast<size_t>(from)];
        }
        deps_[n->outputs()[0]] = out;
    }

    // unfold(dim, size, step): at least one window.
    void unfolded(const JitNode* n) {
        const Deps* in = depsOf(n->inputs()[0]);
        auto dim = intConstant(n->inputs()[1]);
        auto size = intConstant(n->inputs()[2]);
        if (!in || !dim || !size)
            return;
        const int64_t rank = static_cast<int64_t>(in->size());
        const int64_t a = *dim < 0 ? *dim + rank : *dim;
        if (a < 0 || a >= rank || (*in)[static_cast<size_t>(a)].symbol.empty())
            return;
        const Dep& d = (*in)[static_cast<size_t>(a)];
        require(d.symbol, 1, *size * d.factor,
                fmt::format("a window of {} at {}", *size, where(n)));
    }

    // A view that splits a symbolic axis into (n / k, k), or merges it with
    // trailing axes and splits again (pairs of tokens, windows), needs the
    // axis divisible: the symbol a multiple of k times the axis' stride.
    void reshaped(const JitNode* n) {
        const Deps* in = depsOf(n->inputs()[0]);
        const auto inShape = shapeOf(n->inputs()[0]);
        const auto outShape = shapeOf(n->outputs()[0]);
        if (!in || !any(*in) || in->size() != inShape.size() || outShape.empty())
            return;
        Deps out(outShape.size());
        size_t i = 0, o = 0;
        while (i < inShape.size() && o < outShape.size()) {
            // The smallest groups of axes with equal products.
            size_t i1 = i + 1, o1 = o + 1;
            int64_t pi = inShape[i], po = outShape[o];
            while (pi != po && i1 <= inShape.size() && o1 <= outShape.size()) {
                if (pi < po && i1 < inShape.size())
                    pi *= inShape[i1++];
                else if (po < pi && o1 < outShape.size())
                    po *= outShape[o1++];
                else
                    break;
            }
            if (pi != po || pi == 0)
                return; // sizes this walk cannot pair up
            group(n, *in, inShape, outShape, i, i1, o, o1, out);
            i = i1;
            o = o1;
        }
        deps_[n->outputs()[0]] = out;
    }

    void group(const JitNode* n, const Deps& in, const std::vector<int64_t>& inShape,
               const std::vector<int64_t>& outShape, size_t i, size_t i1, size_t o, size_t o1,
               Deps& out) {
        // The axis carrying a symbol must be the group's outermost one
        // larger than 1 (GroupNorm's reshape(N, G, -1) is not a split of H).
        size_t lead = i;
        while (lead < i1 && inShape[lead] == 1)
            ++lead;
        if (lead == i1)
            return;
        for (size_t a = i; a < i1; ++a)
            if (a != lead && !in[a].symbol.empty())
                return; // two symbols merged: no single symbol follows
        const Dep& d = in[lead];
        if (d.symbol.empty())
            return;
        size_t outLead = o;
        while (outLead < o1 && outShape[outLead] == 1)
            ++outLead;
        if (outLead == o1)
            return;
        int64_t inner = 1, outer = 1;
        for (size_t a = lead + 1; a < i1; ++a)
            inner *= inShape[a];
        for (size_t a = outLead + 1; a < o1; ++a)
            outer *= outShape[a];
        const int64_t g = std::gcd(inner, outer);
        const int64_t k = outer / g;
        if (k > 1 && inShape[lead] % k == 0)
            require(d.symbol, d.factor * k, 1,
                    fmt::format("a view splitting it in groups of {} at {}", k, where(n)));
        if (inner / g == 1)
            out[outLead] = {d.symbol, d.factor * k, std::max(d.need, d.factor * k)};
    }
};

} // namespace

std::string SizeRule::text() const {
    std::vector<std::string> parts;
    if (multipleOf > 1)
        parts.push_back(fmt::format("multiple-of={}", multipleOf));
    if (min > 1)
        parts.push_back(fmt::format("min={}", min));
    return fmt::format("{}", fmt::join(parts, ","));
}

std::map<std::string, SizeRule>
inferSizeRules(const torch::jit::Graph& graph, const jit::Recorded& main,
               const std::vector<std::map<int, std::string>>& inputSymbols) {
    Inference inference(main);
    const auto inputs = graph.inputs();
    for (size_t i = 1; i < inputs.size() && i - 1 < inputSymbols.size(); ++i)
        inference.input(inputs[i], inputSymbols[i - 1]);
    for (const JitNode* n : graph.nodes())
        inference.node(n);
    return inference.rules;
}

std::vector<int64_t> candidateSizes(int64_t example, const SizeRule& rule) {
    const int64_t m = std::max<int64_t>(rule.multipleOf, 1);
    const int64_t least = std::max<int64_t>(rule.min, 1);
    auto upFrom = [&](int64_t n) { return (std::max(n, least) + m - 1) / m * m; };
    const int64_t above = upFrom(example + 1);
    std::vector<int64_t> sizes;
    if (rule.trivial())
        sizes = {example + 1, example + 2, 2 * example, example - 1};
    else if (rule.declared)
        sizes = {above, above + m, (example - 1) / m * m};
    else
        sizes = {above, above + m, (example - 1) / m * m, example + 1, example + 2};
    std::vector<int64_t> out;
    // Below the minimum nothing runs, whoever gave the rule.
    for (int64_t s : sizes)
        if (s >= least && s != example && std::find(out.begin(), out.end(), s) == out.end() &&
            (!rule.declared || rule.allows(s)))
            out.push_back(s);
    return out;
}

} // namespace t2n::ir
