// The languages the studio's text views highlight.
#pragma once

#include <QString>

namespace t2n::ui {

enum class Language { TorchScriptIR, Nnef, Json, Shell, Plain };

/// Name of the KSyntaxHighlighting definition for `language` (empty for Plain).
QString syntaxDefinitionName(Language language);

} // namespace t2n::ui
