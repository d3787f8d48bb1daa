// Colours shared by the built-in highlighter and the code views, picked
// for a light or a dark palette (the palette's base colour decides).
#pragma once

#include <QColor>
#include <QPalette>
#include <QTextCharFormat>

namespace t2n::ui {

/// What a token is, whatever the language; each role has one format per theme.
enum class TokenRole {
    Keyword,
    Function,
    Variable,
    DataType,
    Attribute,
    Number,
    String,
    Escape,
    Comment,
    Operator,
    SourceLocation,
    ControlFlow,
    Literal,
    Count
};

bool isDarkPalette(const QPalette& palette);
/// `base` moved `amount` (0..1) of the way towards `tint`.
QColor blend(const QColor& base, const QColor& tint, double amount);

QTextCharFormat tokenFormat(TokenRole role, bool dark);

/// Backgrounds of marked lines in the code views (diffs, linked lines, current line).
struct LineColors {
    QColor added, removed, changed, filler, linked, current;
};
LineColors lineColors(const QPalette& palette);

/// Text of a good or a bad verdict ("matches", "FAILED", a form's errors):
/// dark green and red on a light palette, light ones on a dark palette.
QColor verdictColor(bool ok, const QPalette& palette);

} // namespace t2n::ui
