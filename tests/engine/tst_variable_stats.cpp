// Variable statistics of the report (min, max, mean per written .dat):
// compared with the same figures computed by LibTorch on the model's own
// parameters, and present in the report JSON.
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace t2n::test;

class VariableStatsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void statsMatchTorch_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("naming_blocks") << "naming_blocks";
        QTest::newRow("resnet18") << "scripted_tv_resnet18";
    }
    void statsMatchTorch() {
        QFETCH(QString, model);
        if (fixtureInfo(model).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        auto dir = freshDir("variable_stats");
        t2n::Session s;
        s.load(fixtureModel(model));
        auto o = fixtureOptions(model);
        o.check = false;
        auto report = s.exportModel(dir / "out.nnef.tgz", o);

        auto m = t2n::load::loadTorchScript(fixtureModel(model));
        std::map<std::string, at::Tensor> params;
        for (const auto& p : m.named_parameters(true))
            params[p.name] = p.value;
        for (const auto& b : m.named_buffers(true))
            params[b.name] = b.value;
        int compared = 0;
        for (const auto& v : report.variables) {
            QVERIFY(v.min <= v.mean && v.mean <= v.max);
            // A parameter's variable is labelled with its name (from: when relabelled).
            auto it = params.find(v.from.empty() ? v.label : v.from);
            if (v.origin != "parameter" || it == params.end() || !it->second.is_floating_point())
                continue;
            auto t = it->second.to(torch::kDouble);
            const double scale = std::max(1.0, t.abs().max().item<double>());
            QVERIFY2(std::abs(v.min - t.min().item<double>()) <= 1e-6 * scale, v.label.c_str());
            QVERIFY2(std::abs(v.max - t.max().item<double>()) <= 1e-6 * scale, v.label.c_str());
            QVERIFY2(std::abs(v.mean - t.mean().item<double>()) <= 1e-6 * scale, v.label.c_str());
            ++compared;
        }
        QVERIFY2(compared >= 3, qPrintable(QString::number(compared)));

        auto j = QJsonDocument::fromJson(QByteArray::fromStdString(report.toJson())).object();
        auto first = j["variables"].toArray().first().toObject();
        QVERIFY(first.contains("min") && first.contains("max") && first.contains("mean"));
        QCOMPARE(first["max"].toDouble(), report.variables.front().max);
    }
};

T2N_TEST_SUITE(VariableStatsTest)
#include "tst_variable_stats.moc"
