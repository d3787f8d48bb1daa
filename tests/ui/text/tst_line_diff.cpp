// LineDiff against independent expectations: rebuilding the right text from
// the left one and the hunks (common lines taken from the left), the added
// and removed counts of GNU diff --minimal on the same files, the
// side-by-side alignment and the unified listing, and the size guard.
#include "suite_macros.h"
#include "support.h"
#include "text/line_diff.h"
#include "text_test_util.h"

#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace t2n::ui;
using t2n::test::textSample;

namespace {

/// Applies the hunks to `left`: lines outside hunks come from the left text, so a wrong
/// hunk position or count shows up as a different result.
QStringList applyHunks(const QStringList& left, const QStringList& right, const LineDiff& d) {
    QStringList out;
    int i = 0;
    for (const DiffHunk& h : d.hunks) {
        while (i < h.leftStart)
            out << left[i++];
        for (int k = 0; k < h.rightCount; ++k)
            out << right[h.rightStart + k];
        i += h.leftCount;
    }
    while (i < left.size())
        out << left[i++];
    return out;
}

struct DiffCounts {
    int added = 0, removed = 0;
};

/// Counts of GNU diff (diffutils) on the same texts, written to files.
DiffCounts gnuDiffCounts(const QStringList& left, const QStringList& right, const QString& tag) {
    const auto dir = t2n::test::freshDir(QStringLiteral("text_diff_") + tag);
    const QString a = QString::fromStdString((dir / "left.txt").string());
    const QString b = QString::fromStdString((dir / "right.txt").string());
    for (const auto& [path, lines] : {std::pair{a, left}, std::pair{b, right}}) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {-1, -1};
        for (const QString& l : lines)
            f.write(l.toUtf8() + '\n');
    }
    const auto r = t2n::test::run(QStringLiteral("diff"), {QStringLiteral("--minimal"), a, b});
    DiffCounts c;
    for (const QString& line : r.out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("> ")))
            ++c.added;
        else if (line.startsWith(QLatin1String("< ")))
            ++c.removed;
    }
    return c;
}

/// A synthetic pass: renames some values, deletes, inserts and moves lines.
QStringList mutate(const QStringList& lines, quint32 seed) {
    QRandomGenerator rng(seed);
    QStringList out;
    for (const QString& l : lines) {
        const int roll = int(rng.bounded(100));
        if (roll < 8)
            continue;
        if (roll < 16)
            out << QString(l).replace(QLatin1String("%"), QLatin1String("%r"));
        else
            out << l;
        if (roll > 94)
            out << QStringLiteral("  %%n%1 : Tensor = aten::relu(%%x)").arg(rng.bounded(1000));
    }
    return out;
}

QStringList syntheticGraph(int lines, quint32 seed) {
    QRandomGenerator rng(seed);
    const char* kinds[] = {"aten::conv2d", "aten::relu", "aten::add", "prim::Constant"};
    QStringList out;
    for (int i = 0; i < lines; ++i)
        out << QStringLiteral("  %%%1 : Tensor = %2(%%%3)")
                   .arg(i)
                   .arg(QLatin1String(kinds[rng.bounded(4)]))
                   .arg(rng.bounded(i + 1));
    return out;
}

void checkAgainstExpectations(const QStringList& left, const QStringList& right,
                              const QString& tag) {
    const LineDiff d = diffLines(left, right);
    QVERIFY(!d.approximate);
    QCOMPARE(applyHunks(left, right, d), right);
    const DiffCounts gnu = gnuDiffCounts(left, right, tag);
    QCOMPARE(d.added, gnu.added);
    QCOMPARE(d.removed, gnu.removed);
    QCOMPARE(d.summary(),
             d.added + d.removed == 0
                 ? QStringLiteral("no changes")
                 : QStringLiteral("+%1 \u2212%2 lines").arg(gnu.added).arg(gnu.removed));
}

} // namespace

class LineDiffTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void realPassMatchesGnuDiff_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::newRow("data_dependent_if") << "data_dependent_if.torchscript.txt"
                                           << "data_dependent_if.hardened.txt";
        QTest::newRow("squeezenet") << "squeezenet.torchscript.txt"
                                    << "squeezenet.hardened.txt";
        QTest::newRow("nnef_models") << "gelu.graph.nnef"
                                     << "squeezenet.graph.nnef";
    }

    void realPassMatchesGnuDiff() {
        QFETCH(QString, before);
        QFETCH(QString, after);
        const QStringList left = splitLines(textSample(before));
        const QStringList right = splitLines(textSample(after));
        QVERIFY(!left.isEmpty() && !right.isEmpty());
        checkAgainstExpectations(left, right, QString::fromLatin1(QTest::currentDataTag()));
    }

    void syntheticEditsMatchGnuDiff_data() {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("lines");
        for (quint32 seed : {1u, 2u, 3u, 42u})
            QTest::addRow("seed%u", seed) << seed << int(200 + seed * 37);
        QTest::newRow("identical") << 0u << 300;
        QTest::newRow("empty") << 7u << 0;
    }

    void syntheticEditsMatchGnuDiff() {
        QFETCH(quint32, seed);
        QFETCH(int, lines);
        const QStringList left = syntheticGraph(lines, seed);
        const QStringList right = seed == 0 ? left : mutate(left, seed);
        checkAgainstExpectations(left, right, QString::fromLatin1(QTest::currentDataTag()));
    }

    void rowsAlignBothTexts() {
        const QStringList left =
            splitLines(textSample(QStringLiteral("squeezenet.torchscript.txt")));
        const QStringList right = splitLines(textSample(QStringLiteral("squeezenet.hardened.txt")));
        const LineDiff d = diffLines(left, right);
        // Each side, fillers skipped, lists its own text in order; Same rows face equal lines.
        QStringList l, r;
        for (const DiffRow& row : d.rows) {
            if (row.left >= 0)
                l << left[row.left];
            if (row.right >= 0)
                r << right[row.right];
            if (row.kind == DiffRowKind::Same)
                QCOMPARE(left[row.left], right[row.right]);
            if (row.kind == DiffRowKind::Changed)
                QVERIFY(row.left >= 0 && row.right >= 0);
            if (row.kind == DiffRowKind::Removed)
                QCOMPARE(row.right, -1);
            if (row.kind == DiffRowKind::Added)
                QCOMPARE(row.left, -1);
        }
        QCOMPARE(l, left);
        QCOMPARE(r, right);
        QCOMPARE(int(d.hunkRowStarts().size()), int(d.hunks.size()));
    }

    void unifiedListsEachSideInOrder() {
        const QStringList left = syntheticGraph(400, 5);
        const QStringList right = mutate(left, 5);
        const LineDiff d = diffLines(left, right);
        QStringList l, r;
        int plus = 0, minus = 0;
        for (const DiffRow& row : d.unifiedRows()) {
            if (row.kind != DiffRowKind::Added)
                l << left[row.left];
            if (row.kind != DiffRowKind::Removed)
                r << right[row.right];
            plus += row.kind == DiffRowKind::Added;
            minus += row.kind == DiffRowKind::Removed;
        }
        QCOMPARE(l, left);
        QCOMPARE(r, right);
        QCOMPARE(plus, d.added);
        QCOMPARE(minus, d.removed);
    }

    void canonicalFormMasksOnlyValueNumbers_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("number") << "  %33 : bool = prim::Constant[value=0]()"
                                << "  %# : bool = prim::Constant[value=0]()";
        QTest::newRow("suffix") << "%x0.1 : Tensor = aten::pad(%x.1, %17, %18)"
                                << "%x0.# : Tensor = aten::pad(%x.#, %#, %#)";
        QTest::newRow("layer index kept") << "%self.features.3.weight : Float(16)"
                                          << "%self.features.3.weight : Float(16)";
        QTest::newRow("float kept") << "%1 : float = prim::Constant[value=0.5]()"
                                    << "%# : float = prim::Constant[value=0.5]()";
        QTest::newRow("mangle") << "graph(%self : __torch__.___torch_mangle_0.PatDataDependentIf,"
                                << "graph(%self : __torch__.PatDataDependentIf,";
        QTest::newRow("last number only") << "%a.2.3 = f(%_x.10)"
                                          << "%a.2.# = f(%_x.#)";
        QTest::newRow("number with a dot") << "%1.2, %3.x"
                                           << "%1.2, %3.x";
    }

    // The engine's scanner (t2n/ir_text.h) against the regular expressions
    // the studio used before, as an independent reading of the same rule,
    // on every line of the sample texts.
    void canonicalFormAgreesWithTheRegularExpressions() {
        static const QRegularExpression number(QStringLiteral(R"(%\d+(?![\w.]))"));
        static const QRegularExpression suffix(
            QStringLiteral(R"((%[A-Za-z_][\w.]*?)\.\d+(?![\w.]))"));
        static const QRegularExpression mangle(QStringLiteral(R"(___torch_mangle_\d+\.)"));
        int lines = 0;
        for (const char* sample :
             {"data_dependent_if.torchscript.txt", "data_dependent_if.hardened.txt",
              "squeezenet.torchscript.txt", "squeezenet.hardened.txt"}) {
            for (const QString& line : splitLines(textSample(QString::fromLatin1(sample)))) {
                QString expected = line;
                expected.replace(mangle, QString());
                expected.replace(number, QStringLiteral("%#"));
                expected.replace(suffix, QStringLiteral("\\1.#"));
                QCOMPARE(canonicalValueNumbers(line), expected);
                ++lines;
            }
        }
        QVERIFY(lines > 20);
    }

    void canonicalFormMasksOnlyValueNumbers() {
        QFETCH(QString, line);
        QFETCH(QString, canonical);
        QCOMPARE(canonicalValueNumbers(line), canonical);
    }

    void ignoringRenumberingKeepsRealChanges() {
        const QStringList left =
            splitLines(textSample(QStringLiteral("data_dependent_if.torchscript.txt")));
        const QStringList right =
            splitLines(textSample(QStringLiteral("data_dependent_if.hardened.txt")));
        DiffLimits options;
        options.ignoreValueNumbers = true;
        const LineDiff raw = diffLines(left, right);
        const LineDiff masked = diffLines(left, right, options);
        QVERIFY2(masked.added + masked.removed < raw.added + raw.removed,
                 qPrintable(masked.summary() + QLatin1String(" vs ") + raw.summary()));
        // The folded if (its block0/block1 lines) is a real change and stays one.
        QVERIFY(masked.removed >= 6);
        // Rebuilt from the left text, the result equals the right text up to numbering.
        QStringList rebuilt = applyHunks(left, right, masked), expected = right;
        for (QString& l : rebuilt)
            l = canonicalValueNumbers(l);
        for (QString& l : expected)
            l = canonicalValueNumbers(l);
        QCOMPARE(rebuilt, expected);
    }

    void hugeInputFallsBackWithNote() {
        const QStringList left = syntheticGraph(300, 9);
        QStringList right = mutate(left, 9);
        right.prepend(left.front()); // head and tail equal: the guard applies to the middle only
        DiffLimits tight;
        tight.maxLines = 50;
        const LineDiff d = diffLines(left, right, tight);
        QVERIFY(d.approximate);
        QVERIFY(d.note.contains(QLatin1String("more than the 50")));
        QCOMPARE(int(d.hunks.size()), 1);
        QCOMPARE(applyHunks(left, right, d), right);
        QCOMPARE(d.added - d.removed, int(right.size() - left.size()));
    }
};

T2N_TEST_SUITE(LineDiffTest)
#include "tst_line_diff.moc"
