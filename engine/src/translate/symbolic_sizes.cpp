#include "translate/symbolic_sizes.h"

#include "translate/translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace t2n::translate {

using Op = SizeExpr::Op;

namespace {

/// An integer constant: an int, a bool, an integral float, or a one-element
/// integer tensor (a size after prim::NumToTensor).
std::optional<int64_t> intOf(const std::optional<ir::Constant>& c) {
    if (!c)
        return std::nullopt;
    if (auto* i = std::get_if<int64_t>(&*c))
        return *i;
    if (auto* b = std::get_if<bool>(&*c))
        return *b ? 1 : 0;
    if (auto* d = std::get_if<double>(&*c); d && std::isfinite(*d) && std::floor(*d) == *d)
        return static_cast<int64_t>(*d);
    if (auto* t = std::get_if<TensorData>(&*c); t && t->numel() == 1) {
        if (!isFloat(t->dtype()))
            return t->asInt(0);
        const double d = t->asDouble(0);
        if (std::isfinite(d) && std::floor(d) == d)
            return static_cast<int64_t>(d);
    }
    return std::nullopt;
}

SizePtr make(SizeExpr e) {
    return std::make_shared<const SizeExpr>(std::move(e));
}

const char* opText(Op op) {
    switch (op) {
    case Op::Add:
        return "+";
    case Op::Sub:
        return "-";
    case Op::Mul:
        return "*";
    case Op::Div:
        return "/";
    default:
        return "?";
    }
}

// Kinds that hand on their first input's value unchanged (conversions
// between ints, 0-d tensors and Python numbers, identities).
bool passesValueOn(const std::string& k) {
    static const char* kinds[] = {"prim::NumToTensor",
                                  "aten::Int",
                                  "aten::ScalarImplicit",
                                  "aten::IntImplicit",
                                  "aten::Float",
                                  "aten::FloatImplicit",
                                  "aten::to",
                                  "aten::type_as",
                                  "aten::_to_copy",
                                  "aten::clone",
                                  "aten::detach",
                                  "aten::contiguous",
                                  "aten::alias",
                                  "prim::unchecked_cast",
                                  "aten::tensor",
                                  "aten::as_tensor",
                                  "aten::scalar_tensor"};
    for (const char* x : kinds)
        if (k == x)
            return true;
    return false;
}

bool carriesTensors(ir::ValueKind k) {
    return k == ir::ValueKind::Tensor || k == ir::ValueKind::TensorList;
}

} // namespace

SizePtr sizeConstant(int64_t v) {
    SizeExpr e;
    e.value = v;
    return make(std::move(e));
}

SizePtr sizeArithmetic(Op op, SizePtr a, SizePtr b) {
    if (a->isConstant() && b->isConstant()) {
        const int64_t x = a->value, y = b->value;
        switch (op) {
        case Op::Add:
            return sizeConstant(x + y);
        case Op::Sub:
            return sizeConstant(x - y);
        case Op::Mul:
            return sizeConstant(x * y);
        case Op::Div:
            if (y != 0)
                return sizeConstant(x / y);
            break;
        case Op::Min:
            return sizeConstant(std::min(x, y));
        case Op::Max:
            return sizeConstant(std::max(x, y));
        default:
            break;
        }
    }
    if (b->isConstant() && ((b->value == 0 && (op == Op::Add || op == Op::Sub)) ||
                            (b->value == 1 && (op == Op::Mul || op == Op::Div))))
        return a;
    if (a->isConstant() && ((a->value == 0 && op == Op::Add) || (a->value == 1 && op == Op::Mul)))
        return b;
    SizeExpr e;
    e.op = op;
    e.lhs = std::move(a);
    e.rhs = std::move(b);
    return make(std::move(e));
}

