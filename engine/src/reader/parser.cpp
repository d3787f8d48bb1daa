// Declarations and statements of the NNEF grammar; expressions are in
// parser_expr.cpp. Strict mode enforces what a Khronos NNEF 1.0.5 parser
// enforces at parse time (KHR extensions, flat documents, no tract_*
// operations, no keywords as names); tract mode accepts what tract accepts.
#include "reader/parser.h"

#include "t2n/error.h"

#include <fmt/format.h>

#include <set>

namespace t2n::nnef {

namespace {
constexpr std::string_view kKhrFragments = "KHR_enable_fragment_definitions";
constexpr std::string_view kKhrOperators = "KHR_enable_operator_expressions";
} // namespace

Parser::Parser(std::string_view text, const std::string& fileName, ReadMode mode, bool quant)
    : lexer_(text, fileName,
             Lexer::Options{.tract = mode == ReadMode::Tract,
                            .rawExtensions = mode == ReadMode::Tract && !quant}),
      mode_(mode) {}

// ---------------------------------------------------------------- tokens

const Token& Parser::peek(std::size_t k) {
    while (ahead_.size() <= k) {
        if (!ahead_.empty() && ahead_.back().kind == TokenKind::End)
            return ahead_.back(); // never lex past the end
        ahead_.push_back(lexer_.next());
    }
    return ahead_[k];
}

Token Parser::take() {
    peek();
    Token t = std::move(ahead_.front());
    ahead_.pop_front();
    prevLine_ = t.line;
    prevEndColumn_ = t.column + static_cast<int>(t.end - t.offset);
    return t;
}

bool Parser::takeSymbol(std::string_view s) {
    if (!peek().isSymbol(s))
        return false;
    take();
    return true;
}

bool Parser::takeKeyword(std::string_view s) {
    if (!peek().isKeyword(s))
        return false;
    take();
    return true;
}

void Parser::fail(const Token& at, const std::string& message) const {
    throw Error(Stage::Check, ErrorCode::ModelFile,
                fmt::format("{}:{}:{}: {}", lexer_.fileName(), at.line, at.column, message));
}

void Parser::expected(std::string_view what, std::string_view context) {
    const Token& found = peek();
    if (what == "';'" && prevLine_ > 0) {
        // A forgotten ';' is best shown where it belongs: right after the
        // previous token, not at the start of the next statement.
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}:{}:{}: expected ';' {}, found {} (at {}:{})", lexer_.fileName(),
                                prevLine_, prevEndColumn_, context, describeToken(found),
                                found.line, found.column));
    }
    fail(found, fmt::format("expected {}{}{}, found {}", what, context.empty() ? "" : " ", context,
                            describeToken(found)));
}

Token Parser::expectSymbol(std::string_view s, std::string_view context) {
    if (!peek().isSymbol(s))
        expected(fmt::format("'{}'", s), context);
    return take();
}

void Parser::expectKeyword(std::string_view s, std::string_view context) {
    if (!peek().isKeyword(s))
        expected(fmt::format("'{}'", s), context);
    take();
}

void Parser::enter(const Token& at) {
    if (++depth_ > kMaxDepth)
        fail(at, fmt::format("nesting deeper than {} levels (brackets, unary signs or if/else); "
                             "refusing to go on",
                             kMaxDepth));
}

void Parser::fold(const Token& at) {
    if (++chain_ > kMaxChain)
        fail(at, fmt::format("operator or index chain longer than {} links; refusing to go on",
                             kMaxChain));
}

// ---------------------------------------------------------------- document

ast::Document Parser::document() {
    ast::Document doc;
    version(doc);
    extensions(doc);
    while (peek().isKeyword("fragment"))
        doc.fragments.push_back(fragment());
    if (!peek().isKeyword("graph"))
        expected(doc.fragments.empty() ? "'graph', 'fragment' or 'extension'"
                                       : "'graph' or 'fragment'",
                 "after the document header");
    graph(doc.graph);
    if (peek().kind != TokenKind::End)
        expected("end of file", "after the graph body");
    return doc;
}

