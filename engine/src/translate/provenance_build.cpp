#include "translate/provenance_build.h"

#include "t2n/error.h"

#include <algorithm>

namespace t2n::translate {

namespace {
void addOperands(const nnef::Expr& e, std::vector<std::string>& out) {
    if (e.isIdentifier() && std::find(out.begin(), out.end(), e.text) == out.end())
        out.push_back(e.text);
    for (const auto& item : e.items)
        addOperands(item, out);
}
} // namespace

Provenance buildProvenance(const nnef::Document& doc, const std::string& text,
                           const std::map<std::string, ir::ValueId>& identifierValues,
                           const ir::Graph& graph) {
    // The printer writes the body one operation per line, right after the
    // "{" that follows the graph header (nnef/printer.cpp).
    auto header = text.rfind("\ngraph ");
    if (header == std::string::npos)
        throw Error(Stage::Translate, ErrorCode::Internal, "graph.nnef has no graph header");
    auto brace = text.find("\n{\n", header);
    if (brace == std::string::npos)
        throw Error(Stage::Translate, ErrorCode::Internal, "graph.nnef has no graph body");
    int first = 1; // 1-based number of the line after the brace
    for (size_t i = 0; i < brace + 3; ++i)
        first += text[i] == '\n' ? 1 : 0;
    Provenance p;
    std::map<std::string, int> nodeOf; // identifier -> IR node of its line
    for (size_t i = 0; i < doc.body.size(); ++i) {
        const auto& inv = doc.body[i];
        ProvenanceLine l;
        l.line = first + static_cast<int>(i);
        l.identifiers = inv.results;
        l.op = inv.op;
        l.irNode = inv.irNode;
        for (const auto& a : inv.args)
            addOperands(a, l.operands);
        for (const auto& [name, a] : inv.kwargs)
            addOperands(a, l.operands);
        if (l.irNode < 0)
            for (const auto& id : inv.results)
                if (auto it = identifierValues.find(id); it != identifierValues.end())
                    if (int producer = graph.value(it->second).producer; producer >= 0) {
                        l.irNode = producer;
                        break;
                    }
        // Plumbing (the copies that name the outputs) stands for what it copies.
        for (size_t k = 0; l.irNode < 0 && k < inv.args.size(); ++k)
            if (inv.args[k].isIdentifier())
                if (auto it = nodeOf.find(inv.args[k].text); it != nodeOf.end())
                    l.irNode = it->second;
        if (l.irNode >= 0)
            l.torchNode = graph.node(l.irNode).torchNode;
        for (const auto& id : l.identifiers)
            nodeOf[id] = l.irNode;
        p.lines.push_back(std::move(l));
    }
    return p;
}

} // namespace t2n::translate