std::string describeSize(const SizePtr& e, const ir::Graph& g) {
    switch (e->op) {
    case Op::Constant:
        return std::to_string(e->value);
    case Op::Symbol:
        return e->symbol;
    case Op::Dim:
        return fmt::format("%{}.size({})", g.value(e->tensor).debugName, e->value);
    case Op::Min:
    case Op::Max:
        return fmt::format("{}({}, {})", e->op == Op::Min ? "min" : "max", describeSize(e->lhs, g),
                           describeSize(e->rhs, g));
    default:
        return fmt::format("({} {} {})", describeSize(e->lhs, g), opText(e->op),
                           describeSize(e->rhs, g));
    }
}

namespace {
bool anySymbol(const ir::Value& v) {
    for (const auto& s : v.symbols)
        if (!s.empty())
            return true;
    return false;
}

// The tensor whose whole shape list node `n` reads (x.size() or x.shape),
// or null.
const ir::Value* shapeListSource(const ir::Graph& g, const ir::Node& n) {
    if (n.inputs.size() != 1)
        return nullptr;
    const ir::Value& list = g.value(n.inputs[0]);
    if (list.producer < 0)
        return nullptr;
    const ir::Node& p = g.node(list.producer);
    if ((p.kind == "aten::size" || p.kind == "prim::shape") && p.inputs.size() == 1)
        return &g.value(p.inputs[0]);
    return nullptr;
}
} // namespace

// Which values depend on a symbol, in node order: graph inputs with a dynamic
// axis, sizes read from a symbolic axis, and whatever is computed from those.
SymbolicSizes::SymbolicSizes(const ir::Graph& g) : g_(g), follows_(g.values.size(), false) {
    for (ir::ValueId id : g.inputs)
        follows_[static_cast<size_t>(id)] = anySymbol(g.value(id));
    for (const auto& n : g.nodes) {
        bool f = false;
        if (n.kind == "aten::size" && n.inputs.size() >= 2) {
            const ir::Value& axis = g.value(n.inputs[1]);
            const auto rank = static_cast<int64_t>(g.value(n.inputs[0]).shape.size());
            if (auto a = intOf(axis.constant); a && !axis.varies)
                f = !dim(n.inputs[0], *a < 0 ? *a + rank : *a)->isConstant();
        } else if (n.kind == "aten::size" || n.kind == "prim::shape" || n.kind == "aten::numel" ||
                   n.kind.ends_with("_like")) {
            f = !n.inputs.empty() && anySymbol(g.value(n.inputs[0]));
        } else if (n.kind != "aten::dim" && n.kind != "prim::dtype" && n.kind != "prim::device" &&
                   n.kind != "prim::layout") {
            // x.new_zeros(sizes) reads only x's dtype and device: a mask
            // built so (Swin's shifted windows) follows its sizes, not x.
            const size_t first = n.kind.starts_with("aten::new_") ? 1 : 0;
            for (size_t i = first; i < n.inputs.size(); ++i)
                f = f || follows_[static_cast<size_t>(n.inputs[i])];
        }
        // B, H, W, C = x.shape: each item follows its own axis only.
        if (const ir::Value* shaped = shapeListSource(g, n);
            shaped && n.kind == "prim::ListUnpack") {
            for (size_t i = 0; i < n.outputs.size(); ++i)
                follows_[static_cast<size_t>(n.outputs[i])] =
                    (i < shaped->symbols.size() && !shaped->symbols[i].empty()) ||
                    g.value(n.outputs[i]).varies;
            continue;
        }
        for (ir::ValueId out : n.outputs)
            follows_[static_cast<size_t>(out)] = f || g.value(out).varies;
    }
}

SizePtr SymbolicSizes::fail(const ir::Node* n, std::string why) {
    if (!blocker_) {
        blocker_ = n;
        reason_ = std::move(why);
    }
    return nullptr;
}

SizePtr SymbolicSizes::dim(ir::ValueId id, int64_t axis) const {
    const ir::Value& x = g_.value(id);
    const auto a = static_cast<size_t>(axis);
    const std::string sym = a < x.symbols.size() ? x.symbols[a] : std::string();
    if (sym.empty())
        return sizeConstant(a < x.shape.size() ? x.shape[a] : 1);
    for (const auto& s : g_.symbolSizes)
        if (s.name == sym) {
            SizeExpr e;
            e.op = Op::Symbol;
            e.symbol = sym;
            return make(std::move(e));
        }
    SizeExpr e;
    e.op = Op::Dim;
    e.tensor = id;
    e.value = axis;
    return make(std::move(e));
}

