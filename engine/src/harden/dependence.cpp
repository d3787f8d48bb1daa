#include "harden/dependence.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <unordered_set>

namespace t2n::harden {

using torch::jit::Block;
using torch::jit::Node;
using torch::jit::Value;

namespace {
// What of a value matters: its contents, only its shape (a tensor read by a
// size call), or only its length (a list read by aten::len).
enum class Mode { Value, Shape, Length };

bool isList(const Value* v) {
    return v->type()->kind() == c10::TypeKind::ListType;
}

// Ops whose output shape follows their inputs' values.
bool shapeFollowsValues(const Node* n) {
    static const std::unordered_set<c10::Symbol> kinds = [] {
        std::unordered_set<c10::Symbol> s;
        for (const char* k :
             {"aten::nonzero", "aten::nonzero_numpy", "aten::masked_select", "aten::unique",
              "aten::_unique", "aten::_unique2", "aten::unique_consecutive", "aten::unique_dim",
              "aten::repeat_interleave", "aten::index"})
            s.insert(c10::Symbol::fromQualString(k));
        return s;
    }();
    return kinds.count(n->kind()) > 0;
}

// What of an operand matters for `m` of the result: its value for a value;
// for a shape or a length, the lengths of lists (`a + b`, `l[1:]`), the
// shapes of tensors (unbind, split) and the values of numbers (arange(n)).
Mode operandMode(const Value* in, Mode m) {
    if (m == Mode::Value)
        return Mode::Value;
    if (isList(in))
        return m == Mode::Length ? Mode::Length : Mode::Shape;
    return Mode::Shape; // value() turns it into Value for numbers
}

class Walker {
public:
    Dependence d;

    void value(const Value* v, Mode m) {
        if (!isList(v))
            m = isTensor(v) ? (m == Mode::Length ? Mode::Shape : m) : Mode::Value;
        if (!seen_.insert({v, static_cast<int>(m)}).second)
            return;
        writesInto(v, m);
        const Node* n = v->node();
        if (n->kind() == c10::prim::Param) {
            param(v, m);
            return;
        }
        if (isSizeCall(n)) {
            for (size_t i = 0; i < n->inputs().size(); ++i)
                value(n->input(i),
                      i == 0 ? Mode::Length : Mode::Value); // Length: Shape for tensors
            return;
        }
        if (!n->blocks().empty()) {
            controlFlowOutput(n, v->offset(), m);
            return;
        }
        if (m == Mode::Length && n->kind() == c10::prim::ListConstruct)
            return; // a fixed count (appends are writes, followed above)
        if (m == Mode::Shape && shapeFollowsValues(n))
            m = Mode::Value;
        for (const Value* in : n->inputs())
            value(in, operandMode(in, m));
    }

    void tripCount(const Node* loop) {
        if (!loops_.insert(loop).second)
            return;
        value(loop->input(0), Mode::Value);
        value(loop->input(1), Mode::Value);
        value(loop->blocks()[0]->outputs()[0], Mode::Value);
    }

private:
    void param(const Value* v, Mode m) {
        const Block* b = v->node()->owningBlock();
        const Node* owner = b->owningNode();
        if (!owner) {
            (m == Mode::Value ? d.values : d.shapes).insert(v->offset());
            return;
        }
        if (owner->kind() != c10::prim::Loop)
            return;
        if (v->offset() == 0) {
            tripCount(owner); // the iteration number
            return;
        }
        value(owner->input(v->offset() + 1), m);
        value(b->outputs()[v->offset()], m);
    }

    void controlFlowOutput(const Node* n, size_t offset, Mode m) {
        if (n->kind() == c10::prim::If) {
            value(n->input(0), Mode::Value);
            for (const Block* b : n->blocks())
                value(b->outputs()[offset], m);
        } else if (n->kind() == c10::prim::Loop) {
            tripCount(n);
            value(n->input(offset + 2), m);
            value(n->blocks()[0]->outputs()[offset + 1], m);
        } else {
            for (const Value* in : n->inputs())
                value(in, Mode::Value);
            for (const Block* b : n->blocks())
                for (const Value* out : b->outputs())
                    value(out, Mode::Value);
        }
    }

    // A write into `v` (x.add_(y), list.append(t)) changes what later reads
    // see: what it writes, and whether it runs at all.
    void writesInto(const Value* v, Mode m) {
        const Block* home = v->node()->owningBlock(); // a param node's is its own block
        for (const auto& use : v->uses()) {
            if (!writesInput(use.user, use.offset))
                continue;
            for (const Block* b = use.user->owningBlock(); b && b != home && b->owningNode();
                 b = b->owningNode()->owningBlock()) {
                const Node* owner = b->owningNode();
                if (owner->kind() == c10::prim::If)
                    value(owner->input(0), Mode::Value);
                else if (owner->kind() == c10::prim::Loop)
                    tripCount(owner);
            }
            // An append adds one element whatever its value; `l += [x]` adds
            // the other list's length.
            for (size_t i = 0; i < use.user->inputs().size(); ++i)
                if (i != use.offset && (m != Mode::Length || isList(use.user->input(i))))
                    value(use.user->input(i), m);
        }
    }

    std::set<std::pair<const Value*, int>> seen_;
    std::unordered_set<const Node*> loops_;
};

std::string inputName(const torch::jit::Graph& g, size_t offset) {
    std::string name = g.inputs()[offset]->debugName();
    return name.substr(0, name.find('.'));
}
} // namespace

Dependence dependenceOf(const Value* v) {
    Walker w;
    w.value(v, Mode::Value);
    return w.d;
}

Dependence tripCountDependence(const Node* loop) {
    Walker w;
    w.tripCount(loop);
    return w.d;
}

std::string explainDependence(const Dependence& d, const torch::jit::Graph& g, bool hasSelf,
                              bool& onValues) {
    std::vector<std::string> parts;
    for (size_t i : d.values)
        if (!(hasSelf && i == 0))
            parts.push_back("the values of " + inputName(g, i));
    onValues = !parts.empty();
    for (size_t i : d.shapes)
        if (!d.values.count(i) && !(hasSelf && i == 0))
            parts.push_back("the shape of " + inputName(g, i));
    if (hasSelf && (d.values.count(0) || d.shapes.count(0)))
        parts.push_back("module attributes");
    if (parts.empty())
        return "depends on no input";
    return fmt::format("depends on {}", fmt::join(parts, ", "));
}

} // namespace t2n::harden
