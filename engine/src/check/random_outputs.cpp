#include "check/random_outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace t2n::check {

namespace {

using nnef::ast::Expr;

// The operations `e` invokes and the strings it holds (tract_core_scan names
// its body fragment by a string).
void invokedNames(const Expr& e, std::set<std::string>& names) {
    if (e.kind == Expr::Kind::Invocation || e.kind == Expr::Kind::String)
        names.insert(e.text);
    for (const auto& i : e.items)
        if (i)
            invokedNames(*i, names);
    for (const auto& [name, a] : e.args)
        if (a)
            invokedNames(*a, names);
    for (const auto& [name, it] : e.iterators)
        if (it)
            invokedNames(*it, names);
    if (e.condition)
        invokedNames(*e.condition, names);
    if (e.yield)
        invokedNames(*e.yield, names);
}

void identifiersRead(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == Expr::Kind::Identifier)
        out.push_back(e.text);
    for (const auto& i : e.items)
        if (i)
            identifiersRead(*i, out);
    for (const auto& [name, a] : e.args)
        if (a)
            identifiersRead(*a, out);
    for (const auto& [name, it] : e.iterators)
        if (it)
            identifiersRead(*it, out);
    if (e.condition)
        identifiersRead(*e.condition, out);
    if (e.yield)
        identifiersRead(*e.yield, out);
}

void assignedNames(const Expr& lhs, std::vector<std::string>& out) {
    if (lhs.kind == Expr::Kind::Identifier)
        out.push_back(lhs.text);
    for (const auto& i : lhs.items)
        if (i)
            assignedNames(*i, out);
}

bool intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::any_of(a.begin(), a.end(), [&](const std::string& s) { return b.count(s) > 0; });
}

// The operation and the fragments that draw, directly or through others.
std::set<std::string> drawingNames(const nnef::ast::Document& doc) {
    std::set<std::string> drawing{kRandomOperation};
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& f : doc.fragments) {
            if (!f.hasBody || drawing.count(f.name))
                continue;
            std::set<std::string> names;
            for (const auto& a : f.body)
                if (a.rhs)
                    invokedNames(*a.rhs, names);
            if (intersects(names, drawing))
                grew = drawing.insert(f.name).second || grew;
        }
    }
    return drawing;
}

std::string describeNode(const NodeRef& n) {
    if (n.sourceLine <= 0)
        return n.kind;
    return fmt::format("{} at {}:{}", n.kind, n.sourceFile.empty() ? "<unknown>" : n.sourceFile,
                       n.sourceLine);
}

} // namespace

std::vector<std::string> RandomDependence::drawIdentifiers() const {
    std::vector<std::string> out;
    for (const auto& d : draws)
        out.push_back(d.identifier);
    return out;
}

RandomDependence randomDependence(const nnef::ast::Document& doc) {
    RandomDependence out;
    const std::set<std::string> drawing = drawingNames(doc);
    std::map<std::string, std::set<size_t>> dependsOn; // identifier -> draws
    for (const auto& a : doc.graph.body) {
        if (!a.lhs || !a.rhs)
            continue;
        std::vector<std::string> names, reads;
        assignedNames(*a.lhs, names);
        identifiersRead(*a.rhs, reads);
        std::set<size_t> deps;
        for (const auto& r : reads)
            if (auto it = dependsOn.find(r); it != dependsOn.end())
                deps.insert(it->second.begin(), it->second.end());
        std::set<std::string> calls;
        invokedNames(*a.rhs, calls);
        if (intersects(calls, drawing) && !names.empty()) {
            deps.insert(out.draws.size());
            out.draws.push_back({names.front(), a.loc.line});
        }
        if (!deps.empty())
            for (const auto& n : names)
                dependsOn[n] = deps;
    }
    for (const auto& o : doc.graph.outputs)
        if (auto it = dependsOn.find(o); it != dependsOn.end())
            out.outputs[o] = std::vector<size_t>(it->second.begin(), it->second.end());
    return out;
}

std::string describeDraw(const RandomDraw& draw, const nnef::ast::Document& doc,
                         const CheckManifest* manifest) {
    auto node = [&](const std::string& identifier) -> const NodeRef* {
        const ManifestValue* v = manifest ? manifest->find(identifier) : nullptr;
        return v && !v->node.kind.empty() ? &v->node : nullptr;
    };
    if (const NodeRef* n = node(draw.identifier))
        return describeNode(*n);
    // A helper (an f16 draw is cast, a tensor mean added): the TorchScript node
    // of the first statement that reads it.
    for (const auto& a : doc.graph.body) {
        if (!a.lhs || !a.rhs || a.loc.line <= draw.line)
            continue;
        std::vector<std::string> reads;
        identifiersRead(*a.rhs, reads);
        if (std::find(reads.begin(), reads.end(), draw.identifier) == reads.end())
            continue;
        std::vector<std::string> names;
        assignedNames(*a.lhs, names);
        for (const auto& n : names)
            if (const NodeRef* ref = node(n))
                return describeNode(*ref);
        break;
    }
    return fmt::format("{} at graph.nnef:{}", kRandomOperation, draw.line);
}

} // namespace t2n::check
