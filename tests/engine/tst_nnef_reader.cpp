// t2n's independent NNEF reader: the grammar (checked against the expected
// AST), malformed text (each error with its line:column and what was
// expected), .dat headers, hostile archives, and real artifacts written by
// the t2n command line, whose tensors are compared with the independent
// python reader (tests/tools/verify_nnef_archive.py).
#include "nnef_reader_support.h"
#include "reader/archive_reader.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/graph_text.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>

using t2n::DType;
using t2n::nnef::ReadMode;
using namespace t2n::test::nnef;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::byte>;

ast::Document parse(const QString& text, ReadMode mode = ReadMode::Tract) {
    const std::string utf8 = text.toStdString();
    return t2n::nnef::parseDocument(utf8, "graph.nnef", mode);
}

/// The right-hand side of `y = <rhs>;` in a one-assignment graph.
QString rhs(const QString& expr, ReadMode mode = ReadMode::Tract) {
    const auto doc = parse("version 1.0;\ngraph g(a) -> (y)\n{\n  y = " + expr + ";\n}\n", mode);
    return sexpr(doc.graph.body.at(0).rhs);
}

/// The message of the t2n::Error `f` throws ("" when it throws nothing); a
/// crash or another exception type fails the test.
QString errorOf(const std::function<void()>& f, t2n::ErrorCode code = t2n::ErrorCode::ModelFile) {
    try {
        f();
    } catch (const t2n::Error& e) {
        if (e.stage() != t2n::Stage::Check || e.code() != code)
            return "WRONG STAGE OR CODE: " + QString::fromStdString(e.message());
        return QString::fromStdString(e.message());
    }
    return {};
}

// ---- .dat files built by hand, field by field (the test's own writer).
struct DatHeader {
    uint8_t magic0 = 0x4E, magic1 = 0xEF, major = 1, minor = 0;
    uint32_t length = 0, rank = 0;
    uint32_t extents[8] = {};
    uint32_t bits = 32, itemType = 0;
};

Bytes datFile(const DatHeader& h, const Bytes& data) {
    Bytes out(128 + data.size(), std::byte{0});
    std::copy(data.begin(), data.end(), out.begin() + 128);
    auto put = [&](std::size_t at, uint32_t v) { std::memcpy(out.data() + at, &v, 4); };
    out[0] = std::byte{h.magic0};
    out[1] = std::byte{h.magic1};
    out[2] = std::byte{h.major};
    out[3] = std::byte{h.minor};
    put(4, h.length);
    put(8, h.rank);
    for (int i = 0; i < 8; ++i)
        put(12 + 4 * static_cast<std::size_t>(i), h.extents[i]);
    put(44, h.bits);
    put(48, h.itemType);
    return out;
}

/// A valid f32 [2, 3] file: the base the error rows mutate.
DatHeader f32x2x3() {
    DatHeader h;
    h.length = 24;
    h.rank = 2;
    h.extents[0] = 2;
    h.extents[1] = 3;
    return h;
}

Bytes zeros(std::size_t n) {
    return Bytes(n, std::byte{0});
}

const char* kPropertiesGraph = "version 1.0;\n"
                               "\n"
                               "extension tract_registry tract_core;\n"
                               "extension tract_symbol B;\n"
                               "extension tract_assert B >= 1;\n"
                               "\n"
                               "fragment tract_core_properties(\n"
                               ") -> (properties: (string, tensor<scalar>)[])\n"
                               "{\n"
                               "  properties = [\n"
                               "    (\"tract_target_version\", \"0.23.5\"),\n"
                               "    (\"t2n_version\", \"0.1.0\"),\n"
                               "    (\"k\", \"v'q\")\n"
                               "  ];\n"
                               "}\n"
                               "\n"
                               "graph network(x) -> (output_0)\n"
                               "{\n"
                               "  x = external<scalar>(shape = [B, 3, 4]);\n"
                               "  output_0 = reshape(x, shape = [0, 12]);\n"
                               "}\n";

} // namespace

class NnefReaderTest : public QObject {
    Q_OBJECT

    fs::path work_;
    fs::path r18Folder_, r18Tar_, r18Tgz_;
    QString exportError_;

private Q_SLOTS:
    void initTestCase() {
        work_ = t2n::test::freshDir("nnef_reader");
        r18Folder_ = work_ / "r18.nnef";
        r18Tar_ = work_ / "r18.nnef.tar";
        r18Tgz_ = work_ / "r18.nnef.tgz";
        for (const auto& [path, compression] :
             {std::pair{r18Folder_, "none"}, std::pair{r18Tar_, "0"}, std::pair{r18Tgz_, "6"}}) {
            exportError_ = exportFixture("tv_resnet18", path, compression);
            if (!exportError_.isEmpty())
                break;
        }
    }

    // ------------------------------------------------------------ grammar

    void headerAndGraph() {
        const auto doc = parse(kPropertiesGraph);
        QCOMPARE(QString::fromStdString(doc.version), QString("1.0"));
        QCOMPARE(doc.extensions.size(), std::size_t{3});
        QCOMPARE(QString::fromStdString(doc.extensions[0].text),
                 QString("tract_registry tract_core"));
        QCOMPARE(QString::fromStdString(doc.extensions[2].text), QString("tract_assert B >= 1"));
        QCOMPARE(doc.extensions[2].loc.line, 5);
        QCOMPARE(doc.extensions[2].loc.column, 11);
        QCOMPARE(QString::fromStdString(doc.graph.name), QString("network"));
        QCOMPARE(doc.graph.inputs, std::vector<std::string>{"x"});
        QCOMPARE(doc.graph.outputs, std::vector<std::string>{"output_0"});
        QCOMPARE(doc.graph.loc.line, 17);
        QCOMPARE(bodyText(doc.graph.body),
                 QStringList({"x = (call external<scalar> shape=[B i:3 i:4])",
                              "output_0 = (call reshape x shape=[i:0 i:12])"}));
        QCOMPARE(doc.graph.body[1].loc.line, 20);
        QCOMPARE(doc.graph.body[1].loc.column, 3);
        QCOMPARE(doc.graph.body[1].rhs->loc.column, 14);
    }

    void tractPropertiesFragment() {
        // Exactly as t2n writes it: an empty parameter list on its own line.
        const auto doc = parse(kPropertiesGraph);
        QCOMPARE(doc.fragments.size(), std::size_t{1});
        const auto& f = doc.fragments[0];
        QCOMPARE(QString::fromStdString(f.name), QString("tract_core_properties"));
        QVERIFY(f.params.empty());
        QVERIFY(f.hasBody);
        QVERIFY(!f.generic);
        QCOMPARE(f.results.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(f.results[0].name), QString("properties"));
        QCOMPARE(typeText(f.results[0].type), QString("(string, tensor<scalar>)[]"));
        QCOMPARE(bodyText(f.body),
                 QStringList({"properties = [(tuple 'tract_target_version' '0.23.5') (tuple "
                              "'t2n_version' '0.1.0') (tuple 'k' 'v'q')]"}));
    }

    void strictExtensionList() {
        const auto doc = parse("version 1.0;\nextension KHR_enable_fragment_definitions, "
                               "KHR_enable_operator_expressions;\ngraph g(x) -> (y)\n{\n  x = "
                               "external(shape = [1]);\n  y = add(x, 1.0 * 2.0);\n}\n",
                               ReadMode::Strict);
        QCOMPARE(doc.extensions.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(doc.extensions[1].text),
                 QString("KHR_enable_operator_expressions"));
        QCOMPARE(doc.extensions[1].loc.column, 44);
        QCOMPARE(sexpr(doc.graph.body[1].rhs), QString("(call add x (* f:1 f:2))"));
    }

