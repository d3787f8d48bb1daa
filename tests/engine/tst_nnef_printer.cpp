// graph.nnef text: literals that read back as what they mean, the document
// layout of NNEF 1.0.5 with tract's properties fragment, and tract's
// reader quirks enforced on the finished document.
#include "nnef/document.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "t2n/error.h"
#include "target/tract_target.h"

#include <QTest>

#include <cmath>
#include <limits>

using t2n::nnef::Expr;

class NnefPrinterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scalars_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("integral") << 2.0 << "2.0";
        QTest::newRow("negative") << -2.5 << "-2.5";
        QTest::newRow("epsilon") << 1e-5 << "1.0e-05";
        QTest::newRow("tenth") << 0.1 << "0.1";
        QTest::newRow("large") << 1e20 << "1.0e+20";
        QTest::newRow("zero") << 0.0 << "0.0";
        QTest::newRow("f32 eps as double") << double(1e-5f) << "9.999999747378752e-06";
    }
    void scalars() {
        QFETCH(double, value);
        QFETCH(QString, text);
        std::string s = t2n::nnef::formatScalar(value);
        QCOMPARE(QString::fromStdString(s), text);
        // Reads back exactly, and NNEF's lexer sees a scalar (a '.' is present).
        QCOMPARE(std::strtod(s.c_str(), nullptr), value);
        QVERIFY(s.find('.') != std::string::npos);
    }

    void nonFiniteIsRefused() {
        QVERIFY_THROWS_EXCEPTION(t2n::Error,
                                 t2n::nnef::formatScalar(std::numeric_limits<double>::infinity()));
        QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::nnef::formatScalar(std::nan("")));
    }

    void expressions() {
        QCOMPARE(
            QString::fromStdString(t2n::nnef::printExpr(Expr::array(
                {Expr::tuple({Expr::i(0), Expr::i(1)}), Expr::tuple({Expr::i(2), Expr::i(3)})}))),
            "[(0, 1), (2, 3)]");
        QCOMPARE(QString::fromStdString(t2n::nnef::printExpr(
                     Expr::array({Expr::array({Expr::f(1), Expr::f(-0.5)}), Expr::array({})}))),
                 "[[1.0, -0.5], []]");
        QCOMPARE(QString::fromStdString(t2n::nnef::printExpr(Expr::str("features.0.weight"))),
                 "'features.0.weight'");
        QCOMPARE(QString::fromStdString(t2n::nnef::printExpr(Expr::b(true))), "true");
        QCOMPARE(QString::fromStdString(t2n::nnef::printExpr(Expr::id("x"))), "x");
    }

    // Sizes computed from tract symbols: parentheses exactly where NNEF's
    // left-associative precedence (* / over + -) would regroup the operands;
    // integer division is not associative with a product (S * (T / 2)).
    /// Issue 42: a label is a module path, and a Sequential key can be any
    /// text: "it's" ended the string (the check failed with a parse error),
    /// "a{{b}}" was a template tag to tract (exit 10). Every string reads
    /// back as written, through t2n's reader, and holds no template tag.
    void stringsReadBack_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("quote") << "it's.weight";
        QTest::newRow("double quote") << "say\"hi\".weight";
        QTest::newRow("backslash") << "back\\slash\\";
        QTest::newRow("template") << "a{{b}}.{%c%}.{#d#}.{{{";
        QTest::newRow("markup") << "<script>alert(1)</script>.weight";
        QTest::newRow("newline") << "line\nbreak";
    }
    void stringsReadBack() {
        QFETCH(QString, text);
        const std::string label = text.toStdString();
        t2n::nnef::Document doc;
        doc.outputs = {"w"};
        doc.body.push_back({"variable",
                            "scalar",
                            {},
                            {{"shape", Expr::ints({1})}, {"label", Expr::str(label)}},
                            {"w"},
                            false,
                            -1});
        const std::string printed = t2n::nnef::print(doc);
        for (const char* tag : {"{{", "{%", "{#"})
            QVERIFY2(printed.find(tag) == std::string::npos, printed.c_str());
        const auto parsed =
            t2n::nnef::parseDocument(printed, "graph.nnef", t2n::nnef::ReadMode::Tract);
        QCOMPARE(parsed.graph.body.size(), size_t(1));
        const auto* read =
            t2n::nnef::ast::invocationArgument(*parsed.graph.body[0].rhs, "label", 1);
        QVERIFY(read != nullptr);
        QCOMPARE(QString::fromStdString(read->text), text);
    }

    void sizeExpressions() {
        auto S = Expr::id("S");
        auto T = Expr::id("T");
        auto bin = [](const char* op, Expr a, Expr b) { return Expr::binary(op, a, b); };
        auto print = [](const Expr& e) { return QString::fromStdString(t2n::nnef::printExpr(e)); };
        QCOMPARE(print(bin("*", S, Expr::i(2))), "S * 2");
        QCOMPARE(print(bin("+", bin("*", S, Expr::i(2)), Expr::i(1))), "S * 2 + 1");
        QCOMPARE(print(bin("*", bin("+", S, Expr::i(1)), Expr::i(2))), "(S + 1) * 2");
        QCOMPARE(print(bin("-", S, bin("-", T, Expr::i(1)))), "S - (T - 1)");
        QCOMPARE(print(bin("-", bin("-", S, T), Expr::i(1))), "S - T - 1");
        QCOMPARE(print(bin("-", S, bin("+", T, Expr::i(1)))), "S - (T + 1)");
        QCOMPARE(print(bin("+", S, bin("-", T, Expr::i(1)))), "S + T - 1");
        QCOMPARE(print(bin("*", S, bin("/", T, Expr::i(2)))), "S * (T / 2)");
        QCOMPARE(print(bin("/", bin("*", S, Expr::i(3)), Expr::i(2))), "S * 3 / 2");
        QCOMPARE(print(bin("/", S, bin("*", T, Expr::i(2)))), "S / (T * 2)");
        QCOMPARE(print(Expr::array({Expr::i(1), bin("-", S, Expr::i(1))})), "[1, S - 1]");
    }

    void document() {
        t2n::nnef::Document doc;
        doc.addExtension("tract_registry tract_core");
        doc.addExtension("tract_symbol B");
        doc.addExtension("tract_registry tract_core"); // deduplicated
        doc.properties = {{"tract_target_version", "0.21.13"}, {"t2n_version", "0.1.0"}};
        doc.inputs = {"input"};
        doc.outputs = {"output", "indices"};
        doc.body.push_back({"external",
                            "scalar",
                            {},
                            {{"shape", Expr::array({Expr::id("B"), Expr::i(3)})}},
                            {"input"},
                            false,
                            -1});
        doc.body.push_back({"max_reduce",
                            "",
                            {Expr::id("input")},
                            {{"axes", Expr::ints({1})}},
                            {"output"},
                            false,
                            0});
        doc.body.push_back({"argmax_reduce",
                            "",
                            {Expr::id("input")},
                            {{"axes", Expr::ints({1})}},
                            {"indices"},
                            false,
                            1});
        const char* expected = R"(version 1.0;

extension tract_registry tract_core;
extension tract_symbol B;

fragment tract_core_properties(
) -> (properties: (string, tensor<scalar>)[])
{
  properties = [
    ("tract_target_version", "0.21.13"),
    ("t2n_version", "0.1.0")
  ];
}

graph network(input) -> (output, indices)
{
  input = external<scalar>(shape = [B, 3]);
  output = max_reduce(input, axes = [1]);
  indices = argmax_reduce(input, axes = [1]);
}
)";
        QCOMPARE(QString::fromStdString(t2n::nnef::print(doc)), QString(expected));
    }

    void multipleResults() {
        t2n::nnef::Document doc;
        doc.inputs = {"x"};
        doc.outputs = {"a", "b"};
        doc.body.push_back(
            {"tract_core_topk", "", {Expr::id("x")}, {{"k", Expr::i(2)}}, {"a", "b"}, false, 0});
        QVERIFY(QString::fromStdString(t2n::nnef::print(doc))
                    .contains("  (a, b) = tract_core_topk(x, k = 2);\n"));
    }

    void tractRules_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("complaint"); // empty: accepted
        QTest::newRow("fine") << "relu"
                              << "a.weight"
                              << ""
                              << "";
        QTest::newRow("rcp") << "rcp"
                             << "w"
                             << ""
                             << "'rcp'";
        QTest::newRow("split") << "split"
                               << "w"
                               << ""
                               << "'split'";
        QTest::newRow("constant") << "constant"
                                  << "w"
                                  << ""
                                  << "'constant'";
        QTest::newRow("liquid braces") << "relu"
                                       << "w"
                                       << "{{ x }}"
                                       << "'{{'";
        QTest::newRow("liquid tag") << "relu"
                                    << "w"
                                    << "{% if %}"
                                    << "'{%'";
        QTest::newRow("liquid comment") << "relu"
                                        << "w"
                                        << "{# c #}"
                                        << "'{#'";
        QTest::newRow("dot label") << "relu"
                                   << "sub/.hidden"
                                   << ""
                                   << "dot-prefixed";
    }
    void tractRules() {
        QFETCH(QString, op);
        QFETCH(QString, label);
        QFETCH(QString, text);
        QFETCH(QString, complaint);
        t2n::nnef::Document doc;
        doc.inputs = {"x"};
        doc.outputs = {"y"};
        doc.body.push_back({op.toStdString(), "", {Expr::id("x")}, {}, {"y"}, false, 0});
        doc.variables.push_back({"w", label.toStdString(), {}, "parameter", ""});
        t2n::target::TractTarget target(t2n::TargetSpec{});
        try {
            target.checkDocument(doc, t2n::nnef::print(doc) + text.toStdString(), false);
            QVERIFY2(complaint.isEmpty(), "a document breaking a tract rule was accepted");
        } catch (const t2n::Error& e) {
            QVERIFY2(!complaint.isEmpty(), e.what());
            QVERIFY2(QString::fromStdString(e.message()).contains(complaint), e.what());
        }
    }

    void outputMayNotBeInput() {
        t2n::nnef::Document doc;
        doc.inputs = {"x"};
        doc.outputs = {"x"};
        t2n::target::TractTarget target(t2n::TargetSpec{});
        QVERIFY_THROWS_EXCEPTION(t2n::Error,
                                 target.checkDocument(doc, t2n::nnef::print(doc), false));
        target.checkDocument(doc, t2n::nnef::print(doc), true); // --allow-same-io-names
    }

    void propertyValues() {
        using t2n::target::sanitizePropertyValue;
        QCOMPARE(QString::fromStdString(sanitizePropertyValue("a\nb\"c\\d'e")),
                 QString("a b\\\"c\\\\d\\'e"));
        // Printed in the properties fragment and read back as tract reads
        // strings (the character after a backslash taken literally).
        t2n::nnef::Document doc;
        doc.inputs = {"x"};
        doc.outputs = {"y"};
        doc.properties = {{"note", sanitizePropertyValue("a \"quoted\" 'value' \\")}};
        const auto parsed = t2n::nnef::parseDocument(t2n::nnef::print(doc), "graph.nnef",
                                                     t2n::nnef::ReadMode::Tract);
        std::string readBack;
        for (const auto& f : parsed.fragments)
            for (const auto& a : f.body)
                if (f.name == "tract_core_properties" && a.rhs)
                    for (const auto& item : a.rhs->items)
                        readBack = item->items.at(1)->text;
        QCOMPARE(QString::fromStdString(readBack), QString("a \"quoted\" 'value' \\"));
        std::string s = sanitizePropertyValue("x {{ y }} {% z %} {# w #}");
        QVERIFY(s.find("{{") == std::string::npos);
        QVERIFY(s.find("{%") == std::string::npos);
        QVERIFY(s.find("{#") == std::string::npos);
    }
};

T2N_TEST_SUITE(NnefPrinterTest)
#include "tst_nnef_printer.moc"
