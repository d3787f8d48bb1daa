#include "text/text_highlighter.h"

#include "text/builtin_highlighter.h"
#include "text/highlight_style.h"
#include "text/progressive_highlighting.h"

#ifdef T2N_HAVE_KSYNTAXHIGHLIGHTING
#include "text/ksh_highlighting.h"
#endif

#include <QGuiApplication>
#include <QSyntaxHighlighter>
#include <QTextDocument>

namespace t2n::ui {

namespace {

std::optional<HighlighterBackend>& chosenBackend() {
    static std::optional<HighlighterBackend> backend;
    return backend;
}

// Marks the highlighters this factory made, so attach() can replace them.
constexpr const char* kBackendProperty = "t2nHighlighterBackend";

} // namespace

QString syntaxDefinitionName(Language language) {
    switch (language) {
    case Language::TorchScriptIR:
        return QStringLiteral("TorchScript IR");
    case Language::Nnef:
        return QStringLiteral("NNEF");
    case Language::Json:
        return QStringLiteral("JSON");
    case Language::Shell:
        return QStringLiteral("Bash");
    case Language::Plain:
        break;
    }
    return {};
}

bool TextHighlighter::kSyntaxHighlightingAvailable() {
#ifdef T2N_HAVE_KSYNTAXHIGHLIGHTING
    return true;
#else
    return false;
#endif
}

HighlighterBackend TextHighlighter::defaultBackend() {
    if (chosenBackend())
        return *chosenBackend();
    const QByteArray env = qgetenv("T2N_HIGHLIGHTER").toLower();
    if (env == "builtin" || !kSyntaxHighlightingAvailable())
        return HighlighterBackend::Builtin;
    return HighlighterBackend::KSyntaxHighlighting;
}

void TextHighlighter::setDefaultBackend(std::optional<HighlighterBackend> backend) {
    chosenBackend() = backend;
}

QSyntaxHighlighter* TextHighlighter::attach(QTextDocument* document, Language language,
                                            const QPalette& palette) {
    return attach(document, language, defaultBackend(), palette);
}

QSyntaxHighlighter* TextHighlighter::attach(QTextDocument* document, Language language,
                                            HighlighterBackend backend, const QPalette& palette) {
    for (QSyntaxHighlighter* old :
         document->findChildren<QSyntaxHighlighter*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (old->property(kBackendProperty).isValid()) {
            old->setDocument(nullptr);
            delete old;
        }
    }
    if (language == Language::Plain)
        return nullptr;
    const QPalette& effective = palette.resolveMask() != 0 ? palette : QGuiApplication::palette();
    QSyntaxHighlighter* highlighter = nullptr;
#ifdef T2N_HAVE_KSYNTAXHIGHLIGHTING
    if (backend == HighlighterBackend::KSyntaxHighlighting)
        highlighter = ksh::attach(document, language, effective);
#endif
    if (!highlighter) {
        backend = HighlighterBackend::Builtin;
        auto* builtin = new BuiltinHighlighter(document, language, isDarkPalette(effective));
        new ProgressiveHighlighting(builtin, [builtin](int n) { builtin->setLimit(n); });
        highlighter = builtin;
    }
    highlighter->setProperty(kBackendProperty, static_cast<int>(backend));
    return highlighter;
}

bool TextHighlighter::isFullyHighlighted(const QTextDocument* document) {
    for (const auto* p : document->findChildren<ProgressiveHighlighting*>()) {
        if (!p->isDone())
            return false;
    }
    return true;
}

void TextHighlighter::finishHighlighting(QTextDocument* document) {
    for (auto* p : document->findChildren<ProgressiveHighlighting*>())
        p->finish();
}

HighlighterBackend TextHighlighter::backendOf(const QSyntaxHighlighter* highlighter) {
    return static_cast<HighlighterBackend>(highlighter->property(kBackendProperty).toInt());
}

QString TextHighlighter::definitionSearchPath() {
    return QStringLiteral(":/t2n/ksyntaxhighlighting");
}

} // namespace t2n::ui
