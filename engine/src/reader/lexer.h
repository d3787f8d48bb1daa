// Tokens of the NNEF text formats (graph.nnef and graph.quant): identifiers,
// keywords, numbers, strings, punctuation and operators, with 1-based line and
// column. Written from the NNEF 1.0.5 lexical rules, plus tract's additions:
// backslash escapes in strings, `i"..."` identifiers and free-form extension
// lines.
#pragma once

#include "reader/ast.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace t2n::nnef {

enum class TokenKind {
    End,        ///< end of the text
    Identifier, ///< x, conv1_weight (text = the name)
    Keyword,    ///< one of the reserved words (text = the word)
    Integer,    ///< 12 (text = spelling, integer = value)
    Scalar,     ///< 1.0, 1e-5 (text = spelling, scalar = value)
    String,     ///< 'a' or "a" (text = the unescaped value)
    Symbol,     ///< ( ) [ ] { } , ; : = ? < > <= >= == != + - * / ^ ! && || ->
    RawText,    ///< tract mode: what follows "extension" up to ';', trimmed
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;
    int64_t integer = 0;
    double scalar = 0;
    bool extended = false; ///< identifier written as i"..." (tract --opl syntax)
    int line = 1, column = 1;
    std::size_t offset = 0, end = 0; ///< byte range in the text

    bool is(TokenKind k, std::string_view t) const { return kind == k && text == t; }
    bool isSymbol(std::string_view t) const { return is(TokenKind::Symbol, t); }
    bool isKeyword(std::string_view t) const { return is(TokenKind::Keyword, t); }
};

/// The NNEF reserved words; none may be an identifier in strict mode.
bool isNnefKeyword(std::string_view word);

/// "identifier 'x'", "'('", "end of file": how error messages name a token.
std::string describeToken(const Token& t);

class Lexer {
public:
    struct Options {
        bool tract = true;          ///< accept i"..." identifiers
        bool rawExtensions = false; ///< "extension" in the header reads raw text up to ';'
    };
    Lexer(std::string_view text, std::string fileName, Options options);

    /// The next token; throws t2n::Error (Stage::Check, ModelFile) with
    /// file:line:column for text that is no token at all.
    Token next();

    ast::Location locationOf(const Token& t) const { return {file_, t.line, t.column}; }
    const std::string& fileName() const { return file_; }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& message) const;
    int columnOf(std::size_t at) const;
    void skipSpaceAndComments();
    Token start() const;
    Token lexWord();
    Token lexNumber();
    Token lexString(Token t);
    Token lexSymbol();
    Token lexRaw();

    std::string_view text_;
    std::string file_;
    Options options_;
    std::size_t pos_ = 0;
    int line_ = 1;
    std::size_t lineStart_ = 0;
    bool inHeader_ = true; ///< before the first "fragment" or "graph" keyword
    bool rawNext_ = false; ///< the previous token was a header "extension"
};

} // namespace t2n::nnef
