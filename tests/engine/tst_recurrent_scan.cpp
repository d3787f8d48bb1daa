// Recurrent layers over a symbolic time axis become tract_core_scan over a
// one-step body fragment, checked against PyTorch at lengths other than the
// example's (1 and 12, besides the fixture suite's T and T+1); a static time
// axis stays unrolled; a default zero state follows a symbolic batch.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace t2n::test;

namespace {

struct Exported {
    t2n::ExportReport report;
    std::string text; ///< graph.nnef
};

Exported exportFixture(const QString& name, const QString& tag,
                       void (*adjust)(t2n::ExportOptions&) = nullptr) {
    auto dir = freshDir("recurrent_scan_" + tag);
    t2n::Session s;
    s.load(fixtureModel(name));
    t2n::ExportOptions o = fixtureOptions(name);
    o.compressionLevel = std::nullopt; // a folder, to read graph.nnef
    if (adjust)
        adjust(o);
    Exported e{s.exportModel(dir / "out.nnef", o), {}};
    std::ifstream in(dir / "out.nnef" / "graph.nnef");
    std::stringstream ss;
    ss << in.rdbuf();
    e.text = ss.str();
    return e;
}

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
        ++n;
    return n;
}

QString failures(const t2n::CheckReport& c) {
    QStringList out;
    for (const auto& p : c.structureProblems)
        out << QString::fromStdString(p);
    for (const auto& o : c.outputs)
        if (!o.ok)
            out << QString("%1: %2 mismatches, max abs %3 %4")
                       .arg(QString::fromStdString(o.name))
                       .arg(o.mismatches)
                       .arg(o.maxAbsError)
                       .arg(QString::fromStdString(o.note));
    return out.join("\n");
}

// Names of the compared outputs that ran at the second size ("... @ T=6").
int secondSizeOutputs(const t2n::CheckReport& c) {
    int n = 0;
    for (const auto& o : c.outputs)
        n += o.name.find(" @ ") != std::string::npos ? 1 : 0;
    return n;
}

} // namespace

class RecurrentScanTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() {
        if (fixtureInfo("op_dyn_lstm_bidir_time").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void symbolicTimeIsScanned() {
        // 2 layers x 2 directions: four scans over one shared body, the
        // reverse ones walking the time axis backwards (chunk -1).
        const Exported e = exportFixture("op_dyn_lstm_bidir_time", "bidir");
        QCOMPARE(occurrences(e.text, "tract_core_scan("), 4);
        QCOMPARE(occurrences(e.text, "fragment t2n_lstm_scan_step("), 1);
        QCOMPARE(occurrences(e.text, "0, -1)"), 2 * (4 + 1)); // 4 gate inputs + the sequence
        QVERIFY(e.text.find("extension tract_registry tract_core;") != std::string::npos);
        QVERIFY2(e.report.check.passed, qPrintable(failures(e.report.check)));
        QCOMPARE(secondSizeOutputs(e.report.check), 3);
    }

    void staticTimeStaysUnrolled() {
        // Plain NNEF that every consumer reads, as before.
        const Exported e = exportFixture("op_rnn_lstm_stacked_bidir", "static");
        QCOMPARE(e.report.nnefOps.count("tract_core_scan"), size_t(0));
        QVERIFY(e.text.find("fragment t2n_") == std::string::npos);
        QVERIFY2(e.report.check.passed, qPrintable(failures(e.report.check)));
    }

    void otherLengths_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("length");
        for (const char* n : {"op_dyn_gru_time", "op_dyn_rnn_time_batch", "op_dyn_lstm_time"}) {
            QTest::addRow("%s T=1", n) << QString(n) << 1;
            QTest::addRow("%s T=12", n) << QString(n) << 12;
        }
    }
    void otherLengths() {
        // The archive is exported at another example length and checked there
        // and at length + 1: nothing depends on the fixture's own T.
        QFETCH(QString, name);
        QFETCH(int, length);
        static int t = 0;
        t = length;
        const Exported e =
            exportFixture(name, QString("%1_%2").arg(name).arg(length), [](t2n::ExportOptions& o) {
                for (const auto& d : o.dynamicAxes)
                    if (d.symbol == "T")
                        o.inputs.at(0).shape.at(static_cast<size_t>(d.axis)) = t;
            });
        QVERIFY(e.report.nnefOps.count("tract_core_scan") > 0);
        QVERIFY2(e.report.check.passed, qPrintable(failures(e.report.check)));
        QVERIFY(secondSizeOutputs(e.report.check) > 0);
    }

    void zeroStateFollowsBatch() {
        // nn.LSTM's default zeros (h0 and c0) depend on the batch: computed in
        // the graph over the symbol, not frozen, so the check at B+1 passes.
        const Exported e = exportFixture("op_dyn_lstm_batch", "batch");
        QCOMPARE(e.report.nnefOps.count("tract_core_broadcast"), size_t(1));
        QCOMPARE(e.report.nnefOps.at("tract_core_broadcast"), 2);
        QVERIFY2(e.text.find("tract_core_broadcast([[[0.0]]], shape = [1, B, 6])") !=
                     std::string::npos,
                 e.text.c_str());
        QVERIFY2(e.report.check.passed, qPrintable(failures(e.report.check)));
        QCOMPARE(secondSizeOutputs(e.report.check), 3);
    }
};

T2N_TEST_SUITE(RecurrentScanTest)
#include "tst_recurrent_scan.moc"
