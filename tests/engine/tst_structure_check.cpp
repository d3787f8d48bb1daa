// Tier 0 structural check (check/structure_check.h): one small document per
// rule, once violating it and once not; and real artifacts exported by the
// t2n command line, which must pass with no problem at all.
#include "check/structure_check.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/options.h"
#include "target/op_catalog.h"
#include "target/tract_versions.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <string_view>

using t2n::DType;
using t2n::TensorData;
using t2n::check::Problem;
using t2n::nnef::ReadMode;
namespace fs = std::filesystem;

namespace {

/// "w:f32:2x3;b:i8:4" -> zero-filled tensors by label ("s" alone: a scalar).
std::map<std::string, TensorData> tensors(const QString& spec) {
    std::map<std::string, TensorData> out;
    for (const QString& item : spec.split(';', Qt::SkipEmptyParts)) {
        const QStringList parts = item.split(':');
        std::vector<int64_t> shape;
        for (const QString& d : parts.value(2).split('x', Qt::SkipEmptyParts))
            shape.push_back(d.toLongLong());
        const DType dtype = t2n::parseDType(parts.value(1).toStdString()).value();
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        const std::vector<std::byte> zeros(static_cast<std::size_t>(n) * t2n::dtypeBits(dtype) / 8);
        out.emplace(parts.value(0).toStdString(), TensorData::copyOf(dtype, shape, zeros));
    }
    return out;
}

t2n::nnef::LoadedModel modelOf(const QString& text, ReadMode parseMode, const QString& tensorSpec,
                               const QString& quant) {
    t2n::nnef::LoadedModel m;
    m.graphText = text.toStdString();
    m.document = t2n::nnef::parseDocument(m.graphText, "graph.nnef", parseMode);
    m.tensors = tensors(tensorSpec);
    m.quant = t2n::nnef::parseQuant(quant.toStdString(), "graph.quant");
    return m;
}

QString describe(const std::vector<Problem>& problems) {
    QStringList lines;
    for (const auto& p : problems)
        lines << QString::fromStdString(t2n::check::formatProblem(p));
    return lines.join('\n');
}

/// A tract graph: version, `extensions`, then graph g(x) -> (y) whose body
/// starts with x = external<scalar>(shape = [1, 2]); on line 4 + extension lines.
QString tractGraph(const QString& body, const QString& extensions = {},
                   const QString& signature = "g(x) -> (y)") {
    return "version 1.0;\n" + extensions + "graph " + signature +
           "\n{\n  x = external<scalar>(shape = [1, 2]);\n" + body + "}\n";
}

} // namespace

class StructureCheckTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rules_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("strictParse");
        QTest::addColumn<bool>("strictCheck");
        QTest::addColumn<QString>("tensors");
        QTest::addColumn<QString>("quant");
        QTest::addColumn<QString>("rule"); // "" = no problem at all
        QTest::addColumn<QString>("severity");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        auto tract = [](const char* name, const QString& text, const QString& rule, int line,
                        const QString& message, const QString& tensorSpec = {},
                        const QString& quant = {}, const QString& severity = "error") {
            QTest::newRow(name) << text << false << false << tensorSpec << quant << rule << severity
                                << line << message;
        };
        auto strict = [](const char* name, const QString& text, bool strictParse,
                         const QString& rule, int line, const QString& message,
                         const QString& tensorSpec = {}) {
            QTest::newRow(name) << text << strictParse << true << tensorSpec << QString() << rule
                                << QString("error") << line << message;
        };
        const QString okBody = "  y = relu(x);\n";

        tract("clean graph", tractGraph(okBody), "", 0, "");
        tract("assigned twice", tractGraph("  y = relu(x);\n  y = sigmoid(x);\n"),
              "single-assignment", 6, "'y' is assigned more than once (first at 5:3)");
        tract("used before its assignment", tractGraph("  y = add(x, z);\n  z = relu(x);\n"),
              "defined-before-use", 5, "'z' is used before its assignment at 6:3");
        tract("defined before use", tractGraph("  z = relu(x);\n  y = add(x, z);\n"), "", 0, "");
        tract("never defined", tractGraph("  y = add(x, w);\n"), "undefined-identifier", 5,
              "'w' is never defined");
        tract("comprehension variables are local",
              tractGraph("  y = add(x, [for i in [1, 2] yield i * 2.0]);\n"), "", 0, "");
        tract("input assigned by variable",
              "version 1.0;\ngraph g(x) -> (y)\n{\n  x = variable<scalar>(shape = [2], label = "
              "'x');\n  y = relu(x);\n}\n",
              "graph-input", 4,
              "graph input 'x' must be assigned by external or tract_core_external alone",
              "x:f32:2");
        tract("input assigned by tract_core_external",
              "version 1.0;\nextension tract_registry tract_core;\ngraph g(x) -> (y)\n{\n  x = "
              "tract_core_external(shape = [2], datum_type = 'f16');\n  y = relu(x);\n}\n",
              "", 0, "");
        tract("external for a non-input",
              tractGraph("  z = external<scalar>(shape = [1]);\n" + okBody), "external-not-input",
              5, "'z' is assigned by external but is not a graph input");
        tract("input never assigned", tractGraph(okBody, {}, "g(x, u) -> (y)"), "graph-input", 2,
              "graph input 'u' is never assigned");
        tract("output never assigned", tractGraph(okBody, {}, "g(x) -> (y, z)"), "graph-output", 2,
              "graph output 'z' is never assigned");
        tract("output is an input", tractGraph(okBody, {}, "g(x) -> (y, x)"), "output-is-input", 2,
              "graph output 'x' is also a graph input; tract rejects a pass-through output");
        strict("output is an input (Khronos allows it)",
               "version 1.0;\ngraph g(x) -> (x)\n{\n  x = external(shape = [1]);\n}\n", true, "", 0,
               "");

        // The tract version the properties name limits operations and parameters.
        auto versioned = [&](const QString& version, const QString& body) {
            return "version 1.0;\nextension tract_registry tract_core;\nfragment "
                   "tract_core_properties(\n) -> (properties: (string, tensor<scalar>)[])\n{\n  "
                   "properties = [(\"tract_target_version\", \"" +
                   version +
                   "\")];\n}\ngraph g(x) -> (y)\n{\n  x = external<scalar>(shape = [1, 2]);\n" +
                   body + "}\n";
        };
        const QString logSoftmax = "  y = tract_core_log_softmax(x, axes = [1]);\n";
        tract("log_softmax in 0.21.14", versioned("0.21.14", logSoftmax), "tract-version", 11,
              "operation 'tract_core_log_softmax' needs tract 0.21.15 or newer on the 0.21 line, "
              "0.22.0 or newer after it, but the archive targets tract 0.21.14");
        tract("log_softmax in 0.21.15 (backport)", versioned("0.21.15", logSoftmax), "", 0, "");
        tract("log_softmax in 0.22.0", versioned("0.22.0", logSoftmax), "", 0, "");
        const QString scatter =
            "  i = [[0, 1]];\n  y = tract_core_scatter_elements(x, i, x, axis = 1, reduction = "
            "'add');\n";
        tract("scatter reduction in 0.22.3", versioned("0.22.3", scatter), "tract-version", 12,
              "parameter 'tract_core_scatter_elements:reduction' needs tract 0.23.0 or newer");
        tract("scatter reduction in 0.23.0", versioned("0.23.0", scatter), "", 0, "");
        tract("no version property: not judged",
              tractGraph(logSoftmax, "extension tract_registry tract_core;\n"), "", 0, "");
        tract("negative unsqueeze axis", tractGraph("  y = unsqueeze(x, axes = [-1]);\n"),
              "negative-axis", 5, "'unsqueeze' has a negative axes");
        tract("negative reduce axis", tractGraph("  y = sum_reduce(x, axes = [0, -1]);\n"),
              "negative-axis", 5, "'sum_reduce' has a negative axes");

        const QString variable = "  w = variable<scalar>(shape = [2, 3], label = 'w');\n  y = "
                                 "mul(x, w);\n";
        tract("variable with its data", tractGraph(variable), "", 0, "", "w:f32:2x3");
        tract("variable without .dat", tractGraph(variable), "variable-data", 5,
              "variable 'w' has label 'w', but the artifact holds no 'w.dat'");
        tract("variable shape differs", tractGraph(variable), "variable-shape", 5,
              "variable 'w' declares shape [2, 3] but 'w.dat' holds [3, 2]", "w:f32:3x2");
        tract("variable<integer> holding floats",
              tractGraph("  w = variable<integer>(shape = [2], label = 'w');\n  y = mul(x, w);\n"),
              "variable-type", 5,
              "variable 'w' is declared variable<integer> but 'w.dat' holds f32", "w:f32:2");
        tract("variable<logical> holding bools",
              tractGraph("  w = variable<logical>(shape = [2], label = 'w');\n  y = select(w, x, "
                         "x);\n"),
              "", 0, "", "w:bool:2");
        tract("default scalar variable holding i64",
              tractGraph("  w = variable(shape = [2], label = 'w');\n  y = mul(x, w);\n"),
              "variable-type", 5, "declared variable<scalar> but 'w.dat' holds i64", "w:i64:2");
        tract("quantized scalar variable holding i8",
              tractGraph("  w = variable<scalar>(shape = [2], label = 'w');\n  y = mul(x, w);\n"),
              "", 0, "", "w:i8:2",
              "\"w\": zero_point_linear_quantize(zero_point = 0, scale = 0.5, bits = 8, signed = "
              "true, symmetric = true);");
        tract("label is not a literal",
              tractGraph("  w = variable<scalar>(shape = [2], label = 3);\n  y = mul(x, w);\n"),
              "variable-label", 5, "variable 'w' needs a string literal label");
        tract("shape is not literal",
              tractGraph("  w = variable<scalar>(shape = [2, n], label = 'w');\n  y = mul(x, w);\n",
                         "extension tract_symbol n;\n"),
              "variable-shape", 6, "variable 'w' needs a literal integer array as its shape",
              "w:f32:2x3");
        tract(
            "dot-prefixed label component",
            tractGraph("  w = variable<scalar>(shape = [2], label = 'a/.w');\n  y = mul(x, w);\n"),
            "hidden-label", 5, "label 'a/.w' has a component starting with '.'", "a/.w:f32:2");
        tract("unused tensor file", tractGraph(okBody), "unused-tensor", 0,
              "'extra.dat' is not the data of any variable", "extra:f32:1", {}, "warning");

        tract("quant key names a graph identifier", tractGraph(okBody), "", 0, "", {},
              "\"y\": linear_quantize(min = 0.0, max = 1.0, bits = 8);");
        tract("quant key names nothing", tractGraph(okBody), "quant-key", 1,
              "graph.quant has an entry for 'nope', which the graph never assigns", {},
              "\"nope\": linear_quantize(min = 0.0, max = 1.0, bits = 8);");
        tract("quant operation tract cannot read", tractGraph(okBody), "quant-op", 1,
              "tract reads only linear_quantize and zero_point_linear_quantize", {},
              "\"y\": logarithmic_quantize(max = 1.0, bits = 8);");

        tract("unknown operation", tractGraph("  y = frobnicate(x);\n"), "unknown-operation", 5,
              "'frobnicate' is neither a standard operation, a tract operation nor a fragment");
        tract("standard operation tract lacks", tractGraph("  y = rcp(x);\n"),
              "unsupported-operation", 5,
              "tract does not implement 'rcp': tract has no rcp: use "
              "recip or div");
        tract("tract's own recip", tractGraph("  y = recip(x);\n"), "", 0, "");
        tract("tract_core without its registry",
              tractGraph("  z = tract_core_erf(x);\n  y = tract_core_erf(z);\n"),
              "registry-not-declared", 5,
              "'tract_core_erf' (used 2 times) needs 'extension tract_registry tract_core;' (tract "
              "0.23 loads tract_core by default, but older versions and --no-nnef-tract-core do "
              "not)");
        tract("tract_core with its registry",
              tractGraph("  y = tract_core_erf(x);\n", "extension tract_registry tract_core;\n"),
              "", 0, "");
        tract("registry alias",
              tractGraph("  y = tract_pulse_delay(x, axis = 0, delay = 1);\n",
                         "extension tract_registry pulse;\n"),
              "", 0, "");
        tract("upsampling lives in tract_core",
              tractGraph("  y = multilinear_upsample(x, factor = [2]);\n"), "registry-not-declared",
              5, "'multilinear_upsample' needs 'extension tract_registry tract_core;'");
        tract("unknown registry",
              tractGraph(okBody, "extension tract_registry tract_frobnicate;\n"),
              "unknown-registry", 2, "tract has no registry 'tract_frobnicate'");
        tract("unknown extension", tractGraph(okBody, "extension frobnicate all;\n"),
              "unknown-extension", 2, "tract ignores the unknown extension 'frobnicate all'", {},
              {}, "warning");

        const QString fragment = "fragment my_op(a: tensor<scalar>) -> (b: tensor<scalar>)\n{\n"
                                 "  b = relu(a);\n}\n";
        tract("fragment of the document", tractGraph("  y = my_op(x);\n", fragment), "", 0, "");
        tract("undefined name in a fragment",
              tractGraph("  y = my_op(x);\n", "fragment my_op(a: tensor<scalar>) -> (b: "
                                              "tensor<scalar>)\n{\n  b = add(a, c);\n}\n"),
              "undefined-identifier", 4, "'c' is never defined");
        tract("fragment result never assigned",
              tractGraph("  y = my_op(x);\n", "fragment my_op(a: tensor<scalar>) -> (b: "
                                              "tensor<scalar>)\n{\n  c = relu(a);\n}\n"),
              "unassigned-result", 2, "result 'b' of fragment 'my_op' is never assigned");
        tract("external inside a fragment",
              tractGraph("  y = my_op(x);\n", "fragment my_op(a: tensor<scalar>) -> (b: "
                                              "tensor<scalar>)\n{\n  b = external(shape = "
                                              "[1]);\n}\n"),
              "fragment-body", 4, "'external' is not allowed inside a fragment body");
        tract("fragment defined twice", tractGraph("  y = my_op(x);\n", fragment + fragment),
              "duplicate-fragment", 6, "fragment 'my_op' is defined more than once");

        tract("template braces in a comment", tractGraph("  # {{ x }}\n" + okBody),
              "template-syntax", 5,
              "'{{' in the text: tract (>= 0.22) renders graph.nnef as a template");
        tract("template tag in a string",
              tractGraph("  y = relu(x);\n  z = pad(x, border = '{% if %}');\n"), "template-syntax",
              6, "'{%' in the text");
        tract("template comment in an extension",
              tractGraph(okBody, "extension tract_assert {# y #};\n"), "template-syntax", 2,
              "'{#' in the text");
        tract("symbol declared",
              "version 1.0;\nextension tract_symbol B;\ngraph g(x) -> (y)\n{\n"
              "  x = external<scalar>(shape = [B, 2]);\n  y = relu(x);\n}\n",
              "", 0, "");
        tract("symbol not declared",
              "version 1.0;\ngraph g(x) -> (y)\n{\n  x = "
              "external<scalar>(shape = [B, 2]);\n  y = relu(x);\n}\n",
              "undeclared-symbol", 4,
              "'B' is used as a dimension symbol without 'extension "
              "tract_symbol B;'",
              {}, {}, "warning");
        tract("version other than 1.0",
              "version 1.1;\ngraph g(x) -> (y)\n{\n  x = "
              "external(shape = [1]);\n  y = relu(x);\n}\n",
              "version", 1, "version is '1.1'", {}, {}, "warning");

        // Khronos rules, on documents read in either mode.
        const QString khronos = "version 1.0;\ngraph g(x) -> (y)\n{\n  x = external(shape = "
                                "[1]);\n  y = relu(x);\n}\n";
        strict("Khronos clean", khronos, true, "", 0, "");
        strict("Khronos version", QString(khronos).replace("1.0;", "1.1;"), true, "version", 1,
               "version is '1.1'; NNEF 1.0.x documents say 'version 1.0;'");
        strict("tract extension in a Khronos file",
               tractGraph(okBody, "extension tract_registry "
                                  "tract_core;\n"),
               false, "khronos-extension", 2,
               "extension 'tract_registry tract_core' is not a Khronos KHR_* extension");
        strict("keyword as a name",
               "version 1.0;\ngraph g(x) -> (tensor)\n{\n  x = external(shape "
               "= [1]);\n  tensor = relu(x);\n}\n",
               false, "keyword-name", 2, "'tensor' is an NNEF keyword and cannot be an identifier");
        strict("tract operation in a Khronos file", tractGraph("  y = tract_core_erf(x);\n"), false,
               "unknown-operation", 5,
               "'tract_core_erf' is not a Khronos NNEF 1.0.5 operation (it is a tract operation)");
        strict("tract's recip in a Khronos file", tractGraph("  y = recip(x);\n"), false,
               "unknown-operation", 5, "'recip' is not a Khronos NNEF 1.0.5 operation");
        strict("standard rcp in a Khronos file", tractGraph("  y = rcp(x);\n"), false, "", 0, "");
        strict("operator expression without KHR", tractGraph("  y = relu(x * 2.0);\n"), false,
               "khronos-extension", 5,
               "operator expressions need 'extension KHR_enable_operator_expressions;'");
        strict("operator expression with KHR",
               tractGraph("  y = relu(x * 2.0);\n", "extension KHR_enable_operator_expressions;\n"),
               true, "", 0, "");
        strict("fragment without KHR", tractGraph("  y = my_op(x);\n", fragment), false,
               "khronos-extension", 2,
               "fragment definitions need 'extension KHR_enable_fragment_definitions;'");
        strict("fragment with KHR",
               tractGraph("  y = my_op(x);\n",
                          "extension KHR_enable_fragment_definitions;\n" + fragment),
               true, "", 0, "");
        strict("fragment redefining a standard operation",
               tractGraph("  y = relu(x);\n",
                          "extension KHR_enable_fragment_definitions;\nfragment relu(a: "
                          "tensor<scalar>) -> (b: tensor<scalar>)\n{\n  b = sigmoid(a);\n}\n"),
               true, "duplicate-fragment", 3, "fragment 'relu' redefines a standard operation");
        strict("shape_of in a Khronos file",
               tractGraph("  y = reshape(x, shape = shape_of(x));\n",
                          "extension KHR_enable_operator_expressions;\n"),
               false, "deprecated-shape-of", 6, "shape_of is deprecated since NNEF 1.0.1");
    }

    void rules() {
        QFETCH(QString, text);
        QFETCH(bool, strictParse);
        QFETCH(bool, strictCheck);
        QFETCH(QString, tensors);
        QFETCH(QString, quant);
        QFETCH(QString, rule);
        QFETCH(QString, severity);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto model =
            modelOf(text, strictParse ? ReadMode::Strict : ReadMode::Tract, tensors, quant);
        const auto problems =
            t2n::check::checkStructure(model, strictCheck ? ReadMode::Strict : ReadMode::Tract);
        if (rule.isEmpty()) {
            QVERIFY2(problems.empty(), qPrintable(describe(problems)));
            QVERIFY(t2n::check::passes(problems));
            return;
        }
        QVERIFY2(problems.size() == 1, qPrintable(describe(problems)));
        const Problem& p = problems.front();
        QCOMPARE(QString::fromStdString(p.rule), rule);
        QCOMPARE(p.severity == Problem::Severity::Error ? QString("error") : QString("warning"),
                 severity);
        QCOMPARE(t2n::check::passes(problems), severity == "warning");
        if (line > 0)
            QCOMPARE(p.loc.line, line);
        QVERIFY2(QString::fromStdString(p.message).contains(message),
                 qPrintable(QString::fromStdString(p.message)));
    }

    void formatting() {
        Problem p{Problem::Severity::Error,
                  "single-assignment",
                  "'y' is assigned more than once",
                  {"graph.nnef", 6, 3}};
        QCOMPARE(QString::fromStdString(t2n::check::formatProblem(p)),
                 QString("graph.nnef:6:3: error: 'y' is assigned more than once "
                         "[single-assignment]"));
        p.severity = Problem::Severity::Warning;
        p.loc = {"extra.dat", 0, 0};
        QCOMPARE(QString::fromStdString(t2n::check::formatProblem(p)),
                 QString("extra.dat: warning: 'y' is assigned more than once [single-assignment]"));
    }

    void operationCatalog() {
        // 119 Khronos 1.0.5 operations (stdlib.nnef); what tract lacks and adds.
        std::set<std::string_view> names;
        int khronos = 0;
        for (const auto& op : t2n::target::opCatalog()) {
            QVERIFY2(names.insert(op.name).second, op.name.data());
            khronos += op.khronos ? 1 : 0;
            if (!op.tract.empty())
                QVERIFY(!t2n::target::canonicalRegistry(op.tract).empty());
            if (op.name.starts_with("tract_"))
                QVERIFY(!op.khronos && op.tract != t2n::target::kTractStandardRegistry);
        }
        QCOMPARE(khronos, 119);
        for (const char* missing :
             {"rcp", "split", "constant", "update", "argmax_pool", "sample", "desample",
              "avg_roi_align", "gelu", "silu", "selu", "gather", "cast"}) {
            const auto* op = t2n::target::findOp(missing);
            QVERIFY2(op && op->khronos && op->tract.empty() && !op->note.empty(), missing);
        }
        for (const char* extra : {"recip", "square"}) {
            const auto* op = t2n::target::findOp(extra);
            QVERIFY2(op && !op->khronos && op->tract == t2n::target::kTractStandardRegistry, extra);
        }
        QCOMPARE(t2n::target::findOp("tract_core_scan")->tract, std::string_view("tract_core"));
        QCOMPARE(t2n::target::findOp("tract_shl")->tract, std::string_view("tract_core"));
        QCOMPARE(t2n::target::findOp("tract_transformers_sdpa")->tract,
                 std::string_view("tract_transformers"));
        QCOMPARE(t2n::target::findOp("tract_resource_get")->tract,
                 std::string_view("tract_resource"));
        QVERIFY(t2n::target::findOp("frobnicate") == nullptr);
        QCOMPARE(t2n::target::canonicalRegistry("pulse"), std::string_view("tract_pulse"));
        QCOMPARE(t2n::target::canonicalRegistry("tract_core"), std::string_view("tract_core"));
        QVERIFY(t2n::target::canonicalRegistry("tract_frobnicate").empty());
    }

    // The version table: rows name catalogued operations (or their
    // parameters, or tract CLI flags), their versions parse, and the choices
    // read from tract's history hold.
    void tractVersionTable() {
        using t2n::target::SemVer;
        using t2n::target::tractHas;
        std::set<std::string_view> seen;
        for (const auto& g : t2n::target::tractGates()) {
            QVERIFY2(seen.insert(g.what).second, g.what.data());
            const std::string_view op = g.what.substr(0, g.what.find(':'));
            QVERIFY2(g.what.starts_with("cli:--") || g.what.starts_with("literal:") ||
                         g.what.starts_with("reading:") || g.what.starts_with("dat:") ||
                         t2n::target::findOp(op),
                     g.what.data());
            QVERIFY2(!g.since.empty(), g.what.data());
            QVERIFY(SemVer::parse(g.since) >= SemVer::parse("0.18.0"));
        }
        auto has = [](const char* what, const char* v) { return tractHas(what, SemVer::parse(v)); };
        QVERIFY(!has("tract_core_log_softmax", "0.21.13"));
        QVERIFY(!has("tract_core_log_softmax", "0.21.14"));
        QVERIFY(has("tract_core_log_softmax", "0.21.15"));
        QVERIFY(has("tract_core_log_softmax", "0.21.17"));
        QVERIFY(has("tract_core_log_softmax", "0.22.0"));
        QVERIFY(has("tract_core_log_softmax", "0.23.9"));
        QVERIFY(!has("tract_core_log_softmax", "0.20.22"));
        QVERIFY(!has("dat:q4_0", "0.21.10") && has("dat:q4_0", "0.21.11"));
        // Meanings that changed: avg_pool/box with border 'constant' count the
        // padding after 0.23.5 (9c4bf2db8); tract warns about an assertion on
        // an unused symbol from 0.23.4.
        const char* pool = "reading:box:constant-border-counts-padding";
        QVERIFY(!has(pool, "0.21.17") && !has(pool, "0.23.5"));
        QVERIFY(has(pool, "0.23.6") && has(pool, "0.23.9"));
        const char* assertion = "reading:tract_assert:warns-on-unused-symbol";
        QVERIFY(!has(assertion, "0.23.3") && has(assertion, "0.23.4") && has(assertion, "0.23.9"));
        // The graph options' operations (--reify-sdpa, --upsample-with-debox).
        QVERIFY(!has("tract_transformers_sdpa", "0.21.17") &&
                has("tract_transformers_sdpa", "0.22.0"));
        QVERIFY(!has("debox", "0.22.3") && has("debox", "0.23.0"));
        for (const char* moved :
             {"tract_core_rms_norm", "tract_core_silu", "tract_core_gelu_approx",
              "tract_core_is_inf", "tract_core_is_nan"}) {
            QVERIFY2(!has(moved, "0.22.3") && has(moved, "0.23.0"), moved);
        }
        for (const char* alias : {"tract_transformers_rms_norm", "tract_transformers_silu",
                                  "tract_transformers_gelu_approx"}) {
            QVERIFY2(!has(alias, "0.21.12") && has(alias, "0.21.13") && has(alias, "0.23.9"),
                     alias);
        }
        QVERIFY(!has("tract_core_scatter_nd:reduction", "0.22.3"));
        QVERIFY(has("tract_core_scatter_nd:reduction", "0.23.0"));
        QVERIFY(!has("tract_core_grid_sample", "0.23.2") &&
                has("tract_core_grid_sample", "0.23.3"));
        QVERIFY(has("tract_core_topk", "0.20.22")); // no limit in t2n's range
        QVERIFY(has("relu", "0.18.0"));             // no row: always there
        QCOMPARE(t2n::target::tractSince("tract_core_log_softmax"), std::string_view("0.21.15"));
        QVERIFY(t2n::target::tractSince("relu").empty());
        // Operations tract removed in 0.23.0 are gone from the catalog.
        for (const char* removed : {"tract_core_load", "tract_core_store", "tract_core_force_eval"})
            QVERIFY2(t2n::target::findOp(removed) == nullptr, removed);
        QVERIFY(t2n::target::findOp("tract_transformers_gelu_approx") != nullptr);
        // Every release from 0.21.0 to 0.23.9 is known, oldest first.
        const auto& known = t2n::knownTractVersions();
        for (const char* v : {"0.21.0", "0.21.14", "0.21.17", "0.22.3", "0.23.6", "0.23.9"})
            QVERIFY2(std::find(known.begin(), known.end(), v) != known.end(), v);
        QVERIFY(std::is_sorted(known.begin(), known.end(), [](const auto& a, const auto& b) {
            return SemVer::parse(a) < SemVer::parse(b);
        }));
    }

    void manyUsesAreReportedOnce() {
        QString body;
        for (int i = 0; i < 50; ++i)
            body += QString("  z%1 = tract_core_erf(x);\n").arg(i);
        const auto model = modelOf(tractGraph(body + "  y = relu(x);\n"), ReadMode::Tract, {}, {});
        const auto problems = t2n::check::checkStructure(model, ReadMode::Tract);
        QCOMPARE(problems.size(), std::size_t{1});
        QVERIFY(problems[0].message.find("(used 50 times)") != std::string::npos);
    }

    void realArtifactsPass_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QStringList>("extra");
        for (const char* f :
             {"tv_resnet18", "tv_mobilenet_v3_small", "op_act_gelu", "op_softmax_log_dim0",
              "op_elementwise_where_bool_input", "op_elementwise_i64_arith", "op_list_chunk_two",
              "op_pad_reflect_r4", "naming_blocks"})
            QTest::newRow(f) << f << QStringList();
        QTest::newRow("dynamic batch and properties")
            << "op_shape_view_dynamic_batch"
            << QStringList{"--dynamic-axis",      "x:0=B",      "--extension",
                           "tract_assert B >= 1", "--property", "note=a \"quoted\" value"};
    }
    void realArtifactsPass() {
        QFETCH(QString, fixture);
        QFETCH(QStringList, extra);
        if (!fs::exists(t2n::test::t2nBinary()))
            QSKIP("no t2n binary");
        if (t2n::test::fixtureInfo(fixture).isEmpty())
            QSKIP("fixture missing");
        const fs::path out =
            t2n::test::freshDir("structure_check") / (fixture.toStdString() + ".nnef.tgz");
        QStringList args{"export",
                         QString::fromStdString(t2n::test::fixtureModel(fixture).string())};
        args << t2n::test::fixtureInputArgs(fixture) << extra << "-o"
             << QString::fromStdString(out.string()) << "--log-level"
             << "error";
        const auto r =
            t2n::test::run(QString::fromStdString(t2n::test::t2nBinary().string()), args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto model = t2n::nnef::readModel(out);
        QVERIFY(model.warnings.empty());
        const auto problems = t2n::check::checkStructure(model, ReadMode::Tract);
        QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    }
};

T2N_TEST_SUITE(StructureCheckTest)
#include "tst_structure_check.moc"
