// translate/lower_recurrent.cpp and lower_recurrent_scan.cpp, whole layers
// (the "rnn" family): aten::lstm with proj_size, unrolled over a static time
// axis and as tract_core_scan over a dynamic one; and layers over packed
// sequences (pack_padded_sequence -> lstm/gru over data and batch sizes ->
// pad_packed_sequence) whose lengths are graph inputs. Every snippet is
// checked against LibTorch's own aten::lstm / aten::gru.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

namespace {

// One direction of an LSTM with hidden size 4, projection 3, 5 features.
t2n::test::Params projectedLstm() {
    return {{"w_ih", seeded({16, 5}, 21)},
            {"w_hh", seeded({16, 3}, 22)},
            {"b_ih", seeded({16}, 23)},
            {"b_hh", seeded({16}, 24)},
            {"w_hr", seeded({3, 4}, 25)}};
}

constexpr const char* kProjectedLstm = R"IR(
graph(%self : Tensor, %x : Tensor, %h0 : Tensor, %c0 : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %w_hr : Tensor = prim::GetAttr[name="w_hr"](%self)
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %p : float = prim::Constant[value=0.]()
  %params : Tensor[] = prim::ListConstruct(%w_ih, %w_hh, %b_ih, %b_hh, %w_hr)
  %hx : Tensor[] = prim::ListConstruct(%h0, %c0)
  %out : Tensor, %h : Tensor, %c : Tensor = aten::lstm(%x, %hx, %params, %true, %one, %p, %false, %false, %true)
  return (%out, %h, %c)
)IR";

} // namespace

class TranslateRnnTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// proj_size: h = (o * tanh(c)) W_hr^T, so h and the output have 3
    /// features and c has 4; unrolled over the static time axis.
    void lstmWithProjectionUnrolled() {
        auto e = exportSnippet(kProjectedLstm, {"x:2x4x5:f32", "h0:1x2x3:f32", "c0:1x2x4:f32"},
                               projectedLstm());
        EXPECT_NNEF("# CHECK: h_projected = matmul(\n# CHECK-NOT: tract_core_scan(", e);
    }

    /// The same layer over a dynamic time axis: a tract_core_scan whose body
    /// projects h with w_proj, checked at two lengths.
    void lstmWithProjectionScanned() {
        t2n::ExportOptions o;
        o.dynamicAxes = {t2n::DynamicAxis::parse("x:1=T")};
        auto e = exportSnippet(kProjectedLstm, {"x:2x4x5:f32", "h0:1x2x3:f32", "c0:1x2x4:f32"},
                               projectedLstm(), o);
        EXPECT_NNEF("# CHECK: fragment t2n_lstm_projected_scan_step(\n"
                    "# CHECK: h = matmul(h_full, w_proj\n# CHECK: tract_core_scan(",
                    e);
        int resized = 0;
        for (const auto& out : e.report.check.outputs)
            resized += out.name.find(" @ T=") != std::string::npos;
        QCOMPARE(resized, 3);
    }

    /// pack_padded_sequence(x, lengths, batch_first) -> bidirectional LSTM
    /// -> pad_packed_sequence: each item's forward pass ends at its length,
    /// its reverse pass starts there, the padding holds padding_value, and
    /// h_n / c_n are the states at each item's own ends.
    void bidirectionalLstmOverPackedSequence() {
        auto e =
            exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %lengths : Tensor, %h0 : Tensor, %c0 : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %w_ih_r : Tensor = prim::GetAttr[name="w_ih_r"](%self)
  %w_hh_r : Tensor = prim::GetAttr[name="w_hh_r"](%self)
  %b_ih_r : Tensor = prim::GetAttr[name="b_ih_r"](%self)
  %b_hh_r : Tensor = prim::GetAttr[name="b_hh_r"](%self)
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %six : int = prim::Constant[value=6]()
  %p : float = prim::Constant[value=0.]()
  %pad : float = prim::Constant[value=-2.5]()
  %params : Tensor[] = prim::ListConstruct(%w_ih, %w_hh, %b_ih, %b_hh, %w_ih_r, %w_hh_r, %b_ih_r, %b_hh_r)
  %hx : Tensor[] = prim::ListConstruct(%h0, %c0)
  %data : Tensor, %sizes : Tensor = aten::_pack_padded_sequence(%x, %lengths, %true)
  %out : Tensor, %h : Tensor, %c : Tensor = aten::lstm(%data, %sizes, %hx, %params, %true, %one, %p, %false, %true)
  %padded : Tensor, %lens : Tensor = aten::_pad_packed_sequence(%out, %sizes, %true, %pad, %six)
  return (%padded, %lens, %h, %c)
)IR",
                          {"x:3x6x5:f32", "lengths:3:i64=[6,4,1]", "h0:2x3x4:f32", "c0:2x3x4:f32"},
                          {{"w_ih", seeded({16, 5}, 31)},
                           {"w_hh", seeded({16, 4}, 32)},
                           {"b_ih", seeded({16}, 33)},
                           {"b_hh", seeded({16}, 34)},
                           {"w_ih_r", seeded({16, 5}, 35)},
                           {"w_hh_r", seeded({16, 4}, 36)},
                           {"b_ih_r", seeded({16}, 37)},
                           {"b_hh_r", seeded({16}, 38)}});
        EXPECT_NNEF("# CHECK: valid_steps = lt(\n# CHECK: h_kept = select(\n"
                    "# CHECK: c_kept = select(\n# CHECK: select(",
                    e);
    }

    /// A GRU over a packed sequence, time-major, no batch_first.
    void gruOverPackedSequenceTimeMajor() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %lengths : Tensor, %h0 : Tensor):
  %w_ih : Tensor = prim::GetAttr[name="w_ih"](%self)
  %w_hh : Tensor = prim::GetAttr[name="w_hh"](%self)
  %b_ih : Tensor = prim::GetAttr[name="b_ih"](%self)
  %b_hh : Tensor = prim::GetAttr[name="b_hh"](%self)
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %five : int = prim::Constant[value=5]()
  %p : float = prim::Constant[value=0.]()
  %zero : float = prim::Constant[value=0.]()
  %params : Tensor[] = prim::ListConstruct(%w_ih, %w_hh, %b_ih, %b_hh)
  %data : Tensor, %sizes : Tensor = aten::_pack_padded_sequence(%x, %lengths, %false)
  %out : Tensor, %h : Tensor = aten::gru(%data, %sizes, %h0, %params, %true, %one, %p, %false, %false)
  %padded : Tensor, %lens : Tensor = aten::_pad_packed_sequence(%out, %sizes, %false, %zero, %five)
  return (%padded, %h)
)IR",
                               {"x:5x2x3:f32", "lengths:2:i64=[5,3]", "h0:1x2x4:f32"},
                               {{"w_ih", seeded({12, 3}, 41)},
                                {"w_hh", seeded({12, 4}, 42)},
                                {"b_ih", seeded({12}, 43)},
                                {"b_hh", seeded({12}, 44)}});
        EXPECT_NNEF("# CHECK: valid_steps = lt(\n# CHECK: h_kept = select(", e);
    }
};

T2N_TEST_SUITE(TranslateRnnTest)
#include "rnn_test.moc"