    void fragmentsWithDefaultsAndGenerics() {
        const auto doc =
            parse("version 1.0;\n"
                  "extension KHR_enable_fragment_definitions, KHR_enable_operator_expressions;\n"
                  "fragment f<? = scalar>(\n"
                  "    input: tensor<?>,\n"
                  "    size: integer[] = [1, 2],\n"
                  "    border: string = 'constant',\n"
                  "    alpha: scalar = -2.5e-3,\n"
                  "    flag: logical = true,\n"
                  "    pads: (integer, integer)[] = [(0, 0), (1, -1)] )\n"
                  "-> ( output: tensor<?>, extra: tensor<> );\n"
                  "fragment g<?>( x: tensor<?> ) -> ( y: tensor<?> )\n"
                  "{\n"
                  "    y = x;\n"
                  "}\n"
                  "fragment h( a: tensor<scalar>, b: integer[][] ) -> ( c: tensor<scalar>, d: "
                  "tensor<scalar> )\n"
                  "{\n"
                  "    c = add(a, 1.0);\n"
                  "    d = c * 2.0;\n"
                  "}\n"
                  "graph G(x) -> (y) { x = external(shape = [1]); y = h(x, b = [[1]]); }\n",
                  ReadMode::Strict);
        QCOMPARE(doc.fragments.size(), std::size_t{3});
        const auto& f = doc.fragments[0];
        QVERIFY(f.generic);
        QCOMPARE(QString::fromStdString(f.genericDefault), QString("scalar"));
        QVERIFY(!f.hasBody);
        QCOMPARE(f.params.size(), std::size_t{6});
        QStringList params;
        for (const auto& p : f.params)
            params << QString::fromStdString(p.name) + ": " + typeText(p.type) + " = " +
                          sexpr(p.defaultValue);
        QCOMPARE(params, QStringList({"input: tensor<?> = _", "size: integer[] = [i:1 i:2]",
                                      "border: string = 'constant'", "alpha: scalar = f:-0.0025",
                                      "flag: logical = true",
                                      "pads: (integer, integer)[] = [(tuple i:0 i:0) (tuple i:1 "
                                      "i:-1)]"}));
        QCOMPARE(typeText(f.results[1].type), QString("tensor<>"));
        QCOMPARE(f.loc.line, 3);
        const auto& g = doc.fragments[1];
        QVERIFY(g.generic);
        QVERIFY(g.genericDefault.empty());
        QCOMPARE(bodyText(g.body), QStringList({"y = x"}));
        const auto& h = doc.fragments[2];
        QVERIFY(!h.generic);
        QCOMPARE(typeText(h.params[1].type), QString("integer[][]"));
        QCOMPARE(bodyText(h.body), QStringList({"c = (call add a f:1)", "d = (* c f:2)"}));
        QCOMPARE(sexpr(doc.graph.body[1].rhs), QString("(call h x b=[[i:1]])"));
    }

    void commentsEverywhere() {
        const QString plain = "version 1.0;\nextension tract_registry tract_core;\n"
                              "graph g(x) -> (y)\n{\n  x = external<scalar>(shape = [1, 2]);\n"
                              "  y = add(x, [-1.5, 2]);\n}\n";
        const QString commented =
            "# leading comment\nversion # after version\n 1.0 # number\n;# semicolon\n"
            "extension tract_registry tract_core; # after an extension line\n"
            "# between header and graph\ngraph # g\n g ( # in\n x # name\n) -> ( y ) # outputs\n"
            "{ # open\n  x = external # op\n < scalar > ( shape # arg\n = [ 1 , # item\n 2 ] ) ;\n"
            "  # a line of comment only\n  y = add ( x , [ -1.5 # inside an array\n , 2 ] ) ; "
            "\n} # trailing comment without a newline at the end";
        const auto a = parse(plain);
        const auto b = parse(commented);
        QCOMPARE(bodyText(b.graph.body), bodyText(a.graph.body));
        QCOMPARE(bodyText(b.graph.body), QStringList({"x = (call external<scalar> shape=[i:1 i:2])",
                                                      "y = (call add x [f:-1.5 i:2])"}));
        QCOMPARE(b.extensions.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(b.extensions[0].text),
                 QString("tract_registry tract_core"));
        QCOMPARE(QString::fromStdString(b.version), QString("1.0"));
        // A '#' inside a string is text, not a comment.
        QCOMPARE(rhs("f(label = 'a#b')"), QString("(call f label='a#b')"));
    }

    void stringEscapesAndQuotes_data() {
        QTest::addColumn<QString>("literal");
        QTest::addColumn<QString>("value");
        QTest::newRow("single") << "'abc'"
                                << "abc";
        QTest::newRow("double") << "\"abc\""
                                << "abc";
        QTest::newRow("double inside single") << "'say \"hi\"'"
                                              << "say \"hi\"";
        QTest::newRow("single inside double") << "\"it's\""
                                              << "it's";
        QTest::newRow("escaped single") << "'it\\'s'"
                                        << "it's";
        QTest::newRow("escaped double") << "\"a \\\"b\\\"\""
                                        << "a \"b\"";
        QTest::newRow("escaped backslash") << "'a\\\\b'"
                                           << "a\\b";
        QTest::newRow("empty") << "''"
                               << "";
        QTest::newRow("utf-8") << "'caf\xc3\xa9'" << QString::fromUtf8("caf\xc3\xa9");
    }
    void stringEscapesAndQuotes() {
        QFETCH(QString, literal);
        QFETCH(QString, value);
        const auto doc =
            parse("version 1.0;\ngraph g(a) -> (y)\n{\n  y = f(" + literal + ");\n}\n");
        const auto& arg = doc.graph.body.at(0).rhs->args.at(0).second;
        QCOMPARE(int(arg->kind), int(ast::Expr::Kind::String));
        QCOMPARE(QString::fromStdString(arg->text), value);
    }

