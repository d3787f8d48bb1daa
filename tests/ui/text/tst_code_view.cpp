// CodeView and DiffView as a user sees them (offscreen): a click lands on
// the line under the mouse, linked lines are painted in the linked colour,
// find wraps around, and the side-by-side diff keeps both views aligned.
#include "suite_macros.h"
#include "text/code_view.h"
#include "text/diff_view.h"
#include "text/highlight_style.h"
#include "text_test_util.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using namespace t2n::ui;
using t2n::test::textSample;

namespace {

QString numberedLines(int count) {
    QStringList lines;
    for (int i = 1; i <= count; ++i)
        lines << QStringLiteral("  %%%1 : Tensor = aten::relu(%%%2)").arg(i).arg(i - 1);
    return lines.join(QLatin1Char('\n'));
}

/// The colour painted at the right edge of `line` (past any text), as RGB.
QRgb paintedBackground(CodeView& view, int line) {
    const QImage image = view.viewport()->grab().toImage();
    const QRect r = view.lineRect(line);
    return image.pixel(image.width() - 3 * int(image.devicePixelRatio()),
                       int(r.center().y() * image.devicePixelRatio()));
}

QStringList viewLines(const CodeView* view) {
    return view->toPlainText().split(QLatin1Char('\n'));
}

} // namespace

class CodeViewTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clickEmitsLineUnderMouse() {
        CodeView view;
        view.resize(600, 400);
        view.setCode(numberedLines(500), Language::TorchScriptIR);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.scrollToLine(300);
        QVERIFY(view.verticalScrollBar()->value() > 0);
        QSignalSpy clicked(&view, &CodeView::lineClicked);
        for (int line : {295, 300, 304}) {
            const QRect r = view.lineRect(line);
            QVERIFY2(view.viewport()->rect().contains(r.center()), "line scrolled into view");
            QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, r.center());
            QCOMPARE(clicked.size(), 1);
            QCOMPARE(clicked.takeFirst().at(0).toInt(), line);
            QCOMPARE(view.currentLine(), line);
            QVERIFY(view.textCursor().block().text().contains(QStringLiteral("%%1 ").arg(line)));
        }
    }

    void linkedLinesArePainted() {
        CodeView view;
        view.resize(600, 600);
        view.setCode(numberedLines(100), Language::Plain);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setLinkedLines({{5, 7}, {12, 12}});
        const QColor linked = lineColors(view.palette()).linked;
        const QRgb base = view.palette().color(QPalette::Base).rgb();
        for (int line : {5, 6, 7, 12}) {
            QCOMPARE(view.lineBackground(line), linked);
            QCOMPARE(paintedBackground(view, line), linked.rgb());
        }
        for (int line : {4, 8, 11, 13}) {
            QVERIFY(view.lineBackground(line) != linked);
            QCOMPARE(paintedBackground(view, line), base);
        }
        view.setLinkedLines({});
        QCOMPARE(paintedBackground(view, 6), base);
    }

    /// A line note is drawn to the right of its line's text only (some pixel
    /// there differs from the base), and setCode() clears the notes.
    void lineNotesArePaintedAfterTheirLine() {
        CodeView view;
        view.resize(900, 400);
        view.setCode(numberedLines(20), Language::Plain);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRgb base = view.palette().color(QPalette::Base).rgb();
        auto inkAfterText = [&](int line) {
            const QImage image = view.viewport()->grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            const QRect r = view.lineRect(line);
            const int textEnd = view.fontMetrics().horizontalAdvance(
                                    view.document()->findBlockByNumber(line - 1).text()) +
                                8;
            int ink = 0;
            for (int x = int(textEnd * dpr); x < image.width(); ++x)
                for (int y = int(r.top() * dpr) + 1; y < int(r.bottom() * dpr); ++y)
                    ink += image.pixel(x, y) != base ? 1 : 0;
            return ink;
        };
        QCOMPARE(inkAfterText(4), 0);
        view.setLineNotes({{4, QStringLiteral("missed: also flows into aten::view")}});
        QCOMPARE(view.lineNote(4), QStringLiteral("missed: also flows into aten::view"));
        QVERIFY(inkAfterText(4) > 0);
        QCOMPARE(inkAfterText(5), 0);
        view.setCode(numberedLines(20), Language::Plain);
        QVERIFY(view.lineNotes().isEmpty());
    }

    void findWrapsAround() {
        CodeView view;
        view.setCode(textSample(QStringLiteral("data_dependent_if.torchscript.txt")),
                     Language::TorchScriptIR);
        QVERIFY(view.findText(QStringLiteral("aten::remainder")));
        const int first = view.currentLine();
        QVERIFY(view.findText(QStringLiteral("aten::remainder")));
        const int second = view.currentLine();
        QVERIFY(second > first);
        QVERIFY(view.findText(QStringLiteral("aten::remainder")));
        QCOMPARE(view.currentLine(), first); // wrapped
        QVERIFY(view.findText(QStringLiteral("aten::remainder"), true));
        QCOMPARE(view.currentLine(), second); // backwards, wrapped again
        QVERIFY(!view.findText(QStringLiteral("aten::no_such_op")));
        QCOMPARE(view.currentLine(), second);
    }

    void sideBySideStaysAligned() {
        DiffView diff;
        diff.resize(1000, 500);
        const QString before = textSample(QStringLiteral("squeezenet.torchscript.txt"));
        const QString after = textSample(QStringLiteral("squeezenet.hardened.txt"));
        diff.setTexts(before, after, Language::TorchScriptIR);
        diff.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diff));
        const int rows = int(diff.diff().rows.size());
        QCOMPARE(diff.leftView()->lineCount(), rows);
        QCOMPARE(diff.rightView()->lineCount(), rows);
        // Without the filler lines, each side shows its own text unchanged.
        QStringList left, right;
        for (int i = 0; i < rows; ++i) {
            if (diff.leftView()->lineMark(i + 1) != LineMark::Filler)
                left << viewLines(diff.leftView())[i];
            if (diff.rightView()->lineMark(i + 1) != LineMark::Filler)
                right << viewLines(diff.rightView())[i];
        }
        QCOMPARE(left, splitLines(before));
        QCOMPARE(right, splitLines(after));
        QVERIFY(diff.summary().startsWith(QLatin1Char('+')));

        // Stepping through changes scrolls both sides to the change's first row together.
        QVERIFY(diff.changeCount() > 0);
        const auto starts = diff.diff().hunkRowStarts();
        for (int k = 0; k < diff.changeCount(); ++k) {
            diff.nextChange();
            QCOMPARE(diff.currentChange(), k);
            QCOMPARE(diff.leftView()->currentLine(), starts[size_t(k)] + 1);
            QCOMPARE(diff.rightView()->verticalScrollBar()->value(),
                     diff.leftView()->verticalScrollBar()->value());
        }
        diff.nextChange();
        QCOMPARE(diff.currentChange(), 0);
        diff.previousChange();
        QCOMPARE(diff.currentChange(), diff.changeCount() - 1);

        // Unified: one view, "- " lines are the left text's, "+ " lines the right's.
        diff.setMode(DiffView::Mode::Unified);
        QStringList minus, plus;
        for (const QString& line : viewLines(diff.unifiedView())) {
            if (!line.startsWith(QLatin1String("+ ")))
                minus << line.mid(2);
            if (!line.startsWith(QLatin1String("- ")))
                plus << line.mid(2);
        }
        QCOMPARE(minus, splitLines(before));
        QCOMPARE(plus, splitLines(after));
    }

    void diffClickNamesSourceLine() {
        DiffView diff;
        diff.resize(1000, 500);
        const QStringList before{"a", "b", "c", "d"}, after{"a", "x", "y", "c", "d"};
        diff.setTexts(before.join(QLatin1Char('\n')), after.join(QLatin1Char('\n')),
                      Language::Plain);
        diff.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diff));
        QSignalSpy spy(&diff, &DiffView::sourceLineClicked);
        // Row 4 of the right view is "c", line 4 of the right text and line 3 of the left.
        CodeView* right = diff.rightView();
        QTest::mouseClick(right->viewport(), Qt::LeftButton, {}, right->lineRect(4).center());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 4);
        CodeView* left = diff.leftView();
        QTest::mouseClick(left->viewport(), Qt::LeftButton, {}, left->lineRect(4).center());
        QCOMPARE(spy.size(), 2);
        QCOMPARE(spy.at(1).at(0).toInt(), 0);
        QCOMPARE(spy.at(1).at(1).toInt(), 3);
    }
};

T2N_TEST_SUITE(CodeViewTest)
#include "tst_code_view.moc"
