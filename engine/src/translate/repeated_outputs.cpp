// Two graph outputs computed by identical statements (atleast_2d((v, x))
// next to atleast_2d(v): `output_2 = unsqueeze(v, axes = [0])` twice) break
// tract 0.23.5: its declutter merges the twins and leaves a Dummy op behind
// in a third output that shared a node with them ("eval() called on a Dummy
// op. This is a bug."). The second twin as a copy of the first is the same
// graph, and tract runs it.
#include "translate/repeated_outputs.h"

#include <map>
#include <set>
#include <string>

namespace t2n::translate {

namespace {

std::string keyOf(const nnef::Invocation& inv) {
    std::string key = inv.op + "<" + inv.typeParam + ">(";
    for (const auto& a : inv.args)
        key += nnef::printExpr(a) + ", ";
    for (const auto& [name, value] : inv.kwargs)
        key += name + " = " + nnef::printExpr(value) + ", ";
    return key + ")";
}

bool draws(const std::string& op) {
    return op.find("random") != std::string::npos || op.find("multinomial") != std::string::npos;
}

} // namespace

int copyRepeatedOutputs(nnef::Document& doc) {
    const std::set<std::string> outputs(doc.outputs.begin(), doc.outputs.end());
    std::map<std::string, std::string> first; // statement -> its result
    int rewritten = 0;
    for (auto& inv : doc.body) {
        if (inv.results.size() != 1 || draws(inv.op) || inv.op == "copy")
            continue;
        const std::string key = keyOf(inv);
        auto [it, fresh] = first.emplace(key, inv.results[0]);
        if (fresh || !outputs.count(inv.results[0]))
            continue;
        inv = nnef::Invocation{"copy", "",        {nnef::Expr::id(it->second)}, {}, inv.results,
                               false,  inv.irNode};
        ++rewritten;
    }
    return rewritten;
}

} // namespace t2n::translate
