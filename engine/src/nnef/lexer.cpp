#include "nnef/lexer.h"

#include "t2n/error.h"

#include <fmt/format.h>
#include <limits>

#include <array>
#include <charconv>
#include <cmath>

namespace t2n::nnef {

namespace {

constexpr std::array<std::string_view, 19> kKeywords = {
    "version", "extension", "graph",     "fragment", "tensor",   "integer", "scalar",
    "logical", "string",    "true",      "false",    "for",      "in",      "if",
    "else",    "yield",     "length_of", "shape_of", "range_of",
};

bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isIdentChar(char c) {
    return isIdentStart(c) || isDigit(c);
}

std::string printable(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7f)
        return fmt::format("'{}'", c);
    return fmt::format("byte 0x{:02X}", u);
}

} // namespace

bool isNnefKeyword(std::string_view word) {
    for (auto k : kKeywords)
        if (k == word)
            return true;
    return false;
}

std::string describeToken(const Token& t) {
    switch (t.kind) {
    case TokenKind::End:
        return "end of file";
    case TokenKind::Identifier:
        return fmt::format("identifier '{}'", t.text);
    case TokenKind::Keyword:
        return fmt::format("keyword '{}'", t.text);
    case TokenKind::Integer:
    case TokenKind::Scalar:
        return fmt::format("number '{}'", t.text);
    case TokenKind::String:
        return t.text.size() > 40 ? fmt::format("string '{}...'", t.text.substr(0, 40))
                                  : fmt::format("string '{}'", t.text);
    case TokenKind::Symbol:
        return fmt::format("'{}'", t.text);
    case TokenKind::RawText:
        return fmt::format("'{}'", t.text);
    }
    return "?";
}

Lexer::Lexer(std::string_view text, std::string fileName, Options options)
    : text_(text), file_(std::move(fileName)), options_(options) {}

void Lexer::fail(std::size_t at, const std::string& message) const {
    throw Error(Stage::Check, ErrorCode::ModelFile,
                fmt::format("{}:{}:{}: {}", file_, line_, columnOf(at), message));
}

int Lexer::columnOf(std::size_t at) const {
    return static_cast<int>(at - lineStart_) + 1;
}

void Lexer::skipSpaceAndComments() {
    while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '\n' || c == '\r') {
            ++pos_;
            if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n')
                ++pos_; // CR LF is one line break
            ++line_;
            lineStart_ = pos_;
        } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            ++pos_;
        } else if (c == '#') {
            while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r')
                ++pos_;
        } else {
            return;
        }
    }
}

Token Lexer::start() const {
    Token t;
    t.line = line_;
    t.column = columnOf(pos_);
    t.offset = pos_;
    return t;
}

Token Lexer::next() {
    if (rawNext_) {
        rawNext_ = false;
        return lexRaw();
    }
    skipSpaceAndComments();
    if (pos_ >= text_.size()) {
        Token t = start();
        t.end = pos_;
        return t;
    }
    const char c = text_[pos_];
    if (c == 'i' && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\'')) {
        // tract's escaped identifier i"any text" (enabled by --opl).
        if (!options_.tract)
            fail(pos_, "identifiers written as i\"...\" are a tract extension, not NNEF 1.0.5");
        Token t = start();
        ++pos_;
        t = lexString(t);
        t.kind = TokenKind::Identifier;
        t.extended = true;
        return t;
    }
    if (isIdentStart(c))
        return lexWord();
    if (isDigit(c))
        return lexNumber();
    if (c == '"' || c == '\'')
        return lexString(start());
    return lexSymbol();
}

Token Lexer::lexWord() {
    Token t = start();
    while (pos_ < text_.size() && isIdentChar(text_[pos_]))
        ++pos_;
    t.end = pos_;
    t.text = std::string(text_.substr(t.offset, pos_ - t.offset));
    t.kind = isNnefKeyword(t.text) ? TokenKind::Keyword : TokenKind::Identifier;
    if (options_.tract && t.text == "inf") {
        // tract reads `inf` (and `-inf`, the parser folds the sign) as a
        // number since 0.20.19; Khronos NNEF has no such literal.
        t.kind = TokenKind::Scalar;
        t.scalar = std::numeric_limits<double>::infinity();
        return t;
    }
    if (t.kind == TokenKind::Keyword && inHeader_) {
        if (t.text == "fragment" || t.text == "graph")
            inHeader_ = false;
        else if (t.text == "extension" && options_.rawExtensions)
            rawNext_ = true;
    }
    return t;
}