    void numbers_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("ast");
        QTest::newRow("integer") << "f(0)"
                                 << "(call f i:0)";
        QTest::newRow("negative integer") << "f(-7)"
                                          << "(call f i:-7)";
        QTest::newRow("big integer") << "f(12345678901234)"
                                     << "(call f i:12345678901234)";
        QTest::newRow("1e-5") << "f(1e-5)"
                              << "(call f f:1e-05)";
        QTest::newRow("1.0E+3") << "f(1.0E+3)"
                                << "(call f f:1000)";
        QTest::newRow("-2.5e-3") << "f(-2.5e-3)"
                                 << "(call f f:-0.0025)";
        QTest::newRow("trailing dot") << "f(3.)"
                                      << "(call f f:3)";
        QTest::newRow("1e5 is scalar") << "f(1e5)"
                                       << "(call f f:100000)";
        QTest::newRow("array of signed") << "[-1, +1, - 1]"
                                         << "[i:-1 (u+ i:1) (u- i:1)]";
        QTest::newRow("binary minus") << "a -1"
                                      << "(- a i:1)";
        QTest::newRow("binary minus spaced") << "a - 1"
                                             << "(- a i:1)";
        QTest::newRow("minus identifier") << "-a"
                                          << "(u- a)";
        QTest::newRow("double negation") << "--1"
                                         << "(u- i:-1)";
    }
    void numbers() {
        QFETCH(QString, expr);
        QFETCH(QString, ast);
        QCOMPARE(rhs(expr), ast);
    }

    void precedence_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("ast");
        QTest::newRow("a + b * c ^ d") << "a + b * c ^ d"
                                       << "(+ a (* b (^ c d)))";
        QTest::newRow("left minus") << "a - b - c"
                                    << "(- (- a b) c)";
        QTest::newRow("left divide") << "a / b * c"
                                     << "(* (/ a b) c)";
        QTest::newRow("left power") << "a ^ b ^ c"
                                    << "(^ (^ a b) c)";
        QTest::newRow("unary binds tightest") << "-a ^ b"
                                              << "(^ (u- a) b)";
        QTest::newRow("not") << "!a && b"
                             << "(&& (u! a) b)";
        QTest::newRow("parens") << "(a + b) * c"
                                << "(* (+ a b) c)";
        QTest::newRow("parens right") << "a * (b + c)"
                                      << "(* a (+ b c))";
        QTest::newRow("comparison over sum") << "a == b + 1"
                                             << "(== a (+ b i:1))";
        QTest::newRow("and over or") << "a || b && c"
                                     << "(|| a (&& b c))";
        QTest::newRow("or of and") << "a < b && c || d"
                                   << "(|| (&& (< a b) c) d)";
        QTest::newRow("in over and") << "x in xs && y"
                                     << "(&& (in x xs) y)";
        QTest::newRow("comparison over in") << "a < b in c"
                                            << "(in (< a b) c)";
        QTest::newRow("all comparisons") << "a <= b != c >= d"
                                         << "(>= (!= (<= a b) c) d)";
        QTest::newRow("if else") << "1 + 2 if c else 3"
                                 << "(if c (+ i:1 i:2) i:3)";
        QTest::newRow("nested if else") << "a if b else c if d else e"
                                        << "(if b a (if d c e))";
        QTest::newRow("condition with or") << "a if b || c else d"
                                           << "(if (|| b c) a d)";
        QTest::newRow("index and slice") << "a[1] + b[2:3]"
                                         << "(+ (index a i:1) (slice b i:2 i:3))";
        QTest::newRow("slice open begin") << "x[:j]"
                                          << "(slice x _ j)";
        QTest::newRow("slice open end") << "x[i:]"
                                        << "(slice x i _)";
        QTest::newRow("slice all") << "x[:]"
                                   << "(slice x _ _)";
        QTest::newRow("chained index") << "x[0][1:2]"
                                       << "(slice (index x i:0) i:1 i:2)";
        QTest::newRow("index of call") << "f(a)[0]"
                                       << "(index (call f a) i:0)";
        QTest::newRow("unary on index") << "-x[0]"
                                        << "(u- (index x i:0))";
    }
    void precedence() {
        QFETCH(QString, expr);
        QFETCH(QString, ast);
        QCOMPARE(rhs(expr), ast);
    }

    void comprehensionsAndBuiltins_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("ast");
        QTest::newRow("two iterators and a filter")
            << "[for i in range_of(a), j in b if i > 0 && j < 3 yield i * j]"
            << "(for (i (range_of a)) (j b) if (&& (> i i:0) (< j i:3)) yield (* i j))";
        QTest::newRow("no filter") << "[for x in xs yield x + 1]"
                                   << "(for (x xs) yield (+ x i:1))";
        QTest::newRow("yield if else") << "[for x in xs yield 0 if x < 0 else x]"
                                       << "(for (x xs) yield (if (< x i:0) i:0 x))";
        QTest::newRow("iterable is a slice") << "[for x in xs[1:] yield x]"
                                             << "(for (x (slice xs i:1 _)) yield x)";
        QTest::newRow("length_of") << "length_of(a)"
                                   << "(length_of a)";
        QTest::newRow("shape_of (tract)") << "shape_of(a)[0]"
                                          << "(index (shape_of a) i:0)";
        QTest::newRow("casts") << "[integer(x), scalar(1), logical(0), string(3)]"
                               << "[(integer x) (scalar i:1) (logical i:0) (string i:3)]";
        QTest::newRow("empty array") << "[]"
                                     << "[]";
    }
    void comprehensionsAndBuiltins() {
        QFETCH(QString, expr);
        QFETCH(QString, ast);
        QCOMPARE(rhs(expr), ast);
    }

    void invocationsTuplesAndArrays_data() {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("ast");
        QTest::newRow("generic external") << "x = external<scalar>(shape = [1, 3]);"
                                          << "x = (call external<scalar> shape=[i:1 i:3])";
        QTest::newRow("generic select") << "y = select<integer>(c, a, b);"
                                        << "y = (call select<integer> c a b)";
        QTest::newRow("nested invocation") << "y = add(mul(a, 2.0), b);"
                                           << "y = (call add (call mul a f:2) b)";
        QTest::newRow("named after positional")
            << "y = conv(x, w, 0.0, padding = [(1, 1), (0, 2)], groups = 1);"
            << "y = (call conv x w f:0 padding=[(tuple i:1 i:1) (tuple i:0 i:2)] groups=i:1)";
        QTest::newRow("comparison argument") << "y = f(a < b, c);"
                                             << "y = (call f (< a b) c)";
        QTest::newRow("nested tuples") << "y = [(1, 2), (3, (4, 5))];"
                                       << "y = [(tuple i:1 i:2) (tuple i:3 (tuple i:4 i:5))]";
        QTest::newRow("nested arrays") << "y = ([], [[1], [2, 3]]);"
                                       << "y = (tuple [] [[i:1] [i:2 i:3]])";
        QTest::newRow("tuple lhs") << "(a, b) = split(x, axis = 0, ratios = [1, 1]);"
                                   << "(tuple a b) = (call split x axis=i:0 ratios=[i:1 i:1])";
        QTest::newRow("array lhs") << "[a, b] = unstack(x, axis = 1);"
                                   << "[a b] = (call unstack x axis=i:1)";
        QTest::newRow("bare tuple lhs") << "a, b = f(x);"
                                        << "(tuple a b) = (call f x)";
        QTest::newRow("nested lhs") << "[(a, b), c] = f(x);"
                                    << "[(tuple a b) c] = (call f x)";
        QTest::newRow("bare tuple rhs") << "a, b = b, a;"
                                        << "(tuple a b) = (tuple b a)";
        QTest::newRow("parenthesised value") << "y = (a);"
                                             << "y = a";
        QTest::newRow("logicals") << "y = f(true, false);"
                                  << "y = (call f true false)";
    }
    void invocationsTuplesAndArrays() {
        QFETCH(QString, assignment);
        QFETCH(QString, ast);
        const auto doc = parse("version 1.0;\ngraph g(a) -> (y)\n{\n  " + assignment + "\n}\n");
        QCOMPARE(bodyText(doc.graph.body), QStringList({ast}));
    }

    void tractAcceptsKeywordsAsNames() {
        // tract's parser takes any word as an identifier; strict NNEF does not.
        const QString text = "version 1.0;\ngraph g(tensor) -> (scalar)\n{\n  tensor = "
                             "external(shape = [1]);\n  scalar = add(tensor, fragment);\n}\n";
        const auto doc = parse(text);
        QCOMPARE(bodyText(doc.graph.body), QStringList({"tensor = (call external shape=[i:1])",
                                                        "scalar = (call add tensor fragment)"}));
        QVERIFY(!errorOf([&] { parse(text, ReadMode::Strict); }).isEmpty());
    }

    void extendedIdentifiersInTractMode() {
        QCOMPARE(rhs("f(i\"a.b c\")"), QString("(call f a.b c)"));
    }

    void crlfLineEnds() {
        const auto doc = parse("version 1.0;\r\ngraph g(x) -> (y)\r\n{\r\n  x = external(shape = "
                               "[1]);\r\n  y = relu(x);\r\n}\r\n");
        QCOMPARE(doc.graph.body.at(1).loc.line, 5);
        QCOMPARE(doc.graph.body.at(1).loc.column, 3);
    }

    // ------------------------------------------------------------ malformed text

    void malformed_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("expect");
        const QString head = "version 1.0;\ngraph g(x) -> (y)\n{\n  x = external(shape = [1]);\n";
        auto row = [&](const char* name, const QString& line5, bool strict, const char* where,
                       const char* expect) {
            QTest::newRow(name) << head + line5 + "\n}\n" << strict << where << expect;
        };
        row("missing semicolon", "  y = relu(x)", false, "5:14",
            "expected ';' after the assignment, found '}' (at 6:1)");
        row("unbalanced bracket", "  y = add(x, [1, 2);", false, "5:19",
            "expected ']' to close the array, found ')'");
        row("unbalanced parenthesis", "  y = add(x, 1;", false, "5:15",
            "expected ')' to close the arguments of 'add', found ';'");
        row("extra parenthesis", "  y = relu(x));", false, "5:14",
            "expected ';' after the assignment, found ')'");
        row("malformed number", "  y = mul(x, 1.2.3);", false, "5:14", "malformed number '1.2.3'");
        row("exponent without digits", "  y = mul(x, 1e);", false, "5:16",
            "malformed number '1e': expected digits after the exponent");
        row("signed exponent without digits", "  y = mul(x, 1e+);", false, "5:17",
            "expected digits after the exponent");
        row("integer overflow", "  y = mul(x, 99999999999999999999);", false, "5:14",
            "integer '99999999999999999999' does not fit in 64 bits");
        row("scalar overflow", "  y = mul(x, 1e999);", false, "5:14",
            "number '1e999' is out of the range of a 64-bit float");
        row("letters in a number", "  y = mul(x, 12abc);", false, "5:14",
            "malformed number '12abc'");
        row("unterminated string", "  y = variable(shape = [1], label = 'abc);", false, "5:37",
            "unterminated string: expected a closing ' before the end of the file");
        row("keyword on the left (strict)", "  for = relu(x);", true, "5:3",
            "'for' is a keyword and cannot be used as an identifier");
        row("keyword as a value", "  y = add(in, x);", false, "5:11",
            "expected an expression, found keyword 'in'");
        row("too deep nesting", "  y = " + QString(200, '[') + "1" + QString(200, ']') + ";", false,
            "5:135", "nesting deeper than 128 levels");
        row("too many unary signs", "  y = " + QString(300, '!') + "a;", false, "5:134",
            "nesting deeper than 128 levels");
        row("unexpected character", "  y = relu(x) @ 2;", false, "5:15",
            "unexpected character '@'");
        row("control byte", QString("  y = relu(x)") + QChar(1) + ";", false, "5:14",
            "unexpected character byte 0x01");
        row("tract operation (strict)", "  y = tract_core_erf(x);", true, "5:7",
            "'tract_core_erf' is a tract operation; strict NNEF has no tract_* operations");
        row("operator expression (strict)", "  y = add(x, 1.0 + 2.0);", true, "5:14",
            "operator expressions (operators, nested invocations, if/else, comprehensions, "
            "indexing, builtins) need 'extension KHR_enable_operator_expressions;'");
        row("not an invocation (strict)", "  y = x;", true, "5:7",
            "the right-hand side must be one operation invocation unless 'extension "
            "KHR_enable_operator_expressions;' is declared");
        row("extended identifier (strict)", "  y = relu(i\"x\");", true, "5:12",
            "identifiers written as i\"...\" are a tract extension");
        row("no arguments (strict)", "  y = relu();", true, "5:12",
            "'relu' needs at least one argument");
        row("positional after named (strict)", "  y = add(x = x, 1.0);", true, "5:18",
            "positional argument after named arguments in 'add'");
        row("argument given twice", "  y = conv(x, w, stride = [1], stride = [2]);", false, "5:32",
            "argument 'stride' of 'conv' is given twice");
        row("if without else", "  y = a if b;", false, "5:13",
            "expected 'else' after the condition of 'x if c else y', found ';'");
        row("comprehension without yield", "  y = [for i in x i];", false, "5:19",
            "expected 'yield' in the comprehension [for ... yield ...], found identifier 'i'");
        row("index not closed", "  y = x[1;", false, "5:10",
            "expected ']' to close the index a[i], found ';'");
        row("empty tuple", "  y = ();", false, "5:8", "expected an expression, found ')'");
        row("missing right-hand side", "  y = ;", false, "5:7",
            "expected an expression, found ';'");
        row("lhs is a call", "  f(x) = y;", false, "5:4",
            "expected '=' after the left-hand side of the assignment, found '('");

        auto doc = [&](const char* name, const QString& text, bool strict, const char* where,
                       const char* expect) {
            QTest::newRow(name) << text << strict << where << expect;
        };
        doc("missing closing brace", head + "  y = relu(x);\n", false, "6:1",
            "expected '}' to close the body of the graph, found end of file");
        doc("text after the graph", head + "  y = relu(x);\n}\nfoo", false, "7:1",
            "expected end of file after the graph body, found identifier 'foo'");
        doc("missing version", "graph g(x) -> (y)\n{\n}\n", false, "1:1",
            "expected 'version' at the start of the document, found keyword 'graph'");
        doc("three-part version", "version 1.0.5;\n", false, "1:9", "malformed number '1.0.5'");
        doc("keyword as output (strict)", "version 1.0;\ngraph g(x) -> (tensor)\n{\n}\n", true,
            "2:16", "'tensor' is a keyword and cannot be used as an identifier");
        doc("extension without semicolon",
            "version 1.0;\nextension tract_registry tract_core\n"
            "graph g(x) -> (y)\n{\n}\n",
            false, "2:36", "expected ';' at the end of the extension line");
        doc("empty extension", "version 1.0;\nextension ;\n", false, "2:1",
            "expected an extension name after 'extension'");
        doc("non-KHR extension (strict)", "version 1.0;\nextension tract_registry tract_core;\n",
            true, "2:11",
            "extension 'tract_registry' is not a Khronos extension; strict NNEF accepts only "
            "KHR_* extensions");
        doc("unknown KHR extension (strict)", "version 1.0;\nextension KHR_foo;\n", true, "2:11",
            "unknown Khronos extension 'KHR_foo'");
        doc("fragment without KHR (strict)",
            "version 1.0;\nfragment f(x: tensor<scalar>) -> (y: tensor<scalar>);\n", true, "2:1",
            "fragment definitions need 'extension KHR_enable_fragment_definitions;'");
        doc("shape_of (strict)",
            "version 1.0;\nextension KHR_enable_operator_expressions;\ngraph g(x) -> (y)\n{\n"
            "  x = external(shape = [1]);\n  y = reshape(x, shape = shape_of(x));\n}\n",
            true, "6:26", "shape_of is deprecated since NNEF 1.0.1");
        doc("one-item tuple type",
            "version 1.0;\nfragment f(x: (integer)) -> (y: tensor<scalar>);\n", false, "2:15",
            "a tuple type needs at least two item types");
        doc("bad type", "version 1.0;\nfragment f(x: float) -> (y: tensor<scalar>);\n", false,
            "2:15",
            "expected a type name (integer, scalar, logical, string or ?) as a type, found "
            "identifier 'float'");
        doc("bad generic", "version 1.0;\nfragment f<scalar>(x: tensor<?>) -> (y: tensor<?>);\n",
            false, "2:12", "expected '?' in the generic declaration");
        doc("empty body (strict)", "version 1.0;\ngraph g(x) -> (y)\n{\n}\n", true, "4:1",
            "the body of the graph needs at least one assignment");
        doc("empty file", "", false, "1:1",
            "expected 'version' at the start of the document, found end of file");
        doc("unterminated string at the end", "version 1.0;\ngraph g(x) -> (y)\n{\n  y = f('",
            false, "4:9", "unterminated string");
    }
    void malformed() {
        QFETCH(QString, text);
        QFETCH(bool, strict);
        QFETCH(QString, where);
        QFETCH(QString, expect);
        const QString msg =
            errorOf([&] { parse(text, strict ? ReadMode::Strict : ReadMode::Tract); });
        QVERIFY2(!msg.isEmpty(), "no error");
        QVERIFY2(msg.startsWith("graph.nnef:" + where + ": "), qPrintable(msg));
        QVERIFY2(msg.contains(expect), qPrintable(msg));
    }

    void longChainsAreBounded() {
        // Long but sane chains parse; absurd ones are refused before they could
        // overflow the stack in the AST's destructors.
        QString sum = "a";
        for (int i = 0; i < 2000; ++i)
            sum += " + a";
        QVERIFY(rhs(sum).startsWith("(+ (+ (+"));
        QString huge = "a";
        for (int i = 0; i < 100000; ++i)
            huge += "+a";
        QVERIFY(errorOf([&] { rhs(huge); }).contains("operator or index chain longer than 4096"));
        QString wide = "[";
        for (int i = 0; i < 100000; ++i)
            wide += "1, ";
        wide += "1]";
        QCOMPARE(rhs(wide).count("i:1"), 100001);
    }

    void everyPrefixOfARealGraphFailsCleanly_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("stride");
        QTest::newRow("properties graph (every cut)") << "properties" << 1;
        QTest::newRow("resnet18 graph.nnef (every 7th cut)") << "r18" << 7;
    }
    void everyPrefixOfARealGraphFailsCleanly() {
        QFETCH(QString, name);
        QFETCH(int, stride);
        std::string text = kPropertiesGraph;
        if (name == "r18") {
            if (!exportError_.isEmpty())
                QSKIP(qPrintable(exportError_));
            std::ifstream in(r18Folder_ / "graph.nnef", std::ios::binary);
            text.assign(std::istreambuf_iterator<char>(in), {});
        }
        const std::size_t complete = text.rfind('}') + 1; // the graph body's end
        static const QRegularExpression where("^graph\\.nnef:(\\d+):(\\d+): ");
        int errors = 0;
        for (std::size_t cut = 0; cut <= text.size(); cut += static_cast<std::size_t>(stride)) {
            const std::string_view prefix(text.data(), cut);
            try {
                (void)t2n::nnef::parseDocument(prefix, "graph.nnef", ReadMode::Tract);
                QVERIFY2(cut >= complete, qPrintable(QString("prefix %1 parsed").arg(cut)));
            } catch (const t2n::Error& e) {
                ++errors;
                QVERIFY2(
                    cut < complete,
                    qPrintable(
                        QString("full text refused: %1").arg(QString::fromStdString(e.message()))));
                const auto m = where.match(QString::fromStdString(e.message()));
                QVERIFY2(m.hasMatch(), e.message().c_str());
                const int lines = static_cast<int>(std::count(prefix.begin(), prefix.end(), '\n'));
                QVERIFY2(m.captured(1).toInt() <= lines + 1, e.message().c_str());
                QCOMPARE(e.code(), t2n::ErrorCode::ModelFile);
            }
        }
        QVERIFY(errors > 100);
    }

    // ------------------------------------------------------------ graph.quant

    void quant() {
        const std::string text =
            "# per-tensor and per-channel\n"
            "\"conv1\": zero_point_linear_quantize(zero_point = 0, scale = 0.0039, bits = 8, "
            "signed = false, symmetric = false);\n"
            "'x': linear_quantize(min = -1.0, max = 1.0, bits = 8);\n"
            "\"w\": zero_point_linear_quantize(zero_point = [0, 1], scale = [[0.5], [0.25]],\n"
            "    bits = 8, signed = true, symmetric = true);\n";
        const auto q = t2n::nnef::parseQuant(text, "graph.quant");
        QCOMPARE(q.size(), std::size_t{3});
        QCOMPARE(QString::fromStdString(q[0].tensor), QString("conv1"));
        QCOMPARE(QString::fromStdString(q[0].op), QString("zero_point_linear_quantize"));
        QCOMPARE(q[0].loc.line, 2);
        QCOMPARE(q[1].loc.line, 3);
        QStringList args;
        for (const auto& [name, value] : q[2].args)
            args << QString::fromStdString(name) + "=" + sexpr(value);
        QCOMPARE(args, QStringList({"zero_point=[i:0 i:1]", "scale=[[f:0.5] [f:0.25]]", "bits=i:8",
                                    "signed=true", "symmetric=true"}));
        QCOMPARE(sexpr(q[1].args[0].second), QString("f:-1"));
        QVERIFY(t2n::nnef::parseQuant("  # nothing\n", "graph.quant").empty());
    }

    void quantErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("expect");
        QTest::newRow("missing colon") << "\"a\" linear_quantize(min = 0.0);"
                                       << "1:5"
                                       << "expected ':' after the tensor identifier";
        QTest::newRow("positional value") << "\"a\": linear_quantize(0.0);"
                                          << "1:22"
                                          << "expected a named argument 'name = value'";
        QTest::newRow("duplicate key") << "\"a\": f(x = 1);\n\"a\": f(x = 2);"
                                       << "2:1"
                                       << "duplicate quantization entry for 'a'";
        QTest::newRow("unquoted key") << "a: f(x = 1);"
                                      << "1:1"
                                      << "expected a quoted tensor identifier";
        QTest::newRow("identifier value") << "\"a\": f(x = y);"
                                          << "1:12"
                                          << "expected a literal";
        QTest::newRow("missing semicolon") << "\"a\": f(x = 1)\n\"b\": f(x = 1);"
                                           << "1:14"
                                           << "expected ';' after the quantization entry";
        QTest::newRow("unterminated") << "\"a\": f(x = 1, y = 'abc"
                                      << "1:19"
                                      << "unterminated string";
    }
    void quantErrors() {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, expect);
        const std::string utf8 = text.toStdString();
        const QString msg = errorOf([&] { t2n::nnef::parseQuant(utf8, "graph.quant"); });
        QVERIFY2(msg.startsWith("graph.quant:" + where + ": "), qPrintable(msg));
        QVERIFY2(msg.contains(expect), qPrintable(msg));
    }

    // ------------------------------------------------------------ .dat

    void goldenDatFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<double>>("values");
        QTest::newRow("f16_2x2") << "f16_2x2" << int(DType::F16) << QList<qint64>{2, 2}
                                 << QList<double>{1.0, -2.0, 0.5, 65504.0};
        QTest::newRow("f32_2x3") << "f32_2x3" << int(DType::F32) << QList<qint64>{2, 3}
                                 << QList<double>{1, 2, 3, 4, 5, -1.5};
        QTest::newRow("f64_3") << "f64_3" << int(DType::F64) << QList<qint64>{3}
                               << QList<double>{1.0, -2.0, 0.25};
        QTest::newRow("i8_4") << "i8_4" << int(DType::I8) << QList<qint64>{4}
                              << QList<double>{1, -1, 127, -128};
        QTest::newRow("i16_3") << "i16_3" << int(DType::I16) << QList<qint64>{3}
                               << QList<double>{1, -2, 0x1234};
        QTest::newRow("i32_2") << "i32_2" << int(DType::I32) << QList<qint64>{2}
                               << QList<double>{0x01020304, -1};
        QTest::newRow("i64_2x1") << "i64_2x1" << int(DType::I64) << QList<qint64>{2, 1}
                                 << QList<double>{double(0x0102030405060708LL), -2};
        QTest::newRow("u8_5") << "u8_5" << int(DType::U8) << QList<qint64>{5}
                              << QList<double>{0, 1, 128, 254, 255};
        QTest::newRow("bool_11") << "bool_11" << int(DType::Bool) << QList<qint64>{11}
                                 << QList<double>{1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0};
        QTest::newRow("scalar_f32")
            << "scalar_f32" << int(DType::F32) << QList<qint64>{} << QList<double>{1.0};
        QTest::newRow("rank8_i8") << "rank8_i8" << int(DType::I8)
                                  << QList<qint64>{2, 1, 1, 1, 1, 1, 1, 3}
                                  << QList<double>{1, 2, 3, 4, 5, 6};
        QList<double> u8;
        for (int i = 0; i < 600; ++i)
            u8 << double((i * 7 + 3) & 0xFF);
        QTest::newRow("u8_2x300 (header only: data appended)")
            << "u8_2x300" << int(DType::U8) << QList<qint64>{2, 300} << u8;
    }
    void goldenDatFiles() {
        QFETCH(QString, file);
        QFETCH(int, dtype);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<double>, values);
        Bytes bytes = t2n::test::readHex(t2n::test::sourceDir() / "tests/golden/dat" /
                                         (file.toStdString() + ".hex"));
        QVERIFY(bytes.size() >= 128);
        if (bytes.size() == 128)
            for (double v : values)
                bytes.push_back(static_cast<std::byte>(static_cast<int>(v)));
        const auto t = t2n::nnef::readDat(bytes, file.toStdString() + ".dat");
        QCOMPARE(int(t.dtype()), dtype);
        QCOMPARE(QList<qint64>(t.shape().begin(), t.shape().end()), shape);
        QCOMPARE(t.numel(), qint64(values.size()));
        for (qsizetype i = 0; i < values.size(); ++i)
            QCOMPARE(t.asDouble(i), values[i]);
    }

    void datVariants() {
        // Codes 2/3 (tract writes every integer so) read as u8/i8; 8-bit bools
        // are normalised to 0/1; empty tensors and scalars.
        DatHeader h;
        h.rank = 1;
        h.extents[0] = 3;
        h.bits = 8;
        h.length = 3;
        h.itemType = 3;
        Bytes data{std::byte{0xFF}, std::byte{0x01}, std::byte{0x80}};
        auto t = t2n::nnef::readDat(datFile(h, data), "q.dat");
        QCOMPARE(t.dtype(), DType::I8);
        QCOMPARE(t.asInt(0), -1);
        QCOMPARE(t.asInt(2), -128);
        h.itemType = 2;
        t = t2n::nnef::readDat(datFile(h, data), "q.dat");
        QCOMPARE(t.dtype(), DType::U8);
        QCOMPARE(t.asInt(0), 255);
        h.itemType = 5;
        t = t2n::nnef::readDat(datFile(h, data), "b.dat");
        QCOMPARE(t.dtype(), DType::Bool);
        QCOMPARE(std::to_integer<int>(t.bytes()[0]), 1);
        QCOMPARE(std::to_integer<int>(t.bytes()[2]), 1);
        h.bits = 1;
        h.extents[0] = 9;
        h.length = 2;
        t = t2n::nnef::readDat(datFile(h, {std::byte{0x81}, std::byte{0x80}}), "b1.dat");
        QCOMPARE(t.numel(), 9);
        QCOMPARE(std::to_integer<int>(t.bytes()[0]), 1);
        QCOMPARE(std::to_integer<int>(t.bytes()[1]), 0);
        QCOMPARE(std::to_integer<int>(t.bytes()[7]), 1);
        QCOMPARE(std::to_integer<int>(t.bytes()[8]), 1);
        DatHeader empty = f32x2x3();
        empty.extents[0] = 0;
        empty.length = 0;
        t = t2n::nnef::readDat(datFile(empty, {}), "e.dat");
        QCOMPARE(t.numel(), 0);
        QCOMPARE(t.shape(), (std::vector<int64_t>{0, 3}));
    }

    void datErrors_data() {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("expect");
        auto qb = [](const Bytes& b) {
            return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
        };
        const Bytes good = datFile(f32x2x3(), zeros(24));
        QTest::newRow("empty file")
            << QByteArray() << "file is 0 bytes, shorter than the 128-byte header";
        for (int n : {1, 64, 127})
            QTest::newRow(qPrintable(QString("header cut at %1").arg(n)))
                << qb(Bytes(good.begin(), good.begin() + n))
                << QString("file is %1 bytes, shorter than the 128-byte header").arg(n);
        auto mutate = [&](const char* name, const std::function<void(DatHeader&)>& f,
                          const Bytes& data, const QString& expect) {
            DatHeader h = f32x2x3();
            f(h);
            QTest::newRow(name) << qb(datFile(h, data)) << expect;
        };
        mutate(
            "bad magic", [](DatHeader& h) { h.magic1 = 0xEE; }, zeros(24),
            "bad magic (offset 0): 4E EE, expected 4E EF");
        mutate(
            "version 2.0", [](DatHeader& h) { h.major = 2; }, zeros(24),
            "unsupported version (offset 2) 2.0, expected 1.0");
        mutate(
            "version 1.1", [](DatHeader& h) { h.minor = 1; }, zeros(24),
            "unsupported version (offset 2) 1.1");
        mutate(
            "rank 9", [](DatHeader& h) { h.rank = 9; }, zeros(24),
            "rank (offset 8) is 9, more than the maximum of 8");
        mutate(
            "unused extent set", [](DatHeader& h) { h.extents[5] = 4; }, zeros(24),
            "extent 5 (offset 32) is 4, but a rank-2 tensor must leave unused extents 0");
        mutate(
            "unknown item type", [](DatHeader& h) { h.itemType = 7; }, zeros(24),
            "item type code (offset 48) is 7");
        mutate(
            "tract vendor", [](DatHeader& h) { h.itemType = 0x54521000; }, zeros(24),
            "vendor 0x5452 (tract: string or complex data)");
        mutate(
            "Q4_0 with 32 bits per item", [](DatHeader& h) { h.itemType = 0x54523040; }, zeros(24),
            "bits per item (offset 44) of a Q4_0 tensor is 32, expected 0xFFFFFFFF");
        mutate(
            "float with 12 bits", [](DatHeader& h) { h.bits = 12; }, zeros(9),
            "bits per item (offset 44) is 12, invalid for item type 0 (float); expected 16, "
            "32 or 64");
        mutate(
            "bool with 2 bits",
            [](DatHeader& h) {
                h.itemType = 5;
                h.bits = 2;
                h.length = 2;
            },
            zeros(2), "invalid for item type 5 (bool); expected 1 or 8");
        mutate(
            "int with 0 bits",
            [](DatHeader& h) {
                h.itemType = 4;
                h.bits = 0;
                h.length = 0;
            },
            {}, "bits per item (offset 44) is 0");
        mutate(
            "unsigned 16-bit",
            [](DatHeader& h) {
                h.itemType = 1;
                h.bits = 16;
                h.length = 12;
            },
            zeros(12), "16-bit unsigned int items are valid NNEF but not supported");
        mutate(
            "signed 4-bit",
            [](DatHeader& h) {
                h.itemType = 4;
                h.bits = 4;
                h.length = 3;
            },
            zeros(3), "4-bit signed int items are valid NNEF but not supported");
        {
            Bytes file = good;
            file[60] = std::byte{0x07};
            QTest::newRow("reserved byte set") << qb(file) << "reserved byte at offset 60 is 0x07";
        }
        mutate(
            "length too small", [](DatHeader& h) { h.length = 20; }, zeros(20),
            "data length (offset 4) is 20 bytes, but 6 items of 32 bits need 24");
        mutate(
            "length too large", [](DatHeader& h) { h.length = 28; }, zeros(28),
            "data length (offset 4) is 28 bytes, but 6 items of 32 bits need 24");
        mutate(
            "huge extents",
            [](DatHeader& h) {
                h.rank = 8;
                for (auto& e : h.extents)
                    e = 0xFFFFFFFF;
            },
            zeros(24), "but more than 1099511627776 items of 32 bits need more than");
        mutate(
            "data truncated", [](DatHeader&) {}, zeros(23),
            "file is truncated: 151 bytes, but the header promises 128 + 24 = 152");
        mutate(
            "trailing bytes", [](DatHeader&) {}, zeros(25),
            "file is 153 bytes, 1 more than the 128 + 24 the header promises");
        mutate(
            "old 132-byte header", [](DatHeader&) {}, zeros(28),
            "file is 156 bytes, 4 more than the 128 + 24 the header promises");
    }
    void datErrors() {
        QFETCH(QByteArray, file);
        QFETCH(QString, expect);
        Bytes bytes(reinterpret_cast<const std::byte*>(file.constData()),
                    reinterpret_cast<const std::byte*>(file.constData()) + file.size());
        const QString msg = errorOf([&] { t2n::nnef::readDat(bytes, "w/conv.dat"); });
        QVERIFY2(msg.startsWith("w/conv.dat: "), qPrintable(msg));
        QVERIFY2(msg.contains(expect), qPrintable(msg));
    }

    // ------------------------------------------------------------ archives

    void cleanEntryPaths_data() {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("clean"); // "HIDDEN" or "ERROR: ..."
        QTest::newRow("plain") << "graph.nnef"
                               << "graph.nnef";
        QTest::newRow("leading ./") << "./graph.nnef"
                                    << "graph.nnef";
        QTest::newRow("two leading ./") << "././a/b.dat"
                                        << "a/b.dat";
        QTest::newRow("double slash") << "a//b.dat"
                                      << "a/b.dat";
        QTest::newRow("directory") << "./a/"
                                   << "a";
        QTest::newRow("hidden file") << ".DS_Store"
                                     << "HIDDEN";
        QTest::newRow("hidden folder") << "a/.git/x.dat"
                                       << "HIDDEN";
        QTest::newRow("dot component") << "a/./b.dat"
                                       << "HIDDEN";
        QTest::newRow("parent") << "../x.dat"
                                << "ERROR: '..' components would escape";
        QTest::newRow("inner parent") << "a/../../x.dat"
                                      << "ERROR: '..' components";
        QTest::newRow("absolute") << "/abs.dat"
                                  << "ERROR: absolute paths are not allowed";
    }
    void cleanEntryPaths() {
        QFETCH(QString, raw);
        QFETCH(QString, clean);
        bool hidden = false;
        std::string out;
        const QString msg =
            errorOf([&] { out = t2n::archive::cleanEntryPath(raw.toStdString(), &hidden); });
        if (clean.startsWith("ERROR: ")) {
            QVERIFY2(msg.contains(clean.mid(7)), qPrintable(msg));
            QVERIFY2(msg.contains(raw), qPrintable(msg));
        } else if (clean == "HIDDEN") {
            QVERIFY(msg.isEmpty());
            QVERIFY(hidden);
        } else {
            QVERIFY2(msg.isEmpty(), qPrintable(msg));
            QVERIFY(!hidden);
            QCOMPARE(QString::fromStdString(out), clean);
        }
    }

    void hostileArchives_data() {
        QTest::addColumn<QJsonArray>("entries");
        QTest::addColumn<QString>("compression");
        QTest::addColumn<qulonglong>("maxEntry");
        QTest::addColumn<qulonglong>("maxTotal");
        QTest::addColumn<QString>("expect");
        const qulonglong big = 1ull << 30;
        const QJsonObject graph = entry("graph.nnef", "version 1.0;\n");
        QTest::newRow("parent path") << QJsonArray{graph, entry("../x.dat", "x")} << "" << big
                                     << big << "entry '../x.dat': '..' components would escape";
        QTest::newRow("absolute path") << QJsonArray{graph, entry("/abs.dat", "x")} << "gz" << big
                                       << big << "entry '/abs.dat': absolute paths";
        QTest::newRow("symlink") << QJsonArray{graph, QJsonObject{{"name", "w.dat"},
                                                                  {"type", "symlink"},
                                                                  {"link", "/etc/passwd"}}}
                                 << "" << big << big << "entry 'w.dat': is a symbolic link";
        QTest::newRow("hard link") << QJsonArray{graph, QJsonObject{{"name", "w.dat"},
                                                                    {"type", "hardlink"},
                                                                    {"link", "graph.nnef"}}}
                                   << "gz" << big << big << "entry 'w.dat': is a hard link";
        QTest::newRow("character device")
            << QJsonArray{graph, QJsonObject{{"name", "null.dat"}, {"type", "chr"}}} << "" << big
            << big << "entry 'null.dat': is a character device";
        QTest::newRow("fifo") << QJsonArray{graph, QJsonObject{{"name", "p"}, {"type", "fifo"}}}
                              << "" << big << big << "entry 'p': is a FIFO";
        QTest::newRow("entry over budget")
            << QJsonArray{graph, QJsonObject{{"name", "w.dat"}, {"size", 5000}}} << "gz"
            << qulonglong(4096) << big
            << "entry 'w.dat': 5000 bytes is over the per-entry limit of "
               "4096 bytes";
        QJsonArray bomb{graph};
        for (int i = 0; i < 6; ++i)
            bomb.append(QJsonObject{{"name", QString("z%1.dat").arg(i)}, {"size", 4 << 20}});
        QTest::newRow("gzip bomb over the total")
            << bomb << "gz" << qulonglong(8 << 20) << qulonglong(16 << 20)
            << "entry 'z3.dat': the artifact's entries add up to";
        QTest::newRow("duplicate entry")
            << QJsonArray{graph, entry("a.dat", "1"), entry("./a.dat", "2")} << "" << big << big
            << "entry 'a.dat': appears twice";
        QTest::newRow("missing graph.nnef") << QJsonArray{entry("w.dat", "x")} << "gz" << big << big
                                            << "no graph.nnef at the root of the artifact";
        QTest::newRow("graph.nnef one level down")
            << QJsonArray{entry("model/graph.nnef", "version 1.0;")} << "" << big << big
            << "no graph.nnef at the root of the artifact ('model/graph.nnef' is one level down: "
               "tract reads that as a sub-model)";
        QTest::newRow("bad .dat inside")
            << QJsonArray{graph, entry("w.dat", "NNEF?")} << "gz" << big << big
            << "w.dat: file is 5 bytes, shorter than the 128-byte";
        QTest::newRow("bad graph inside")
            << QJsonArray{entry("graph.nnef", "version 1.0;\n@")} << "" << big << big
            << "graph.nnef:2:1: unexpected character '@'";
    }
    void hostileArchives() {
        QFETCH(QJsonArray, entries);
        QFETCH(QString, compression);
        QFETCH(qulonglong, maxEntry);
        QFETCH(qulonglong, maxTotal);
        QFETCH(QString, expect);
        const fs::path path = work_ / (std::string(QTest::currentDataTag()) +
                                       (compression.isEmpty() ? ".tar" : ".tgz"));
        const QString err = makeTar(path, entries, compression);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        t2n::nnef::ReadOptions options;
        options.maxEntryBytes = maxEntry;
        options.maxTotalBytes = maxTotal;
        const QString msg = errorOf([&] { t2n::nnef::readModel(path, options); });
        QVERIFY2(msg.contains(expect), qPrintable(msg));
    }

    void tractContainerRules() {
        // "./" prefixes stripped, dot-components skipped with a warning, gzip
        // sniffed by magic whatever the name says, labels with sub-folders.
        const QJsonArray entries{entry("./graph.nnef",
                                       "version 1.0;\ngraph g(x) -> (y)\n{\n  x = external(shape = "
                                       "[1]);\n  y = relu(x);\n}\n"),
                                 entry("./.hidden/w.dat", "junk"), entry("a/.w.dat", "junk"),
                                 entry("notes.txt", "hi"), entry("sub/graph.nnef", "junk")};
        for (const auto& [name, compression] :
             {std::pair{"plain.nnef.tgz", ""}, std::pair{"zipped.nnef.tar", "gz"}}) {
            const fs::path path = work_ / name;
            QVERIFY(makeTar(path, entries, compression).isEmpty());
            const auto contents = t2n::archive::readArchive(path);
            QCOMPARE(int(contents.kind),
                     int(*compression ? t2n::archive::ArchiveContents::Kind::Gzip
                                      : t2n::archive::ArchiveContents::Kind::Tar));
            const auto model = t2n::nnef::readModel(path);
            QCOMPARE(model.document.graph.body.size(), std::size_t{2});
            QCOMPARE(model.warnings.size(), std::size_t{4});
            const QString all =
                QString::fromStdString(model.warnings[0] + "|" + model.warnings[1] + "|" +
                                       model.warnings[2] + "|" + model.warnings[3]);
            QVERIFY2(all.contains("'./.hidden/w.dat' ignored: tract skips every path component "
                                  "that starts with '.'"),
                     qPrintable(all));
            QVERIFY2(all.contains("'a/.w.dat' ignored"), qPrintable(all));
            QVERIFY2(all.contains("'notes.txt' ignored"), qPrintable(all));
            QVERIFY2(all.contains("'sub/graph.nnef' not checked"), qPrintable(all));
        }
    }

    void foldersWithLinksAreRefused() {
        const fs::path dir = work_ / "linked.nnef";
        fs::create_directories(dir / ".git");
        std::ofstream(dir / "graph.nnef") << "version 1.0;\ngraph g(x) -> (y)\n{\n  x = "
                                             "external(shape = [1]);\n  y = relu(x);\n}\n";
        std::ofstream(dir / ".git" / "HEAD") << "ref";
        auto model = t2n::nnef::readModel(dir);
        QCOMPARE(model.warnings.size(), std::size_t{1});
        fs::create_symlink("/etc/hostname", dir / "w.dat");
        const QString msg = errorOf([&] { t2n::nnef::readModel(dir); });
        QVERIFY2(msg.contains("entry 'w.dat': is a symbolic link"), qPrintable(msg));
        QVERIFY(errorOf([&] {
                    t2n::nnef::readModel(work_ / "missing.nnef");
                }).contains("no such file or folder"));
        std::ofstream(work_ / "garbage.nnef.tgz") << "this is not a tar archive at all, just text "
                                                     "long enough to fill a block............";
        QVERIFY(errorOf([&] {
                    t2n::nnef::readModel(work_ / "garbage.nnef.tgz");
                }).contains("garbage.nnef.tgz"));
    }

    // ------------------------------------------------------------ real artifacts

    // readGraphText (the studio's view of a checked archive): the bytes of
    // graph.nnef as the file holds them, from a folder, a tar and a tgz.
    void graphTextInEveryContainer() {
        if (!exportError_.isEmpty())
            QSKIP(qPrintable(exportError_));
        std::ifstream in(r18Folder_ / "graph.nnef", std::ios::binary);
        const std::string onDisk((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
        QVERIFY(onDisk.find("graph network") != std::string::npos);
        QCOMPARE(t2n::readGraphText(r18Folder_), onDisk);
        for (const auto& path : {r18Tar_, r18Tgz_})
            QCOMPARE(t2n::readGraphText(path), t2n::nnef::readModel(path).graphText);
        const auto empty = t2n::test::freshDir("graph_text_none");
        std::ofstream(empty / "w.dat") << "not a graph";
        try {
            t2n::readGraphText(empty);
            QFAIL("a folder without graph.nnef gave a text");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::ModelFile);
            QVERIFY2(e.message().find("no graph.nnef") != std::string::npos, e.message().c_str());
        }
    }

    void realArtifactsInEveryContainer() {
        if (!exportError_.isEmpty())
            QSKIP(qPrintable(exportError_));
        const auto folder = t2n::nnef::readModel(r18Folder_);
        QVERIFY(folder.warnings.empty());
        QVERIFY(folder.tensors.size() > 40); // resnet18: conv, batch-norm and fc parameters
        QVERIFY(folder.document.fragments.size() == 1);
        for (const auto& path : {r18Tar_, r18Tgz_}) {
            const auto other = t2n::nnef::readModel(path);
            QCOMPARE(bodyText(other.document.graph.body), bodyText(folder.document.graph.body));
            QCOMPARE(other.tensors.size(), folder.tensors.size());
            for (const auto& [label, t] : folder.tensors) {
                const auto& o = other.tensors.at(label);
                QCOMPARE(o.shape(), t.shape());
                QVERIFY(std::equal(o.bytes().begin(), o.bytes().end(), t.bytes().begin(),
                                   t.bytes().end()));
            }
        }
        // The labels of the variables are exactly the .dat files.
        std::set<std::string> labels;
        for (const auto& a : folder.document.graph.body) {
            if (a.rhs->kind != ast::Expr::Kind::Invocation || a.rhs->text != "variable")
                continue;
            for (const auto& [name, value] : a.rhs->args)
                if (name == "label")
                    labels.insert(value->text);
        }
        std::set<std::string> files;
        for (const auto& [label, t] : folder.tensors)
            files.insert(label);
        QCOMPARE(labels, files);
    }

    void tensorsAgreeWithThePythonReader() {
        if (!exportError_.isEmpty())
            QSKIP(qPrintable(exportError_));
        const auto model = t2n::nnef::readModel(r18Tgz_);
        for (const char* label :
             {"conv1.weight", "bn1.running_var", "fc.bias", "layer4.1.conv2.weight"}) {
            const fs::path dat = r18Folder_ / (std::string(label) + ".dat");
            const auto r = t2n::test::run(
                t2n::test::python(),
                {QString::fromStdString(
                     (t2n::test::sourceDir() / "tests/tools/verify_nnef_archive.py").string()),
                 "--dat", QString::fromStdString(dat.string()), "--values"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
            const auto json = QJsonDocument::fromJson(r.out.toUtf8()).object();
            const auto& t = model.tensors.at(label);
            QJsonArray shape;
            for (int64_t d : t.shape())
                shape.append(qint64(d));
            QCOMPARE(json.value("extents").toArray(), shape);
            QCOMPARE(json.value("dtype").toString(), QString(t2n::dtypeName(t.dtype()).data()));
            const auto values = json.value("values").toArray();
            QCOMPARE(values.size(), qsizetype(t.numel()));
            for (qsizetype i = 0; i < values.size(); ++i)
                QCOMPARE(t.asDouble(i), values.at(i).toDouble());
        }
    }
};

T2N_TEST_SUITE(NnefReaderTest)
#include "tst_nnef_reader.moc"
