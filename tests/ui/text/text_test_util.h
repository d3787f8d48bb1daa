// Helpers of the tests/ui/text suites: sample texts and the format the
// highlighter left on a character.
#pragma once

#include <QFile>
#include <QString>
#include <QTextBlock>
#include <QTextLayout>

namespace t2n::test {

/// A sample under tests/ui/text/data (real `t2n inspect` output of fixture models).
inline QString textSample(const QString& name) {
    QFile f(QStringLiteral(T2N_SOURCE_DIR "/tests/ui/text/data/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

/// The highlighter's format at `pos` of `block` (a default format when it set none).
inline QTextCharFormat formatAt(const QTextBlock& block, int pos) {
    for (const QTextLayout::FormatRange& r : block.layout()->formats()) {
        if (pos >= r.start && pos < r.start + r.length)
            return r.format;
    }
    return {};
}

} // namespace t2n::test