void Parser::version(ast::Document& doc) {
    expectKeyword("version", "at the start of the document");
    const Token& t = peek();
    if (t.kind != TokenKind::Integer && t.kind != TokenKind::Scalar)
        expected("a version number such as 1.0", "after 'version'");
    doc.version = take().text;
    expectSymbol(";", "after the version number");
}

void Parser::extensions(ast::Document& doc) {
    while (peek().isKeyword("extension")) {
        const Token kw = take();
        if (!strict()) {
            // The lexer returns the rest of the line up to ';' as raw text.
            const Token raw = take();
            if (raw.kind != TokenKind::RawText || raw.text.empty())
                fail(kw, "expected an extension name after 'extension'");
            doc.extensions.push_back({raw.text, loc(raw)});
            expectSymbol(";", "after the extension line");
            continue;
        }
        // Khronos: a comma-separated list of known KHR_* names.
        do {
            const Token t = peek();
            if (t.kind != TokenKind::Identifier)
                expected("an extension name", "after 'extension'");
            take();
            if (t.text == kKhrFragments)
                khrFragments_ = true;
            else if (t.text == kKhrOperators)
                khrOperators_ = true;
            else if (t.text.starts_with("KHR_"))
                fail(t, fmt::format("unknown Khronos extension '{}' (known: {}, {})", t.text,
                                    kKhrFragments, kKhrOperators));
            else
                fail(t, fmt::format("extension '{}' is not a Khronos extension; strict NNEF "
                                    "accepts only KHR_* extensions",
                                    t.text));
            doc.extensions.push_back({t.text, loc(t)});
        } while (takeSymbol(","));
        expectSymbol(";", "after the extension list");
    }
}

ast::Fragment Parser::fragment() {
    const Token kw = take();
    if (strict() && !khrFragments_)
        fail(kw, fmt::format("fragment definitions need 'extension {};' in strict NNEF",
                             kKhrFragments));
    ast::Fragment f;
    f.loc = loc(kw);
    f.name = name("after 'fragment'");
    if (takeSymbol("<")) {
        f.generic = true;
        expectSymbol("?", "in the generic declaration (fragment name<?> or <? = type>)");
        if (takeSymbol("="))
            f.genericDefault = typeName("after '<? ='");
        expectSymbol(">", "to close the generic declaration");
    }
    expectSymbol("(", fmt::format("after the name of fragment '{}'", f.name));
    if (!peek().isSymbol(")") || strict()) {
        do {
            ast::Parameter p;
            p.name = name("as a parameter name");
            expectSymbol(":", fmt::format("after parameter '{}'", p.name));
            p.type = typeSpec();
            if (takeSymbol("="))
                p.defaultValue = literal();
            f.params.push_back(std::move(p));
        } while (takeSymbol(","));
    }
    expectSymbol(")", "after the parameter list");
    expectSymbol("->", "between the parameters and the results");
    expectSymbol("(", "before the result list");
    if (!peek().isSymbol(")") || strict()) {
        do {
            ast::Result r;
            r.name = name("as a result name");
            expectSymbol(":", fmt::format("after result '{}'", r.name));
            r.type = typeSpec();
            f.results.push_back(std::move(r));
        } while (takeSymbol(","));
    }
    expectSymbol(")", "after the result list");
    if (takeSymbol(";"))
        return f; // a declaration (primitive) without a body
    f.hasBody = true;
    f.body = body(fmt::format("of fragment '{}'", f.name));
    return f;
}

void Parser::graph(ast::Graph& g) {
    const Token kw = take();
    g.loc = loc(kw);
    g.name = name("after 'graph'");
    expectSymbol("(", "after the graph name");
    g.inputs = nameList("in the graph's input list");
    expectSymbol(")", "after the graph's inputs");
    expectSymbol("->", "between the graph's inputs and outputs");
    expectSymbol("(", "before the graph's outputs");
    g.outputs = nameList("in the graph's output list");
    expectSymbol(")", "after the graph's outputs");
    g.body = body("of the graph");
}

