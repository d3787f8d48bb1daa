// Recursive-descent parser for the whole NNEF 1.0.5 grammar (documents with
// fragments and operator expressions) and for graph.quant, producing ast.h.
// parseDocument/parseQuant (model_reader.h) are the public entry points; this
// class is shared by parser.cpp (declarations, statements) and
// parser_expr.cpp (expressions).
#pragma once

#include "reader/ast.h"
#include "reader/lexer.h"
#include "reader/model_reader.h"

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::nnef {

class Parser {
public:
    /// Deeper nesting than this (brackets, unary signs, if/else chains) is
    /// refused: it bounds the parser's recursion...
    static constexpr int kMaxDepth = 128;
    /// ...and longer operator or index chains (a + b + c ..., a[0][1] ...),
    /// which nest the AST as deeply, bound the recursion of its destructors.
    static constexpr int kMaxChain = 4096;

    Parser(std::string_view text, const std::string& fileName, ReadMode mode, bool quant);

    ast::Document document();
    std::vector<ast::QuantEntry> quant();

private:
    friend class DepthGuard;

    // --- tokens (parser.cpp)
    const Token& peek(std::size_t k = 0);
    Token take();
    bool takeSymbol(std::string_view s);
    bool takeKeyword(std::string_view s);
    Token expectSymbol(std::string_view s, std::string_view context);
    void expectKeyword(std::string_view s, std::string_view context);
    [[noreturn]] void fail(const Token& at, const std::string& message) const;
    [[noreturn]] void expected(std::string_view what, std::string_view context);
    ast::Location loc(const Token& t) const { return lexer_.locationOf(t); }
    bool strict() const { return mode_ == ReadMode::Strict; }
    void enter(const Token& at);
    void leave() { --depth_; }
    void fold(const Token& at);
    void unfold(int folds) { chain_ -= folds; }

    // --- declarations and statements (parser.cpp)
    void version(ast::Document& doc);
    void extensions(ast::Document& doc);
    ast::Fragment fragment();
    void graph(ast::Graph& g);
    std::string name(std::string_view context);
    std::vector<std::string> nameList(std::string_view context);
    ast::TypeSpec typeSpec();
    std::string typeName(std::string_view context);
    bool atTypeName();
    std::vector<ast::Assignment> body(std::string_view context);
    ast::Assignment assignment();
    ast::ExprPtr lvalue();
    ast::ExprPtr lvalueItem();
    void checkFlat(const ast::ExprPtr& rhs, bool top);

    // --- expressions (parser_expr.cpp)
    ast::ExprPtr expression();
    ast::ExprPtr ifElse();
    ast::ExprPtr binary(int level);
    ast::ExprPtr unary();
    ast::ExprPtr postfixOf(ast::ExprPtr target);
    ast::ExprPtr primary();
    ast::ExprPtr invocation(const Token& nameToken);
    ast::ExprPtr bracket(const Token& open);
    ast::ExprPtr comprehension(const Token& open);
    ast::ExprPtr literal();
    ast::ExprPtr numberLiteral(const Token& minus);
    std::vector<std::pair<std::string, ast::ExprPtr>> arguments(std::string_view op,
                                                                bool literalsOnly);

    Lexer lexer_;
    std::deque<Token> ahead_;
    ReadMode mode_;
    int depth_ = 0;
    int chain_ = 0;
    int prevLine_ = 0, prevEndColumn_ = 0; ///< where the last taken token ended
    bool khrFragments_ = false;
    bool khrOperators_ = false;
};

/// Counts one nesting level for the lifetime of a parsing function.
class DepthGuard {
public:
    DepthGuard(Parser& p, const Token& at) : p_(p) { p_.enter(at); }
    ~DepthGuard() { p_.leave(); }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

private:
    Parser& p_;
};

} // namespace t2n::nnef