std::optional<int64_t> SymbolicSizes::evaluate(const SizePtr& e, bool probe) const {
    switch (e->op) {
    case Op::Constant:
        return e->value;
    case Op::Symbol:
        for (const auto& s : g_.symbolSizes)
            if (s.name == e->symbol)
                return probe ? s.probe : s.example;
        return std::nullopt;
    case Op::Dim: {
        const ir::Value& x = g_.value(e->tensor);
        const auto& shape = probe ? x.probeShape : x.shape;
        if (e->value < 0 || static_cast<size_t>(e->value) >= shape.size())
            return std::nullopt;
        return shape[static_cast<size_t>(e->value)];
    }
    default:
        break;
    }
    auto a = evaluate(e->lhs, probe), b = evaluate(e->rhs, probe);
    if (!a || !b)
        return std::nullopt;
    switch (e->op) {
    case Op::Add:
        return *a + *b;
    case Op::Sub:
        return *a - *b;
    case Op::Mul:
        return *a * *b;
    case Op::Div:
        if (*b == 0)
            return std::nullopt;
        return *a / *b; // truncating, as tract's TDim and NNEF integers divide
    case Op::Min:
        return std::min(*a, *b);
    case Op::Max:
        return std::max(*a, *b);
    default:
        return std::nullopt;
    }
}

// The expression gives what PyTorch computed, at both sizes where known.
bool SymbolicSizes::matches(const SizePtr& e, const ir::Value& v) const {
    if (auto want = intOf(v.constant); want && evaluate(e, false) != want)
        return false;
    if (auto want = intOf(v.probeConstant))
        if (auto got = evaluate(e, true); got && got != want)
            return false;
    return true;
}

SizePtr SymbolicSizes::scalar(ir::ValueId id) {
    blocker_ = nullptr;
    reason_.clear();
    return derive(id);
}

std::optional<std::vector<SizePtr>> SymbolicSizes::list(ir::ValueId id) {
    const ir::Value& v = g_.value(id);
    if (!follows(id) && v.constant)
        if (auto* l = std::get_if<std::vector<int64_t>>(&*v.constant)) {
            std::vector<SizePtr> out;
            for (int64_t x : *l)
                out.push_back(sizeConstant(x));
            return out;
        }
    if (v.producer < 0) {
        fail(nullptr, fmt::format("%{} is not a list t2n can follow", v.debugName));
        return std::nullopt;
    }
    const ir::Node& n = g_.node(v.producer);
    std::vector<SizePtr> out;
    if (n.kind == "prim::ListConstruct") {
        for (ir::ValueId e : n.inputs) {
            SizePtr s = derive(e);
            if (!s)
                return std::nullopt;
            out.push_back(s);
        }
        return out;
    }
    if ((n.kind == "aten::size" || n.kind == "prim::shape") && n.inputs.size() == 1) {
        const auto rank = static_cast<int64_t>(g_.value(n.inputs[0]).shape.size());
        for (int64_t a = 0; a < rank; ++a)
            out.push_back(dim(n.inputs[0], a));
        return out;
    }
    if (n.kind == "aten::slice" && n.inputs.size() == 4 &&
        g_.value(n.inputs[0]).kind == ir::ValueKind::IntList) {
        // x.shape[-3:] (Swin's patch merging): Python's slice of the list.
        auto items = list(n.inputs[0]);
        if (!items)
            return std::nullopt;
        const auto size = static_cast<int64_t>(items->size());
        auto bound = [&](size_t i, int64_t open) -> std::optional<int64_t> {
            const ir::Value& b = g_.value(n.inputs[i]);
            if (b.kind == ir::ValueKind::None)
                return open;
            auto c = follows(n.inputs[i]) ? std::nullopt : intOf(b.constant);
            if (c && *c < 0)
                return std::max<int64_t>(*c + size, 0);
            return c ? std::optional(std::min(*c, size)) : std::nullopt;
        };
        auto start = bound(1, 0), end = bound(2, size), step = bound(3, 1);
        if (!start || !end || !step || *step < 1) {
            fail(&n, "a slice of a list of sizes with bounds that are not constants");
            return std::nullopt;
        }
        for (int64_t i = *start; i < *end; i += *step)
            out.push_back((*items)[static_cast<size_t>(i)]);
        return out;
    }
    fail(&n, fmt::format("{} does not build a list of sizes t2n follows", n.kind));
    return std::nullopt;
}