std::string Parser::name(std::string_view context) {
    const Token& t = peek();
    if (t.kind == TokenKind::Identifier)
        return take().text;
    if (t.kind == TokenKind::Keyword) {
        // tract's parser takes any word as a name; Khronos reserves keywords.
        if (strict())
            fail(t, fmt::format("'{}' is a keyword and cannot be used as an identifier", t.text));
        return take().text;
    }
    expected("an identifier", context);
}

std::vector<std::string> Parser::nameList(std::string_view context) {
    std::vector<std::string> names;
    if (peek().isSymbol(")") && !strict())
        return names; // tract accepts empty lists; the NNEF grammar does not
    do
        names.push_back(name(context));
    while (takeSymbol(","));
    return names;
}

bool Parser::atTypeName() {
    const Token& t = peek();
    return t.isSymbol("?") || t.isKeyword("integer") || t.isKeyword("scalar") ||
           t.isKeyword("logical") || t.isKeyword("string");
}

std::string Parser::typeName(std::string_view context) {
    if (!atTypeName())
        expected("a type name (integer, scalar, logical, string or ?)", context);
    return take().text;
}

ast::TypeSpec Parser::typeSpec() {
    const Token start = peek();
    DepthGuard guard(*this, start);
    ast::TypeSpec t;
    if (takeKeyword("tensor")) {
        t.kind = ast::TypeSpec::Kind::Tensor;
        expectSymbol("<", "after 'tensor'");
        if (!peek().isSymbol(">"))
            t.name = typeName("inside tensor<...>");
        expectSymbol(">", "to close tensor<...>");
    } else if (takeSymbol("(")) {
        t.kind = ast::TypeSpec::Kind::Tuple;
        do
            t.items.push_back(typeSpec());
        while (takeSymbol(","));
        expectSymbol(")", "to close the tuple type");
        if (t.items.size() < 2)
            fail(start, "a tuple type needs at least two item types");
    } else {
        t.name = typeName("as a type");
    }
    int levels = 0;
    while (peek().isSymbol("[")) {
        fold(peek()); // integer[][]... nests too
        ++levels;
        take();
        expectSymbol("]", "after '[' in an array type");
        ast::TypeSpec array;
        array.kind = ast::TypeSpec::Kind::Array;
        array.items.push_back(std::move(t));
        t = std::move(array);
    }
    unfold(levels);
    return t;
}

std::vector<ast::Assignment> Parser::body(std::string_view context) {
    expectSymbol("{", fmt::format("to open the body {}", context));
    std::vector<ast::Assignment> out;
    while (!peek().isSymbol("}")) {
        if (peek().kind == TokenKind::End)
            expected("'}'", fmt::format("to close the body {}", context));
        out.push_back(assignment());
    }
    if (out.empty() && strict())
        fail(peek(), fmt::format("the body {} needs at least one assignment", context));
    take();
    return out;
}

ast::Assignment Parser::assignment() {
    ast::Assignment a;
    const Token first = peek();
    a.loc = loc(first);
    a.lhs = lvalue();
    expectSymbol("=", "after the left-hand side of the assignment");
    const Token rhsStart = peek();
    ast::ExprPtr rhs = expression();
    if (peek().isSymbol(",")) {
        // <tuple-rvalue-expr> may be written without parentheses.
        auto tuple = std::make_shared<ast::Expr>();
        tuple->kind = ast::Expr::Kind::Tuple;
        tuple->loc = rhs->loc;
        tuple->items.push_back(rhs);
        while (takeSymbol(","))
            tuple->items.push_back(expression());
        rhs = tuple;
    }
    a.rhs = rhs;
    if (strict() && !khrOperators_)
        checkFlat(a.rhs, true);
    expectSymbol(";", "after the assignment");
    return a;
}

