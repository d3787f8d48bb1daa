// Both highlighter backends on real `t2n inspect` output: t2n's definitions
// load into KSyntaxHighlighting from the resources without a warning, and
// each backend gives node kinds, NNEF keywords, numbers with exponents and
// source comments a format of their own, different from plain text.
#include "suite_macros.h"
#include "text/builtin_highlighter.h"
#include "text/text_highlighter.h"
#include "text_test_util.h"

#ifdef T2N_HAVE_KSYNTAXHIGHLIGHTING
#include "text/ksh_highlighting.h"
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#endif

#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextDocument>

using namespace t2n::ui;
using t2n::test::formatAt;
using t2n::test::textSample;

namespace {

[[maybe_unused]] QStringList g_warnings;

[[maybe_unused]] void collectWarnings(QtMsgType type, const QMessageLogContext&,
                                      const QString& message) {
    if (type != QtDebugMsg && type != QtInfoMsg)
        g_warnings << message;
}

QList<HighlighterBackend> backends() {
    QList<HighlighterBackend> all{HighlighterBackend::Builtin};
    if (TextHighlighter::kSyntaxHighlightingAvailable())
        all.prepend(HighlighterBackend::KSyntaxHighlighting);
    return all;
}

const char* backendName(HighlighterBackend b) {
    return b == HighlighterBackend::Builtin ? "builtin" : "ksh";
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Base, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Window, QColor(0x2a, 0x2e, 0x32));
    p.setColor(QPalette::Text, QColor(0xfc, 0xfc, 0xfc));
    return p;
}

QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Window, QColor(0xef, 0xf0, 0xf1));
    p.setColor(QPalette::Text, QColor(0x23, 0x26, 0x29));
    return p;
}

} // namespace

class TextHighlightingTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { TextHighlighter::setDefaultBackend(std::nullopt); }

    void definitionsLoadWithoutWarnings() {
#ifndef T2N_HAVE_KSYNTAXHIGHLIGHTING
        QSKIP("built without KSyntaxHighlighting");
#else
        // First use of the repository in this process: it loads every definition here.
        const auto previous = qInstallMessageHandler(collectWarnings);
        auto& repo = ksh::repository();
        const auto ts = repo.definitionForName(QStringLiteral("TorchScript IR"));
        const auto nnef = repo.definitionForName(QStringLiteral("NNEF"));
        QTextDocument doc(textSample(QStringLiteral("squeezenet.graph.nnef")));
        TextHighlighter::attach(&doc, Language::Nnef, HighlighterBackend::KSyntaxHighlighting)
            ->rehighlight();
        QTextDocument ir(textSample(QStringLiteral("data_dependent_if.torchscript.txt")));
        TextHighlighter::attach(&ir, Language::TorchScriptIR,
                                HighlighterBackend::KSyntaxHighlighting)
            ->rehighlight();
        qInstallMessageHandler(previous);
        QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
        QVERIFY(ts.isValid());
        QVERIFY(nnef.isValid());
        QCOMPARE(ts.name(), QStringLiteral("TorchScript IR"));
        QVERIFY(ts.filePath().startsWith(TextHighlighter::definitionSearchPath()));
        QCOMPARE(repo.definitionForFileName(QStringLiteral("graph.nnef")).name(),
                 QStringLiteral("NNEF"));
        QVERIFY(ts.keywordLists().contains(QStringLiteral("types")));
        QVERIFY(
            nnef.keywordList(QStringLiteral("declarations")).contains(QStringLiteral("fragment")));
#endif
    }

    void tokenHasOwnFormat_data() {
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("token");
        struct Case {
            const char* tag;
            Language language;
            const char* sample;
            const char* token;
        };
        const Case cases[] = {
            {"conv2d", Language::TorchScriptIR, "squeezenet.hardened.txt", "aten::conv2d"},
            {"value", Language::TorchScriptIR, "squeezenet.hardened.txt",
             "%self.classifier.1.bias"},
            {"type", Language::TorchScriptIR, "squeezenet.hardened.txt", "Float"},
            {"attribute", Language::TorchScriptIR, "squeezenet.hardened.txt", "strides"},
            {"block", Language::TorchScriptIR, "data_dependent_if.torchscript.txt", "block0"},
            {"string", Language::TorchScriptIR, "data_dependent_if.torchscript.txt",
             "\"constant\""},
            {"source", Language::TorchScriptIR, "data_dependent_if.torchscript.txt",
             "generate.py:991:19"},
            {"version", Language::Nnef, "squeezenet.graph.nnef", "version"},
            {"fragment", Language::Nnef, "squeezenet.graph.nnef", "fragment"},
            {"graph", Language::Nnef, "squeezenet.graph.nnef", "graph"},
            {"tensor", Language::Nnef, "squeezenet.graph.nnef", "tensor"},
            {"extension", Language::Nnef, "gelu.graph.nnef", "extension"},
            {"nnef-op", Language::Nnef, "gelu.graph.nnef", "tract_core_erf"},
            {"nnef-string", Language::Nnef, "squeezenet.graph.nnef", "'features.0.weight'"},
            {"exponent", Language::Nnef, "inline:y = mul(x, 1.5e-05);", "1.5e-05"},
            {"escape", Language::Nnef, "inline:s = 'it\\'s';", "'it\\'s'"},
        };
        for (HighlighterBackend b : backends()) {
            for (const Case& c : cases)
                QTest::addRow("%s-%s", backendName(b), c.tag)
                    << int(b) << int(c.language) << QString::fromUtf8(c.sample)
                    << QString::fromUtf8(c.token);
        }
    }

    void tokenHasOwnFormat() {
        QFETCH(int, backend);
        QFETCH(int, language);
        QFETCH(QString, sample);
        QFETCH(QString, token);
        const QString text =
            sample.startsWith(QLatin1String("inline:")) ? sample.mid(7) : textSample(sample);
        QVERIFY2(!text.isEmpty(), qPrintable(sample));
        QTextDocument doc(text);
        QSyntaxHighlighter* h = TextHighlighter::attach(
            &doc, Language(language), HighlighterBackend(backend), lightPalette());
        QVERIFY(h);
        QCOMPARE(int(TextHighlighter::backendOf(h)), backend);
        h->rehighlight();

        const QTextCursor found = doc.find(token, 0, QTextDocument::FindCaseSensitively);
        QVERIFY2(!found.isNull(), qPrintable(token));
        const QTextBlock block = found.block();
        const int start = found.selectionStart() - block.position();
        const int last = found.selectionEnd() - block.position() - 1;
        const QTextCharFormat first = formatAt(block, start);
        QVERIFY2(first.hasProperty(QTextFormat::ForegroundBrush),
                 qPrintable(QStringLiteral("no colour on %1 in: %2").arg(token, block.text())));
        // The whole token is one format (the exponent is part of the number, and so on).
        QCOMPARE(formatAt(block, last).foreground().color(), first.foreground().color());
        // Plain text (the line's first blank) looks different: other colour, weight or slant
        // (KDE's Breeze theme draws keywords in the text colour, but bold).
        const int blank = block.text().indexOf(QLatin1Char(' '));
        QVERIFY(blank >= 0);
        const QTextCharFormat plain = formatAt(block, blank);
        QVERIFY(!plain.hasProperty(QTextFormat::ForegroundBrush) ||
                plain.foreground().color() != first.foreground().color() ||
                plain.fontWeight() != first.fontWeight() ||
                plain.fontItalic() != first.fontItalic());
    }

    void darkPaletteGivesOtherColours_data() {
        QTest::addColumn<int>("backend");
        for (HighlighterBackend b : backends())
            QTest::newRow(backendName(b)) << int(b);
    }

    void darkPaletteGivesOtherColours() {
        QFETCH(int, backend);
        const QString text = textSample(QStringLiteral("squeezenet.graph.nnef"));
        QTextDocument light(text), dark(text);
        TextHighlighter::attach(&light, Language::Nnef, HighlighterBackend(backend), lightPalette())
            ->rehighlight();
        TextHighlighter::attach(&dark, Language::Nnef, HighlighterBackend(backend), darkPalette())
            ->rehighlight();
        const QTextBlock l = light.findBlockByNumber(0), d = dark.findBlockByNumber(0);
        QVERIFY(l.text().startsWith(QLatin1String("version")));
        const QColor lc = formatAt(l, 0).foreground().color();
        const QColor dc = formatAt(d, 0).foreground().color();
        QVERIFY2(lc.lightness() < dc.lightness(),
                 qPrintable(lc.name() + QLatin1String(" vs ") + dc.name()));
    }

    void largeDocumentMatchesLineByLine_data() {
        darkPaletteGivesOtherColours_data();
    }

    void largeDocumentMatchesLineByLine() {
        // Past the first slice, lines are highlighted later from the event loop; each must end
        // up exactly as the same line highlighted on its own.
        QFETCH(int, backend);
        const QStringList sample =
            textSample(QStringLiteral("squeezenet.hardened.txt")).split(QLatin1Char('\n'));
        QStringList lines;
        while (lines.size() < 6000)
            lines += sample;
        QTextDocument big(lines.join(QLatin1Char('\n')));
        TextHighlighter::attach(&big, Language::TorchScriptIR, HighlighterBackend(backend),
                                lightPalette());
        QVERIFY(!TextHighlighter::isFullyHighlighted(&big));
        QVERIFY(big.lastBlock().layout()->formats().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(TextHighlighter::isFullyHighlighted(&big), 30000);
        for (int n = 3; n < big.blockCount(); n += 997) {
            const QTextBlock block = big.findBlockByNumber(n);
            QTextDocument one(block.text());
            TextHighlighter::attach(&one, Language::TorchScriptIR, HighlighterBackend(backend),
                                    lightPalette());
            const auto expected = one.firstBlock().layout()->formats();
            const auto actual = block.layout()->formats();
            QVERIFY2(!expected.isEmpty(), qPrintable(block.text()));
            QCOMPARE(actual.size(), expected.size());
            for (int k = 0; k < actual.size(); ++k) {
                QCOMPARE(actual[k].start, expected[k].start);
                QCOMPARE(actual[k].length, expected[k].length);
                QCOMPARE(actual[k].format.foreground(), expected[k].format.foreground());
            }
        }
    }

    void runtimeSwitchPicksBackend() {
        QTextDocument doc(QStringLiteral("version 1.0;"));
        TextHighlighter::setDefaultBackend(HighlighterBackend::Builtin);
        QSyntaxHighlighter* h = TextHighlighter::attach(&doc, Language::Nnef);
        QVERIFY(qobject_cast<BuiltinHighlighter*>(h));
        TextHighlighter::setDefaultBackend(std::nullopt);

        qputenv("T2N_HIGHLIGHTER", "builtin");
        QCOMPARE(TextHighlighter::defaultBackend(), HighlighterBackend::Builtin);
        qunsetenv("T2N_HIGHLIGHTER");
        const auto expected = TextHighlighter::kSyntaxHighlightingAvailable()
                                  ? HighlighterBackend::KSyntaxHighlighting
                                  : HighlighterBackend::Builtin;
        QCOMPARE(TextHighlighter::defaultBackend(), expected);
        h = TextHighlighter::attach(&doc, Language::Nnef);
        QCOMPARE(TextHighlighter::backendOf(h), expected);
        // Re-attaching replaced the first highlighter instead of stacking a second one.
        QCOMPARE(doc.findChildren<QSyntaxHighlighter*>().size(), 1);
        QVERIFY(!TextHighlighter::attach(&doc, Language::Plain));
        QCOMPARE(doc.findChildren<QSyntaxHighlighter*>().size(), 0);
    }
};

T2N_TEST_SUITE(TextHighlightingTest)
#include "tst_text_highlighting.moc"
