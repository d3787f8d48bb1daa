// Figures for the report (printed with qInfo) and coarse ceilings that catch
// an accidental quadratic: highlighting and showing a 20,000-line graph text
// with each backend, and diffing two 5,000-line texts. The ceilings are on
// the process's CPU time, not wall time: under CTest's parallel load the wall
// time of the same work doubled and crossed a wall-time ceiling; a quadratic
// costs CPU either way.
#include "suite_macros.h"
#include "text/code_view.h"
#include "text/line_diff.h"
#include "text/text_highlighter.h"
#include "text_test_util.h"

#include <QElapsedTimer>
#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextBlock>

#include <ctime>

using namespace t2n::ui;
using t2n::test::formatAt;
using t2n::test::textSample;

namespace {

/// `lines` lines cut from repeated copies of a real hardened graph, values renumbered per copy.
QStringList bigGraph(int lines, int variant) {
    const QStringList sample = splitLines(textSample(QStringLiteral("squeezenet.hardened.txt")));
    QStringList out;
    for (int copy = 0; out.size() < lines; ++copy) {
        for (const QString& l : sample) {
            if (out.size() == lines)
                break;
            out << QString(l).replace(QLatin1String(" %"),
                                      QStringLiteral(" %c%1_%2_").arg(copy).arg(variant));
        }
    }
    return out;
}

/// CPU milliseconds of the whole process since `start` (every thread).
qint64 cpuMsSince(std::clock_t start) {
    return static_cast<qint64>(double(std::clock() - start) * 1000.0 / CLOCKS_PER_SEC);
}

} // namespace

class TextPerformanceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void highlightAndShow20kLines_data() {
        QTest::addColumn<int>("backend");
        QTest::newRow("builtin") << int(HighlighterBackend::Builtin);
        if (TextHighlighter::kSyntaxHighlightingAvailable())
            QTest::newRow("ksyntaxhighlighting") << int(HighlighterBackend::KSyntaxHighlighting);
    }

    void highlightAndShow20kLines() {
        QFETCH(int, backend);
        TextHighlighter::setDefaultBackend(HighlighterBackend(backend));
        const QString text = bigGraph(20000, 0).join(QLatin1Char('\n'));
        CodeView view;
        view.resize(900, 700);
        QElapsedTimer timer;
        timer.start();
        const std::clock_t cpu = std::clock();
        view.setCode(text, Language::TorchScriptIR);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.viewport()->repaint();
        const qint64 shown = timer.elapsed();
        // The first screenful is highlighted before the text shows, the rest in slices.
        const QTextBlock first = view.document()->findBlockByNumber(2);
        QVERIFY(!first.layout()->formats().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(TextHighlighter::isFullyHighlighted(view.document()), 30000);
        const qint64 ms = timer.elapsed();
        const qint64 cpuMs = cpuMsSince(cpu);
        view.scrollToLine(19990);
        view.viewport()->repaint();
        TextHighlighter::setDefaultBackend(std::nullopt);
        const QTextBlock last = view.document()->lastBlock();
        QVERIFY2(!last.layout()->formats().isEmpty(), "the last line is highlighted");
        QCOMPARE(view.lineCount(), 20000);
        qInfo("20,000-line TorchScript text, %s: shown (first screen highlighted) in %lld ms, "
              "fully highlighted in the background after %lld ms (%lld ms of CPU)",
              QTest::currentDataTag(), shown, ms, cpuMs);
        QVERIFY2(cpuMs < 20000, qPrintable(QString::number(cpuMs)));
    }

    void diffTwo5kTexts_data() {
        QTest::addColumn<bool>("disjoint");
        QTest::newRow("pass-like edits") << false;
        QTest::newRow("nothing in common") << true;
    }

    void diffTwo5kTexts() {
        QFETCH(bool, disjoint);
        const QStringList left = bigGraph(5000, 0);
        QStringList right = disjoint ? bigGraph(5000, 1) : left;
        if (!disjoint) {
            // Every 7th line renamed, every 50th removed, a line inserted every 90.
            for (int i = int(right.size()) - 1; i >= 0; --i) {
                if (i % 50 == 0)
                    right.removeAt(i);
                else if (i % 7 == 0)
                    right[i] += QLatin1String(" # moved");
                if (i % 90 == 0)
                    right.insert(i, QStringLiteral("  %new : Tensor = aten::relu(%x)"));
            }
        }
        QElapsedTimer timer;
        timer.start();
        const std::clock_t cpu = std::clock();
        const LineDiff d = diffLines(left, right);
        const qint64 ms = timer.elapsed();
        const qint64 cpuMs = cpuMsSince(cpu);
        qInfo("diff of 5,000 and %d lines (%s): %lld ms (%lld ms of CPU), %s%s", int(right.size()),
              QTest::currentDataTag(), ms, cpuMs, qPrintable(d.summary()),
              d.approximate ? " (approximate)" : "");
        QVERIFY(d.added > 0 && d.removed > 0);
        QVERIFY2(cpuMs < 20000, qPrintable(QString::number(cpuMs)));
    }
};

T2N_TEST_SUITE(TextPerformanceTest)
#include "tst_text_performance.moc"