Token Lexer::lexNumber() {
    // digits ['.' digits*] [('e'|'E') ['+'|'-'] digits+]; a leading '-' is a
    // separate token that the parser folds into the literal.
    Token t = start();
    bool real = false;
    while (pos_ < text_.size() && isDigit(text_[pos_]))
        ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
        real = true;
        ++pos_;
        while (pos_ < text_.size() && isDigit(text_[pos_]))
            ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        real = true;
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
            ++pos_;
        if (pos_ >= text_.size() || !isDigit(text_[pos_]))
            fail(pos_, fmt::format("malformed number '{}': expected digits after the exponent",
                                   text_.substr(t.offset, pos_ - t.offset)));
        while (pos_ < text_.size() && isDigit(text_[pos_]))
            ++pos_;
    }
    if (pos_ < text_.size() && (isIdentChar(text_[pos_]) || text_[pos_] == '.')) {
        std::size_t bad = pos_;
        while (bad < text_.size() && (isIdentChar(text_[bad]) || text_[bad] == '.'))
            ++bad;
        fail(t.offset,
             fmt::format("malformed number '{}'", text_.substr(t.offset, bad - t.offset)));
    }
    t.end = pos_;
    t.text = std::string(text_.substr(t.offset, pos_ - t.offset));
    const char* first = text_.data() + t.offset;
    const char* last = text_.data() + pos_;
    if (real) {
        t.kind = TokenKind::Scalar;
        auto [p, ec] = std::from_chars(first, last, t.scalar);
        if (ec != std::errc() || p != last || !std::isfinite(t.scalar))
            fail(t.offset,
                 fmt::format("number '{}' is out of the range of a 64-bit float", t.text));
    } else {
        t.kind = TokenKind::Integer;
        auto [p, ec] = std::from_chars(first, last, t.integer);
        if (ec != std::errc() || p != last)
            fail(t.offset, fmt::format("integer '{}' does not fit in 64 bits", t.text));
    }
    return t;
}

Token Lexer::lexString(Token t) {
    // Either quote; a backslash takes the next character literally (tract's
    // rule), so \' and \" and \\ can appear inside.
    const char quote = text_[pos_];
    ++pos_;
    t.kind = TokenKind::String;
    while (true) {
        if (pos_ >= text_.size())
            throw Error(Stage::Check, ErrorCode::ModelFile,
                        fmt::format("{}:{}:{}: unterminated string: expected a closing {} before "
                                    "the end of the file",
                                    file_, t.line, t.column, quote));
        const char c = text_[pos_];
        if (c == quote) {
            ++pos_;
            break;
        }
        if (c == '\\' && pos_ + 1 < text_.size()) {
            ++pos_;
        }
        const char taken = text_[pos_];
        t.text += taken;
        ++pos_;
        if (taken == '\n' || (taken == '\r' && !(pos_ < text_.size() && text_[pos_] == '\n'))) {
            ++line_;
            lineStart_ = pos_;
        }
    }
    t.end = pos_;
    return t;
}

Token Lexer::lexSymbol() {
    static constexpr std::array<std::string_view, 7> kTwo = {
        "<=", ">=", "==", "!=", "&&", "||", "->"};
    static constexpr std::string_view kOne = "()[]{},;:=?<>+-*/^!";
    Token t = start();
    t.kind = TokenKind::Symbol;
    const std::string_view rest = text_.substr(pos_);
    for (auto two : kTwo) {
        if (rest.starts_with(two)) {
            t.text = std::string(two);
            pos_ += 2;
            t.end = pos_;
            return t;
        }
    }
    if (kOne.find(rest.front()) != std::string_view::npos) {
        t.text = std::string(1, rest.front());
        ++pos_;
        t.end = pos_;
        return t;
    }
    fail(pos_, fmt::format("unexpected character {}", printable(rest.front())));
}

Token Lexer::lexRaw() {
    // tract: "extension <anything up to ;>". A line break before the ';' is
    // almost certainly a forgotten ';', so it is reported as one.
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
        ++pos_;
    Token t = start();
    t.kind = TokenKind::RawText;
    std::size_t stop = pos_;
    while (stop < text_.size() && text_[stop] != ';' && text_[stop] != '\n' && text_[stop] != '\r')
        ++stop;
    if (stop >= text_.size() || text_[stop] != ';') {
        std::size_t trimmed = stop;
        while (trimmed > pos_ && (text_[trimmed - 1] == ' ' || text_[trimmed - 1] == '\t'))
            --trimmed;
        fail(trimmed, "expected ';' at the end of the extension line");
    }
    std::size_t last = stop;
    while (last > pos_ && (text_[last - 1] == ' ' || text_[last - 1] == '\t'))
        --last;
    t.text = std::string(text_.substr(pos_, last - pos_));
    pos_ = stop;
    t.end = last;
    return t;
}

} // namespace t2n::nnef
