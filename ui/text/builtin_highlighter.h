// The highlighter that is always built: regular-expression rules per
// language, compiled into one alternation so each line is scanned once.
// Used when KSyntaxHighlighting is absent or T2N_HIGHLIGHTER=builtin.
#pragma once

#include "text/highlight_style.h"
#include "text/text_language.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>

#include <climits>
#include <vector>

namespace t2n::ui {

class BuiltinHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    BuiltinHighlighter(QTextDocument* document, Language language, bool dark);

    Language language() const { return language_; }
    /// Blocks numbered `limit` and later stay unformatted (see ProgressiveHighlighting).
    void setLimit(int limit) { limit_ = limit; }

protected:
    void highlightBlock(const QString& text) override;

private:
    Language language_;
    int limit_ = INT_MAX;
    QRegularExpression scanner_; ///< one capture group per rule, first match wins
    std::vector<TokenRole> roles_;
    std::vector<QTextCharFormat> formats_; ///< indexed by TokenRole
    QRegularExpression sourceLocation_;
};

} // namespace t2n::ui
