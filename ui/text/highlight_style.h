// Colours shared by the built-in highlighter and the code views, picked
// for a light or a dark palette (the palette's base colour decides).
#pragma once

#include <QColor>
#include <QPalette>
#include <QTextCharFormat>

#include <functional>

class QObject;

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

/// A banner's style sheet for `selector`: the application palette's window
/// colour tinted with `tint`, its own text colour, a border of `tint`, so
/// that it reads in light and dark themes alike.
QString tintedBannerSheet(const QString& selector, const QColor& tint);

/// Calls `apply` whenever the application's palette changes, once the new
/// palette is final, for as long as `owner` lives: a widget with a style
/// sheet below a window does not always hear of the change itself, and a
/// style sheet keeps the colours it was given.
void followApplicationPalette(QObject* owner, std::function<void()> apply);

} // namespace t2n::ui
