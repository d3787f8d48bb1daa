#include "ir/naming.h"

#include <cctype>
#include <vector>

namespace t2n::ir {

namespace {
// aten::_convolution -> convolution, aten::relu_ -> relu
std::string opShortName(const std::string& kind) {
    auto pos = kind.rfind("::");
    std::string s = pos == std::string::npos ? kind : kind.substr(pos + 2);
    while (!s.empty() && s.front() == '_')
        s.erase(s.begin());
    while (!s.empty() && s.back() == '_')
        s.pop_back();
    return s.empty() ? "op" : s;
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out.back() += c;
        else if (!out.back().empty())
            out.emplace_back();
    }
    if (out.back().empty())
        out.pop_back();
    return out;
}
} // namespace

std::string naturalName(const std::string& modulePath, const std::string& kind) {
    std::string op = opShortName(kind);
    if (modulePath.empty())
        return op;
    std::string path;
    for (char c : modulePath)
        path += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return path + "__" + op;
}

std::string camelName(const std::string& modulePath, const std::string& kind) {
    std::vector<std::string> parts = words(modulePath);
    for (auto& w : words(opShortName(kind)))
        parts.push_back(w);
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        std::string w = parts[i];
        if (i == 0) {
            out = w;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(w[0])))
            out += "_" + w; // keep "layer1_0" readable: digits never merge
        else
            out += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0]))) + w.substr(1);
    }
    return out;
}

void applyNaming(Graph& graph, NamingScheme scheme) {
    for (auto& node : graph.nodes) {
        for (ValueId id : node.outputs) {
            Value& v = graph.value(id);
            switch (scheme) {
            case NamingScheme::Raw:
                v.name = v.debugName;
                break;
            case NamingScheme::NaturalVerbose:
                v.name = naturalName(node.where.modulePath, node.kind);
                break;
            case NamingScheme::NaturalVerboseCamel:
                v.name = camelName(node.where.modulePath, node.kind);
                break;
            case NamingScheme::Numeric:
                v.name = "v";
                break;
            }
        }
    }
}

} // namespace t2n::ir
