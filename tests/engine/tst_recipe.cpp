// Export recipes: every field survives a JSON round trip, malformed recipes
// are usage errors naming the JSON path, and `t2n export --recipe` writes
// the same bytes as the same export given as flags (--save-recipe).
#include "every_option.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/artifact.h"
#include "t2n/error.h"
#include "t2n/outputs.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <QTest>

#include <fstream>

#include <sstream>
#include <sys/stat.h>

using namespace t2n::test;

namespace {
// Every field away from its default.
t2n::ExportRecipe everyField() {
    t2n::ExportRecipe r;
    r.model = "models/m.pt";
    r.output = "out/m.nnef.tgz";
    r.options = everyOption();
    return r;
}

void expectUsage(const std::string& json, const std::string& part) {
    try {
        t2n::recipeFromJson(json);
        QFAIL(("accepted: " + json).c_str());
    } catch (const t2n::Error& e) {
        QCOMPARE(e.code(), t2n::ErrorCode::Usage);
        QVERIFY2(e.message().find(part) != std::string::npos, e.message().c_str());
        QVERIFY(!e.hint().empty());
    }
}

std::string bytesOf(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

class RecipeTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Every field comes back equal, and the text form is stable (save -> load -> save).
    void roundTripEveryField() {
        auto r = everyField();
        auto text = t2n::toJson(r);
        auto back = t2n::recipeFromJson(text);
        QCOMPARE(back.model, r.model);
        QCOMPARE(back.output, r.output);
        QCOMPARE(back.options.inputs, r.options.inputs);
        QCOMPARE(back.options.dynamicAxes, r.options.dynamicAxes);
        QCOMPARE(back.options.properties, r.options.properties);
        QCOMPARE(back.options.harden, r.options.harden);
        QCOMPARE(back.options.seed, r.options.seed);
        // The graph options of torch_to_nnef's TractNNEF, under upstream's names.
        QVERIFY(back.options.reifySdpa && back.options.upsampleWithDebox);
        QVERIFY(back.options.compute == t2n::DType::F16);
        QVERIFY(back.options.f32Attention && back.options.f32LinearAccumulation &&
                back.options.f32Norm);
        QVERIFY(text.find("\"compute\": \"f16\"") != std::string::npos);
        QVERIFY(text.find("\"reify_sdpa\": true") != std::string::npos);
        QVERIFY(text.find("\"upsample_with_debox\": true") != std::string::npos);
        // Recipes name no program to run (issue 26): the tract binary is not saved.
        QVERIFY(text.find("tract_binary") == std::string::npos);
        QVERIFY(back.options.tractBinary.empty());
        r.options.tractBinary.clear();
        QVERIFY(back == r);
        QCOMPARE(t2n::toJson(back), text);
        // And the defaults (nothing set) round trip too, the folder compression included.
        t2n::ExportRecipe d;
        QVERIFY(t2n::recipeFromJson(t2n::toJson(d)) == d);
        // The perturbation test hook is never saved.
        r.options.harden.perturbAfter = "fold_constant_ifs";
        QVERIFY(t2n::toJson(r).find("perturb") == std::string::npos);
    }

    /// A recipe's tract_binary (written by earlier versions, or by hand) is
    /// read aside, never into the options the check runs with; a bad value is
    /// still an error.
    void tractBinaryIsSetAside() {
        const auto r = t2n::recipeFromJson(
            R"({"t2n_recipe": 1, "model": "m.pt", "tract_binary": "/tmp/evil.sh"})");
        QVERIFY(r.options.tractBinary.empty());
        QCOMPARE(r.ignoredTractBinary, std::string("/tmp/evil.sh"));
        expectUsage(R"({"t2n_recipe": 1, "tract_binary": 3})", "$.tract_binary");
    }

    /// Only the version key is required; a missing key keeps the default.
    void minimalRecipe() {
        auto r = t2n::recipeFromJson(R"({"t2n_recipe": 1, "model": "m.pt"})");
        QCOMPARE(r.model.string(), std::string("m.pt"));
        QVERIFY(r.options == t2n::ExportOptions{});
    }

    /// Malformed recipes name the JSON path of the problem.
    void errorsNameThePath_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("part");
        QTest::newRow("not json") << "{"
                                  << "$ is not JSON";
        QTest::newRow("no version") << R"({"model": "m.pt"})"
                                    << "$.t2n_recipe is missing";
        QTest::newRow("future version") << R"({"t2n_recipe": 2})"
                                        << "$.t2n_recipe is 2";
        QTest::newRow("unknown key") << R"({"t2n_recipe": 1, "modle": "m.pt"})"
                                     << "$.modle is not a recipe key";
        QTest::newRow("nested unknown") << R"({"t2n_recipe": 1, "harden": {"frezee": true}})"
                                        << "$.harden.frezee is not a recipe key";
        QTest::newRow("wrong type") << R"({"t2n_recipe": 1, "check": "yes"})"
                                    << "$.check is string, expected true or false";
        QTest::newRow("array element") << R"({"t2n_recipe": 1, "harden": {"skip": ["a", 3]}})"
                                       << "$.harden.skip[1] is number";
        QTest::newRow("shape element")
            << R"({"t2n_recipe": 1, "inputs": [{"name": "x", "shape": [1, "3"]}]})"
            << "$.inputs[0].shape[1] is string";
        QTest::newRow("bad dtype")
            << R"({"t2n_recipe": 1, "inputs": [{"name": "x", "dtype": "f8"}]})"
            << "$.inputs[0].dtype 'f8' is not a dtype";
        QTest::newRow("member without file")
            << R"({"t2n_recipe": 1, "inputs": [{"name": "x", "values_member": "ids"}]})"
            << "$.inputs[0].values_member is given without values_file";
        QTest::newRow("bad target") << R"({"t2n_recipe": 1, "target": "onnx"})"
                                    << "$.target unknown target 'onnx'";
        QTest::newRow("bad symbol")
            << R"({"t2n_recipe": 1, "dynamic_axes": [{"tensor": "x", "axis": 0, "symbol": "1"}]})"
            << "$.dynamic_axes[0] bad dynamic axis";
        QTest::newRow("compression") << R"({"t2n_recipe": 1, "compression_level": 12})"
                                     << "$.compression_level is 12";
        QTest::newRow("reify_sdpa type") << R"({"t2n_recipe": 1, "reify_sdpa": 1})"
                                         << "$.reify_sdpa is number";
        QTest::newRow("compute") << R"({"t2n_recipe": 1, "compute": "f64"})"
                                 << "$.compute 'f64' is not a compute type";
        QTest::newRow("negative seed") << R"({"t2n_recipe": 1, "seed": -1})"
                                       << "$.seed is number";
    }
    void errorsNameThePath() {
        QFETCH(QString, json);
        QFETCH(QString, part);
        expectUsage(json.toStdString(), part.toStdString());
    }

