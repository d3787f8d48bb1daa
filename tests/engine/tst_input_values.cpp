// Values that matter (issue 11, class 7): a `lengths` input or token ids given
// inline (--input lengths:1:i64=60, --input ids:1x4:i64=[3,1,4,1]) on the
// command line and in recipes; and when a model fails on its random example
// values, the error says which inputs were random integers in [0, 10) and
// shows the syntax. The export with values is checked against LibTorch.
#include "defined_model_util.h"
#include "suite_macros.h"
#include "t2n/error.h"
#include "t2n/recipe.h"

#include <QTest>

using namespace t2n::test;

namespace {

// The shape of a padding mask follows the largest length: random lengths in
// [0, 10) do not match 60 frames, and the model fails, as torchaudio's
// Conformer does ("expecting key_padding_mask shape of (1, 60)").
const char* kLengths = R"JIT(
def forward(self, x, lengths):
    n = int(lengths.max())
    padding = torch.arange(n).unsqueeze(0) >= lengths.unsqueeze(1)
    return x.masked_fill(padding.unsqueeze(-1), 0.0) * 2.0
)JIT";

// Token ids pick rows of a table: any values in range work, the check
// compares the rows the given ids pick.
const char* kIds = R"JIT(
def forward(self, ids):
    table = torch.arange(40).reshape(10, 4) * 0.5
    return table[ids] + 0.5
)JIT";

t2n::InputSpec spec(const char* text) {
    return t2n::InputSpec::parse(text);
}

QString errorOf(const char* text) {
    try {
        t2n::InputSpec::parse(text);
    } catch (const t2n::Error& e) {
        return QString::fromStdString(e.render());
    }
    return {};
}

} // namespace

class InputValuesTest : public QObject {
    Q_OBJECT
    std::filesystem::path dir_;

private Q_SLOTS:
    void initTestCase() { dir_ = freshDir("input_values"); }

    void parsesInlineValues() {
        auto one = spec("lengths:1:i64=60");
        QCOMPARE(one.dtype, t2n::DType::I64);
        QCOMPARE(one.shape, std::vector<int64_t>{1});
        QCOMPARE(one.values, std::vector<double>{60});
        auto each = spec("ids:1x4:i64=[3,1,4,1]");
        QCOMPARE(each.values, (std::vector<double>{3, 1, 4, 1}));
        QCOMPARE(spec("m:2x2:i32=[[1, 2], [3, 4]]").values, (std::vector<double>{1, 2, 3, 4}));
        QCOMPARE(spec("b:2:bool=[true,0]").values, (std::vector<double>{1, 0}));
        QCOMPARE(spec("t:scalar:f32=0.25").values, std::vector<double>{0.25});
        // The engine's own spelling reads back the same.
        for (const char* text : {"lengths:1:i64=60", "ids:1x4:i64=[3,1,4,1]", "t:scalar:f64=-1.5"})
            QCOMPARE(spec(spec(text).toString().c_str()), spec(text));
        QCOMPARE(QString::fromStdString(each.toString()), QString("ids:1x4:i64=[3,1,4,1]"));
    }

