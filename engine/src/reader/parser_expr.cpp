// Expressions of the NNEF grammar. Precedence, lowest first:
//   x if c else y  (right-nested)
//   ||   &&   in   < <= > >= == !=   + -   * /   ^   unary - + !   a[i] a[i:j]
// Every binary operator is left-associative, `^` included, as in both the
// Khronos reference parser and tract. A '-' written right against a number
// is folded into a negative literal, so `[-1, 2]` is two integer literals.
#include "reader/parser.h"

#include "t2n/error.h"

#include <fmt/format.h>

#include <array>
#include <limits>
#include <set>

namespace t2n::nnef {

namespace {

constexpr int kBinaryLevels = 7;

bool isBinaryAt(int level, const Token& t) {
    if (level == 2)
        return t.isKeyword("in");
    if (t.kind != TokenKind::Symbol)
        return false;
    static const std::array<std::set<std::string, std::less<>>, kBinaryLevels> ops = {{
        {"||"},
        {"&&"},
        {},
        {"<", "<=", ">", ">=", "==", "!="},
        {"+", "-"},
        {"*", "/"},
        {"^"},
    }};
    return ops[static_cast<std::size_t>(level)].count(t.text) > 0;
}

bool isBuiltinWord(const Token& t) {
    return t.isKeyword("length_of") || t.isKeyword("shape_of") || t.isKeyword("range_of") ||
           t.isKeyword("integer") || t.isKeyword("scalar") || t.isKeyword("logical") ||
           t.isKeyword("string");
}

std::shared_ptr<ast::Expr> node(ast::Expr::Kind kind, ast::Location loc) {
    auto e = std::make_shared<ast::Expr>();
    e->kind = kind;
    e->loc = std::move(loc);
    return e;
}

} // namespace

ast::ExprPtr Parser::expression() {
    DepthGuard guard(*this, peek());
    return ifElse();
}

ast::ExprPtr Parser::ifElse() {
    ast::ExprPtr value = binary(0);
    if (!peek().isKeyword("if"))
        return value;
    DepthGuard guard(*this, take()); // the else branch recurses
    auto e = node(ast::Expr::Kind::IfElse, value->loc);
    ast::ExprPtr condition = binary(0);
    expectKeyword("else", "after the condition of 'x if c else y'");
    ast::ExprPtr otherwise = ifElse();
    e->items = {value, condition, otherwise};
    return e;
}

ast::ExprPtr Parser::binary(int level) {
    if (level == kBinaryLevels)
        return unary();
    ast::ExprPtr lhs = binary(level + 1);
    int folds = 0;
    while (isBinaryAt(level, peek())) {
        // Each fold deepens the tree by one: count it like a bracket.
        const Token op = take();
        fold(op);
        ++folds;
        auto e = node(ast::Expr::Kind::Binary, lhs->loc);
        e->op = op.text;
        e->items = {lhs, binary(level + 1)};
        lhs = e;
    }
    unfold(folds);
    return lhs;
}

ast::ExprPtr Parser::unary() {
    const Token& t = peek();
    if (t.isSymbol("-") && peek(1).offset == t.end &&
        (peek(1).kind == TokenKind::Integer || peek(1).kind == TokenKind::Scalar))
        return postfixOf(numberLiteral(take()));
    if (t.isSymbol("-") || t.isSymbol("+") || t.isSymbol("!")) {
        const Token op = take();
        DepthGuard guard(*this, op);
        auto e = node(ast::Expr::Kind::Unary, loc(op));
        e->op = op.text;
        e->items = {unary()};
        return e;
    }
    return postfixOf(primary());
}

ast::ExprPtr Parser::postfixOf(ast::ExprPtr target) {
    int folds = 0;
    while (peek().isSymbol("[")) {
        const Token open = take();
        fold(open);
        ++folds;
        auto e = node(ast::Expr::Kind::Index, target->loc);
        ast::ExprPtr begin, end;
        if (!peek().isSymbol(":"))
            begin = expression();
        if (takeSymbol(":")) {
            e->isSlice = true;
            if (!peek().isSymbol("]"))
                end = expression();
        }
        expectSymbol("]", e->isSlice ? "to close the slice a[i:j]" : "to close the index a[i]");
        e->items = {target, begin, end};
        target = e;
    }
    unfold(folds);
    return target;
}

ast::ExprPtr Parser::primary() {
    const Token& t = peek();
    switch (t.kind) {
    case TokenKind::Integer:
    case TokenKind::Scalar:
        return numberLiteral(Token{});
    case TokenKind::String: {
        const Token s = take();
        auto e = node(ast::Expr::Kind::String, loc(s));
        e->text = s.text;
        return e;
    }
    case TokenKind::Identifier:
        break;
    case TokenKind::Keyword:
        if (t.text == "true" || t.text == "false") {
            const Token b = take();
            auto e = node(ast::Expr::Kind::Logical, loc(b));
            e->logical = b.text == "true";
            return e;
        }
        if (isBuiltinWord(t) && peek(1).isSymbol("(")) {
            const Token word = take();
            if (strict() && word.text == "shape_of")
                fail(word, "shape_of is deprecated since NNEF 1.0.1 and refused by Khronos "
                           "parsers");
            auto e = node(ast::Expr::Kind::Builtin, loc(word));
            e->text = word.text;
            take(); // '('
            e->items = {expression()};
            expectSymbol(")", fmt::format("to close {}(...)", word.text));
            return e;
        }
        if (strict() || t.text == "for" || t.text == "in" || t.text == "if" || t.text == "else" ||
            t.text == "yield")
            expected("an expression", "");
        break; // tract: any other word may name a value
    case TokenKind::Symbol:
        if (t.text == "(") {
            const Token open = take();
            ast::ExprPtr first = expression();
            if (takeSymbol(")"))
                return first; // (a) is just a
            auto e = node(ast::Expr::Kind::Tuple, loc(open));
            e->items.push_back(first);
            while (takeSymbol(","))
                e->items.push_back(expression());
            expectSymbol(")", "to close the tuple");
            return e;
        }
        if (t.text == "[")
            return bracket(take());
        expected("an expression", "");
    default:
        expected("an expression", "");
    }
    const Token word = take();
    if (peek().isSymbol("(") ||
        (peek().isSymbol("<") && (peek(1).isSymbol("?") || peek(1).kind == TokenKind::Keyword) &&
         peek(2).isSymbol(">") && peek(3).isSymbol("(")))
        return invocation(word);
    auto e = node(ast::Expr::Kind::Identifier, loc(word));
    e->text = word.text;
    return e;
}

ast::ExprPtr Parser::invocation(const Token& nameToken) {
    if (strict() && nameToken.text.starts_with("tract_"))
        fail(nameToken, fmt::format("'{}' is a tract operation; strict NNEF has no tract_* "
                                    "operations",
                                    nameToken.text));
    auto e = node(ast::Expr::Kind::Invocation, loc(nameToken));
    e->text = nameToken.text;
    if (takeSymbol("<")) {
        e->typeArg = typeName(fmt::format("as the type argument of '{}'", e->text));
        expectSymbol(">", "to close the type argument");
    }
    expectSymbol("(", fmt::format("after '{}'", e->text));
    e->args = arguments(e->text, false);
    return e;
}

std::vector<std::pair<std::string, ast::ExprPtr>> Parser::arguments(std::string_view op,
                                                                    bool literalsOnly) {
    // After '(' up to and including ')'.
    std::vector<std::pair<std::string, ast::ExprPtr>> args;
    std::set<std::string, std::less<>> named;
    if (peek().isSymbol(")")) {
        if (strict())
            fail(peek(), fmt::format("'{}' needs at least one argument", op));
        take();
        return args;
    }
    do {
        const Token& t = peek();
        const bool isNamed =
            (t.kind == TokenKind::Identifier || (t.kind == TokenKind::Keyword && !strict())) &&
            peek(1).isSymbol("=");
        if (isNamed) {
            const Token argName = take();
            take(); // '='
            if (!named.insert(argName.text).second)
                fail(argName,
                     fmt::format("argument '{}' of '{}' is given twice", argName.text, op));
            args.emplace_back(argName.text, literalsOnly ? literal() : expression());
            continue;
        }
        if (literalsOnly)
            fail(t, fmt::format("expected a named argument 'name = value' for '{}', found {}", op,
                                describeToken(t)));
        if (!named.empty() && strict())
            fail(t, fmt::format("positional argument after named arguments in '{}'", op));
        args.emplace_back(std::string(), expression());
    } while (takeSymbol(","));
    expectSymbol(")", fmt::format("to close the arguments of '{}'", op));
    return args;
}

ast::ExprPtr Parser::bracket(const Token& open) {
    if (takeKeyword("for"))
        return comprehension(open);
    auto e = node(ast::Expr::Kind::Array, loc(open));
    if (takeSymbol("]"))
        return e;
    do
        e->items.push_back(expression());
    while (takeSymbol(","));
    expectSymbol("]", "to close the array");
    return e;
}

ast::ExprPtr Parser::comprehension(const Token& open) {
    // [for i in a, j in b if c yield e]. Iterables stop before 'if' (no
    // if/else there), which leaves 'if' to the filter.
    auto e = node(ast::Expr::Kind::Comprehension, loc(open));
    do {
        std::string var = name("as the loop variable after 'for'");
        expectKeyword("in", fmt::format("after the loop variable '{}'", var));
        DepthGuard guard(*this, peek());
        e->iterators.emplace_back(std::move(var), binary(0));
    } while (takeSymbol(","));
    if (takeKeyword("if"))
        e->condition = expression();
    expectKeyword("yield", "in the comprehension [for ... yield ...]");
    e->yield = expression();
    expectSymbol("]", "to close the comprehension");
    return e;
}

ast::ExprPtr Parser::numberLiteral(const Token& minus) {
    const Token n = take();
    const bool negative = minus.isSymbol("-");
    auto e = node(n.kind == TokenKind::Integer ? ast::Expr::Kind::Integer : ast::Expr::Kind::Scalar,
                  loc(negative ? minus : n));
    if (n.kind == TokenKind::Integer)
        e->integer = negative ? -n.integer : n.integer;
    else
        e->scalar = negative ? -n.scalar : n.scalar;
    return e;
}

ast::ExprPtr Parser::literal() {
    // <literal-expr>: numbers (with an optional '-'), strings, logicals, and
    // arrays and tuples of those; used for defaults and graph.quant values.
    const Token t = peek();
    DepthGuard guard(*this, t);
    if (t.isSymbol("-") &&
        (peek(1).kind == TokenKind::Integer || peek(1).kind == TokenKind::Scalar))
        return numberLiteral(take());
    if (t.kind == TokenKind::Integer || t.kind == TokenKind::Scalar)
        return numberLiteral(Token{});
    if (t.kind == TokenKind::String) {
        auto e = node(ast::Expr::Kind::String, loc(t));
        e->text = take().text;
        return e;
    }
    if (t.isKeyword("true") || t.isKeyword("false")) {
        auto e = node(ast::Expr::Kind::Logical, loc(t));
        e->logical = take().text == "true";
        return e;
    }
    if (t.isSymbol("[") || t.isSymbol("(")) {
        const bool array = t.isSymbol("[");
        take();
        auto e = node(array ? ast::Expr::Kind::Array : ast::Expr::Kind::Tuple, loc(t));
        const std::string_view close = array ? "]" : ")";
        if (!(array && peek().isSymbol("]"))) {
            do
                e->items.push_back(literal());
            while (takeSymbol(","));
        }
        expectSymbol(close, array ? "to close the array literal" : "to close the tuple literal");
        if (!array && e->items.size() == 1)
            return e->items.front();
        return e;
    }
    expected("a literal (number, string, true, false, or an array or tuple of those)", "");
}

} // namespace t2n::nnef
