// Reference interpreter, graph level: compile-time expressions, graphs read
// from NNEF text (inputs, variables, symbols, intermediates), fragments
// (defaults, generics, if/else, comprehensions, recursion, tuples), tract's
// scan, and errors that name the failing statement.
#include "engine/interp_test_util.h"
#include "interp/eval.h"
#include "suite_macros.h"

#include <QTest>

using namespace interp_test;
using t2n::interp::Interpreter;

namespace {

/// Evaluates one compile-time expression written in NNEF: it is parsed as
/// the argument of an invocation, then evaluated without any operation.
std::string evalText(const std::string& expr) {
    const std::string text =
        "version 1.0;\ngraph g(x) -> (y)\n{\n  y = f(x, v = " + expr + ");\n}\n";
    const auto doc = t2n::nnef::parseDocument(text, "graph.nnef", t2n::nnef::ReadMode::Tract);
    struct NoOps : t2n::interp::Invoker {
        Value invoke(const std::string& op, const std::string&, t2n::interp::Arguments) override {
            throw t2n::interp::InterpError("unexpected operation " + op);
        }
    } noOps;
    t2n::interp::Evaluator ev(noOps);
    t2n::interp::Scope scope;
    return t2n::interp::describe(ev.eval(*doc.graph.body.at(0).rhs->args.at(1).second, scope));
}

/// The NodeRef of a statement error.
t2n::NodeRef nodeOf(const t2n::Error& e) {
    return e.details().empty() ? t2n::NodeRef{} : e.details().front().node;
}

} // namespace

class InterpreterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- compile-time expressions ---------------------------------------------

    void expressions_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("expected");
        QTest::newRow("precedence") << "1 + 2 * 3"
                                    << "7";
        QTest::newRow("integer division") << "7 / 2"
                                          << "3";
        QTest::newRow("power") << "2 ^ 10"
                               << "1024";
        QTest::newRow("scalar") << "1.5 * 2.0"
                                << "3";
        QTest::newRow("negation") << "-(3 - 5)"
                                  << "2";
        QTest::newRow("comparison") << "3 <= 2"
                                    << "false";
        QTest::newRow("logic") << "!(1 < 2) || 2 == 2"
                               << "true";
        QTest::newRow("in") << "2 in [1, 2, 3]"
                            << "true";
        QTest::newRow("string concat") << "'ab' + 'cd'"
                                       << "'abcd'";
        QTest::newRow("array concat") << "[1, 2] + [3]"
                                      << "[1, 2, 3]";
        QTest::newRow("array repeat") << "[0] * 3"
                                      << "[0, 0, 0]";
        QTest::newRow("tuple") << "(1, 'a', true)"
                               << "(1, 'a', true)";
        QTest::newRow("index") << "[4, 5, 6][1]"
                               << "5";
        QTest::newRow("slice") << "[4, 5, 6, 7][1:3]"
                               << "[5, 6]";
        QTest::newRow("open slice") << "[4, 5, 6, 7][2:]"
                                    << "[6, 7]";
        QTest::newRow("length_of") << "length_of([1, 2, 3])"
                                   << "3";
        QTest::newRow("range_of") << "range_of([7, 8, 9])"
                                  << "[0, 1, 2]";
        QTest::newRow("if else") << "10 if 1 > 2 else 20"
                                 << "20";
        QTest::newRow("comprehension") << "[for i in [1, 2, 3] yield i * i]"
                                       << "[1, 4, 9]";
        QTest::newRow("filtered comprehension")
            << "[for i in range_of([0, 0, 0, 0]) if i != 1 yield i]"
            << "[0, 2, 3]";
        QTest::newRow("zipped iterators") << "[for i in [1, 2], j in [10, 20] yield i + j]"
                                          << "[11, 22]";
        QTest::newRow("integer cast") << "integer(2.7)"
                                      << "2";
        QTest::newRow("scalar cast") << "scalar(3) / 2.0"
                                     << "1.5";
        QTest::newRow("logical cast") << "logical(0)"
                                      << "false";
        QTest::newRow("string cast") << "string(5)"
                                     << "'5'";
    }

    void expressions() {
        QFETCH(QString, expr);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(evalText(expr.toStdString())), expected);
    }

    // ---- graphs -------------------------------------------------------------------

    void graphWithVariablesAndIntermediates() {
        const auto model = modelOf(R"(version 1.0;

graph net(x) -> (y)
{
  x = external<scalar>(shape = [1, 3]);
  w = variable<scalar>(shape = [1, 3], label = 'layer/w');
  s = mul(x, 2.0);
  y = add(s, w);
}
)",
                                   {{"layer/w", F({10, 20, 30}, {1, 3})}});
        Interpreter interp(model);
        QCOMPARE(interp.inputNames(), (std::vector<std::string>{"x"}));
        const auto r = interp.run({{"x", F({1, 2, 3}, {1, 3})}}, true);
        T2N_COMPARE_TENSOR(r.outputs.at("y"), F({12, 24, 36}, {1, 3}));
        QCOMPARE(r.values.size(), std::size_t(4));
        const std::vector<std::string> names{"x", "w", "s", "y"},
            ops{"external", "variable", "mul", "add"};
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(r.values[i].name, names[i]);
            QCOMPARE(r.values[i].operation, ops[i]);
            QCOMPARE(r.values[i].line, static_cast<int>(5 + i));
        }
        T2N_COMPARE_TENSOR(r.values[2].value, F({2, 4, 6}, {1, 3}));
        // without intermediates, only the outputs
        QVERIFY(interp.run({{"x", F({1, 2, 3}, {1, 3})}}).values.empty());
    }

    void operatorExpressionsAndNestedInvocations() {
        const auto model = modelOf(R"(version 1.0;
graph net(x) -> (y, z)
{
  x = external<scalar>(shape = [2, 2]);
  y = relu(x - 1.0) * 2.0 + exp(0.0 * x);
  z = -x if true else x;
}
)");
        const auto r = Interpreter(model).run({{"x", F({0, 1, 2, 3}, {2, 2})}});
        T2N_COMPARE_TENSOR(r.outputs.at("y"), F({1, 1, 3, 5}, {2, 2}));
        T2N_COMPARE_TENSOR(r.outputs.at("z"), F({0, -1, -2, -3}, {2, 2}));
    }

    void literalAndVariableDtypes() {
        // integer literal -> i64, scalar literal -> f32; constants take the other dtype
        const auto model = modelOf(R"(version 1.0;
graph net(i, f) -> (a, b, c)
{
  i = external<integer>(shape = [2]);
  f = external<scalar>(shape = [2]);
  k = variable<integer>(shape = [2], label = 'k');
  a = add(i, 1);
  b = mul(f, k);
  c = tract_core_cast(i, to = 'f32');
}
)",
                                   {{"k", L64({2, 3}, {2}).to(at::kInt)}});
        const auto r = Interpreter(model).run({{"i", L64({5, 6}, {2})}, {"f", F({0.5f, 1}, {2})}});
        T2N_COMPARE_TENSOR(r.outputs.at("a"), L64({6, 7}, {2}));
        T2N_COMPARE_TENSOR(r.outputs.at("b"), F({1, 3}, {2}));
        T2N_COMPARE_TENSOR(r.outputs.at("c"), F({5, 6}, {2}));
    }

    void symbolsBoundFromInputs() {
        const auto model = modelOf(R"(version 1.0;
extension tract_registry tract_core;
extension tract_symbol B;

graph net(a, b) -> (y, r)
{
  a = external<scalar>(shape = [B, 3]);
  b = tract_core_external(shape = [B, 1], datum_type = 'f32');
  r = reshape(a, shape = [B * 3]);
  y = add(a, b);
}
)");
        Interpreter interp(model);
        QCOMPARE(interp.symbols(), (std::vector<std::string>{"B"}));
        for (int64_t n : {1, 2, 5}) {
            const auto r = interp.run({{"a", at::ones({n, 3})}, {"b", at::ones({n, 1})}});
            QCOMPARE(r.outputs.at("r").sizes().vec(), (std::vector<int64_t>{n * 3}));
            T2N_COMPARE_TENSOR(r.outputs.at("y"), at::full({n, 3}, 2.0f));
        }
        // B is 2 from 'a', then 'b' disagrees
        auto e = expectError([&] {
            interp.run({{"a", at::ones({2, 3})}, {"b", at::ones({3, 1})}});
        });
        QVERIFY2(e.message().find("B = 2") != std::string::npos, e.message().c_str());
        QCOMPARE(nodeOf(e).valueName, std::string("b"));
        QCOMPARE(nodeOf(e).sourceLine, 8);
    }

    void inputChecks() {
        const auto model = modelOf(R"(version 1.0;
graph net(x) -> (y)
{
  x = external<scalar>(shape = [2, 3]);
  y = copy(x);
}
)");
        Interpreter interp(model);
        auto e = expectError([&] { interp.run({}); });
        QVERIFY2(e.message().find("no value given for graph input 'x'") != std::string::npos,
                 e.message().c_str());
        e = expectError([&] { interp.run({{"x", at::ones({2, 3})}, {"q", at::ones({1})}}); });
        QVERIFY2(e.message().find("'q' is not an input") != std::string::npos, e.message().c_str());
        e = expectError([&] { interp.run({{"x", at::ones({3, 2})}}); });
        QVERIFY2(e.message().find("axis 0") != std::string::npos, e.message().c_str());
        e = expectError([&] { interp.run({{"x", at::ones({2, 3}, at::kLong)}}); });
        QVERIFY2(e.message().find("declared") != std::string::npos, e.message().c_str());
        // f64 for an f32 input is converted
        const auto r = interp.run({{"x", at::ones({2, 3}, at::kDouble)}});
        QCOMPARE(r.outputs.at("y").scalar_type(), at::kFloat);
    }

    // ---- fragments ----------------------------------------------------------------

    void fragmentsDefaultsAndGenerics() {
        const auto model = modelOf(R"(version 1.0;
extension KHR_enable_fragment_definitions;
extension KHR_enable_operator_expressions;

fragment scale<?>( x: tensor<?>, k: scalar = 2.0 ) -> ( y: tensor<?> )
{
  y = x * k;
}

fragment twice<?>( x: tensor<?> ) -> ( y: tensor<?> )
{
  y = add(x, x);
}

graph net(f, i) -> (a, b, c)
{
  f = external<scalar>(shape = [2]);
  i = external<integer>(shape = [2]);
  a = scale(f);
  b = scale(f, k = 3);
  c = twice(i);
}
)");
        const auto r = Interpreter(model).run({{"f", F({1, 2}, {2})}, {"i", L64({3, 4}, {2})}});
        T2N_COMPARE_TENSOR(r.outputs.at("a"), F({2, 4}, {2}));
        T2N_COMPARE_TENSOR(r.outputs.at("b"), F({3, 6}, {2}));
        T2N_COMPARE_TENSOR(r.outputs.at("c"), L64({6, 8}, {2}));
    }

    void fragmentGenericTypeArgument() {
        // constant<?> inside a generic fragment takes the invocation's type
        const auto model = modelOf(R"(version 1.0;
extension KHR_enable_fragment_definitions;

fragment filled<? = scalar>( shape: integer[], v: integer ) -> ( y: tensor<?> )
{
  y = constant<?>(shape = shape, value = [v]);
}

graph net(x) -> (a, b)
{
  x = external<scalar>(shape = [1]);
  a = filled<integer>(shape = [2], v = 7);
  b = filled(shape = [1, 2], v = 3);
}
)");
        const auto r = Interpreter(model, mode(Khronos)).run({{"x", F({0}, {1})}});
        T2N_COMPARE_TENSOR(r.outputs.at("a"), L64({7, 7}, {2}));
        T2N_COMPARE_TENSOR(r.outputs.at("b"), F({3, 3}, {1, 2}));
    }

    void fragmentIfElseComprehensionRecursion() {
        const auto model = modelOf(R"(version 1.0;
extension KHR_enable_fragment_definitions;
extension KHR_enable_operator_expressions;

fragment sum_but_first( x: tensor<scalar>, rank: integer ) -> ( y: tensor<scalar> )
{
  axes = [for i in range_of([0] * rank) if i > 0 yield i];
  y = sum_reduce(x, axes = axes) if rank > 1 else x;
}

fragment total( xs: tensor<scalar>[] ) -> ( y: tensor<scalar> )
{
  y = xs[0] + total(xs[1:]) if length_of(xs) > 1 else xs[0];
}

fragment stats( x: tensor<scalar> ) -> ( lo: tensor<scalar>, hi: tensor<scalar> )
{
  lo = min_reduce(x, axes = [0]);
  hi = max_reduce(x, axes = [0]);
}

graph net(x) -> (s, t, lo, hi, m, v)
{
  x = external<scalar>(shape = [2, 3]);
  s = sum_but_first(x, rank = 2);
  t = total([x, x, x, x]);
  (lo, hi) = stats(x);
  m, v = moments(x, axes = [1]);
}
)");
        const at::Tensor x = F({1, 2, 3, 4, 5, 6}, {2, 3});
        const auto r = Interpreter(model).run({{"x", x}});
        T2N_COMPARE_TENSOR(r.outputs.at("s"), F({6, 15}, {2, 1}));
        T2N_COMPARE_TENSOR(r.outputs.at("t"), x * 4);
        T2N_COMPARE_TENSOR(r.outputs.at("lo"), F({1, 2, 3}, {1, 3}));
        T2N_COMPARE_TENSOR(r.outputs.at("hi"), F({4, 5, 6}, {1, 3}));
        T2N_COMPARE_TENSOR(r.outputs.at("m"), F({2, 5}, {2, 1}));
        T2N_COMPARE_TENSOR(r.outputs.at("v"), F({2.f / 3, 2.f / 3}, {2, 1}));
    }

    void propertiesFragmentIsNeverRun() {
        const auto model = modelOf(R"(version 1.0;
extension tract_registry tract_core;

fragment tract_core_properties(
) -> (properties: (string, tensor<scalar>)[])
{
  properties = [
    ("tract_target_version", "0.23.5"),
    ("pulse.delay", tract_core_cast([3], to = "i64"))
  ];
}

graph net(x) -> (y)
{
  x = external<scalar>(shape = [1]);
  y = copy(x);
}
)");
        const auto r = Interpreter(model).run({{"x", F({5}, {1})}});
        T2N_COMPARE_TENSOR(r.outputs.at("y"), F({5}, {1}));
    }

    void scan() {
        // Cumulative sum over axis 1, forward and backward, with a state.
        const auto model = modelOf(R"(version 1.0;
extension tract_registry tract_core;

fragment step( xi: tensor<scalar>, acc: tensor<scalar> ) -> ( acc_out: tensor<scalar>, y: tensor<scalar> )
{
  acc_out = add(acc, xi);
  y = copy(acc_out);
}

graph net(x, h) -> (ys, last, back)
{
  x = external<scalar>(shape = [2, 4]);
  h = external<scalar>(shape = [2, 1]);
  ys, last = tract_core_scan(body = 'step', scan = [('xi', x, 1, 1)], full = [],
      state = [('acc', h, 'acc_out')], output = [('y', 'full', 1, 1), ('acc_out', 'last', 0, 1)]);
  back = tract_core_scan(body = 'step', scan = [('xi', x, 1, -1)], full = [],
      state = [('acc', h, 'acc_out')], output = [('y', 'full', 1, -1)]);
}
)");
        const at::Tensor x = iota({2, 4});
        const auto r = Interpreter(model).run({{"x", x}, {"h", at::zeros({2, 1})}});
        T2N_COMPARE_TENSOR(r.outputs.at("ys"), at::cumsum(x, 1));
        T2N_COMPARE_TENSOR(r.outputs.at("last"), x.sum(1, true));
        T2N_COMPARE_TENSOR(r.outputs.at("back"), at::cumsum(x.flip(1), 1).flip(1));
    }

    void scanChunksFullInputsAndSkip() {
        // Chunks of 2 along axis 1, a `full` input
        // passed whole to every iteration, and `skip`: tract does not run the
        // skipped iterations, so neither the state nor the outputs see them.
        const auto model = modelOf(R"(version 1.0;
extension tract_registry tract_core;

fragment step( xi: tensor<scalar>, w: tensor<scalar>, acc: tensor<scalar> ) -> ( acc_out: tensor<scalar>, y: tensor<scalar> )
{
  scaled = mul(xi, w);
  acc_out = add(acc, scaled);
  y = copy(acc_out);
}

graph net(x, w, h) -> (pairs, skipped, skipped_last)
{
  x = external<scalar>(shape = [1, 6]);
  w = external<scalar>(shape = [1, 2]);
  h = external<scalar>(shape = [1, 2]);
  pairs = tract_core_scan(body = 'step', scan = [('xi', x, 1, 2)], full = [('w', w)],
      state = [('acc', h, 'acc_out')], output = [('y', 'full', 1, 2)]);
  skipped, skipped_last = tract_core_scan(body = 'step', scan = [('xi', x, 1, 2)], full = [('w', w)],
      state = [('acc', h, 'acc_out')], output = [('y', 'full', 1, 2), ('acc_out', 'last', 0, 1)],
      skip = 1);
}
)");
        const at::Tensor x = iota({1, 6}), w = at::tensor({2.0f, 3.0f}).reshape({1, 2});
        const at::Tensor h = at::tensor({10.0f, 20.0f}).reshape({1, 2});
        const auto r = Interpreter(model).run({{"x", x}, {"w", w}, {"h", h}});
        // Computed another way: the chunks as rows [3, 2], a running sum.
        const at::Tensor rows = (x.reshape({3, 2}) * w).cumsum(0) + h;
        T2N_COMPARE_TENSOR(r.outputs.at("pairs"), rows.reshape({1, 6}));
        const at::Tensor tail = (x.reshape({3, 2}).slice(0, 1) * w).cumsum(0) + h;
        T2N_COMPARE_TENSOR(r.outputs.at("skipped"), tail.reshape({1, 4}));
        T2N_COMPARE_TENSOR(r.outputs.at("skipped_last"), tail.slice(0, 1).reshape({1, 2}));
    }

    void handBuiltSyntaxTree() {
        // The interpreter needs only the syntax tree: no graph text required.
        using t2n::nnef::ast::Expr;
        auto mk = [](Expr::Kind k) {
            auto e = std::make_shared<Expr>();
            e->kind = k;
            return e;
        };
        auto id = [&](const char* n) {
            auto e = mk(Expr::Kind::Identifier);
            e->text = n;
            return e;
        };
        auto shape = mk(Expr::Kind::Array);
        auto two = mk(Expr::Kind::Integer);
        two->integer = 2;
        shape->items = {two};
        auto external = mk(Expr::Kind::Invocation);
        external->text = "external";
        external->typeArg = "scalar";
        external->args = {{"shape", shape}};
        auto neg = mk(Expr::Kind::Invocation);
        neg->text = "neg";
        neg->args = {{"", id("x")}};
        t2n::nnef::LoadedModel model;
        model.document.graph.name = "g";
        model.document.graph.inputs = {"x"};
        model.document.graph.outputs = {"y"};
        model.document.graph.body = {{id("x"), external, {"graph.nnef", 3, 3}},
                                     {id("y"), neg, {"graph.nnef", 4, 3}}};
        const auto r = Interpreter(model).run({{"x", F({1, -2}, {2})}});
        T2N_COMPARE_TENSOR(r.outputs.at("y"), F({-1, 2}, {2}));
    }

    // ---- errors ---------------------------------------------------------------------

    void shapeMismatchNamesTheStatement() {
        const auto model = modelOf(R"(version 1.0;
graph net(x, y) -> (z)
{
  x = external<scalar>(shape = [2, 3]);
  y = external<scalar>(shape = [4]);
  z = add(x, y);
}
)");
        auto e = expectError([&] {
            Interpreter(model).run({{"x", at::ones({2, 3})}, {"y", at::ones({4})}});
        });
        QCOMPARE(e.stage(), t2n::Stage::Check);
        const auto ref = nodeOf(e);
        QCOMPARE(ref.kind, std::string("add"));
        QCOMPARE(ref.valueName, std::string("z"));
        QCOMPARE(ref.sourceFile, std::string("graph.nnef"));
        QCOMPARE(ref.sourceLine, 6);
        QCOMPARE(ref.sourceText, std::string("z = add(x, y);"));
        QVERIFY2(e.message().find("f32[2,3]") != std::string::npos &&
                     e.message().find("f32[4]") != std::string::npos,
                 e.message().c_str());
    }

    void unknownOperationBeforeRunning() {
        const auto model = modelOf(R"(version 1.0;
graph net(x) -> (y)
{
  x = external<scalar>(shape = [2]);
  a = relu(x);
  y = frobnicate(a);
}
)");
        auto e = expectError([&] { Interpreter interp(model); });
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        QCOMPARE(nodeOf(e).kind, std::string("frobnicate"));
        QCOMPARE(nodeOf(e).valueName, std::string("y"));
        QCOMPARE(nodeOf(e).sourceLine, 6);
        // a Khronos-only operation is unknown to tract, and the reverse
        const auto split = modelOf(R"(version 1.0;
graph net(x) -> (a, b)
{
  x = external<scalar>(shape = [4]);
  [a, b] = split(x, axis = 0, ratios = [1, 1]);
}
)");
        e = expectError([&] { Interpreter interp(split); });
        QVERIFY2(e.message().find("tract does not implement") != std::string::npos,
                 e.message().c_str());
        const auto r = Interpreter(split, mode(Khronos)).run({{"x", F({1, 2, 3, 4}, {4})}});
        T2N_COMPARE_TENSOR(r.outputs.at("b"), F({3, 4}, {2}));
        e = expectError([&] {
            Interpreter interp(
                modelOf("version 1.0;\ngraph g(x) -> (y)\n{\n  x = "
                        "external<scalar>(shape = [1]);\n  y = tract_core_erf(x);\n}\n"),
                mode(Khronos));
        });
        QVERIFY2(e.message().find("tract extension") != std::string::npos, e.message().c_str());
    }

    void errorsInsideFragments() {
        const auto model = modelOf(R"(version 1.0;
extension KHR_enable_fragment_definitions;

fragment inner( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
  y = mystery(x);
}

fragment outer( x: tensor<scalar>, w: tensor<scalar> ) -> ( y: tensor<scalar> )
{
  y = matmul(x, w);
}

graph net(x, w) -> (y, z)
{
  x = external<scalar>(shape = [2, 3]);
  w = external<scalar>(shape = [2, 3]);
  y = outer(x, w);
  z = inner(x);
}
)");
        // an unknown operation reached through a fragment is reported up front
        auto e = expectError([&] { Interpreter interp(model); });
        QCOMPARE(nodeOf(e).valueName, std::string("z"));
        QVERIFY2(e.message().find("'mystery' in fragment 'inner' at graph.nnef:6") !=
                     std::string::npos,
                 e.message().c_str());
        // a failure inside a fragment names the graph statement and the inner line
        auto ok = model;
        ok.document.graph.body.pop_back();
        ok.document.graph.outputs = {"y"};
        e = expectError([&] {
            Interpreter(ok).run({{"x", at::ones({2, 3})}, {"w", at::ones({2, 3})}});
        });
        QCOMPARE(nodeOf(e).kind, std::string("outer"));
        QCOMPARE(nodeOf(e).sourceLine, 18);
        QVERIFY2(e.message().find("inner dimensions") != std::string::npos &&
                     e.message().find("in fragment 'outer' at graph.nnef:11") != std::string::npos,
                 e.message().c_str());
    }

    void variableErrors() {
        const std::string text = R"(version 1.0;
graph net(x) -> (y)
{
  x = external<scalar>(shape = [2]);
  w = variable<scalar>(shape = [3], label = 'w');
  y = add(x, w);
}
)";
        auto e = expectError([&] { Interpreter(modelOf(text)).run({{"x", at::ones({2})}}); });
        QVERIFY2(e.message().find("no tensor data for label 'w'") != std::string::npos,
                 e.message().c_str());
        QCOMPARE(nodeOf(e).kind, std::string("variable"));
        e = expectError([&] {
            Interpreter(modelOf(text, {{"w", at::ones({2})}})).run({{"x", at::ones({2})}});
        });
        QVERIFY2(e.message().find("declared [3]") != std::string::npos, e.message().c_str());
    }
};

T2N_TEST_SUITE(InterpreterTest)
#include "tst_interpreter.moc"
