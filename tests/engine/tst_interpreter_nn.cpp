// Reference interpreter, network kernels: conv / deconv / pools / box /
// resampling / matrix products / normalisations against ATen's own
// convolution, pooling and batch-norm called directly, and hand-computed
// values where NNEF differs (pool borders at the edges, automatic padding,
// pooling over batch and channel axes, tract's readings).
#include "check/tract_readings.h"
#include "engine/interp_test_util.h"
#include "suite_macros.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace interp_test;

namespace {

/// padding = [(b0, a0), (b1, a1), ...]
Value pads(std::vector<std::pair<int64_t, int64_t>> p) {
    return Pairs(std::move(p));
}

} // namespace

class InterpreterNnTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- conv -----------------------------------------------------------------

    void conv2dAgainstAten() {
        const at::Tensor x = randn({2, 3, 7, 6}, 1), w = randn({4, 3, 3, 3}, 2);
        const at::Tensor bias = randn({1, 4}, 3);
        const at::Tensor got = op("conv", {tv(x), tv(w), tv(bias)},
                                  {{"padding", pads({{1, 1}, {1, 1}})},
                                   {"stride", Ints({2, 2})},
                                   {"dilation", Ints({1, 1})}});
        T2N_COMPARE_TENSOR_TOL(got, at::conv2d(x, w, bias.flatten(), {2, 2}, {1, 1}), 1e-4, 1e-4);
    }

    void conv1dAnd3dGroupsDilation() {
        const at::Tensor x1 = randn({1, 4, 11}, 4), w1 = randn({6, 2, 3}, 5);
        T2N_COMPARE_TENSOR_TOL(
            op("conv", {tv(x1), tv(w1)},
               {{"padding", pads({{2, 2}})}, {"dilation", Ints({2})}, {"groups", I(2)}}),
            at::conv1d(x1, w1, {}, {1}, {2}, {2}, 2), 1e-4, 1e-4);
        const at::Tensor x3 = randn({1, 2, 5, 6, 4}, 6), w3 = randn({3, 2, 3, 2, 3}, 7);
        T2N_COMPARE_TENSOR_TOL(
            op("conv", {tv(x3), tv(w3)},
               {{"padding", pads({{1, 1}, {0, 0}, {1, 1}})}, {"stride", Ints({2, 1, 1})}}),
            at::conv3d(x3, w3, {}, {2, 1, 1}, {1, 0, 1}), 1e-4, 1e-4);
    }

    void convAsymmetricPadding() {
        const at::Tensor x = randn({1, 2, 5, 5}, 8), w = randn({3, 2, 3, 3}, 9);
        const at::Tensor got = op("conv", {tv(x), tv(w)}, {{"padding", pads({{0, 2}, {1, 0}})}});
        // constant_pad_nd lists the last axis first: W (1, 0), H (0, 2)
        T2N_COMPARE_TENSOR_TOL(got, at::conv2d(at::constant_pad_nd(x, {1, 0, 0, 2}), w), 1e-4,
                               1e-4);
    }

    void convAutoPadding() {
        // Empty padding = "same" (§1.2): output ceil(i / s), extra padding after.
        const at::Tensor x = randn({1, 1, 6, 6}, 10), w3 = randn({1, 1, 3, 3}, 11);
        // stride 1, kernel 3: (1, 1)
        T2N_COMPARE_TENSOR_TOL(op("conv", {tv(x), tv(w3)}), at::conv2d(x, w3, {}, 1, 1), 1e-4,
                               1e-4);
        // stride 2 on 6: 3 outputs, total (3-1)*2 + 3 - 6 = 1 -> (0, 1)
        const at::Tensor s2 = op("conv", {tv(x), tv(w3)}, {{"stride", Ints({2, 2})}});
        QCOMPARE(s2.sizes().vec(), (std::vector<int64_t>{1, 1, 3, 3}));
        T2N_COMPARE_TENSOR_TOL(s2, at::conv2d(at::constant_pad_nd(x, {0, 1, 0, 1}), w3, {}, 2),
                               1e-4, 1e-4);
        // even kernel 4, stride 1: total 3 -> (1, 2)
        const at::Tensor w4 = randn({1, 1, 4, 4}, 12);
        T2N_COMPARE_TENSOR_TOL(op("conv", {tv(x), tv(w4)}),
                               at::conv2d(at::constant_pad_nd(x, {1, 2, 1, 2}), w4), 1e-4, 1e-4);
    }

    void convDepthwiseGroupsZero() {
        const at::Tensor x = randn({1, 3, 5, 5}, 13), w = randn({3, 1, 3, 3}, 14);
        T2N_COMPARE_TENSOR_TOL(
            op("conv", {tv(x), tv(w)}, {{"padding", pads({{1, 1}, {1, 1}})}, {"groups", I(0)}}),
            at::conv2d(x, w, {}, 1, 1, 1, 3), 1e-4, 1e-4);
        T2N_COMPARE_TENSOR_TOL(op("conv", {tv(x), tv(w)},
                                  {{"padding", pads({{1, 1}, {1, 1}})}, {"groups", I(0)}}, Khronos),
                               at::conv2d(x, w, {}, 1, 1, 1, 3), 1e-4, 1e-4);
    }

    void convBiasShapesAndErrors() {
        const at::Tensor x = randn({1, 2, 4, 4}, 15), w = randn({3, 2, 1, 1}, 16);
        const at::Tensor b = F({1, 2, 3}, {3});
        const at::Tensor expected = at::conv2d(x, w, b);
        T2N_COMPARE_TENSOR_TOL(op("conv", {tv(x), tv(w), tv(b.reshape({1, 3}))}), expected, 1e-4,
                               1e-4);
        // tract drops the bias's unit axes: a [3] bias is per channel too
        T2N_COMPARE_TENSOR_TOL(op("conv", {tv(x), tv(w), tv(b)}), expected, 1e-4, 1e-4);
        auto e = expectError([&] { op("conv", {tv(x), tv(randn({3, 3, 1, 1}))}); });
        QVERIFY2(e.message().find("channels do not match") != std::string::npos,
                 e.message().c_str());
        QVERIFY2(e.message().find("f32[1,2,4,4]") != std::string::npos, e.message().c_str());
        e = expectError([&] { op("conv", {tv(x), tv(w)}, {{"border", Str("reflect")}}); });
        QVERIFY2(e.message().find("border 'constant' only") != std::string::npos,
                 e.message().c_str());
        // the spec's other borders are accepted for Khronos
        T2N_COMPARE_TENSOR_TOL(
            op("conv", {tv(x), tv(randn({3, 2, 3, 3}, 17))}, {{"border", Str("replicate")}},
               Khronos),
            at::conv2d(at::replication_pad2d(x, {1, 1, 1, 1}), randn({3, 2, 3, 3}, 17)), 1e-4,
            1e-4);
    }

    void separableConv() {
        const at::Tensor x = randn({1, 2, 5, 5}, 18), plane = randn({2, 1, 3, 3}, 19),
                         point = randn({4, 2, 1, 1}, 20);
        const at::Tensor got = op("separable_conv", {tv(x), tv(plane), tv(point)},
                                  {{"padding", pads({{1, 1}, {1, 1}})}});
        T2N_COMPARE_TENSOR_TOL(got, at::conv2d(at::conv2d(x, plane, {}, 1, 1, 1, 2), point), 1e-4,
                               1e-4);
    }

    // ---- deconv ---------------------------------------------------------------

    void deconvAgainstAten() {
        // tract reads the filter as [O, C/groups, k...] (tst_interpreter_tract_rules),
        // PyTorch and the spec as [C, O/groups, k...]
        const at::Tensor x = randn({1, 4, 4, 5}, 21), w = randn({4, 3, 3, 3}, 22);
        const at::Tensor bias = randn({1, 3}, 23);
        T2N_COMPARE_TENSOR_TOL(op("deconv", {tv(x), tv(w.transpose(0, 1)), tv(bias)},
                                  {{"padding", pads({{1, 1}, {1, 1}})}, {"stride", Ints({2, 2})}}),
                               at::conv_transpose2d(x, w, bias.flatten(), 2, 1), 1e-4, 1e-4);
        // groups and dilation, 1-d: per group the channel axes swapped
        const at::Tensor x1 = randn({1, 4, 6}, 24), w1 = randn({4, 3, 3}, 25);
        const at::Tensor w1Tract = w1.reshape({2, 2, 3, 3}).transpose(1, 2).reshape({6, 2, 3});
        T2N_COMPARE_TENSOR_TOL(op("deconv", {tv(x1), tv(w1Tract)},
                                  {{"padding", pads({{0, 0}})},
                                   {"dilation", Ints({2})},
                                   {"stride", Ints({3})},
                                   {"groups", I(2)}}),
                               at::conv_transpose1d(x1, w1, {}, 3, 0, 0, 2, 2), 1e-4, 1e-4);
    }

    void deconvOutputShape() {
        const at::Tensor x = randn({1, 2, 3, 3}, 26), w = randn({2, 2, 3, 3}, 27);
        // stride 2, padding 1: default 5x5; output_shape asks 6x6 (output_padding 1)
        const at::Tensor expected = at::conv_transpose2d(x, w, {}, 2, 1, 1);
        QCOMPARE(expected.size(2), 6);
        const Named common{{"padding", pads({{1, 1}, {1, 1}})}, {"stride", Ints({2, 2})}};
        Named tractArgs = common, khronosArgs = common, fullInTract = common;
        tractArgs.emplace_back("output_shape", Ints({6, 6}));         // tract: spatial axes only
        khronosArgs.emplace_back("output_shape", Ints({1, 2, 6, 6})); // spec: the whole shape
        fullInTract.emplace_back("output_shape", Ints({1, 2, 6, 6}));
        const at::Tensor wTract = w.transpose(0, 1);
        T2N_COMPARE_TENSOR_TOL(op("deconv", {tv(x), tv(wTract)}, tractArgs), expected, 1e-4, 1e-4);
        T2N_COMPARE_TENSOR_TOL(op("deconv", {tv(x), tv(w)}, khronosArgs, Khronos), expected, 1e-4,
                               1e-4);
        // tract ignores an output_shape that lists every axis: default 5x5
        QCOMPARE(op("deconv", {tv(x), tv(w)}, fullInTract).sizes().vec(),
                 (std::vector<int64_t>{1, 2, 5, 5}));
    }

    // ---- box and pools --------------------------------------------------------

    void avgPoolBordersAtTheEdges() {
        // [[1 2 3] [4 5 6] [7 8 9]], 3x3 windows, padding 1, stride 1.
        const at::Tensor x = iota({1, 1, 3, 3}) + 1;
        const Named args{{"size", Ints({1, 1, 3, 3})},
                         {"padding", pads({{0, 0}, {0, 0}, {1, 1}, {1, 1}})}};
        const at::Tensor sums = F({12, 21, 16, 27, 45, 33, 24, 39, 28}, {1, 1, 3, 3});
        const at::Tensor counts = F({4, 6, 4, 6, 9, 6, 4, 6, 4}, {1, 1, 3, 3});
        Named constant = args, ignore = args;
        constant.emplace_back("border", Str("constant"));
        ignore.emplace_back("border", Str("ignore"));
        // NNEF: 'constant' counts the padded zeros, 'ignore' leaves them out
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, constant, Khronos), sums / 9.0);
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, ignore, Khronos), sums / counts);
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, ignore, Khronos),
                           at::avg_pool2d(x, 3, 1, 1, false, false));
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, constant, Khronos),
                           at::avg_pool2d(x, 3, 1, 1, false, true));
        // tract up to 0.23.5 pools both borders excluding the padding
        // (deser.rs sum_pool count_include_pad: false); the releases after it
        // count the padding for 'constant' (border == "constant"), as NNEF
        // says; 'ignore' excludes it on every release.
        auto tract = [&](const char* version, const Named& named) {
            InterpreterOptions o = mode(Tract);
            o.readings = t2n::check::tractReadings(t2n::target::SemVer::parse(version));
            return t2n::interp::runOperation("avg_pool", {tv(x)}, named, o).at(0).tensor;
        };
        T2N_COMPARE_TENSOR(tract("0.23.5", constant), at::avg_pool2d(x, 3, 1, 1, false, false));
        T2N_COMPARE_TENSOR(tract("0.21.13", constant), sums / counts);
        T2N_COMPARE_TENSOR(tract("0.23.6", constant), at::avg_pool2d(x, 3, 1, 1, false, true));
        T2N_COMPARE_TENSOR(tract("0.23.9", constant), sums / 9.0);
        T2N_COMPARE_TENSOR(tract("0.23.5", ignore), at::avg_pool2d(x, 3, 1, 1, false, false));
        T2N_COMPARE_TENSOR(tract("0.23.9", ignore), at::avg_pool2d(x, 3, 1, 1, false, false));
        // the default models the newest release t2n knows
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, constant, Tract), sums / 9.0);
        // box without normalisation: the plain window sums
        T2N_COMPARE_TENSOR(op("box", {tv(x)}, constant, Khronos), sums);
    }

    void maxPoolBorders() {
        const at::Tensor x = -(iota({1, 1, 3, 3}) + 1);
        const Named args{{"size", Ints({1, 1, 3, 3})},
                         {"padding", pads({{0, 0}, {0, 0}, {1, 1}, {1, 1}})}};
        Named constant = args, ignore = args;
        constant.emplace_back("border", Str("constant"));
        ignore.emplace_back("border", Str("ignore"));
        const at::Tensor torchMax = at::max_pool2d(x, 3, 1, 1);
        T2N_COMPARE_TENSOR(op("max_pool", {tv(x)}, ignore), torchMax);
        // spec 'constant': the padded zeros take part in the max
        at::Tensor zerosButCentre = at::zeros({1, 1, 3, 3});
        zerosButCentre.index_put_({0, 0, 1, 1}, -1.0f);
        T2N_COMPARE_TENSOR(op("max_pool", {tv(x)}, constant, Khronos), zerosButCentre);
        // tract treats 'constant' like 'ignore' for pools
        T2N_COMPARE_TENSOR(op("max_pool", {tv(x)}, constant, Tract), torchMax);
        auto e = expectError([&] {
            Named reflect = args;
            reflect.emplace_back("border", Str("reflect"));
            op("max_pool", {tv(x)}, reflect);
        });
        QVERIFY2(e.message().find("'constant' or 'ignore'") != std::string::npos,
                 e.message().c_str());
    }

    void poolAutoPadding() {
        const at::Tensor x5 = randn({1, 2, 5, 5}, 30), x6 = randn({1, 2, 6, 6}, 31);
        const Named args{{"size", Ints({1, 1, 3, 3})}, {"stride", Ints({1, 1, 2, 2})}};
        // 5 -> 3 outputs, total padding (3-1)*2 + 3 - 5 = 2 -> (1, 1)
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x5)}, args, Khronos),
                           at::avg_pool2d(x5, 3, 2, 1, false, true));
        // 6 -> 3 outputs, total 1 -> (0, 1)
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x6)}, args, Khronos),
                           at::avg_pool2d(at::constant_pad_nd(x6, {0, 1, 0, 1}), 3, 2));
    }

    void poolCeilLikePadding() {
        // What an exporter writes for ceil_mode: extra padding after, 'ignore'.
        const at::Tensor x = randn({1, 1, 5, 7}, 32);
        const Named args{{"size", Ints({1, 1, 2, 2})},
                         {"stride", Ints({1, 1, 2, 2})},
                         {"border", Str("ignore")},
                         {"padding", pads({{0, 0}, {0, 0}, {0, 1}, {0, 1}})}};
        T2N_COMPARE_TENSOR(op("avg_pool", {tv(x)}, args), at::avg_pool2d(x, 2, 2, 0, true, false));
        T2N_COMPARE_TENSOR(op("max_pool", {tv(x)}, args), at::max_pool2d(x, 2, 2, 0, 1, true));
    }

    void poolOverBatchAndChannels() {
        // size / stride cover every axis (the spec): pairs of batch entries
        // averaged; tract reads the first two axes as batch and channels and
        // refuses a window there (tst_interpreter_tract_rules)
        const at::Tensor x = iota({4, 1, 2, 2});
        const Named overBatch{{"size", Ints({2, 1, 1, 1})},
                              {"stride", Ints({2, 1, 1, 1})},
                              {"padding", pads({{0, 0}, {0, 0}, {0, 0}, {0, 0}})}};
        const at::Tensor got = op("avg_pool", {tv(x)}, overBatch, Khronos);
        T2N_COMPARE_TENSOR(got, at::stack({(x[0] + x[1]) / 2, (x[2] + x[3]) / 2}));
        auto refused = expectError([&] { op("avg_pool", {tv(x)}, overBatch, Tract); });
        QVERIFY2(refused.message().find("batch and channels") != std::string::npos,
                 refused.message().c_str());
        // size must list every axis
        auto e = expectError([&] { op("max_pool", {tv(x)}, {{"size", Ints({2, 2})}}); });
        QVERIFY2(e.message().find("does not match") != std::string::npos, e.message().c_str());
    }

    void poolDilationAndRms() {
        const at::Tensor x = randn({1, 2, 9}, 33);
        T2N_COMPARE_TENSOR(op("max_pool", {tv(x)},
                              {{"size", Ints({1, 1, 3})},
                               {"dilation", Ints({1, 1, 2})},
                               {"border", Str("ignore")},
                               {"padding", pads({{0, 0}, {0, 0}, {0, 0}})}}),
                           at::max_pool1d(x, 3, 1, 0, 2));
        const at::Tensor y = randn({1, 1, 4, 4}, 34);
        T2N_COMPARE_TENSOR(op("rms_pool", {tv(y)},
                              {{"size", Ints({1, 1, 2, 2})},
                               {"stride", Ints({1, 1, 2, 2})},
                               {"padding", pads({{0, 0}, {0, 0}, {0, 0}, {0, 0}})}}),
                           at::sqrt(at::avg_pool2d(y * y, 2, 2)));
    }

    // ---- up / down sampling ---------------------------------------------------

    void resampling() {
        const at::Tensor x = randn({1, 2, 3, 4}, 35);
        T2N_COMPARE_TENSOR(op("nearest_upsample", {tv(x)}, {{"factor", Ints({2, 3})}}),
                           at::upsample_nearest2d(x, {6, 12}));
        // debox with size = stride is the same nearest upsampling
        T2N_COMPARE_TENSOR(op("debox", {tv(x)},
                              {{"size", Ints({1, 1, 2, 3})},
                               {"stride", Ints({1, 1, 2, 3})},
                               {"padding", pads({{0, 0}, {0, 0}, {0, 0}, {0, 0}})}}),
                           at::upsample_nearest2d(x, {6, 12}));
        const at::Tensor y = randn({1, 2, 6, 4}, 36);
        T2N_COMPARE_TENSOR(op("area_downsample", {tv(y)}, {{"factor", Ints({2, 2})}}),
                           at::avg_pool2d(y, 2));
        T2N_COMPARE_TENSOR(op("nearest_downsample", {tv(y)}, {{"factor", Ints({3, 2})}}),
                           y.slice(2, 0, 6, 3).slice(3, 0, 4, 2));
        T2N_COMPARE_TENSOR(op("multilinear_upsample", {tv(x)}, {{"factor", Ints({2, 2})}}),
                           at::upsample_bilinear2d(x, {6, 8}, false));
        T2N_COMPARE_TENSOR(op("multilinear_upsample", {tv(x)},
                              {{"factor", Ints({2, 2})}, {"method", Str("aligned")}}),
                           at::upsample_bilinear2d(x, {6, 8}, true));
        // asymmetric: source j / f; replicate past the last cell
        T2N_COMPARE_TENSOR(op("multilinear_upsample", {tv(F({1, 2, 3}, {1, 1, 3}))},
                              {{"factor", Ints({2})}, {"method", Str("asymmetric")}}),
                           F({1, 1.5f, 2, 2.5f, 3, 3}, {1, 1, 6}));
    }

    void deboxOverlapping() {
        // debox = transposed box: ones kernels, per channel
        const at::Tensor x = randn({1, 2, 3, 3}, 37);
        const at::Tensor got = op("debox", {tv(x)},
                                  {{"size", Ints({1, 1, 3, 3})},
                                   {"stride", Ints({1, 1, 2, 2})},
                                   {"padding", pads({{0, 0}, {0, 0}, {1, 1}, {1, 1}})},
                                   {"normalize", B(true)}});
        T2N_COMPARE_TENSOR_TOL(
            got, at::conv_transpose2d(x, at::ones({2, 1, 3, 3}), {}, 2, 1, 0, 2) / 9, 1e-5, 1e-5);
    }

    // ---- matrix products --------------------------------------------------------

    void matmulTransposesAndBatches() {
        const at::Tensor a = randn({2, 1, 3, 4}, 40), b = randn({1, 5, 2, 4}, 41);
        T2N_COMPARE_TENSOR_TOL(op("matmul", {tv(a), tv(b)}, {{"transposeB", B(true)}}),
                               at::matmul(a, b.transpose(-1, -2)), 1e-4, 1e-4);
        const at::Tensor c = randn({2, 4, 3}, 42), d = randn({2, 4, 5}, 43);
        T2N_COMPARE_TENSOR_TOL(op("matmul", {tv(c), tv(d)}, {{"transposeA", B(true)}}),
                               at::matmul(c.transpose(1, 2), d), 1e-4, 1e-4);
        // tract requires equal ranks; the Khronos reading broadcasts leading axes
        const at::Tensor m = randn({4, 5}, 44);
        auto e = expectError([&] { op("matmul", {tv(c.transpose(1, 2)), tv(m)}); });
        QVERIFY2(e.message().find("equal rank") != std::string::npos, e.message().c_str());
        T2N_COMPARE_TENSOR_TOL(op("matmul", {tv(c.transpose(1, 2)), tv(m)}, {}, Khronos),
                               at::matmul(c.transpose(1, 2), m), 1e-4, 1e-4);
        e = expectError([&] { op("matmul", {tv(c), tv(d)}); });
        QVERIFY2(e.message().find("inner dimensions") != std::string::npos, e.message().c_str());
    }

    void linearAndEinsum() {
        const at::Tensor x = randn({2, 3, 6}, 45), w = randn({4, 6}, 46), b = randn({4}, 47);
        // filter and bias carry the input's rank, as tract needs
        T2N_COMPARE_TENSOR_TOL(op("linear", {tv(x), tv(w.unsqueeze(0)), tv(b.reshape({1, 1, 4}))}),
                               at::linear(x, w, b), 1e-4, 1e-4);
        T2N_COMPARE_TENSOR_TOL(op("linear", {tv(x.select(0, 0)), tv(w), tv(b.reshape({1, 4}))}),
                               at::linear(x.select(0, 0), w, b), 1e-4, 1e-4);
        const at::Tensor p = randn({2, 3, 4}, 48), q = randn({2, 4, 5}, 49);
        T2N_COMPARE_TENSOR_TOL(op("tract_core_einsum", {Arr({tv(p), tv(q)})},
                                  {{"expr", Str("bmk,bkn->bmn")}, {"acc", Str("f32")}}),
                               at::matmul(p, q), 1e-4, 1e-4);
    }

    // tract_transformers_sdpa against LibTorch 1.13's own scaled dot-product
    // attention (the math path, additive float mask, scale 1/sqrt(D)).
    void sdpaAgainstAten() {
        auto sdpa = [](std::vector<Value> args, Named extra = {}) {
            Named named{{"datum_type", Str("f32")},
                        {"acc_datum_type", Str("f32")},
                        {"is_causal", B(false)}};
            for (auto& kv : extra) {
                auto same = [&](const auto& n) { return n.first == kv.first; };
                if (auto it = std::find_if(named.begin(), named.end(), same); it != named.end())
                    it->second = kv.second;
                else
                    named.push_back(kv);
            }
            return op("tract_transformers_sdpa", std::move(args), std::move(named));
        };
        auto aten = [](const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                       c10::optional<at::Tensor> mask = {}) {
            return std::get<0>(at::_scaled_dot_product_attention(q, k, v, mask));
        };
        const at::Tensor q = randn({2, 4, 5, 8}, 60), k = randn({2, 4, 7, 8}, 61),
                         v = randn({2, 4, 7, 6}, 62);
        T2N_COMPARE_TENSOR_TOL(sdpa({tv(q), tv(k), tv(v)}), aten(q, k, v), 1e-5, 1e-4);
        // An additive mask of q's rank, broadcast over batch and heads.
        const at::Tensor mask = at::where(randn({1, 1, 5, 7}, 63) > 0.5, -1e30, 0.0).to(at::kFloat);
        T2N_COMPARE_TENSOR_TOL(sdpa({tv(q), tv(k), tv(v), tv(mask)}), aten(q, k, v, mask), 1e-5,
                               1e-4);
        // Rank 3 (no heads) and an explicit scale: q scaled by scale * sqrt(D) first.
        const at::Tensor q3 = q.select(1, 0), k3 = k.select(1, 0), v3 = v.select(1, 0);
        T2N_COMPARE_TENSOR_TOL(sdpa({tv(q3), tv(k3), tv(v3)}, {{"scale", S(0.5)}}),
                               aten(q3 * (0.5 * std::sqrt(8.0)), k3, v3), 1e-5, 1e-4);
        // Grouped K/V heads: query head h reads K/V head h / 2.
        const at::Tensor k2 = k.slice(1, 0, 2), v2 = v.slice(1, 0, 2);
        T2N_COMPARE_TENSOR_TOL(sdpa({tv(q), tv(k2), tv(v2)}),
                               aten(q, k2.repeat_interleave(2, 1), v2.repeat_interleave(2, 1)),
                               1e-5, 1e-4);
        // Causal, square scores: column c > row r masked.
        const at::Tensor ks = k.slice(2, 0, 5), vs = v.slice(2, 0, 5);
        const at::Tensor causal = at::full({5, 5}, -INFINITY).triu(1);
        T2N_COMPARE_TENSOR_TOL(sdpa({tv(q), tv(ks), tv(vs)}, {{"is_causal", B(true)}}),
                               aten(q, ks, vs, causal), 1e-5, 1e-4);
        // Non-square: tract 0.22.0 and 0.23 disagree on where the diagonal goes.
        const auto e = expectError([&] { sdpa({tv(q), tv(k), tv(v)}, {{"is_causal", B(true)}}); });
        QVERIFY2(e.message().find("is_causal") != std::string::npos, e.message().c_str());
    }

    // ---- normalisation ------------------------------------------------------------

    void batchNormalization() {
        const at::Tensor x = randn({2, 3, 4, 4}, 50);
        const at::Tensor mean = randn({3}, 51), var = at::rand({3}) + 0.5, scale = randn({3}, 52),
                         offset = randn({3}, 53);
        auto row = [](const at::Tensor& t) { return tv(t.reshape({1, 3})); };
        const at::Tensor got =
            op("batch_normalization", {tv(x), row(mean), row(var), row(offset), row(scale)},
               {{"epsilon", S(1e-5)}});
        T2N_COMPARE_TENSOR_TOL(
            got, at::batch_norm(x, scale, offset, mean, var, false, 0.0, 1e-5, false), 1e-5, 1e-5);
    }

    void lpAndLocalNormalizations() {
        const at::Tensor x = randn({2, 3, 4}, 54);
        T2N_COMPARE_TENSOR(
            op("l2_normalization", {tv(x)}, {{"axes", Ints({1})}, {"epsilon", S(1e-12)}}),
            x / at::clamp_min(at::sqrt((x * x).sum(1, true)), 1e-12));
        T2N_COMPARE_TENSOR(op("l1_normalization", {tv(x)}, {{"axes", Ints({1, 2})}}),
                           x / at::abs(x).sum({1, 2}, true));
        // local response normalisation across channels (auto padding (1, 1) on C)
        const at::Tensor y = randn({1, 4, 3, 3}, 55);
        const Named lrn{
            {"size", Ints({1, 3, 1, 1})}, {"alpha", S(0.5)}, {"beta", S(0.75)}, {"bias", S(2.0)}};
        auto expected = [&](bool includePad) {
            at::Tensor avg = at::avg_pool3d((y * y).unsqueeze(1), {3, 1, 1}, {1, 1, 1}, {1, 0, 0},
                                            false, includePad)
                                 .squeeze(1);
            return y / at::pow(2.0 + 0.5 * avg, 0.75);
        };
        T2N_COMPARE_TENSOR(op("local_response_normalization", {tv(y)}, lrn, Khronos),
                           expected(true));
        // tract reads the fragment's box (border 'constant') as its release
        // does: up to 0.23.5 the padded channels are left out of the
        // average, the releases after count them (the default models the
        // newest)
        T2N_COMPARE_TENSOR(op("local_response_normalization", {tv(y)}, lrn, Tract), expected(true));
        InterpreterOptions old = mode(Tract);
        old.readings = t2n::check::tractReadings(t2n::target::SemVer::parse("0.23.5"));
        T2N_COMPARE_TENSOR(
            t2n::interp::runOperation("local_response_normalization", {tv(y)}, lrn, old)
                .at(0)
                .tensor,
            expected(false));
    }
};

T2N_TEST_SUITE(InterpreterNnTest)
#include "tst_interpreter_nn.moc"