// (c - y % c) % c, the padding of y to a multiple of a constant c (Swin's
// and chunked models' (ws - H % ws) % ws), as ((y + c - 1) / c) * c - y:
// the same numbers for y >= 0, in a form tract's TDim simplifier keeps.
// Written as y - y / c * c inside a sum, it loses the floor: tract
// distributes a division over a sum (((H + 4 - (H - H / 4 * 4)) ...) / 4
// became H / 4 in tract 0.23.5's reshape check). Null when `remainder` is
// not of that form.
SizePtr SymbolicSizes::padToMultiple(const ir::Node& remainder) {
    auto producer = [&](ir::ValueId id) -> const ir::Node* {
        for (;;) {
            const ir::Value& v = g_.value(id);
            if (v.producer < 0)
                return nullptr;
            const ir::Node& n = g_.node(v.producer);
            if (!passesValueOn(n.kind) || n.inputs.empty())
                return &n;
            id = n.inputs[0];
        }
    };
    auto constant = [&](ir::ValueId id) -> std::optional<int64_t> {
        SizePtr e = follows(id) ? nullptr : derive(id);
        return e && e->isConstant() ? std::optional(e->value) : std::nullopt;
    };
    auto isRemainder = [](const std::string& k) {
        return k == "aten::remainder" || k == "aten::__mod__";
    };
    if (remainder.inputs.size() != 2)
        return nullptr;
    const auto c = constant(remainder.inputs[1]);
    // c - r: aten::sub(c, r) (scripted ints), aten::rsub(r, c, 1) (traced).
    const ir::Node* sub = producer(remainder.inputs[0]);
    if (!c || *c < 1 || !sub || sub->inputs.size() < 2 ||
        (sub->inputs.size() > 2 && constant(sub->inputs[2]) != 1))
        return nullptr;
    const bool reversed = sub->kind == "aten::rsub";
    if ((sub->kind != "aten::sub" && !reversed) || constant(sub->inputs[reversed ? 1 : 0]) != c)
        return nullptr;
    const ir::Node* inner = producer(sub->inputs[reversed ? 0 : 1]);
    if (!inner || !isRemainder(inner->kind) || inner->inputs.size() != 2 ||
        constant(inner->inputs[1]) != c)
        return nullptr;
    SizePtr y = derive(inner->inputs[0]);
    if (!y)
        return nullptr;
    const SizePtr k = sizeConstant(*c);
    SizePtr up = sizeArithmetic(Op::Add, y, sizeConstant(*c - 1));
    return sizeArithmetic(Op::Sub, sizeArithmetic(Op::Mul, sizeArithmetic(Op::Div, up, k), k), y);
}

// tract's TDim divides by an integer only (data/src/dim/tree.rs: Div(a, u64)):
// T // max(1, T // 4) has no TDim, and tract refuses the reshape that reads
// it ("Not a const"). A divisor of products and sums of sizes (Swin's
// B * nW // nW, nW = (H / 8) * (W / 8)) tract reads as a computed size, and
// runs (tract 0.23.5): only a min or max in the divisor is refused.
namespace {
bool hasMinOrMax(const SizePtr& e) {
    if (!e)
        return false;
    if (e->op == SizeExpr::Op::Min || e->op == SizeExpr::Op::Max)
        return true;
    return hasMinOrMax(e->lhs) || hasMinOrMax(e->rhs);
}
} // namespace

