#include "nnef/document.h"
#include "t2n/error.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace t2n::nnef {

std::string formatScalar(double v) {
    if (!std::isfinite(v))
        throw Error(Stage::Write, ErrorCode::Internal,
                    "NNEF has no literal for this non-finite number here; the translator "
                    "should have stored it as a variable");
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, end);
    // Shortest round-trip form, made unmistakably a scalar: "2" -> "2.0",
    // "1e-05" -> "1.0e-05".
    auto e = s.find_first_of("eE");
    std::string mantissa = s.substr(0, e);
    if (mantissa.find('.') == std::string::npos)
        mantissa += ".0";
    return e == std::string::npos ? mantissa : mantissa + s.substr(e);
}

namespace {
int precedence(const std::string& op) {
    return op == "+" || op == "-" ? 1 : 2;
}

// An operand of a binary expression, in parentheses where the grammar's
// left-associative precedence would otherwise regroup it: `(S + 1) * 2`,
// `S - (T - 1)`.
std::string printOperand(const Expr& operand, const std::string& op, bool right) {
    std::string text = printExpr(operand);
    if (operand.kind != Expr::Kind::Binary)
        return text;
    const int inner = precedence(operand.text), outer = precedence(op);
    const bool wrap = inner < outer ||
                      (right && inner == outer && (op == "-" || op == "/" || operand.text == "/"));
    return wrap ? "(" + text + ")" : text;
}

// A string literal that reads back byte for byte. A label is a module path,
// and a module may be named anything ("it's", "a{{b}}"): tract's parser (and
// t2n's reader) take the character after a backslash literally and neither
// quote unescaped inside, and tract renders graph.nnef as a template before
// parsing it, so "{{", "{%" and "{#" are broken up by a backslash too.
std::string quotedString(std::string_view s) {
    std::string out = "'";
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool opensTemplate = i > 0 && s[i - 1] == '{' && (c == '{' || c == '%' || c == '#');
        if (c == '\\' || c == '\'' || c == '"' || opensTemplate)
            out += '\\';
        out += c;
    }
    return out + "'";
}
} // namespace

std::string printExpr(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::Identifier:
        return e.text;
    case Expr::Kind::Integer:
        return std::to_string(e.integer);
    case Expr::Kind::Scalar:
        // tract >= 0.20.19 reads inf and -inf; the translator leaves them
        // only for such targets (translate/nonfinite.cpp).
        if (std::isinf(e.scalar))
            return e.scalar > 0 ? "inf" : "-inf";
        return formatScalar(e.scalar);
    case Expr::Kind::Logical:
        return e.logical ? "true" : "false";
    case Expr::Kind::String:
        return quotedString(e.text);
    case Expr::Kind::Array:
    case Expr::Kind::Tuple: {
        std::string out = e.kind == Expr::Kind::Array ? "[" : "(";
        for (size_t i = 0; i < e.items.size(); ++i)
            out += (i ? ", " : "") + printExpr(e.items[i]);
        return out + (e.kind == Expr::Kind::Array ? "]" : ")");
    }
    case Expr::Kind::Binary:
        return printOperand(e.items.at(0), e.text, false) + " " + e.text + " " +
               printOperand(e.items.at(1), e.text, true);
    }
    return {};
}

namespace {
std::string printInvocation(const Invocation& inv) {
    std::string lhs;
    if (inv.results.size() == 1) {
        lhs = inv.results[0];
    } else {
        lhs = inv.resultsAsArray ? "[" : "(";
        for (size_t i = 0; i < inv.results.size(); ++i)
            lhs += (i ? ", " : "") + inv.results[i];
        lhs += inv.resultsAsArray ? "]" : ")";
    }
    std::string call = inv.op;
    if (!inv.typeParam.empty())
        call += "<" + inv.typeParam + ">";
    call += "(";
    bool first = true;
    for (const auto& a : inv.args) {
        call += (first ? "" : ", ") + printExpr(a);
        first = false;
    }
    for (const auto& [k, v] : inv.kwargs) {
        call += (first ? "" : ", ") + k + " = " + printExpr(v);
        first = false;
    }
    return lhs + " = " + call + ");";
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + v[i];
    return out;
}
} // namespace

std::string print(const Document& doc) {
    std::string out = "version 1.0;\n";
    if (!doc.extensions.empty()) {
        out += "\n";
        for (const auto& ext : doc.extensions)
            out += "extension " + ext + ";\n";
    }
    if (!doc.properties.empty()) {
        out +=
            "\nfragment tract_core_properties(\n) -> (properties: (string, tensor<scalar>)[])\n{\n"
            "  properties = [\n";
        for (size_t i = 0; i < doc.properties.size(); ++i)
            out += fmt::format("    (\"{}\", \"{}\"){}\n", doc.properties[i].first,
                               doc.properties[i].second, i + 1 < doc.properties.size() ? "," : "");
        out += "  ];\n}\n";
    }
    for (const auto& frag : doc.fragments)
        out += "\n" + frag + (frag.ends_with("\n") ? "" : "\n");
    out += fmt::format("\ngraph {}({}) -> ({})\n{{\n", doc.graphName, joined(doc.inputs),
                       joined(doc.outputs));
    for (const auto& inv : doc.body)
        out += "  " + printInvocation(inv) + "\n";
    out += "}\n";
    return out;
}

std::string printQuant(const Document& doc) {
    std::string out;
    for (const auto& q : doc.quant)
        out += fmt::format("\"{}\": zero_point_linear_quantize(zero_point = {}, scale = {}, bits = "
                           "{}, signed = {}, symmetric = false);\n",
                           q.identifier, q.zeroPoint, formatScalar(q.scale), q.bits,
                           q.isSigned ? "true" : "false");
    return out;
}

} // namespace t2n::nnef
