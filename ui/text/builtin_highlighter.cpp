#include "text/builtin_highlighter.h"

#include <QStringList>

#include <utility>

namespace t2n::ui {

namespace {

using Rule = std::pair<TokenRole, const char*>;

// Each pattern must use only non-capturing groups: the scanner numbers rules by group.
const char* const kDoubleString = R"("(?:[^"\\]|\\.)*"?)";
const char* const kSingleString = R"('(?:[^'\\]|\\.)*'?)";
const char* const kNumber = R"(-?\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b)";

std::vector<Rule> torchScriptRules() {
    return {
        {TokenRole::Comment, R"(#.*)"},
        {TokenRole::String, kDoubleString},
        {TokenRole::String, kSingleString},
        {TokenRole::Variable, R"(%[\w.]+)"},
        {TokenRole::Function, R"(\b[A-Za-z_]\w*::[A-Za-z_][\w.]*)"},
        {TokenRole::ControlFlow, R"(\bblock\d+(?=\())"},
        {TokenRole::DataType, R"(\b__torch__(?:\.\w+)+)"},
        {TokenRole::DataType, R"(\b(?:f16|bf16|f32|f64|i8|i16|i32|i64|u8|bool)(?=\[))"},
        {TokenRole::Attribute, R"(\b[A-Za-z_]\w*(?==))"},
        {TokenRole::Keyword, R"(\b(?:graph|return|inputs|outputs|nodes)\b)"},
        {TokenRole::DataType,
         R"(\b(?:Tensor|Float|Double|Half|BFloat16|Long|Int|Short|Char|Byte|Bool|ComplexFloat|)"
         R"(ComplexDouble|QInt8|QUInt8|QInt32|int|float|bool|str|complex|number|NoneType|Device|)"
         R"(Layout|ScalarType|MemoryFormat|Generator|Dict|List|Tuple|Optional|Union|Future|Any)\b)"},
        {TokenRole::Number, kNumber},
        {TokenRole::Operator, R"(->|[=:,])"},
    };
}

std::vector<Rule> nnefRules() {
    return {
        {TokenRole::Comment, R"(#.*)"},
        {TokenRole::String, kDoubleString},
        {TokenRole::String, kSingleString},
        {TokenRole::Keyword, R"(\b(?:version|extension|graph|fragment)\b)"},
        {TokenRole::DataType, R"(\b(?:tensor|integer|scalar|logical|string)\b)"},
        {TokenRole::ControlFlow, R"(\b(?:for|in|if|else|yield)\b)"},
        {TokenRole::Function, R"(\b(?:length_of|shape_of|range_of)\b)"},
        {TokenRole::Literal, R"(\b(?:true|false)\b)"},
        {TokenRole::Function, R"(\b[A-Za-z_]\w*(?=\s*[<(]))"},
        {TokenRole::Number, R"(\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b)"},
        {TokenRole::Operator, R"(->|<=|>=|==|!=|&&|\|\||[=+\-*/^<>!?:])"},
    };
}

std::vector<Rule> jsonRules() {
    return {
        {TokenRole::Attribute, R"("(?:[^"\\]|\\.)*"(?=\s*:))"},
        {TokenRole::String, kDoubleString},
        {TokenRole::Literal, R"(\b(?:true|false|null)\b)"},
        {TokenRole::Number, kNumber},
    };
}

std::vector<Rule> shellRules() {
    return {
        {TokenRole::Comment, R"((?:^|(?<=\s))#.*)"},
        {TokenRole::String, kDoubleString},
        {TokenRole::String, kSingleString},
        {TokenRole::Variable, R"(\$\{?\w+\}?)"},
        {TokenRole::Keyword,
         R"(\b(?:if|then|elif|else|fi|for|do|done|while|case|esac|function|export|local)\b)"},
        {TokenRole::Attribute, R"((?<=\s)--?[\w-]+)"},
        {TokenRole::Number, R"(\b\d+\b)"},
    };
}

std::vector<Rule> rulesFor(Language language) {
    switch (language) {
    case Language::TorchScriptIR:
        return torchScriptRules();
    case Language::Nnef:
        return nnefRules();
    case Language::Json:
        return jsonRules();
    case Language::Shell:
        return shellRules();
    case Language::Plain:
        break;
    }
    return {};
}

} // namespace

BuiltinHighlighter::BuiltinHighlighter(QTextDocument* document, Language language, bool dark)
    : QSyntaxHighlighter(document), language_(language),
      sourceLocation_(QStringLiteral(R"([^\s#@]+\.py:\d+(?::\d+)?)")) {
    QStringList alternatives;
    for (const auto& [role, pattern] : rulesFor(language)) {
        alternatives << QStringLiteral("(%1)").arg(QLatin1String(pattern));
        roles_.push_back(role);
    }
    if (!alternatives.isEmpty())
        scanner_.setPattern(alternatives.join(QLatin1Char('|')));
    scanner_.optimize();
    for (int r = 0; r < static_cast<int>(TokenRole::Count); ++r)
        formats_.push_back(tokenFormat(static_cast<TokenRole>(r), dark));
}

void BuiltinHighlighter::highlightBlock(const QString& text) {
    if (roles_.empty() || currentBlock().blockNumber() >= limit_)
        return;
    auto it = scanner_.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        for (int g = 1; g <= static_cast<int>(roles_.size()); ++g) {
            if (m.capturedStart(g) < 0)
                continue;
            const TokenRole role = roles_[static_cast<size_t>(g - 1)];
            const int start = static_cast<int>(m.capturedStart(g));
            const int length = static_cast<int>(m.capturedLength(g));
            setFormat(start, length, formats_[static_cast<size_t>(role)]);
            if (role == TokenRole::Comment) {
                auto loc = sourceLocation_.globalMatch(text.mid(start, length));
                while (loc.hasNext()) {
                    const auto l = loc.next();
                    setFormat(start + static_cast<int>(l.capturedStart()),
                              static_cast<int>(l.capturedLength()),
                              formats_[static_cast<size_t>(TokenRole::SourceLocation)]);
                }
            }
            break;
        }
    }
}

} // namespace t2n::ui
