// Syntax highlighting for the studio's text views, behind one call:
// attach(document, language). Two backends: KSyntaxHighlighting with t2n's
// own definitions (when built with it; the default) and the built-in regex
// highlighter (always built). T2N_HIGHLIGHTER=builtin|ksyntaxhighlighting in
// the environment, or setDefaultBackend(), picks one at run time, so one
// build can test both. Colours follow the palette (light or dark).
#pragma once

#include "text/text_language.h"

#include <QPalette>
#include <QString>

#include <optional>

class QSyntaxHighlighter;
class QTextDocument;

namespace t2n::ui {

enum class HighlighterBackend { KSyntaxHighlighting, Builtin };

class TextHighlighter {
public:
    static bool kSyntaxHighlightingAvailable();
    /// setDefaultBackend() if called, else T2N_HIGHLIGHTER, else KSyntaxHighlighting when built.
    static HighlighterBackend defaultBackend();
    /// std::nullopt goes back to the environment's choice.
    static void setDefaultBackend(std::optional<HighlighterBackend> backend);

    /// Replaces any highlighter attached by an earlier call; the highlighter is a child of
    /// `document`. Returns nullptr for Plain. A KSyntaxHighlighting request falls back to the
    /// built-in backend when the library is absent or lacks the definition.
    static QSyntaxHighlighter* attach(QTextDocument* document, Language language,
                                      const QPalette& palette = {});
    static QSyntaxHighlighter* attach(QTextDocument* document, Language language,
                                      HighlighterBackend backend, const QPalette& palette = {});
    /// Large documents are highlighted a slice at a time from the event loop (the first
    /// screenful at once): whether that is over, and a way to end it now.
    static bool isFullyHighlighted(const QTextDocument* document);
    static void finishHighlighting(QTextDocument* document);
    static HighlighterBackend backendOf(const QSyntaxHighlighter* highlighter);

    /// Where KSyntaxHighlighting finds t2n's definitions (a Qt resource folder with syntax/).
    static QString definitionSearchPath();
};

} // namespace t2n::ui
