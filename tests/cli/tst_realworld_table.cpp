// Every genuine TorchScript file of ../shared/realworld (beside the
// checkout, never copied into the project) exported by the CLI with no
// --input and with MANIFEST.tsv's inputs, each outcome compared with the
// table committed in tests/realworld/expected.tsv: "pass", or the exit code
// and stage that refused it ("4 translate"). A change in either direction
// fails (a file that starts to pass updates the table, as a regression
// would); a crash (a signal) or an internal error (exit 10) is never
// expected. Skipped when the folder is absent. T2N_REALWORLD_ACTUAL=FILE
// writes the outcomes measured, in the table's format, to FILE.
#include "suite_macros.h"
#include "support.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <filesystem>
#include <map>

using namespace t2n::test;

namespace {

struct Row {
    QString file, mode, expected, reason;
};

std::vector<Row> expectedRows(const std::filesystem::path& table) {
    std::vector<Row> rows;
    for (const QString& line : readLines(table)) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QStringList cells = line.split('\t');
        if (cells.size() >= 3)
            rows.push_back({cells[0], cells[1], cells[2], cells.value(3)});
    }
    return rows;
}

/// MANIFEST.tsv's `inputs` column ("x:1x512:f32 sr:scalar:i64=16000"), by file.
std::map<QString, QStringList> manifestInputs(const std::filesystem::path& manifest) {
    std::map<QString, QStringList> out;
    const QStringList lines = readLines(manifest);
    if (lines.isEmpty())
        return out;
    const QStringList header = lines[0].split('\t');
    const auto file = header.indexOf("file"), inputs = header.indexOf("inputs");
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split('\t');
        if (file >= 0 && inputs >= 0 && cells.size() > std::max(file, inputs))
            out[cells[file]] = cells[inputs]
                                   .split(QRegularExpression("[ ;]+"), Qt::SkipEmptyParts)
                                   .filter(QRegularExpression("^[^?]+:")); // "?": not known
    }
    return out;
}

/// "pass", "crash", "timeout", or "<exit code> <stage>" from the error line.
QString outcomeOf(const ProcessResult& r) {
    if (r.timedOut)
        return "timeout";
    if (r.exitCode < 0)
        return "crash";
    if (r.exitCode == 0)
        return "pass";
    const auto m = QRegularExpression(R"(t2n: error: \[([a-z_-]+)\])").match(r.err);
    return QString("%1 %2").arg(r.exitCode).arg(m.hasMatch() ? m.captured(1) : "?");
}

/// The error's first line after the stage, shortened: the table's reason column.
QString errorText(const ProcessResult& r) {
    const auto m = QRegularExpression(R"(t2n: error: \[[a-z_-]+\] ([^\n]*))").match(r.err);
    return m.hasMatch() ? m.captured(1).left(160) : QString();
}

} // namespace

class RealworldTableTest : public QObject {
    Q_OBJECT

    std::filesystem::path folder_;
    std::map<QString, QStringList> inputs_;
    QStringList actual_;

private Q_SLOTS:
    void initTestCase() {
        folder_ = realworldFolder();
        if (const QString absent = realworldAbsence(); !absent.isEmpty())
            QSKIP(qPrintable(absent));
        inputs_ = manifestInputs(folder_ / "MANIFEST.tsv");
        QVERIFY2(!inputs_.empty(), "MANIFEST.tsv has no file/inputs columns");
    }

    void cleanupTestCase() {
        const char* path = std::getenv("T2N_REALWORLD_ACTUAL");
        if (path && !actual_.isEmpty())
            writeFile(path, actual_.join('\n').toStdString() + "\n");
    }

    void outcome_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("expected");
        const auto rows = expectedRows(sourceDir() / "tests" / "realworld" / "expected.tsv");
        for (size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            if (inShard(i)) // CTest runs four shards (t2n_suite SHARDS)
                QTest::newRow(qPrintable(r.file + " " + r.mode)) << r.file << r.mode << r.expected;
        }
    }

    /// The file's outcome is the table's.
    void outcome() {
        QFETCH(QString, file);
        QFETCH(QString, mode);
        QFETCH(QString, expected);
        const auto model = folder_ / file.toStdString();
        if (!std::filesystem::exists(model))
            QSKIP("file absent");
        const auto out = freshDir("realworld_table_" + file);
        QStringList args{"export", QString::fromStdString(model.string()), "-o",
                         QString::fromStdString((out / "model.nnef.tgz").string())};
        if (mode == "inputs") {
            const auto given = inputs_.find(file);
            if (given == inputs_.end() || given->second.isEmpty())
                QSKIP("MANIFEST.tsv gives no inputs for this file");
            for (const QString& spec : given->second)
                args << "--input" << spec;
        }
        const ProcessResult r = runT2n(args);
        const QString got = outcomeOf(r);
        actual_ << QStringList{file, mode, got, errorText(r)}.join('\t');
        QVERIFY2(got != "crash" && got != "timeout" && !got.startsWith("10 "),
                 qPrintable(got + ": " + r.err.right(800)));
        QVERIFY2(got == expected,
                 qPrintable(QString("expected %1, got %2: %3").arg(expected, got, errorText(r))));
    }
};

T2N_TEST_SUITE(RealworldTableTest)
#include "tst_realworld_table.moc"
