// The KSyntaxHighlighting backend (only built with T2N_HAVE_KSYNTAXHIGHLIGHTING).
#pragma once

#include "text/text_language.h"

#include <QPalette>

class QSyntaxHighlighter;
class QTextDocument;

namespace KSyntaxHighlighting {
class Repository;
}

namespace t2n::ui::ksh {

/// The process-wide repository: KDE's bundled definitions plus t2n's from the resources.
KSyntaxHighlighting::Repository& repository();

/// nullptr when the repository has no definition for `language`.
QSyntaxHighlighter* attach(QTextDocument* document, Language language, const QPalette& palette);

} // namespace t2n::ui::ksh
