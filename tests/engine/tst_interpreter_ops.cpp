// Reference interpreter, element-wise, shape and reduction kernels: NNEF's
// own semantics against hand-computed examples (trailing broadcasting,
// reshape 0 / -1 / axis ranges, slice rules, pad borders, reductions keeping
// axes), the rest against ATen called directly with equivalent arguments.
#include "engine/interp_test_util.h"
#include "suite_macros.h"

#include <QTest>

#include <cmath>

using namespace interp_test;

class InterpreterOpsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- broadcasting and dtypes --------------------------------------------------

    void trailingBroadcastOfBias() {
        // [1, C] against [N, C, H, W]: the bias is padded to [1, C, 1, 1] (§1.2).
        const at::Tensor x = at::zeros({2, 3, 2, 2});
        const at::Tensor bias = F({10, 20, 30}, {1, 3});
        const at::Tensor got = op("add", {tv(x), tv(bias)});
        T2N_COMPARE_TENSOR(got, bias.reshape({1, 3, 1, 1}).expand({2, 3, 2, 2}).contiguous());
    }

    void trailingBroadcastWhereNumpyDiffers() {
        // [C] against [C, W]: NNEF reads [C] as [C, 1]; NumPy would need W == C.
        const at::Tensor x = F({1, 2, 3}, {3});
        const at::Tensor y = F({10, 20, 30, 40, 50, 60}, {3, 2});
        T2N_COMPARE_TENSOR(op("add", {tv(x), tv(y)}), F({11, 21, 32, 42, 53, 63}, {3, 2}));
        // [2] against [3, 2] broadcasts in NumPy, not in NNEF.
        auto e = expectError([&] { op("add", {tv(F({1, 2}, {2})), tv(y)}); });
        QCOMPARE(e.stage(), t2n::Stage::Check);
        QVERIFY2(QString::fromStdString(e.message()).contains("trailing"), e.message().c_str());
        QVERIFY2(QString::fromStdString(e.message()).contains("f32[2]"), e.message().c_str());
    }

    void literalsTakeTheTensorDtype() {
        // tract: a constant operand takes the other operand's dtype.
        const at::Tensor xi = L64({1, 2}, {2});
        T2N_COMPARE_TENSOR(op("add", {tv(xi), S(1.5)}), L64({2, 3}, {2}));
        T2N_COMPARE_TENSOR(op("mul", {S(3.0), tv(F({1.5f}, {1}))}), F({4.5f}, {1}));
        // (an integer literal is a TDim in tract, which has no common type with
        // f32: tst_interpreter_tract_rules)
        // two computed tensors of different dtypes are promoted
        T2N_COMPARE_TENSOR(op("add", {tv(xi), tv(F({0.5f, 0.5f}, {2}))}), F({1.5f, 2.5f}, {2}));
        // integer division truncates toward zero
        T2N_COMPARE_TENSOR(op("div", {tv(L64({7, -7}, {2})), I(2)}), L64({3, -3}, {2}));
    }

    // ---- element-wise unary -------------------------------------------------------

    void unary_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"copy",
                              "neg",
                              "abs",
                              "sign",
                              "exp",
                              "log",
                              "log2",
                              "sin",
                              "cos",
                              "tan",
                              "sinh",
                              "cosh",
                              "tanh",
                              "asin",
                              "acos",
                              "atan",
                              "asinh",
                              "acosh",
                              "atanh",
                              "floor",
                              "ceil",
                              "round",
                              "sqrt",
                              "rsqrt",
                              "sqr",
                              "rsqr",
                              "recip",
                              "square",
                              "sigmoid",
                              "relu",
                              "softplus",
                              "elu",
                              "tract_core_erf",
                              "tract_core_round_even",
                              "tract_core_hard_swish",
                              "tract_core_silu",
                              "tract_core_tan",
                              "tract_core_atanh"})
            QTest::newRow(n) << QString(n);
    }

    void unary() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        // Values inside every function's domain (acosh needs >= 1, atanh (-1, 1), ...).
        at::Tensor x = F({-2.5f, -1.5f, -0.5f, 0.25f, 0.5f, 1.5f, 2.5f, 3.7f}, {2, 4});
        if (n == "log" || n == "log2" || n == "sqrt" || n == "rsqrt" || n == "acosh")
            x = at::abs(x) + 1.0;
        if (n == "asin" || n == "acos" || n.ends_with("atanh"))
            x = x / 4.0;
        static const std::map<std::string, std::function<at::Tensor(const at::Tensor&)>> ref{
            {"copy", [](auto& t) { return t; }},
            {"neg", [](auto& t) { return -t; }},
            {"abs", [](auto& t) { return at::abs(t); }},
            {"sign", [](auto& t) { return at::sign(t); }},
            {"exp", [](auto& t) { return at::exp(t); }},
            {"log", [](auto& t) { return at::log(t); }},
            {"log2", [](auto& t) { return at::log2(t); }},
            {"sin", [](auto& t) { return at::sin(t); }},
            {"cos", [](auto& t) { return at::cos(t); }},
            {"tan", [](auto& t) { return at::tan(t); }},
            {"tract_core_tan", [](auto& t) { return at::tan(t); }},
            {"sinh", [](auto& t) { return at::sinh(t); }},
            {"cosh", [](auto& t) { return at::cosh(t); }},
            {"tanh", [](auto& t) { return at::tanh(t); }},
            {"asin", [](auto& t) { return at::asin(t); }},
            {"acos", [](auto& t) { return at::acos(t); }},
            {"atan", [](auto& t) { return at::atan(t); }},
            {"asinh", [](auto& t) { return at::asinh(t); }},
            {"acosh", [](auto& t) { return at::acosh(t); }},
            {"atanh", [](auto& t) { return at::atanh(t); }},
            {"tract_core_atanh", [](auto& t) { return at::atanh(t); }},
            {"floor", [](auto& t) { return at::floor(t); }},
            {"ceil", [](auto& t) { return at::ceil(t); }},
            // halves away from zero: -2.5 -> -3, -1.5 -> -2, -0.5 -> -1, 0.5 -> 1, 2.5 -> 3
            {"round",
             [](auto&) {
                 return F({-3, -2, -1, 0, 1, 2, 3, 4}, {2, 4});
             }},
            // halves to even: -2.5 -> -2, -1.5 -> -2, -0.5 -> 0, 0.5 -> 0, 2.5 -> 2
            {"tract_core_round_even",
             [](auto&) {
                 return F({-2, -2, 0, 0, 0, 2, 2, 4}, {2, 4});
             }},
            {"sqrt", [](auto& t) { return at::sqrt(t); }},
            {"rsqrt", [](auto& t) { return 1.0 / at::sqrt(t); }},
            {"sqr", [](auto& t) { return t * t; }},
            {"square", [](auto& t) { return t * t; }},
            {"rsqr", [](auto& t) { return 1.0 / (t * t); }},
            {"recip", [](auto& t) { return 1.0 / t; }},
            {"sigmoid", [](auto& t) { return 1.0 / (1.0 + at::exp(-t)); }},
            {"relu", [](auto& t) { return at::relu(t); }},
            {"softplus", [](auto& t) { return at::softplus(t); }},
            {"elu", [](auto& t) { return at::elu(t); }}, // tract: alpha = 1
            {"tract_core_erf", [](auto& t) { return at::erf(t); }},
            {"tract_core_hard_swish", [](auto& t) { return at::hardswish(t); }},
            {"tract_core_silu", [](auto& t) { return at::silu(t); }},
        };
        T2N_COMPARE_TENSOR(op(n, {tv(x)}), ref.at(n)(x));
    }

    void activationsWithParameters() {
        const at::Tensor x = F({-2, -0.5f, 0, 1.5f}, {1, 4});
        T2N_COMPARE_TENSOR(op("elu", {tv(x)}, {{"alpha", S(0.5)}}, Khronos), at::elu(x, 0.5));
        T2N_COMPARE_TENSOR(op("leaky_relu", {tv(x)}, {{"alpha", S(0.1)}}), at::leaky_relu(x, 0.1));
        T2N_COMPARE_TENSOR(op("selu", {tv(x)}, {}, Khronos), at::selu(x));
        T2N_COMPARE_TENSOR(op("silu", {tv(x)}, {}, Khronos), at::silu(x));
        // Khronos gelu is the sigmoid approximation x * sigmoid(1.702 x) (§1.3)
        T2N_COMPARE_TENSOR(op("gelu", {tv(x)}, {}, Khronos), x * at::sigmoid(1.702 * x));
        T2N_COMPARE_TENSOR(op("tract_core_gelu_approx", {tv(x)}), at::gelu(x, "tanh"));
        T2N_COMPARE_TENSOR(op("softabs", {tv(x)}, {{"epsilon", S(0.25)}}), at::sqrt(x * x + 0.25));
        // prelu: alpha [1, C] broadcast trailing over [N, C, W]
        const at::Tensor y = F({-1, 1, -2, 2}, {1, 2, 2});
        T2N_COMPARE_TENSOR(op("prelu", {tv(y), tv(F({0.5f, 0.25f}, {1, 2}))}),
                           F({-0.5f, 1, -0.5f, 2}, {1, 2, 2}));
        T2N_COMPARE_TENSOR(op("tract_core_pow_const", {tv(x)}, {{"exponent", S(2.0)}}), x * x);
        // elu takes no alpha in tract: passing one is an error
        auto e = expectError([&] { op("elu", {tv(x)}, {{"alpha", S(0.5)}}); });
        QVERIFY2(e.message().find("no parameter 'alpha'") != std::string::npos,
                 e.message().c_str());
    }

    void predicates() {
        const at::Tensor x = F({-INFINITY, 1, NAN, INFINITY}, {4});
        const auto b = [](std::vector<int64_t> v) { return L64(v, {4}).to(at::kBool); };
        T2N_COMPARE_TENSOR(op("tract_core_is_nan", {tv(x)}), b({0, 0, 1, 0}));
        T2N_COMPARE_TENSOR(op("tract_core_is_inf", {tv(x)}), b({1, 0, 0, 1}));
        T2N_COMPARE_TENSOR(op("tract_core_is_inf", {tv(x)}, {{"detect_negative", B(false)}}),
                           b({0, 0, 0, 1}));
        T2N_COMPARE_TENSOR(op("not", {tv(b({1, 0, 1, 0}))}), b({0, 1, 0, 1}));
        T2N_COMPARE_TENSOR(op("tract_core_bitnot", {tv(L64({0, 5, -1, 2}, {4}))}),
                           L64({-1, -6, 0, -3}, {4}));
    }

    // ---- element-wise binary, select, clamp, cast -----------------------------

    void binary_data() {
        QTest::addColumn<QString>("name");
        for (const char* n :
             {"add", "sub", "mul", "div", "pow", "min", "max", "lt", "gt", "le", "ge", "eq", "ne"})
            QTest::newRow(n) << QString(n);
    }

    void binary() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const at::Tensor x = F({1, 2, 3, 4, 5, 6}, {2, 3});
        const at::Tensor y = F({2, 2, 0.5f}, {1, 3});
        static const std::map<std::string,
                              std::function<at::Tensor(const at::Tensor&, const at::Tensor&)>>
            ref{{"add", [](auto& a, auto& b) { return a + b; }},
                {"sub", [](auto& a, auto& b) { return a - b; }},
                {"mul", [](auto& a, auto& b) { return a * b; }},
                {"div", [](auto& a, auto& b) { return a / b; }},
                {"pow", [](auto& a, auto& b) { return at::pow(a, b); }},
                {"min", [](auto& a, auto& b) { return at::minimum(a, b); }},
                {"max", [](auto& a, auto& b) { return at::maximum(a, b); }},
                {"lt", [](auto& a, auto& b) { return a < b; }},
                {"gt", [](auto& a, auto& b) { return a > b; }},
                {"le", [](auto& a, auto& b) { return a <= b; }},
                {"ge", [](auto& a, auto& b) { return a >= b; }},
                {"eq", [](auto& a, auto& b) { return a == b; }},
                {"ne", [](auto& a, auto& b) { return a != b; }}};
        // Same rank here: NNEF and ATen broadcasting agree.
        T2N_COMPARE_TENSOR(op(n, {tv(x), tv(y)}), ref.at(n)(x, y));
    }

    void logicSelectClamp() {
        const at::Tensor t = L64({1, 1, 0, 0}, {4}).to(at::kBool);
        const at::Tensor u = L64({1, 0, 1, 0}, {4}).to(at::kBool);
        T2N_COMPARE_TENSOR(op("and", {tv(t), tv(u)}), at::logical_and(t, u));
        T2N_COMPARE_TENSOR(op("or", {tv(t), tv(u)}), at::logical_or(t, u));
        T2N_COMPARE_TENSOR(op("tract_core_xor", {tv(t), tv(u)}), at::logical_xor(t, u));
        // select broadcasts trailing: condition [2] against values [2, 2]
        const at::Tensor cond = L64({1, 0}, {2}).to(at::kBool);
        T2N_COMPARE_TENSOR(op("select", {tv(cond), tv(F({1, 2, 3, 4}, {2, 2})), S(0.0)}),
                           F({1, 2, 0, 0}, {2, 2}));
        // clamp(x, a, b) = max(min(x, b), a)
        T2N_COMPARE_TENSOR(op("clamp", {tv(F({-3, 0.5f, 9}, {3})), S(-1.0), S(2.0)}),
                           F({-1, 0.5f, 2}, {3}));
        auto e = expectError([&] { op("and", {tv(F({1}, {1})), tv(t)}); });
        QVERIFY2(e.message().find("logical") != std::string::npos, e.message().c_str());
    }

    void casts() {
        const at::Tensor x = F({-1.7f, 0, 2.9f}, {3});
        T2N_COMPARE_TENSOR(op("tract_core_cast", {tv(x)}, {{"to", Str("i64")}}),
                           L64({-1, 0, 2}, {3}));
        T2N_COMPARE_TENSOR(op("tract_core_cast", {tv(x)}, {{"to", Str("F16")}}), x.to(at::kHalf));
        T2N_COMPARE_TENSOR(op("tract_core_cast", {tv(x)}, {{"to", Str("bool")}}),
                           L64({1, 0, 1}, {3}).to(at::kBool));
        T2N_COMPARE_TENSOR(op("cast", {tv(x)}, {}, Khronos, "integer"), L64({-1, 0, 2}, {3}));
        auto e = expectError([&] { op("cast", {tv(x)}, {}, Tract, "integer"); });
        QVERIFY2(e.message().find("tract does not implement") != std::string::npos,
                 e.message().c_str());
    }

    void quantization() {
        // linear_quantize(x, 0, 1, bits = 2): 3 levels of width 1/3.
        const at::Tensor x = F({-0.5f, 0.1f, 0.2f, 0.5f, 0.9f, 1.5f}, {6});
        T2N_COMPARE_TENSOR(op("linear_quantize", {tv(x), S(0.0), S(1.0)}, {{"bits", I(2)}}),
                           F({0, 0, 1.f / 3, 2.f / 3, 1, 1}, {6}));
        // zero_point_linear_quantize, unsigned 8 bits, zero point 10, scale 0.5
        T2N_COMPARE_TENSOR(op("zero_point_linear_quantize",
                              {tv(F({-10, 0.74f, 200}, {3})), I(10), S(0.5)},
                              {{"bits", I(8)}, {"signed", B(false)}, {"symmetric", B(false)}}),
                           F({-5, 0.5f, 122.5f}, {3}));
    }

    // ---- shape operations -----------------------------------------------------

    void reshape_data() {
        QTest::addColumn<QList<qlonglong>>("shape");
        QTest::addColumn<int>("start");
        QTest::addColumn<int>("count");
        QTest::addColumn<QList<qlonglong>>("expected");
        QTest::newRow("plain") << QList<qlonglong>{6, 4} << 0 << -1 << QList<qlonglong>{6, 4};
        QTest::newRow("zero copies")
            << QList<qlonglong>{0, -1} << 0 << -1 << QList<qlonglong>{2, 12};
        QTest::newRow("infer") << QList<qlonglong>{-1, 2, 2} << 0 << -1
                               << QList<qlonglong>{6, 2, 2};
        QTest::newRow("sub range") << QList<qlonglong>{12} << 1 << 2 << QList<qlonglong>{2, 12};
        QTest::newRow("sub range zero")
            << QList<qlonglong>{0, 2, 2} << 1 << 2 << QList<qlonglong>{2, 3, 2, 2};
        QTest::newRow("start only")
            << QList<qlonglong>{4, -1} << 2 << -1 << QList<qlonglong>{2, 3, 4, 1};
        QTest::newRow("insert unit")
            << QList<qlonglong>{1} << 1 << 0 << QList<qlonglong>{2, 1, 3, 4};
    }

    void reshape() {
        QFETCH(QList<qlonglong>, shape);
        QFETCH(int, start);
        QFETCH(int, count);
        QFETCH(QList<qlonglong>, expected);
        const at::Tensor x = iota({2, 3, 4});
        const at::Tensor got = op("reshape", {tv(x)},
                                  {{"shape", Ints({shape.begin(), shape.end()})},
                                   {"axis_start", I(start)},
                                   {"axis_count", I(count)}});
        T2N_COMPARE_TENSOR(got, x.reshape(std::vector<int64_t>(expected.begin(), expected.end())));
    }

    void reshapeErrors() {
        const at::Tensor x = iota({2, 3, 4});
        auto e = expectError([&] { op("reshape", {tv(x)}, {{"shape", Ints({5, -1})}}); });
        QVERIFY2(e.message().find("cannot infer") != std::string::npos, e.message().c_str());
        e = expectError([&] { op("reshape", {tv(x)}, {{"shape", Ints({7})}}); });
        QVERIFY2(e.message().find("f32[2,3,4]") != std::string::npos, e.message().c_str());
    }

    void transposeShortAxes() {
        // axes [1, 0] on a rank-4 tensor swaps the first two, keeps the others.
        const at::Tensor x = iota({2, 3, 4, 5});
        T2N_COMPARE_TENSOR(op("transpose", {tv(x)}, {{"axes", Ints({1, 0})}}),
                           x.permute({1, 0, 2, 3}).contiguous());
        T2N_COMPARE_TENSOR(op("transpose", {tv(x)}, {{"axes", Ints({0, 2, 3, 1})}}),
                           x.permute({0, 2, 3, 1}).contiguous());
        auto e = expectError([&] { op("transpose", {tv(x)}, {{"axes", Ints({2, 0})}}); });
        QVERIFY2(e.message().find("permutation") != std::string::npos, e.message().c_str());
    }

    void squeezeUnsqueeze() {
        const at::Tensor x = iota({1, 3, 1, 2});
        QCOMPARE(op("squeeze", {tv(x)}, {{"axes", Ints({2, 0})}}).sizes().vec(),
                 (std::vector<int64_t>{3, 2}));
        // unsqueeze axes refer to the output, inserted in increasing order
        QCOMPARE(op("unsqueeze", {tv(iota({3, 2}))}, {{"axes", Ints({3, 0})}}).sizes().vec(),
                 (std::vector<int64_t>{1, 3, 2, 1}));
        auto e = expectError([&] { op("squeeze", {tv(x)}, {{"axes", Ints({1})}}); });
        QVERIFY2(e.message().find("not 1") != std::string::npos, e.message().c_str());
    }

    void concatStackSplitTile() {
        const at::Tensor a = iota({2, 2}), b = iota({2, 3});
        T2N_COMPARE_TENSOR(op("concat", {Arr({tv(a), tv(b)})}, {{"axis", I(1)}}),
                           at::cat({a, b}, 1));
        T2N_COMPARE_TENSOR(op("stack", {Arr({tv(a), tv(a + 1)})}, {{"axis", I(2)}}),
                           at::stack({a, a + 1}, 2));
        auto parts = t2n::interp::runOperation("unstack", {tv(b)}, {{"axis", I(1)}}).at(0);
        QCOMPARE(parts.items.size(), std::size_t(3));
        T2N_COMPARE_TENSOR(parts.items[2].tensor, b.select(1, 2));
        auto split =
            t2n::interp::runOperation("split", {tv(iota({2, 6}))},
                                      {{"axis", I(1)}, {"ratios", Ints({1, 2})}}, mode(Khronos))
                .at(0);
        QCOMPARE(split.items.size(), std::size_t(2));
        T2N_COMPARE_TENSOR(split.items[1].tensor, iota({2, 6}).narrow(1, 2, 4));
        T2N_COMPARE_TENSOR(op("tile", {tv(a)}, {{"repeats", Ints({2, 3})}}), a.repeat({2, 3}));
        auto e = expectError([&] {
            op("concat", {Arr({tv(a), tv(iota({3, 3}))})}, {{"axis", I(1)}});
        });
        QVERIFY2(e.message().find("other axes differ") != std::string::npos, e.message().c_str());
    }

    void slice_data() {
        QTest::addColumn<int>("begin");
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("khronos");
        QTest::addColumn<QList<qlonglong>>("expected"); // indices kept of 0..7
        using L = QList<qlonglong>;
        QTest::newRow("plain") << 2 << 5 << 1 << false << L{2, 3, 4};
        QTest::newRow("negative begin") << -3 << 8 << 1 << false << L{5, 6, 7};
        QTest::newRow("negative end") << 1 << -2 << 1 << false << L{1, 2, 3, 4, 5};
        QTest::newRow("end 0 means to the end") << 5 << 0 << 1 << false << L{5, 6, 7};
        QTest::newRow("clamped end") << 6 << 100 << 1 << false << L{6, 7};
        QTest::newRow("clamped begin") << -100 << 2 << 1 << false << L{0, 1};
        QTest::newRow("stride 2") << 1 << 7 << 2 << false << L{1, 3, 5};
        QTest::newRow("stride 3 to end (tract: end 0)") << 1 << 0 << 3 << false << L{1, 4, 7};
        QTest::newRow("stride 3 end 0 (khronos: empty)") << 1 << 0 << 3 << true << L{};
        QTest::newRow("negative stride") << 6 << 1 << -2 << false << L{6, 4, 2};
        QTest::newRow("empty") << 5 << 3 << 1 << false << L{};
    }

    void slice() {
        QFETCH(int, begin);
        QFETCH(int, end);
        QFETCH(int, stride);
        QFETCH(bool, khronos);
        QFETCH(QList<qlonglong>, expected);
        const at::Tensor x = iota({2, 8});
        const at::Tensor got = op("slice", {tv(x)},
                                  {{"axes", Ints({1})},
                                   {"begin", Ints({begin})},
                                   {"end", Ints({end})},
                                   {"stride", Ints({stride})}},
                                  khronos ? Khronos : Tract);
        const at::Tensor idx =
            at::tensor(std::vector<int64_t>(expected.begin(), expected.end()), at::kLong);
        T2N_COMPARE_TENSOR(got, x.index_select(1, idx));
    }

    void pad_data() {
        QTest::addColumn<QString>("border");
        QTest::addColumn<bool>("khronos");
        QTest::addColumn<QList<double>>("expected"); // [1 2 3] padded (2, 3)
        using L = QList<double>;
        QTest::newRow("constant") << "constant" << false << L{7, 7, 1, 2, 3, 7, 7, 7};
        QTest::newRow("reflect") << "reflect" << false << L{3, 2, 1, 2, 3, 2, 1, 2};
        QTest::newRow("replicated (tract)") << "replicated" << false << L{1, 1, 1, 2, 3, 3, 3, 3};
        QTest::newRow("replicate (khronos)") << "replicate" << true << L{1, 1, 1, 2, 3, 3, 3, 3};
        QTest::newRow("reflect-even (khronos)")
            << "reflect-even" << true << L{2, 1, 1, 2, 3, 3, 2, 1};
    }

    void pad() {
        QFETCH(QString, border);
        QFETCH(bool, khronos);
        QFETCH(QList<double>, expected);
        const at::Tensor x = F({1, 2, 3}, {1, 3});
        const at::Tensor got = op("pad", {tv(x)},
                                  {{"padding", Pairs({{0, 0}, {2, 3}})},
                                   {"border", Str(border.toStdString())},
                                   {"value", S(7.0)}},
                                  khronos ? Khronos : Tract);
        T2N_COMPARE_TENSOR(got, F(std::vector<float>(expected.begin(), expected.end()), {1, 8}));
    }

    void padSpellingsPerTarget() {
        const at::Tensor x = F({1, 2, 3}, {3});
        auto e = expectError([&] {
            op("pad", {tv(x)}, {{"padding", Pairs({{1, 1}})}, {"border", Str("replicate")}});
        });
        QVERIFY2(e.message().find("replicated") != std::string::npos, e.message().c_str());
        e = expectError([&] {
            op("pad", {tv(x)}, {{"padding", Pairs({{1, 1}})}, {"border", Str("replicated")}},
               Khronos);
        });
        QVERIFY2(e.message().find("not supported") != std::string::npos, e.message().c_str());
        e = expectError([&] { op("pad", {tv(x)}, {{"padding", Pairs({{1, 1}, {0, 0}})}}); });
        QVERIFY2(e.message().find("rank-1") != std::string::npos, e.message().c_str());
    }

    void gatherAndFriends() {
        const at::Tensor x = iota({3, 4});
        // tract_core_gather: output = input.shape[:axis] + indices.shape + input.shape[axis+1:]
        const at::Tensor idx = L64({3, -1, 0, 1}, {2, 2});
        const at::Tensor got = op("tract_core_gather", {tv(x), tv(idx)}, {{"axis", I(1)}});
        QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{3, 2, 2}));
        T2N_COMPARE_TENSOR(got.select(0, 1), F({7, 7, 4, 5}, {2, 2}));
        T2N_COMPARE_TENSOR(op("gather", {tv(x), tv(L64({2, 0}, {2}))}, {}, Khronos),
                           x.index_select(0, L64({2, 0}, {2})));
        const at::Tensor ge = L64({0, 3, 1, 1, 2, 0}, {3, 2});
        T2N_COMPARE_TENSOR(op("tract_core_gather_elements", {tv(x), tv(ge)}, {{"axis", I(1)}}),
                           at::gather(x, 1, ge));
        // gather_nd: coordinates on the leading axes, as PyTorch's x[rows, cols]
        const at::Tensor cube = iota({2, 3, 4});
        const at::Tensor rows = L64({1, 0, 1}, {3}), cols = L64({2, 0, 1}, {3});
        T2N_COMPARE_TENSOR(op("tract_core_gather_nd", {tv(cube), tv(at::stack({rows, cols}, 1))},
                              {{"batch_dims", I(0)}}),
                           cube.index({rows, cols}));
        // batch_dims = 1: one coordinate per batch item, into its own [3, 4]
        T2N_COMPARE_TENSOR(
            op("tract_core_gather_nd", {tv(cube), tv(L64({2, 0}, {2, 1}))}, {{"batch_dims", I(1)}}),
            at::stack({cube[0][2], cube[1][0]}));
        // tract_core_broadcast follows NumPy (leading axes), not the trailing rule
        T2N_COMPARE_TENSOR(
            op("tract_core_broadcast", {tv(F({1, 2}, {2}))}, {{"shape", Ints({3, 2})}}),
            F({1, 2, 1, 2, 1, 2}, {3, 2}));
        T2N_COMPARE_TENSOR(
            op("tract_core_dyn_slice", {tv(x), I(1), I(3)}, {{"len", I(2)}, {"axis", I(0)}}),
            x.slice(0, 1, 3));
        T2N_COMPARE_TENSOR(op("tract_core_trilu", {tv(x), I(1)}, {{"upper", B(true)}}),
                           at::triu(x, 1));
        T2N_COMPARE_TENSOR(op("tract_core_trilu", {tv(x), I(0)}, {{"upper", B(false)}}),
                           at::tril(x, 0));
        T2N_COMPARE_TENSOR(op("tract_core_shape_of", {tv(x)}), L64({3, 4}, {2}));
        T2N_COMPARE_TENSOR(op("tract_core_range", {I(2), I(9), I(3)}), L64({2, 5, 8}, {3}));
        T2N_COMPARE_TENSOR(op("tract_core_range", {S(0.0), S(1.0), S(0.25)}),
                           F({0, 0.25f, 0.5f, 0.75f}, {4}));
        auto e = expectError([&] {
            op("tract_core_gather", {tv(x), tv(L64({4}, {1}))}, {{"axis", I(1)}});
        });
        QVERIFY2(e.message().find("out of range") != std::string::npos, e.message().c_str());
    }

    void constantKhronos() {
        T2N_COMPARE_TENSOR(
            op("constant", {}, {{"shape", Ints({2, 2})}, {"value", Arr({S(1.5)})}}, Khronos),
            at::full({2, 2}, 1.5f));
        T2N_COMPARE_TENSOR(op("constant", {},
                              {{"shape", Ints({3})}, {"value", Arr({I(1), I(2), I(3)})}}, Khronos,
                              "integer"),
                           L64({1, 2, 3}, {3}));
    }

    // ---- reductions and softmax -------------------------------------------------

    void reductionsKeepAxes() {
        const at::Tensor x = iota({2, 3, 4});
        const std::vector<int64_t> axes{0, 2};
        const Named ax{{"axes", Ints(axes)}};
        T2N_COMPARE_TENSOR(op("sum_reduce", {tv(x)}, ax), x.sum(axes, true));
        T2N_COMPARE_TENSOR(op("mean_reduce", {tv(x)}, ax), x.mean(axes, true));
        T2N_COMPARE_TENSOR(
            op("sum_reduce", {tv(x)}, {{"axes", Ints(axes)}, {"normalize", B(true)}}),
            x.mean(axes, true));
        T2N_COMPARE_TENSOR(op("max_reduce", {tv(x)}, ax), at::amax(x, axes, true));
        T2N_COMPARE_TENSOR(op("min_reduce", {tv(x)}, ax), at::amin(x, axes, true));
        T2N_COMPARE_TENSOR(op("tract_core_product_reduce", {tv(x + 1)}, {{"axes", Ints({1})}}),
                           at::prod(x + 1, 1, true));
        // argmax over several axes: the linear index within the reduced sub-tensor
        const at::Tensor a = F({0, 5, 1, 2, 9, 3, 4, 9, 8, 7, 6, 1}, {2, 2, 3});
        T2N_COMPARE_TENSOR(op("argmax_reduce", {tv(a)}, {{"axes", Ints({1, 2})}}),
                           L64({4, 1}, {2, 1, 1}));
        T2N_COMPARE_TENSOR(op("tract_core_argmax_reduce_last", {tv(a)}, {{"axes", Ints({1, 2})}}),
                           L64({4, 1}, {2, 1, 1}));
        T2N_COMPARE_TENSOR(op("argmin_reduce", {tv(a)}, {{"axes", Ints({2})}}),
                           L64({0, 0, 0, 2}, {2, 2, 1}));
        // ties: first occurrence, or the last one for *_reduce_last
        const at::Tensor t = F({1, 3, 3, 0}, {1, 4});
        T2N_COMPARE_TENSOR(op("argmax_reduce", {tv(t)}, {{"axes", Ints({1})}}), L64({1}, {1, 1}));
        T2N_COMPARE_TENSOR(op("tract_core_argmax_reduce_last", {tv(t)}, {{"axes", Ints({1})}}),
                           L64({2}, {1, 1}));
        const at::Tensor b = L64({1, 0, 0, 0}, {2, 2}).to(at::kBool);
        T2N_COMPARE_TENSOR(op("any_reduce", {tv(b)}, {{"axes", Ints({1})}}),
                           L64({1, 0}, {2, 1}).to(at::kBool));
        T2N_COMPARE_TENSOR(op("all_reduce", {tv(b)}, {{"axes", Ints({0})}}),
                           L64({0, 0}, {1, 2}).to(at::kBool));
        // integer mean: the count is divided in the tensor's dtype (truncation)
        T2N_COMPARE_TENSOR(op("mean_reduce", {tv(L64({1, 2, 4}, {1, 3}))}, {{"axes", Ints({1})}}),
                           L64({2}, {1, 1}));
        auto e = expectError([&] { op("sum_reduce", {tv(x)}, {{"axes", Ints({-1})}}); });
        QVERIFY2(e.message().find("non-negative") != std::string::npos, e.message().c_str());
    }

    void moments() {
        const at::Tensor x = randn({2, 3, 4});
        auto r = t2n::interp::runOperation("moments", {tv(x)}, {{"axes", Ints({1, 2})}});
        QCOMPARE(r.size(), std::size_t(2));
        T2N_COMPARE_TENSOR(r[0].tensor, x.mean({1, 2}, true));
        T2N_COMPARE_TENSOR(r[1].tensor, x.var({1, 2}, false, true));
    }

    void softmaxFamily() {
        const at::Tensor x = randn({2, 3, 4});
        // default axes = [1]
        T2N_COMPARE_TENSOR(op("softmax", {tv(x)}), at::softmax(x, 1));
        T2N_COMPARE_TENSOR(op("softmax", {tv(x)}, {{"axes", Ints({2})}}), at::softmax(x, 2));
        // several axes: one softmax over the flattened axes
        T2N_COMPARE_TENSOR(op("softmax", {tv(x)}, {{"axes", Ints({1, 2})}}),
                           at::softmax(x.reshape({2, 12}), 1).reshape({2, 3, 4}));
        T2N_COMPARE_TENSOR(op("tract_core_log_softmax", {tv(x)}, {{"axes", Ints({2})}}),
                           at::log_softmax(x, 2));
        T2N_COMPARE_TENSOR(op("tract_core_softmax", {tv(x)}, {{"axes", Ints({0})}}),
                           at::softmax(x, 0));
    }

    void topk() {
        const at::Tensor x = F({3, 1, 4, 1, 5, 9, 2, 6}, {2, 4});
        auto r = t2n::interp::runOperation("tract_core_topk", {tv(x)},
                                           {{"k", I(2)}, {"axis", I(1)}, {"largest", B(true)}});
        T2N_COMPARE_TENSOR(r.at(0).tensor, F({4, 3, 9, 6}, {2, 2}));
        T2N_COMPARE_TENSOR(r.at(1).tensor, L64({2, 0, 1, 3}, {2, 2}));
        r = t2n::interp::runOperation("tract_core_topk", {tv(x)},
                                      {{"k", I(1)}, {"axis", I(1)}, {"largest", B(false)}});
        T2N_COMPARE_TENSOR(r.at(0).tensor, F({1, 2}, {2, 1}));
    }

    // tract_onnx_random (issue 26): uniform draws lie in [low, high), f32 and
    // f64, with the moments of the distribution; normal draws have its mean
    // and std; a seed repeats a draw; tract's refusals are refusals here.
    void randomUniformLiesInItsRange() {
        for (const char* dt : {"f32", "f64"}) {
            const at::Tensor u = op("tract_onnx_random", {},
                                    {{"datum_type", Str(dt)},
                                     {"shape", Ints({100, 100})},
                                     {"dist", Str("uniform")},
                                     {"parameters", Arr({S(-2.0), S(3.0)})}});
            QCOMPARE(u.sizes().vec(), std::vector<int64_t>({100, 100}));
            QCOMPARE(u.scalar_type(), std::string(dt) == "f32" ? at::kFloat : at::kDouble);
            const double lo = u.min().item<double>(), hi = u.max().item<double>();
            QVERIFY2(lo >= -2.0 && hi < 3.0, qPrintable(QString("[%1, %2]").arg(lo).arg(hi)));
            // 10^4 draws: the mean of U(-2, 3) is 0.5 (std 1.44 / 100 per draw).
            QVERIFY(std::abs(u.mean().item<double>() - 0.5) < 0.1);
            QVERIFY(hi - lo > 4.9);
        }
        // An interval one f32 step wide: every draw is its low end.
        const float a = 1.0f, b = std::nextafter(1.0f, 2.0f);
        const at::Tensor narrow = op("tract_onnx_random", {},
                                     {{"datum_type", Str("f32")},
                                      {"shape", Ints({1000})},
                                      {"dist", Str("uniform")},
                                      {"parameters", Arr({S(a), S(b)})}});
        QVERIFY(narrow.max().item<float>() < b);
    }

    void randomNormalAndSeeds() {
        auto normal = [](Named extra) {
            Named args{{"datum_type", Str("f32")},
                       {"shape", Ints({200, 100})},
                       {"dist", Str("normal")},
                       {"parameters", Arr({S(2.0), S(3.0)})}};
            args.insert(args.end(), extra.begin(), extra.end());
            return op("tract_onnx_random", {}, args);
        };
        const at::Tensor n = normal({});
        QVERIFY(std::abs(n.mean().item<double>() - 2.0) < 0.1);
        QVERIFY(std::abs(n.std().item<double>() - 3.0) < 0.1);
        T2N_COMPARE_TENSOR(normal({{"seed", I(7)}}), normal({{"seed", I(7)}}));
        QVERIFY(!at::equal(normal({{"seed", I(7)}}), normal({{"seed", I(8)}})));
        // f16 is drawn in f32 and cast: normal values, not tract's uniform ones.
        const at::Tensor h = op("tract_onnx_random", {},
                                {{"datum_type", Str("f16")},
                                 {"shape", Ints({10000})},
                                 {"dist", Str("normal")},
                                 {"parameters", Arr({S(0.0), S(1.0)})}});
        QCOMPARE(h.scalar_type(), at::kHalf);
        QVERIFY(h.to(at::kFloat).min().item<float>() < -2.5);
        for (const auto& [args, why] : std::vector<std::pair<Named, std::string>>{
                 {{{"datum_type", Str("i64")}, {"dist", Str("uniform")}}, "f16, f32 or f64"},
                 {{{"datum_type", Str("f32")}, {"dist", Str("gamma")}}, "unexpected distribution"},
             }) {
            Named all = args;
            all.push_back({"shape", Ints({2})});
            all.push_back({"parameters", Arr({S(0.0), S(1.0)})});
            auto e = expectError([&] { op("tract_onnx_random", {}, all); });
            QVERIFY2(e.message().find(why) != std::string::npos, e.message().c_str());
        }
        auto e = expectError([&] {
            op("tract_onnx_random", {},
               {{"datum_type", Str("f32")},
                {"shape", Ints({2})},
                {"dist", Str("uniform")},
                {"parameters", Arr({S(1.0), S(1.0)})}});
        });
        QVERIFY2(e.message().find("low < high") != std::string::npos, e.message().c_str());
    }

    // Two draws of one graph differ, and a run repeats the previous one.
    void randomDrawsOfAGraph() {
        const auto model = interp_test::modelOf(
            "version 1.0;\nextension tract_registry tract_onnx;\n"
            "graph g(x) -> (a, b) {\n"
            "  x = external<scalar>(shape = [1]);\n"
            "  a = tract_onnx_random(datum_type = 'f32', shape = [64], dist = 'uniform', "
            "parameters = [0.0, 1.0]);\n"
            "  b = tract_onnx_random(datum_type = 'f32', shape = [64], dist = 'uniform', "
            "parameters = [0.0, 1.0]);\n"
            "}\n");
        t2n::interp::Interpreter interpreter(model);
        const std::map<std::string, at::Tensor> in{{"x", F({1}, {1})}};
        const auto first = interpreter.run(in), second = interpreter.run(in);
        QVERIFY(!at::equal(first.outputs.at("a"), first.outputs.at("b")));
        T2N_COMPARE_TENSOR(first.outputs.at("a"), second.outputs.at("a"));
        auto e = expectError([] {
            const auto khronos = interp_test::modelOf(
                "version 1.0;\ngraph g(x) -> (a) {\n  x = external<scalar>(shape = [1]);\n"
                "  a = tract_onnx_random(datum_type = 'f32', shape = [2], dist = 'uniform', "
                "parameters = [0.0, 1.0]);\n}\n");
            t2n::interp::Interpreter k(khronos, mode(Khronos));
        });
        QVERIFY2(e.message().find("tract_onnx_random") != std::string::npos, e.message().c_str());
    }

    void operationSets() {
        const auto tract = t2n::interp::supportedOperations(Tract);
        const auto khronos = t2n::interp::supportedOperations(Khronos);
        auto has = [](const std::vector<std::string>& v, const char* n) {
            return std::find(v.begin(), v.end(), n) != v.end();
        };
        QVERIFY(has(tract, "tract_core_scan") && !has(khronos, "tract_core_scan"));
        QVERIFY(has(khronos, "split") && !has(tract, "split"));
        QVERIFY(has(khronos, "rcp") && !has(tract, "rcp") && has(tract, "recip"));
        QVERIFY(has(tract, "conv") && has(khronos, "conv"));
        QVERIFY(has(tract, "elu") && has(khronos, "elu"));
    }
};

T2N_TEST_SUITE(InterpreterOpsTest)
#include "tst_interpreter_ops.moc"