std::string SymbolicSizes::byConstantsOnly(const std::string& kind, const SizePtr& divisor) const {
    return fmt::format("{} divides by {}, which changes with the dynamic axes, and tract's sizes "
                       "(TDim) divide by constants only",
                       kind, describeSize(divisor, g_));
}

SizePtr SymbolicSizes::derive(ir::ValueId id) {
    if (auto it = memo_.find(id); it != memo_.end())
        return it->second;
    const ir::Value& v = g_.value(id);
    if (!follows(id))
        if (auto known = intOf(v.constant))
            return sizeConstant(*known);
    const bool number = v.kind == ir::ValueKind::Int || v.kind == ir::ValueKind::Float ||
                        (v.kind == ir::ValueKind::Tensor && v.shape.empty());
    if (!number || v.producer < 0)
        return fail(v.producer < 0 ? nullptr : &g_.node(v.producer),
                    fmt::format("%{} is not a number t2n can follow", v.debugName));
    const ir::Node& n = g_.node(v.producer);
    const std::string& k = n.kind;
    auto arg = [&](size_t i) -> SizePtr {
        return i < n.inputs.size() ? derive(n.inputs[i]) : nullptr;
    };
    auto constArg = [&](size_t i) -> std::optional<int64_t> {
        if (i >= n.inputs.size() || follows(n.inputs[i]))
            return std::nullopt;
        return intOf(g_.value(n.inputs[i]).constant);
    };
    SizePtr e;
    if (k == "aten::size" && n.inputs.size() >= 2) {
        const auto rank = static_cast<int64_t>(g_.value(n.inputs[0]).shape.size());
        auto a = constArg(1);
        if (!a)
            return fail(&n, "the axis of size() is not a constant");
        e = dim(n.inputs[0], *a < 0 ? *a + rank : *a);
    } else if (passesValueOn(k)) {
        e = arg(0);
    } else if (k == "aten::add" || k == "aten::sub" || k == "aten::rsub") {
        SizePtr a = arg(0), b = arg(1);
        if (!a || !b)
            return nullptr;
        if (n.inputs.size() > 2) {
            auto alpha = constArg(2);
            if (!alpha)
                return fail(&n, "alpha is not an integer constant");
            if (k == "aten::rsub")
                std::swap(a, b);
            b = sizeArithmetic(Op::Mul, b, sizeConstant(*alpha));
        } else if (k == "aten::rsub") {
            std::swap(a, b);
        }
        e = sizeArithmetic(k == "aten::add" ? Op::Add : Op::Sub, a, b);
    } else if (k == "aten::mul") {
        SizePtr a = arg(0), b = arg(1);
        if (!a || !b)
            return nullptr;
        e = sizeArithmetic(Op::Mul, a, b);
    } else if (k == "aten::floordiv" || k == "aten::floor_divide" || k == "aten::__floordiv__" ||
               (k == "aten::div" && n.inputs.size() > 2 &&
                g_.value(n.inputs[2]).kind == ir::ValueKind::String)) {
        SizePtr a = arg(0), b = arg(1);
        if (!a || !b)
            return nullptr;
        if (hasMinOrMax(b))
            return fail(&n, byConstantsOnly(k, b));
        e = sizeArithmetic(Op::Div, a, b);
    } else if (k == "aten::remainder" || k == "aten::__mod__" || k == "aten::fmod") {
        // a % b = a - a / b * b for the non-negative sizes this is about (the
        // values are checked at both sizes below); NNEF has no % operator.
        if (SizePtr padded = padToMultiple(n)) {
            e = padded;
        } else {
            SizePtr a = arg(0), b = arg(1);
            if (!a || !b)
                return nullptr;
            if (hasMinOrMax(b))
                return fail(&n, byConstantsOnly(k, b));
            e = sizeArithmetic(Op::Sub, a,
                               sizeArithmetic(Op::Mul, sizeArithmetic(Op::Div, a, b), b));
        }
    } else if ((k == "prim::min" || k == "prim::max" || k == "aten::minimum" ||
                k == "aten::maximum" || k == "aten::min" || k == "aten::max") &&
               n.inputs.size() == 2 && g_.value(n.inputs[0]).kind != ir::ValueKind::IntList) {
        // min(S, window), max(1, S // C): tract's TDim has min and max.
        SizePtr a = arg(0), b = arg(1);
        if (!a || !b)
            return nullptr;
        e = sizeArithmetic(k.ends_with("min") || k == "aten::minimum" ? Op::Min : Op::Max, a, b);
    } else if ((k == "prim::min" || k == "prim::max") && n.inputs.size() == 1) {
        // min([a, b, c]) of a list of sizes.
        auto items = list(n.inputs.at(0));
        if (!items || items->empty())
            return items ? fail(&n, "min/max of an empty list") : nullptr;
        e = items->front();
        for (size_t i = 1; i < items->size(); ++i)
            e = sizeArithmetic(k.ends_with("min") ? Op::Min : Op::Max, e, (*items)[i]);
    } else if (k == "aten::clamp" || k == "aten::clamp_min" || k == "aten::clamp_max") {
        // clamp(S, lo, hi) = min(max(S, lo), hi), an absent bound left out.
        e = arg(0);
        if (!e)
            return nullptr;
        const bool maxOnly = k == "aten::clamp_max";
        for (size_t i = 1; i < n.inputs.size() && i < 3; ++i) {
            if (g_.value(n.inputs[i]).kind == ir::ValueKind::None)
                continue;
            SizePtr bound = arg(i);
            if (!bound)
                return nullptr;
            const bool upper = maxOnly || i == 2;
            e = sizeArithmetic(upper ? Op::Min : Op::Max, e, bound);
        }
    } else if (k == "aten::neg") {
        SizePtr a = arg(0);
        if (!a)
            return nullptr;
        e = sizeArithmetic(Op::Sub, sizeConstant(0), a);
    } else if (k == "prim::ListUnpack" || k == "aten::__getitem__") {
        auto items = list(n.inputs.at(0));
        if (!items)
            return nullptr;
        size_t index = 0;
        if (k == "prim::ListUnpack") {
            while (index < n.outputs.size() && n.outputs[index] != id)
                ++index;
        } else {
            auto i = constArg(1);
            if (!i)
                return fail(&n, "the list index is not a constant");
            index = static_cast<size_t>(*i < 0 ? *i + static_cast<int64_t>(items->size()) : *i);
        }
        if (index >= items->size())
            return fail(&n, "the list index is out of range");
        e = (*items)[index];
    } else {
        return fail(&n, fmt::format("{} is not size arithmetic t2n follows", k));
    }
    if (!e)
        return nullptr;
    if (!matches(e, v))
        return fail(&n, fmt::format("{} read as {} does not give PyTorch's values", k,
                                    describeSize(e, g_)));
    memo_[id] = e;
    return e;
}

std::vector<bool> symbolicNodes(const ir::Graph& g, const SymbolicSizes& sizes) {
    std::vector<bool> out(g.nodes.size(), false);
    std::vector<bool> needed(g.values.size(), false);
    auto need = [&](ir::ValueId id, auto& self) -> void {
        if (needed[static_cast<size_t>(id)])
            return;
        needed[static_cast<size_t>(id)] = true;
        for (ir::ValueId e : g.value(id).elements)
            self(e, self);
    };
    for (ir::ValueId id : g.outputs)
        need(id, need);
    for (size_t i = g.nodes.size(); i-- > 0;) {
        const ir::Node& n = g.nodes[i];
        bool lowered = !n.folded && !producesOnlyScalars(g, n);
        if (n.folded)
            for (ir::ValueId id : n.outputs) {
                const ir::Value& v = g.value(id);
                if (needed[static_cast<size_t>(id)] && sizes.follows(id) && carriesTensors(v.kind))
                    lowered = out[i] = true;
            }
        if (lowered)
            for (ir::ValueId id : n.inputs)
                need(id, need);
    }
    return out;
}

} // namespace t2n::translate
