// translate/lower_recurrent.cpp: recurrent cells and layers decomposed into
// matrix products, slices and gate activations (layers unrolled over a
// static time axis).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateRecurrentTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// One LSTM step: both outputs (h', c') compared.
    void lstmCellBothStates() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %h : Tensor, %c : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %state : Tensor[] = prim::ListConstruct(%h, %c)
  %h1 : Tensor, %c1 : Tensor = aten::lstm_cell(%x, %state, %w_ih, %w_hh, %b_ih, %b_hh)
  return (%h1, %c1)
)IR",
                               {"x:2x3:f32", "h:2x4:f32", "c:2x4:f32"},
                               {{"w_ih", seeded({16, 3})},
                                {"w_hh", seeded({16, 4}, 8)},
                                {"b_ih", seeded({16}, 9)},
                                {"b_hh", seeded({16}, 10)}});
        EXPECT_NNEF("# CHECK: sigmoid(\n# CHECK: tanh(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t{2});
    }

    /// A bidirectional GRU layer read at its last step: each step's two
    /// directions are joined before the steps (tract 0.23.5 panicked on the
    /// concat of the two whole sequences when its optimizer pushed the
    /// last-step slice into it); the numbers are LibTorch's.
    void bidirectionalGruJoinedPerStep() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %h : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %w_ih_r : Tensor = prim::GetAttr[name="w_ih_r"](%self)
  %w_hh_r : Tensor = prim::GetAttr[name="w_hh_r"](%self)
  %b_ih_r : Tensor = prim::GetAttr[name="b_ih_r"](%self)
  %b_hh_r : Tensor = prim::GetAttr[name="b_hh_r"](%self)
  %params : Tensor[] = prim::ListConstruct(%w_ih, %w_hh, %b_ih, %b_hh, %w_ih_r, %w_hh_r, %b_ih_r, %b_hh_r)
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %last : int = prim::Constant[value=-1]()
  %p : float = prim::Constant[value=0.]()
  %out : Tensor, %hn : Tensor = aten::gru(%x, %h, %params, %true, %one, %p, %false, %true, %true)
  %y : Tensor = aten::select(%out, %one, %last)
  return (%y)
)IR",
                               {"x:2x5x3:f32", "h:2x2x4:f32"},
                               {{"w_ih", seeded({12, 3})},
                                {"w_hh", seeded({12, 4}, 8)},
                                {"b_ih", seeded({12}, 9)},
                                {"b_hh", seeded({12}, 10)},
                                {"w_ih_r", seeded({12, 3}, 11)},
                                {"w_hh_r", seeded({12, 4}, 12)},
                                {"b_ih_r", seeded({12}, 13)},
                                {"b_hh_r", seeded({12}, 14)}});
        EXPECT_NNEF("# CHECK-COUNT-5: step_directions\n"
                    "# CHECK: bidirectional = concat([",
                    e);
        QVERIFY(e.report.check.passed);
    }

    /// A GRU saved in training mode (train=True: model.eval() forgotten, as
    /// in a genuine tch-rs sequence model) computes as in eval mode when no
    /// dropout runs between layers: exported with a warning and matched
    /// against LibTorch's run of the same training-mode graph. With dropout
    /// between two layers the model draws random masks: refused, naming it.
    void gruSavedInTrainingMode_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<double>("dropout");
        QTest::addColumn<bool>("exports");
        QTest::newRow("one layer, dropout 0.3") << 1 << 0.3 << true;
        QTest::newRow("two layers, no dropout") << 2 << 0.0 << true;
        QTest::newRow("two layers, dropout 0.3") << 2 << 0.3 << false;
    }
    void gruSavedInTrainingMode() {
        QFETCH(int, layers);
        QFETCH(double, dropout);
        QFETCH(bool, exports);
        std::string params, attrs;
        std::vector<std::pair<std::string, at::Tensor>> weights;
        for (int l = 0; l < layers; ++l) {
            const int64_t in = l == 0 ? 3 : 4;
            for (const auto& [name, shape] :
                 std::vector<std::pair<std::string, std::vector<int64_t>>>{
                     {"w_ih", {12, in}}, {"w_hh", {12, 4}}, {"b_ih", {12}}, {"b_hh", {12}}}) {
                const std::string n = name + std::to_string(l);
                attrs += "  %" + n + " : Tensor = prim::GetAttr[name=\"" + n + "\"](%self)\n";
                params += (params.empty() ? "%" : ", %") + n;
                weights.push_back({n, seeded(shape, static_cast<uint64_t>(weights.size()) + 3)});
            }
        }
        const std::string ir = "graph(%self : Tensor, %x : Tensor, %h : Tensor):\n" + attrs +
                               "  %params : Tensor[] = prim::ListConstruct(" + params + ")\n" +
                               "  %true : bool = prim::Constant[value=1]()\n"
                               "  %false : bool = prim::Constant[value=0]()\n"
                               "  %layers : int = prim::Constant[value=" +
                               std::to_string(layers) + "]()\n" +
                               "  %p : float = prim::Constant[value=" + std::to_string(dropout) +
                               "]()\n"
                               "  %out : Tensor, %hn : Tensor = aten::gru(%x, %h, %params, %true, "
                               "%layers, %p, %true, %false, %true)\n"
                               "  return (%out)\n";
        const std::string h = "h:" + std::to_string(layers) + "x2x4:f32";
        if (!exports) {
            const auto refused = exportSnippet(ir.c_str(), {"x:2x5x3:f32", h}, weights);
            QVERIFY2(refused.nnef.empty(), refused.nnef.c_str());
            QVERIFY2(refused.error.find("dropout") != std::string::npos, refused.error.c_str());
            QVERIFY2(refused.error.find("model.eval()") != std::string::npos,
                     refused.error.c_str());
            return;
        }
        auto e = exportSnippet(ir.c_str(), {"x:2x5x3:f32", h}, weights);
        QVERIFY(e.report.check.passed);
        bool warned = false;
        for (const auto& w : e.report.warnings)
            warned = warned || w.find("saved in training mode") != std::string::npos;
        QVERIFY(warned);
    }

    /// One GRU step, without biases.
    void gruCellWithoutBias() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %h : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %none : NoneType = prim::Constant()
  %h1 : Tensor = aten::gru_cell(%x, %h, %w_ih, %w_hh, %none, %none)
  return (%h1)
)IR",
                               {"x:3x5:f32", "h:3x2:f32"},
                               {{"w_ih", seeded({6, 5})}, {"w_hh", seeded({6, 2}, 8)}});
        EXPECT_NNEF("# CHECK: sigmoid(\n# CHECK: tanh(", e);
    }

    /// Two steps of a tanh RNN cell, the second fed the first's state.
    void rnnTanhCellTwice() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %h : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %h1 : Tensor = aten::rnn_tanh_cell(%x, %h, %w_ih, %w_hh, %b_ih, %b_hh)
  %h2 : Tensor = aten::rnn_tanh_cell(%x, %h1, %w_ih, %w_hh, %b_ih, %b_hh)
  return (%h2)
)IR",
                               {"x:2x3:f32", "h:2x4:f32"},
                               {{"w_ih", seeded({4, 3})},
                                {"w_hh", seeded({4, 4}, 8)},
                                {"b_ih", seeded({4}, 9)},
                                {"b_hh", seeded({4}, 10)}});
        EXPECT_NNEF("# CHECK: tanh(\n# CHECK: tanh(", e);
    }
};

T2N_TEST_SUITE(TranslateRecurrentTest)
#include "recurrent_test.moc"