    /// A NUL ends a path for the system: "other.pt\0.nnef.tgz" would pass the
    /// suffix check and write other.pt. Every path a recipe holds is refused
    /// by its JSON path, before any front end compares a suffix.
    void nulInARecipePathIsRefused_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("part");
        QTest::newRow("output") << R"({"t2n_recipe": 1, "output": "d/other.pt\u0000.nnef.tgz"})"
                                << "$.output 'd/other.pt\\x00.nnef.tgz' holds a NUL byte";
        QTest::newRow("model") << R"({"t2n_recipe": 1, "model": "m.pt\u0000x"})"
                               << "$.model";
        QTest::newRow("values file")
            << R"({"t2n_recipe": 1, "inputs": [{"name": "x", "values_file": "v.npy\u0000.pt"}]})"
            << "$.inputs[0].values_file";
        QTest::newRow("debug bundle") << R"({"t2n_recipe": 1, "debug_bundle": "\u0000b"})"
                                      << "$.debug_bundle";
        QTest::newRow("tract binary") << R"({"t2n_recipe": 1, "tract_binary": "t\u0000"})"
                                      << "$.tract_binary";
    }
    void nulInARecipePathIsRefused() {
        QFETCH(QString, json);
        QFETCH(QString, part);
        expectUsage(json.toStdString(), part.toStdString());
    }

    /// The engine's own checks, for front ends that build paths themselves
    /// (the Python module, the studio, the library): the export path before
    /// its suffix, every destination, the model.
    void nulInAnEnginePathIsRefused() {
        using namespace std::string_literals;
        const auto dir = freshDir("recipe_nul");
        const std::string cut = (dir / "other.pt").string() + "\0.nnef.tgz"s;
        auto refused = [](auto&& f, t2n::ErrorCode code) {
            try {
                f();
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), code);
                QVERIFY2(e.message().find("NUL") != std::string::npos, e.message().c_str());
                return;
            }
            QFAIL("accepted");
        };
        refused([&] { t2n::resolveArtifact(cut, 6); }, t2n::ErrorCode::OutputPath);
        refused([&] { t2n::validateExport(cut, t2n::ExportOptions{}); },
                t2n::ErrorCode::OutputPath);
        refused([&] { t2n::checkTextDestination(cut, t2n::Stage::Report, "report"); },
                t2n::ErrorCode::OutputPath);
        t2n::ExportOptions bundle;
        bundle.debugBundle = "b\0.tgz"s;
        refused([&] { t2n::validateOptions(bundle); }, t2n::ErrorCode::Usage);
        t2n::Session session;
        refused([&] { session.load((dir / "m.pt").string() + "\0"s); }, t2n::ErrorCode::Usage);
        QVERIFY(std::filesystem::is_empty(dir));
    }

    /// Issue 42: a path or a property value that is not UTF-8 ended the run
    /// in exit 10 (json type_error.316) after all its work, with nothing
    /// written. It is written with U+FFFD for each bad byte, and read back.
    void nonUtf8IsWritten() {
        t2n::ExportRecipe r;
        r.model = "m\xff.pt";
        r.output = "o\xfe.nnef.tgz";
        r.options.properties = {{"k", "v\xc3"}};
        const std::string text = t2n::toJson(r);
        const auto back = t2n::recipeFromJson(text);
        QCOMPARE(back.model.string(), std::string("m\xef\xbf\xbd.pt"));
        QCOMPARE(back.options.properties.at(0).second, std::string("v\xef\xbf\xbd"));
    }

    /// The same through the command line: a property value, a report path
    /// and a recipe path that are not UTF-8 (given through the shell, which
    /// passes bytes as they are), with --report, --report-html and
    /// --save-recipe: exit 0, every file written.
    void cliNonUtf8Outputs() {
        const QString name = "naming_blocks";
        if (fixtureInfo(name).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        const auto dir = freshDir("recipe_cli_bytes");
        QString script = QStringLiteral("cd '%1' && B=$(printf '\\377') && exec '%2' export '%3' ")
                             .arg(QString::fromStdString(dir.string()),
                                  QString::fromStdString(t2nBinary().string()),
                                  QString::fromStdString(fixtureModel(name).string()));
        script += fixtureInputArgs(name).join(' ');
        script +=
            QStringLiteral(" -o \"m$B.nnef.tgz\" --property \"k=v$B\" --report \"r$B.json\""
                           " --report-html \"r$B.html\" --save-recipe \"s$B.json\" --no-check");
        const auto r = run("/bin/sh", {"-c", script});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const char* f : {"m\xff.nnef.tgz", "r\xff.json", "r\xff.html", "s\xff.json"})
            QVERIFY2(std::filesystem::file_size(dir / f) > 0, f);
        const auto saved = t2n::loadRecipe(dir / "s\xff.json");
        QCOMPARE(saved.options.properties.back().second, std::string("v\xef\xbf\xbd"));
    }

    /// Issue 42: --recipe /dev/zero (and a studio .json linked to it) grew
    /// without bound; a FIFO blocked. Both are refused at once, as is a file
    /// far larger than any recipe or report.
    void recipeIsASmallRegularFile() {
        const auto dir = freshDir("recipe_special");
        QVERIFY(::mkfifo((dir / "fifo.json").c_str(), 0600) == 0);
        std::filesystem::create_symlink("/dev/zero", dir / "zero.json");
        {
            std::ofstream big(dir / "big.json");
            big << "{\"t2n_recipe\": 1}";
            std::filesystem::resize_file(dir / "big.json", std::uintmax_t{40} << 20);
        }
        for (const char* name : {"fifo.json", "zero.json", "big.json"}) {
            try {
                t2n::loadRecipe(dir / name);
                QFAIL(name);
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            }
        }
        t2n::Session s;
        try {
            s.load(dir / "fifo.json");
            QFAIL("a FIFO was loaded");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::ModelFile);
            QVERIFY2(e.message().find("not a regular file") != std::string::npos,
                     e.message().c_str());
        }
    }

    /// The probe's case end to end: a recipe whose output ends in .nnef.tgz
    /// after a NUL leaves the file before the NUL as it was (exit 2).
    void cliNulOutputWritesNothing() {
        const QString name = "naming_blocks";
        if (fixtureInfo(name).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        const auto dir = freshDir("recipe_cli_nul");
        std::ofstream(dir / "other.pt") << "keep me";
        const auto model = fixtureModel(name).string();
        // Not raw strings: moc cannot read one with an odd count of quotes.
        std::ofstream(dir / "r.json")
            << "{\"t2n_recipe\": 1, \"model\": \"" << model << "\", \"output\": \""
            << (dir / "other.pt").string() << "\\u0000.nnef.tgz\", \"check\": false}";
        auto r = run(
            QString::fromStdString(t2nBinary().string()),
            QStringList{"export", "--recipe", QString::fromStdString((dir / "r.json").string())} +
                fixtureInputArgs(name));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("$.output"), qPrintable(r.err));
        QCOMPARE(bytesOf(dir / "other.pt"), std::string("keep me"));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(dir), {}), 2);
    }

    /// An HTML report (--report-html, File > Save report) holds its recipe in
    /// a JSON data block, '<' written as \u003c; loadRecipe() reads it back,
    /// and an HTML file without a whole block is a usage error naming it.
    void htmlReportsHoldARecipe_data() {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("error"); // "" when the recipe is read
        const QString open = QStringLiteral(R"(<script type="application/json" id="t2n-recipe">)");
        const QString recipe = QStringLiteral(R"({"t2n_recipe": 1, "model": "m\u003c1\u003e.pt"})");
        QTest::newRow("report") << "\n <!DOCTYPE html><p>x</p>" + open + recipe +
                                       "</script><script>var a = '</script>';</script>"
                                << "";
        QTest::newRow("no block") << "<!DOCTYPE html><p>no recipe</p>"
                                  << "an HTML file without a t2n recipe";
        QTest::newRow("unterminated")
            << "<html>" + open + recipe << "an HTML file without a t2n recipe";
        QTest::newRow("not a recipe") << "<html>" + open + "{\"t2n_recipe\": 1, \"x\": 2}</script>"
                                      << "$.x is not a recipe key";
        QTest::newRow("empty block") << "<html>" + open + "</script>"
                                     << "$ is not JSON";
    }
    void htmlReportsHoldARecipe() {
        QFETCH(QString, html);
        QFETCH(QString, error);
        const auto path = freshDir("recipe_html") / "report.html";
        std::ofstream(path, std::ios::binary) << html.toStdString();
        try {
            const auto r = t2n::loadRecipe(path);
            QVERIFY2(error.isEmpty(), "accepted");
            QCOMPARE(r.model.string(), std::string("m<1>.pt"));
        } catch (const t2n::Error& e) {
            QVERIFY2(!error.isEmpty(), e.what());
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            QVERIFY2(e.message().find(error.toStdString()) != std::string::npos,
                     e.message().c_str());
            QVERIFY2(e.message().find(path.string()) != std::string::npos, e.message().c_str());
        }
    }

    /// The CLI: an export saved as a recipe and replayed from it writes identical bytes;
    /// a flag given with --recipe overrides the recipe's value.
    void cliRecipeSameBytes() {
        const QString name = "naming_blocks";
        if (fixtureInfo(name).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        auto dir = freshDir("recipe_cli");
        auto t2n = QString::fromStdString(t2nBinary().string());
        auto path = [&](const char* f) { return QString::fromStdString((dir / f).string()); };
        QStringList flags{"export", QString::fromStdString(fixtureModel(name).string())};
        flags << fixtureInputArgs(name) << "--no-identity-properties"
              << "--property"
              << "k=v"
              << "--naming"
              << "numeric"
              << "--compression"
              << "6"
              << "--no-check";
        auto a = run(
            t2n, flags + QStringList{"-o", path("a.nnef.tgz"), "--save-recipe", path("r.json")});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        auto saved = t2n::loadRecipe(dir / "r.json");
        QCOMPARE(saved.options.naming, t2n::NamingScheme::Numeric);
        QCOMPARE(saved.options.compressionLevel, std::optional<int>(6));
        auto b = run(t2n, {"export", "--recipe", path("r.json"), "-o", path("b.nnef.tgz")});
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        auto bytesA = bytesOf(dir / "a.nnef.tgz");
        QVERIFY(!bytesA.empty());
        QVERIFY(bytesA == bytesOf(dir / "b.nnef.tgz"));
        // A flag over the recipe: another naming scheme gives other bytes.
        auto c = run(t2n, {"export", "--recipe", path("r.json"), "-o", path("c.nnef.tgz"),
                           "--naming", "raw"});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        QVERIFY(bytesA != bytesOf(dir / "c.nnef.tgz"));
        // A broken recipe is a usage error (exit code 2) naming the path.
        std::ofstream(dir / "bad.json") << R"({"t2n_recipe": 1, "naming": 3})";
        auto d = run(t2n, {"export", "--recipe", path("bad.json")});
        QCOMPARE(d.exitCode, 2);
        QVERIFY2(d.err.contains("$.naming"), qPrintable(d.err));
    }
};

T2N_TEST_SUITE(RecipeTest)
#include "tst_recipe.moc"
