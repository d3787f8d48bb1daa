// translate/lower_attention.cpp: the fused attention kernels PyTorch 1.13
// runs in eval mode (aten::_native_multi_head_attention of
// nn.MultiheadAttention, aten::_transformer_encoder_layer_fwd of
// nn.TransformerEncoderLayer) spelled out as projections, per-head scaled
// dot products, softmax and layer norms, checked against LibTorch's kernels.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

namespace {

// Embedding 8, 2 heads: packed q/k/v projection and the output projection.
t2n::test::Params attentionWeights() {
    return {{"qkv_w", seeded({24, 8}, 51)},
            {"qkv_b", seeded({24}, 52)},
            {"proj_w", seeded({8, 8}, 53)},
            {"proj_b", seeded({8}, 54)}};
}

} // namespace

class TranslateAttentionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Self-attention over 5 steps with a key padding mask [B, S] and the
    /// head-averaged weights as a second output (LibTorch 1.13's fused
    /// kernel takes query, key and value of one shape only: nn.MultiheadAttention
    /// runs it for self-attention).
    void multiHeadAttentionWithKeyPaddingAndWeights() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %pad : Tensor):
  %qkv_w : Tensor = prim::GetAttr[name="qkv_w"](%self)
  %qkv_b : Tensor = prim::GetAttr[name="qkv_b"](%self)
  %proj_w : Tensor = prim::GetAttr[name="proj_w"](%self)
  %proj_b : Tensor = prim::GetAttr[name="proj_b"](%self)
  %e : int = prim::Constant[value=8]()
  %h : int = prim::Constant[value=2]()
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %out : Tensor, %w : Tensor = aten::_native_multi_head_attention(%x, %x, %x, %e, %h, %qkv_w, %qkv_b, %proj_w, %proj_b, %pad, %true, %true, %one)
  return (%out, %w)
)IR",
                               {"x:2x5x8:f32", "pad:2x5:bool=[0,0,0,1,1,0,0,0,0,1]"},
                               attentionWeights());
        EXPECT_NNEF("# CHECK: softmax(\n# CHECK: head_mean = mean_reduce(", e);
    }

    /// Self-attention without a mask, weights per head (average = false).
    void multiHeadAttentionPerHeadWeights() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %qkv_w : Tensor = prim::GetAttr[name="qkv_w"](%self)
  %qkv_b : Tensor = prim::GetAttr[name="qkv_b"](%self)
  %proj_w : Tensor = prim::GetAttr[name="proj_w"](%self)
  %proj_b : Tensor = prim::GetAttr[name="proj_b"](%self)
  %e : int = prim::Constant[value=8]()
  %h : int = prim::Constant[value=2]()
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %out : Tensor, %w : Tensor = aten::_native_multi_head_attention(%x, %x, %x, %e, %h, %qkv_w, %qkv_b, %proj_w, %proj_b, %none, %true, %false, %none)
  return (%out, %w)
)IR",
                               {"x:2x4x8:f32"}, attentionWeights());
        EXPECT_NNEF("# CHECK: softmax(\n# CHECK-NOT: head_mean", e);
    }

    /// A post-norm encoder layer with GELU (erf written out) and a
    /// norm-first one with ReLU, one after the other.
    void encoderLayersPostNormGeluThenPreNormRelu() {
        t2n::test::Params p = attentionWeights();
        for (auto [name, shape, seed] :
             std::vector<std::tuple<const char*, std::vector<int64_t>, uint64_t>>{
                 {"n1_w", {8}, 61},
                 {"n1_b", {8}, 62},
                 {"n2_w", {8}, 63},
                 {"n2_b", {8}, 64},
                 {"f1_w", {16, 8}, 65},
                 {"f1_b", {16}, 66},
                 {"f2_w", {8, 16}, 67},
                 {"f2_b", {8}, 68}})
            p.emplace_back(name, seeded(shape, seed));
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %qkv_w : Tensor = prim::GetAttr[name="qkv_w"](%self)
  %qkv_b : Tensor = prim::GetAttr[name="qkv_b"](%self)
  %proj_w : Tensor = prim::GetAttr[name="proj_w"](%self)
  %proj_b : Tensor = prim::GetAttr[name="proj_b"](%self)
  %n1_w : Tensor = prim::GetAttr[name="n1_w"](%self)
  %n1_b : Tensor = prim::GetAttr[name="n1_b"](%self)
  %n2_w : Tensor = prim::GetAttr[name="n2_w"](%self)
  %n2_b : Tensor = prim::GetAttr[name="n2_b"](%self)
  %f1_w : Tensor = prim::GetAttr[name="f1_w"](%self)
  %f1_b : Tensor = prim::GetAttr[name="f1_b"](%self)
  %f2_w : Tensor = prim::GetAttr[name="f2_w"](%self)
  %f2_b : Tensor = prim::GetAttr[name="f2_b"](%self)
  %e : int = prim::Constant[value=8]()
  %h : int = prim::Constant[value=2]()
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %none : NoneType = prim::Constant()
  %a : Tensor = aten::_transformer_encoder_layer_fwd(%x, %e, %h, %qkv_w, %qkv_b, %proj_w, %proj_b, %true, %false, %eps, %n1_w, %n1_b, %n2_w, %n2_b, %f1_w, %f1_b, %f2_w, %f2_b, %none, %none)
  %b : Tensor = aten::_transformer_encoder_layer_fwd(%a, %e, %h, %qkv_w, %qkv_b, %proj_w, %proj_b, %false, %true, %eps, %n1_w, %n1_b, %n2_w, %n2_b, %f1_w, %f1_b, %f2_w, %f2_b, %none, %none)
  return (%b)
)IR",
                               {"x:2x5x8:f32"}, p);
        EXPECT_NNEF("# CHECK: gelu = mul(\n# CHECK: ffn_relu = relu(", e);
    }
};

T2N_TEST_SUITE(TranslateAttentionTest)
#include "attention_test.moc"
