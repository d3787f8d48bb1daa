// Body rules of the structural check: single assignment, defined before use,
// graph inputs through external only, variables against their .dat files, and
// the operations each body invokes.
#include "check/structure_internal.h"

#include "target/op_catalog.h"
#include "target/tract_versions.h"

#include <fmt/format.h>

#include <algorithm>

namespace t2n::check {

using nnef::ReadMode;
namespace ast = nnef::ast;
using K = ast::Expr::Kind;

namespace {

void lhsNames(const ast::ExprPtr& e, std::vector<const ast::Expr*>& out) {
    if (!e)
        return;
    if (e->kind == K::Identifier)
        out.push_back(e.get());
    for (const auto& item : e->items)
        lhsNames(item, out);
}

bool isExternal(const std::string& op) {
    return op == "external" || op == "tract_core_external";
}

std::string where(const ast::Location& loc) {
    return fmt::format("{}:{}", loc.line, loc.column);
}

/// Argument `name`, or the positional one at `index`; null when absent.
ast::ExprPtr argument(const ast::Expr& call, std::string_view name, std::size_t index) {
    for (const auto& [argName, value] : call.args)
        if (argName == name)
            return value;
    if (index < call.args.size() && call.args[index].first.empty())
        return call.args[index].second;
    return nullptr;
}

/// Which element types a variable<T> may hold.
bool typeAgrees(std::string_view declared, DType stored) {
    if (declared.empty() || declared == "scalar")
        return isFloat(stored);
    if (declared == "integer")
        return isSignedInt(stored) || stored == DType::U8;
    if (declared == "logical")
        return stored == DType::Bool;
    return false;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

} // namespace

void Checker::fragment(const ast::Fragment& f) {
    if (!f.hasBody)
        return;
    Scope scope;
    for (const auto& p : f.params)
        scope.defined.insert(p.name);
    body(f.body, scope);
    for (const auto& r : f.results)
        if (!scope.defined.count(r.name))
            error("unassigned-result", f.loc,
                  fmt::format("result '{}' of fragment '{}' is never assigned", r.name, f.name));
}

void Checker::graph() {
    const auto& g = model.document.graph;
    keywordName(g.name, g.loc);
    std::set<std::string> inputs;
    for (const auto& in : g.inputs) {
        keywordName(in, g.loc);
        if (!inputs.insert(in).second)
            error("graph-input", g.loc, fmt::format("graph input '{}' is listed twice", in));
    }
    std::set<std::string> outputs;
    for (const auto& out : g.outputs) {
        keywordName(out, g.loc);
        if (!outputs.insert(out).second)
            error("graph-output", g.loc, fmt::format("graph output '{}' is listed twice", out));
        if (mode == ReadMode::Tract && inputs.count(out))
            error("output-is-input", g.loc,
                  fmt::format("graph output '{}' is also a graph input; tract rejects a "
                              "pass-through output",
                              out));
    }
    Scope scope;
    scope.graph = true;
    for (const auto& a : g.body) {
        graphInputRules(a, inputs);
        variableRules(a);
    }
    body(g.body, scope);
    graphNames = scope.defined;
    for (const auto& in : g.inputs)
        if (!scope.defined.count(in))
            error("graph-input", g.loc, fmt::format("graph input '{}' is never assigned", in));
    for (const auto& out : g.outputs)
        if (!scope.defined.count(out))
            error("graph-output", g.loc, fmt::format("graph output '{}' is never assigned", out));
}

void Checker::body(const std::vector<ast::Assignment>& assignments, Scope& scope) {
    for (const auto& a : assignments) {
        std::vector<const ast::Expr*> names;
        lhsNames(a.lhs, names);
        for (const auto* n : names)
            scope.assignedAt.emplace(n->text, n->loc);
    }
    for (const auto& a : assignments) {
        std::vector<std::string> locals;
        uses(a.rhs, scope, locals, false);
        operations(a.rhs, scope.graph);
        if (mode == ReadMode::Strict)
            strictExpressions(a.rhs);
        std::vector<const ast::Expr*> names;
        lhsNames(a.lhs, names);
        for (const auto* n : names) {
            keywordName(n->text, n->loc);
            if (!scope.defined.insert(n->text).second) {
                const auto first = scope.assignedAt.find(n->text);
                error(
                    "single-assignment", n->loc,
                    fmt::format("'{}' is assigned more than once{}", n->text,
                                first != scope.assignedAt.end() && first->second.line != n->loc.line
                                    ? fmt::format(" (first at {})", where(first->second))
                                    : std::string()));
            }
        }
    }
}

void Checker::uses(const ast::ExprPtr& e, const Scope& scope, std::vector<std::string>& locals,
                   bool shapeContext) {
    if (!e)
        return;
    switch (e->kind) {
    case K::Identifier: {
        const std::string& n = e->text;
        if (std::find(locals.begin(), locals.end(), n) != locals.end() || scope.defined.count(n))
            return;
        if (mode == ReadMode::Tract && symbols.count(n))
            return;
        if (mode == ReadMode::Tract && shapeContext) {
            if (undeclaredSymbols.insert(n).second)
                warning("undeclared-symbol", e->loc,
                        fmt::format("'{}' is used as a dimension symbol without 'extension "
                                    "tract_symbol {};' (tract warns that this may be deprecated)",
                                    n, n));
            return;
        }
        const auto later = scope.assignedAt.find(n);
        if (later != scope.assignedAt.end())
            error("defined-before-use", e->loc,
                  fmt::format("'{}' is used before its assignment at {}", n, where(later->second)));
        else
            error("undefined-identifier", e->loc, fmt::format("'{}' is never defined", n));
        return;
    }
    case K::Invocation: {
        const bool shapes = isExternal(e->text) || e->text == "variable";
        for (std::size_t i = 0; i < e->args.size(); ++i) {
            const auto& [name, value] = e->args[i];
            uses(value, scope, locals, shapes && (name == "shape" || (name.empty() && i == 0)));
        }
        return;
    }
    case K::Comprehension: {
        // Iterators advance together and see only the outer names.
        for (const auto& it : e->iterators)
            uses(it.second, scope, locals, shapeContext);
        const std::size_t mark = locals.size();
        for (const auto& it : e->iterators)
            locals.push_back(it.first);
        uses(e->condition, scope, locals, shapeContext);
        uses(e->yield, scope, locals, shapeContext);
        locals.resize(mark);
        return;
    }
    default:
        for (const auto& item : e->items)
            uses(item, scope, locals, shapeContext);
        for (const auto& arg : e->args)
            uses(arg.second, scope, locals, shapeContext);
        return;
    }
}

namespace {

// An integer literal below 0, alone or in an array (an `axes` argument).
bool hasNegativeInteger(const ast::ExprPtr& e) {
    if (!e)
        return false;
    if (e->kind == K::Unary && e->op == "-" && !e->items.empty() && e->items[0] &&
        e->items[0]->kind == K::Integer)
        return e->items[0]->integer > 0;
    if (e->kind == K::Integer)
        return e->integer < 0;
    if (e->kind != K::Array)
        return false;
    for (const auto& item : e->items)
        if (hasNegativeInteger(item))
            return true;
    return false;
}

} // namespace

void Checker::operations(const ast::ExprPtr& e, bool inGraph) {
    if (!e)
        return;
    if (e->kind == K::Invocation) {
        auto& use = opUses[e->text];
        if (use.count++ == 0)
            use.first = e->loc;
        for (const auto& [name, value] : e->args) {
            if (mode == ReadMode::Tract && (name == "axes" || name == "axis") &&
                hasNegativeInteger(value))
                error("negative-axis", value->loc,
                      fmt::format("'{}' has a negative {}: tract panics on negative unsqueeze "
                                  "axes in some versions and its reductions fail on them with "
                                  "symbolic shapes; count axes from 0",
                                  e->text, name));
            const std::string key = e->text + ":" + name;
            if (!name.empty() && target::findTractGate(key)) {
                auto& param = gatedParamUses[key];
                if (param.count++ == 0)
                    param.first = value ? value->loc : e->loc;
            }
        }
        if (!inGraph && (isExternal(e->text) || e->text == "variable" || e->text == "update"))
            error("fragment-body", e->loc,
                  fmt::format("'{}' is not allowed inside a fragment body", e->text));
    }
    for (const auto& item : e->items)
        operations(item, inGraph);
    for (const auto& arg : e->args)
        operations(arg.second, inGraph);
    for (const auto& it : e->iterators)
        operations(it.second, inGraph);
    operations(e->condition, inGraph);
    operations(e->yield, inGraph);
}

void Checker::strictExpressions(const ast::ExprPtr& rhs) {
    // What a Khronos parser refuses in a right-hand side: shape_of always,
    // and anything but a flat invocation without KHR_enable_operator_expressions.
    bool flat = rhs->kind == K::Invocation;
    std::vector<const ast::Expr*> stack{rhs.get()};
    while (!stack.empty()) {
        const ast::Expr* e = stack.back();
        stack.pop_back();
        if (e->kind == K::Builtin && e->text == "shape_of")
            error("deprecated-shape-of", e->loc,
                  "shape_of is deprecated since NNEF 1.0.1 and refused by Khronos parsers");
        if (e != rhs.get() && e->kind != K::Integer && e->kind != K::Scalar &&
            e->kind != K::Logical && e->kind != K::String && e->kind != K::Identifier &&
            e->kind != K::Array && e->kind != K::Tuple)
            flat = false;
        for (const auto& item : e->items)
            if (item)
                stack.push_back(item.get());
        for (const auto& arg : e->args)
            stack.push_back(arg.second.get());
        for (const auto& it : e->iterators)
            stack.push_back(it.second.get());
        if (e->condition)
            stack.push_back(e->condition.get());
        if (e->yield)
            stack.push_back(e->yield.get());
    }
    if (!flat && !khrOperators)
        error("khronos-extension", rhs->loc,
              "operator expressions need 'extension KHR_enable_operator_expressions;'");
}

void Checker::graphInputRules(const ast::Assignment& a, const std::set<std::string>& inputs) {
    const bool external = a.rhs->kind == K::Invocation && isExternal(a.rhs->text);
    if (external && a.lhs->kind == K::Identifier) {
        if (!inputs.count(a.lhs->text))
            error("external-not-input", a.loc,
                  fmt::format("'{}' is assigned by {} but is not a graph input", a.lhs->text,
                              a.rhs->text));
        return;
    }
    std::vector<const ast::Expr*> names;
    lhsNames(a.lhs, names);
    for (const auto* n : names)
        if (inputs.count(n->text))
            error("graph-input", n->loc,
                  fmt::format("graph input '{}' must be assigned by external{} alone", n->text,
                              mode == ReadMode::Tract ? " or tract_core_external" : ""));
}

void Checker::variableRules(const ast::Assignment& a) {
    if (a.rhs->kind != K::Invocation || a.rhs->text != "variable")
        return;
    const auto& call = *a.rhs;
    const std::string id = a.lhs->kind == K::Identifier ? a.lhs->text : std::string("?");
    const auto labelArg = argument(call, "label", 1);
    const auto shapeArg = argument(call, "shape", 0);
    if (!labelArg || labelArg->kind != K::String) {
        error("variable-label", a.loc,
              fmt::format("variable '{}' needs a string literal label", id));
        return;
    }
    const std::string& label = labelArg->text;
    usedLabels.insert(label);
    if (mode == ReadMode::Tract) {
        std::size_t start = 0;
        while (start <= label.size()) {
            const std::size_t slash = std::min(label.find('/', start), label.size());
            if (slash > start && label[start] == '.') {
                error("hidden-label", labelArg->loc,
                      fmt::format("label '{}' has a component starting with '.'; tract ignores "
                                  "such files",
                                  label));
                break;
            }
            start = slash + 1;
        }
    } else if (label.starts_with("/")) {
        error("variable-label", labelArg->loc,
              fmt::format("label '{}' must be a relative path", label));
    }
    std::vector<int64_t> shape;
    bool literalShape = shapeArg && shapeArg->kind == K::Array;
    if (literalShape) {
        for (const auto& d : shapeArg->items) {
            if (d->kind == K::Integer)
                shape.push_back(d->integer);
            else
                literalShape = false;
        }
    }
    if (!literalShape)
        error("variable-shape", a.loc,
              fmt::format("variable '{}' needs a literal integer array as its shape", id));
    const auto dat = model.tensors.find(label);
    if (dat == model.tensors.end()) {
        error("variable-data", a.loc,
              fmt::format("variable '{}' has label '{}', but the artifact holds no '{}.dat'", id,
                          label, label));
        return;
    }
    const TensorData& t = dat->second;
    if (literalShape && shape != t.shape())
        error("variable-shape", a.loc,
              fmt::format("variable '{}' declares shape {} but '{}.dat' holds {}", id,
                          shapeText(shape), label, shapeText(t.shape())));
    if (quantKeys.empty())
        for (const auto& q : model.quant)
            quantKeys.insert(q.tensor);
    const bool quantized = quantKeys.count(id) > 0;
    const std::string declared = call.typeArg.empty() ? "scalar" : call.typeArg;
    if (!typeAgrees(declared, t.dtype()) &&
        !(quantized && declared == "scalar" && !isFloat(t.dtype()) && t.dtype() != DType::Bool))
        error("variable-type", a.loc,
              fmt::format("variable '{}' is declared variable<{}> but '{}.dat' holds {} data", id,
                          declared, label, dtypeName(t.dtype())));
}

void Checker::operationsSummary() {
    // One problem per operation name (with its first place and use count), so
    // a large graph does not repeat the same complaint hundreds of times.
    for (const auto& [name, use] : opUses) {
        if (fragments.count(name))
            continue;
        const std::string times =
            use.count > 1 ? fmt::format(" (used {} times)", use.count) : std::string();
        const target::OpInfo* op = target::findOp(name);
        if (mode == ReadMode::Strict) {
            if (!op || !op->khronos)
                error("unknown-operation", use.first,
                      fmt::format("'{}'{} is not a Khronos NNEF 1.0.5 operation{}", name, times,
                                  op ? " (it is a tract operation)"
                                     : " nor a fragment of this "
                                       "document"));
            continue;
        }
        if (!op) {
            error("unknown-operation", use.first,
                  fmt::format("'{}'{} is neither a standard operation, a tract operation nor a "
                              "fragment of this document",
                              name, times));
        } else if (op->tract.empty()) {
            error("unsupported-operation", use.first,
                  fmt::format("tract does not implement '{}'{}: {}", name, times, op->note));
        } else if (op->tract != target::kTractStandardRegistry &&
                   !registries.count(std::string(op->tract))) {
            error("registry-not-declared", use.first,
                  fmt::format("'{}'{} needs 'extension tract_registry {};'{}", name, times,
                              op->tract,
                              op->tract == "tract_core"
                                  ? " (tract 0.23 loads tract_core by default, but older "
                                    "versions and --no-nnef-tract-core do not)"
                                  : ""));
        }
    }
}

} // namespace t2n::check