ast::ExprPtr Parser::lvalue() {
    ast::ExprPtr first = lvalueItem();
    if (!peek().isSymbol(","))
        return first;
    auto tuple = std::make_shared<ast::Expr>();
    tuple->kind = ast::Expr::Kind::Tuple;
    tuple->loc = first->loc;
    tuple->items.push_back(first);
    while (takeSymbol(","))
        tuple->items.push_back(lvalueItem());
    return tuple;
}

ast::ExprPtr Parser::lvalueItem() {
    const Token t = peek();
    DepthGuard guard(*this, t);
    auto e = std::make_shared<ast::Expr>();
    e->loc = loc(t);
    if (takeSymbol("[")) {
        e->kind = ast::Expr::Kind::Array;
        if (!peek().isSymbol("]")) {
            do
                e->items.push_back(lvalueItem());
            while (takeSymbol(","));
        }
        expectSymbol("]", "to close the array on the left-hand side");
        return e;
    }
    if (takeSymbol("(")) {
        e->kind = ast::Expr::Kind::Tuple;
        do
            e->items.push_back(lvalueItem());
        while (takeSymbol(","));
        expectSymbol(")", "to close the tuple on the left-hand side");
        if (e->items.size() == 1)
            return e->items.front(); // (a) is just a
        return e;
    }
    e->kind = ast::Expr::Kind::Identifier;
    e->text = name("on the left-hand side of an assignment");
    return e;
}

void Parser::checkFlat(const ast::ExprPtr& e, bool top) {
    // Without KHR_enable_operator_expressions a right-hand side is a single
    // invocation whose arguments are identifiers, literals, arrays and tuples.
    using K = ast::Expr::Kind;
    if (top) {
        if (e->kind != K::Invocation)
            throw Error(Stage::Check, ErrorCode::ModelFile,
                        fmt::format("{}:{}:{}: the right-hand side must be one operation "
                                    "invocation unless 'extension {};' is declared",
                                    e->loc.file, e->loc.line, e->loc.column, kKhrOperators));
        for (const auto& arg : e->args)
            checkFlat(arg.second, false);
        return;
    }
    switch (e->kind) {
    case K::Integer:
    case K::Scalar:
    case K::Logical:
    case K::String:
    case K::Identifier:
        return;
    case K::Array:
    case K::Tuple:
        for (const auto& item : e->items)
            checkFlat(item, false);
        return;
    default:
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}:{}:{}: operator expressions (operators, nested invocations, "
                                "if/else, comprehensions, indexing, builtins) need 'extension "
                                "{};' in strict NNEF",
                                e->loc.file, e->loc.line, e->loc.column, kKhrOperators));
    }
}

// ---------------------------------------------------------------- graph.quant

std::vector<ast::QuantEntry> Parser::quant() {
    // <quantization> ::= <string-literal> ":" <invocation> ";"  with named literal arguments.
    std::vector<ast::QuantEntry> out;
    std::set<std::string> seen;
    while (peek().kind != TokenKind::End) {
        const Token key = peek();
        if (key.kind != TokenKind::String)
            expected("a quoted tensor identifier such as \"conv1\"", "at the start of an entry");
        take();
        if (!seen.insert(key.text).second)
            fail(key, fmt::format("duplicate quantization entry for '{}'", key.text));
        ast::QuantEntry q;
        q.tensor = key.text;
        q.loc = loc(key);
        expectSymbol(":", "after the tensor identifier");
        const Token op = peek();
        if (op.kind != TokenKind::Identifier)
            expected("a quantization operation name", "after ':'");
        q.op = take().text;
        expectSymbol("(", fmt::format("after '{}'", q.op));
        q.args = arguments(q.op, true);
        expectSymbol(";", "after the quantization entry");
        out.push_back(std::move(q));
    }
    return out;
}

// ---------------------------------------------------------------- entry points

ast::Document parseDocument(std::string_view text, const std::string& fileName, ReadMode mode) {
    return Parser(text, fileName, mode, false).document();
}

std::vector<ast::QuantEntry> parseQuant(std::string_view text, const std::string& fileName) {
    return Parser(text, fileName, ReadMode::Tract, true).quant();
}

} // namespace t2n::nnef