    void rejectsBadValues_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("count") << "ids:1x4:i64=[3,1,4]"
                               << "3 values for shape 1x4 (4 elements)";
        QTest::newRow("not a number") << "lengths:1:i64=sixty"
                                      << "'sixty' is not a number";
        QTest::newRow("fraction for an integer") << "lengths:1:i64=2.5"
                                                 << "2.5 is not an integer";
        QTest::newRow("bool") << "b:1:bool=2"
                              << "2 is not a boolean";
        QTest::newRow("empty") << "lengths:1:i64="
                               << "nothing after '='";
    }
    void rejectsBadValues() {
        QFETCH(QString, text);
        QFETCH(QString, why);
        const QString err = errorOf(text.toUtf8().constData());
        QVERIFY2(err.contains(why), qPrintable(err));
        QVERIFY2(err.contains("ids:1x4:i64=[3,1,4,1]"), qPrintable(err)); // the hint's example
    }

    /// Recipes keep the values ("values": [...]) and read them back.
    void recipeRoundTrip() {
        t2n::ExportRecipe r;
        r.model = dir_ / "m.pt";
        r.output = dir_ / "m.nnef.tgz";
        r.options.inputs = {spec("x:1x60x4:f32"), spec("lengths:1:i64=60"),
                            spec("ids:1x4:i64=[3,1,4,1]")};
        t2n::saveRecipe(dir_ / "r.json", r);
        auto back = t2n::loadRecipe(dir_ / "r.json");
        QCOMPARE(back.options.inputs.size(), size_t(3));
        QCOMPARE(back.options.inputs[1].values, std::vector<double>{60});
        QCOMPARE(back.options.inputs[2].values, (std::vector<double>{3, 1, 4, 1}));
        QCOMPARE(back.options.inputs[2].toString(), std::string("ids:1x4:i64=[3,1,4,1]"));
    }

    /// Before: random lengths fail the model, and the error says which inputs were random
    /// integers and how to give values. After: lengths=60 (the padding mask then has the
    /// frames' length) exports and checks.
    void lengthsFromTheCommandLine() {
        auto model = saveDefined(dir_, "lengths", kLengths);
        const QString m = QString::fromStdString(model.string());
        auto random = runT2n({"export", m, "--input", "x:1x60x4:f32", "--input", "lengths:1:i64",
                              "-o", QString::fromStdString((dir_ / "r.nnef.tgz").string())});
        QCOMPARE(random.exitCode, 6);
        QVERIFY2(random.err.contains("input 'lengths' held random integers in [0, 10)"),
                 qPrintable(random.err));
        QVERIFY2(random.err.contains("--input lengths:1:i64=60"), qPrintable(random.err));
        QVERIFY2(random.err.contains("NAME=@FILE.npy"), qPrintable(random.err));
        QVERIFY(!std::filesystem::exists(dir_ / "r.nnef.tgz"));

        auto given = runT2n({"export", m, "--input", "x:1x60x4:f32", "--input", "lengths:1:i64=60",
                             "-o", QString::fromStdString((dir_ / "g.nnef.tgz").string())});
        QVERIFY2(given.exitCode == 0, qPrintable(given.err));
        QVERIFY2(given.err.contains("matches"), qPrintable(given.err));
    }

    /// Token ids given per element through the engine API: the check compares the rows they
    /// pick with LibTorch's.
    void idsPerElement() {
        auto model = saveDefined(dir_, "ids", kIds);
        t2n::ExportOptions o;
        o.inputs = {spec("ids:1x4:i64=[3,1,4,1]")};
        o.identityProperties = false;
        auto e = exportDefined(model, o, "ids");
        QVERIFY(e.report.check.passed);
        QCOMPARE(maxAbsError(e.report), 0.0);
    }

    /// forward(waveforms, lengths: Optional[Tensor] = None) as torchaudio's Wav2Vec2Model is
    /// scripted: giving only the first input binds the others to their defaults (the `is None`
    /// branch folds away), and the archive computes what LibTorch computes with the defaults.
    void leftOutArgumentsTakeDefaults() {
        auto model = saveDefined(dir_, "defaults",
                                 "def forward(self, x, lengths: Optional[Tensor] = None, "
                                 "scale: float = 3.0):\n"
                                 "    if lengths is None:\n"
                                 "        return x * scale\n"
                                 "    return x * lengths\n");
        t2n::ExportOptions o;
        o.inputs = {spec("x:2x5:f32")};
        o.identityProperties = false;
        auto e = exportDefined(model, o, "defaults");
        QVERIFY(e.report.check.passed);
        QCOMPARE(maxAbsError(e.report), 0.0);
        QCOMPARE(e.report.inputs, std::vector<std::string>{"x"});
        bool told = false;
        for (const auto& w : e.report.warnings)
            told =
                told || w.find("argument 'lengths' takes its default (None)") != std::string::npos;
        QVERIFY(told);
        QVERIFY2(e.graph.find("mul(x, 3.0)") != std::string::npos, e.graph.c_str());

        // An argument without a default cannot be left out.
        auto needs =
            saveDefined(dir_, "no_default", "def forward(self, x, y):\n    return x + y\n");
        try {
            exportDefined(needs, o, "no_default");
            QFAIL("exported with an argument missing");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Usage);
            QVERIFY2(err.render().find("--input y:SHAPE:DTYPE") != std::string::npos,
                     err.render().c_str());
        }
    }

    /// `t2n export --help` shows both the inline and the file forms.
    void helpShowsTheForms() {
        auto r = runT2n({"export", "--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* form : {"lengths:1:i64=60", "ids:1x4:i64=[3,1,4,1]", "NAME=@FILE.npy",
                                 "NAME=@FILE.npz#MEMBER", "NAME=@FILE.pt"})
            QVERIFY2(r.out.contains(form), form);
    }
};

T2N_TEST_SUITE(InputValuesTest)
#include "tst_input_values.moc"
