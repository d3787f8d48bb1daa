#include "text/ksh_highlighting.h"

#include "text/progressive_highlighting.h"
#include "text/text_highlighter.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

namespace t2n::ui::ksh {

namespace {

/// KDE's highlighter, leaving blocks past a limit for ProgressiveHighlighting to do later.
class GatedHighlighter : public KSyntaxHighlighting::SyntaxHighlighter {
public:
    using SyntaxHighlighter::SyntaxHighlighter;
    void setLimit(int limit) { limit_ = limit; }

protected:
    void highlightBlock(const QString& text) override {
        if (currentBlock().blockNumber() < limit_)
            SyntaxHighlighter::highlightBlock(text);
    }

private:
    int limit_ = 0; // setDefinition() highlights at once: nothing until the scheduler says
};

} // namespace

KSyntaxHighlighting::Repository& repository() {
    // Created on first use on the GUI thread and kept for the process (KDE's advice: one
    // repository for the application's lifetime). Loading the resource folder directly
    // works: Repository lists it with QDirIterator, which reads Qt resources.
    static KSyntaxHighlighting::Repository* repo = [] {
        auto* r = new KSyntaxHighlighting::Repository;
        r->addCustomSearchPath(TextHighlighter::definitionSearchPath());
        return r;
    }();
    return *repo;
}

QSyntaxHighlighter* attach(QTextDocument* document, Language language, const QPalette& palette) {
    const KSyntaxHighlighting::Definition definition =
        repository().definitionForName(syntaxDefinitionName(language));
    if (!definition.isValid())
        return nullptr;
    auto* highlighter = new GatedHighlighter(document);
    highlighter->setTheme(repository().themeForPalette(palette));
    highlighter->setDefinition(definition);
    new ProgressiveHighlighting(
        highlighter, [highlighter](int n) { highlighter->setLimit(n); }, true);
    return highlighter;
}

} // namespace t2n::ui::ksh
