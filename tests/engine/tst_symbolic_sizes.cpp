// Sizes that depend on a symbolic axis (issue 11, class 3): TorchScript
// snippets whose positions, masks and shapes are built from x.size(1) export
// with the size computed from the tract symbol, and the check runs the archive
// at the example size and at a second size against the same TorchScript
// model (LibTorch's numbers). Each test also reads the expression it expects
// in graph.nnef, and values t2n cannot follow are refused naming the node.
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"
#include "two_size_check.h"

#include <torch/script.h>

#include <QFile>
#include <QTest>

using namespace t2n::test;

namespace {

struct Exported {
    QString nnef; ///< graph.nnef
    t2n::ExportReport report;
};

std::filesystem::path saveModule(const QString& name, const std::string& forward) {
    torch::jit::Module m("Snippet");
    m.define(forward);
    auto path = freshDir("symbolic_sizes_" + name) / "model.pt";
    m.save(path.string());
    return path;
}

t2n::ExportOptions options(std::vector<int64_t> shape, const std::string& dynamic) {
    t2n::ExportOptions o;
    t2n::InputSpec in;
    in.name = "x";
    in.shape = std::move(shape);
    in.dtype = t2n::DType::F32;
    o.inputs = {in};
    o.dynamicAxes = {t2n::DynamicAxis::parse(dynamic)};
    o.compressionLevel = std::nullopt; // a folder: graph.nnef is read back below
    return o;
}

Exported exportSnippet(const QString& name, const std::string& forward,
                       const t2n::ExportOptions& o) {
    auto model = saveModule(name, forward);
    auto out = model.parent_path() / "out.nnef";
    t2n::Session s;
    s.load(model);
    Exported e;
    e.report = s.exportModel(out, o);
    QFile f(QString::fromStdString((out / "graph.nnef").string()));
    if (f.open(QIODevice::ReadOnly))
        e.nnef = QString::fromUtf8(f.readAll());
    return e;
}

// Every output matched at the example size and at the second size.
QString checkProblems(const t2n::CheckReport& c) {
    QStringList bad = twoSizeProblems(c);
    if (c.ran && !c.passed && bad.isEmpty())
        bad << "the check failed";
    return bad.join("; ");
}

#define EXPECT_PASSES_AT_TWO_SIZES(exported)                                                       \
    do {                                                                                           \
        const QString problems = checkProblems((exported).report.check);                           \
        QVERIFY2(problems.isEmpty(), qPrintable(problems + "\n" + (exported).nnef));               \
        /* every operation emitted was declared by its lowering (registry.h) */                    \
        for (const auto& w : (exported).report.warnings)                                           \
            QVERIFY2(w.find("t2n bug") == std::string::npos, w.c_str());                           \
    } while (false)

} // namespace

class SymbolicSizesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Positions from arange(S) as a float table: tract_core_range up to the
    /// symbol, cast to the dtype PyTorch gave.
    void arangePositions() {
        auto e = exportSnippet("arange", R"(
def forward(self, x):
    s = x.size(1)
    pos = torch.arange(s, dtype=6)  # float32
    return x + pos.unsqueeze(1) * 0.5
)",
                               options({2, 6, 3}, "x:1=S"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("tract_core_range(0, S, 1)"), qPrintable(e.nnef));
        QVERIFY2(e.nnef.contains("to = 'f32'"), qPrintable(e.nnef));
    }

    /// A causal mask from triu(ones(S, S)) and from full((S, S), v).triu(1):
    /// tract_core_broadcast to [S, S], then tract_core_trilu.
    void causalMasks() {
        auto e = exportSnippet("masks", R"(
def forward(self, x):
    s = x.size(1)
    scores = torch.matmul(x, x.transpose(1, 2))
    ones = torch.triu(torch.ones(s, s), diagonal=1).to(11)  # bool
    big = torch.full([s, s], -1.0e4).triu(1)
    return scores.masked_fill(ones, -1.0e9).softmax(-1), (scores + big).softmax(-1)
)",
                               options({1, 5, 4}, "x:1=S"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        // the fill value as a literal of the shape's rank (tract's ChangeAxes)
        QVERIFY2(e.nnef.contains("tract_core_broadcast([[1.0]], shape = [S, S])"),
                 qPrintable(e.nnef));
        QVERIFY2(e.nnef.contains("tract_core_broadcast([[-10000.0]], shape = [S, S])"),
                 qPrintable(e.nnef));
        QVERIFY(e.nnef.contains("tract_core_trilu("));
    }

    /// Size arithmetic into reshape, slice, expand and repeat. S // 2 is the
    /// same number at S = 6 and at the probe's S = 7, and still follows S.
    void sizeArithmetic() {
        auto e = exportSnippet("arith", R"(
def forward(self, x):
    b, s, c = x.size(0), x.size(1), x.size(2)
    halves = x.view(b, s * 2, c // 2)
    head = x[:, : s - 1]
    first = x[:, : s // 2]
    last = x[:, -1]
    tiled = x[:, :1].expand(b, s, c) + x[:, -1:].repeat(1, s, 1)
    return halves, head, first, last, tiled
)",
                               options({2, 6, 4}, "x:1=S"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        for (const char* text : {"shape = [2, S * 2, 2]", "end = [S - 1]", "end = [S / 2]",
                                 "begin = [S - 1], end = [S]", "repeats = [1, S, 1]"})
            QVERIFY2(e.nnef.contains(text),
                     qPrintable(QString("no '%1' in\n%2").arg(text, e.nnef)));
    }

    /// tract reads symbolic slice bounds since 0.19.6: an older target is
    /// refused with the version to use, not given bounds it would misread.
    void symbolicSliceNeedsTract0196() {
        const std::string forward = R"(
def forward(self, x):
    return x[:, : x.size(1) - 1] * 2.0
)";
        t2n::ExportOptions o = options({2, 6, 3}, "x:1=S");
        o.target = t2n::TargetSpec::parse("tract@0.19.6");
        EXPECT_PASSES_AT_TWO_SIZES(exportSnippet("slice_0196", forward, o));
        o.target = t2n::TargetSpec::parse("tract@0.19.0");
        try {
            exportSnippet("slice_0190", forward, o);
            QFAIL("exported for tract 0.19.0");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Unsupported);
            QVERIFY2(err.render().find("0.19.6 or newer") != std::string::npos,
                     err.render().c_str());
        }
    }

    /// A size that follows the symbol through a strided pooling, T // 2: no
    /// symbol names it, so it is read with tract_core_shape_of. (T = 13: the
    /// probe's T + 1 changes the pooled length, 12 would not.)
    void sizeAfterStridedPool() {
        auto e = exportSnippet("strided", R"(
def forward(self, x):
    y = torch.max_pool1d(x, 2, 2)
    t = y.size(2)
    return y + torch.arange(t, dtype=6), y.reshape(1, 4 * t)
)",
                               options({1, 4, 13}, "x:2=T"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("tract_core_shape_of("), qPrintable(e.nnef));
    }

    /// A stride of 4: T // 4 is 2 at the example's T = 8 and at the near
    /// probe's 9 (or 10), so only the far probe (T doubled) sees the frame
    /// count move; it is then computed in the graph instead of frozen at 2.
    void framesAfterStride4MoveAtTheFarProbe() {
        auto e = exportSnippet("stride4", R"(
def forward(self, x):
    y = torch.avg_pool1d(x, 4, 4)
    n = y.size(2)
    return y + torch.arange(n, dtype=6)
)",
                               options({1, 2, 8}, "x:2=T"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("tract_core_shape_of("), qPrintable(e.nnef));
        QVERIFY2(e.nnef.contains("tract_core_range("), qPrintable(e.nnef));
    }

    /// Depth-to-space over dynamic sides: each reshape touches only the axes
    /// it splits or merges and merges the sides with -1, so H and W stay
    /// symbolic. Space-to-depth (pixel_unshuffle) of a dynamic side is
    /// refused: tract cannot split a symbolic size into (size / 2, 2); with
    /// static sides it exports over a dynamic batch.
    void pixelShuffleOnDynamicSides() {
        t2n::ExportOptions o = options({1, 8, 3, 5}, "x:2=H");
        o.dynamicAxes.push_back(t2n::DynamicAxis::parse("x:3=W"));
        auto e = exportSnippet("pixel_shuffle", R"(
def forward(self, x):
    return torch.pixel_shuffle(x, 2) * 2.0
)",
                               o);
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("external<scalar>(shape = [1, 8, H, W])"), qPrintable(e.nnef));
        QVERIFY2(e.nnef.contains("shape = [-1], axis_start = 4, axis_count = 2"),
                 qPrintable(e.nnef));
        const std::string unshuffle = R"(
def forward(self, x):
    return torch.pixel_unshuffle(x, 2) + 1.0
)";
        o = options({1, 2, 4, 6}, "x:2=H");
        try {
            exportSnippet("pixel_unshuffle_dynamic", unshuffle, o);
            QFAIL("exported");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Unsupported);
            QVERIFY2(err.render().find("pixel_unshuffle of a dynamic side") != std::string::npos,
                     err.render().c_str());
        }
        EXPECT_PASSES_AT_TWO_SIZES(
            exportSnippet("pixel_unshuffle_batch", unshuffle, options({2, 2, 4, 6}, "x:0=B")));
    }

    /// Depth-to-space written by hand (view, permute, reshape with sizes
    /// read from x.shape), as super-resolution models do.
    void depthToSpaceByViewOnDynamicSides() {
        t2n::ExportOptions o = options({1, 8, 3, 5}, "x:2=H");
        o.dynamicAxes.push_back(t2n::DynamicAxis::parse("x:3=W"));
        auto e = exportSnippet("d2s_view", R"(
def forward(self, x):
    n, c, h, w = x.shape
    y = x.view(n, c // 4, 2, 2, h, w).permute(0, 1, 4, 2, 5, 3)
    return y.reshape(n, c // 4, h * 2, w * 2)
)",
                               o);
        EXPECT_PASSES_AT_TWO_SIZES(e);
    }

    /// Causal masks made of tril(ones(L, L)) in the forms decoders write
    /// them: compared with 0, as a boolean tensor, filled in place, and a
    /// registered tril table sliced to [:L, :L].
    void trilMasks() {
        auto e = exportSnippet("tril", R"(
def forward(self, x):
    L = x.size(1)
    s = torch.matmul(x, x.transpose(1, 2))
    mask = torch.tril(torch.ones(L, L))
    a = s.masked_fill(mask == 0, float("-inf")).softmax(-1)
    keep = torch.tril(torch.ones(L, L, dtype=11))
    b = s.masked_fill(~keep, -1.0e9).softmax(-1)
    c = (s * torch.ones(L, L).tril_().view(1, L, L)).sum(-1)
    d = s.masked_fill(torch.tril(torch.ones(L, L), diagonal=-1).to(dtype=11), 0.0)
    return a, b, c, d
)",
                               options({2, 6, 5}, "x:1=L"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("shape = [L, L]"), qPrintable(e.nnef));
    }

    /// Every shape operation whose output size depends on its input's, fed
    /// a tensor with a symbolic axis: the export keeps the symbol and the
    /// check passes at the example size and at the probe's second size
    /// (issue 27 item 4). A row t2n cannot do yet stays here as an expected
    /// failure with its reason.
    void shapeOperationFollowsTheSymbol_data() {
        QTest::addColumn<QString>("forward");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QString>("dynamic");
        const QList<qint64> bsc{2, 6, 4}; // x: [B, S, C], S dynamic
        const auto row = [&](const char* name, const char* body, QList<qint64> shape = {},
                             const char* dynamic = "x:1=S") {
            QTest::newRow(name) << QString("def forward(self, x):\n    %1\n").arg(body)
                                << (shape.isEmpty() ? bsc : shape) << QString(dynamic);
        };
        row("reshape", "return x.reshape(x.size(0), -1) * 2.0");
        row("reshape_split_channels", "return x.reshape(2, x.size(1), 2, 2) + 1.0");
        row("view", "return x.view(-1, x.size(2)) * 2.0");
        row("flatten", "return torch.flatten(x, 1) * 2.0");
        row("unflatten_static_axis", "return x.unflatten(2, [2, 2]) * 2.0");
        row("unflatten_dynamic_axis", "return x.unflatten(1, [x.size(1), 1]) * 2.0");
        row("ones", "return x + torch.ones(x.size(0), x.size(1), 1)");
        row("zeros_from_shape", "return x + torch.zeros(x.shape)");
        row("full", "return x * torch.full([x.size(1), 4], 2.0)");
        row("new_ones", "return x + x.new_ones([x.size(1), 1])");
        row("eye", "return torch.matmul(torch.eye(x.size(1)), x)");
        row("arange_step",
            "return x[:, ::2] + torch.arange(0, x.size(1), 2, dtype=6).unsqueeze(-1)");
        row("expand_as", "return x[:, :1].expand_as(x) + x");
        row("repeat", "return x.repeat(1, 2, 1) * 2.0");
        row("pad", "return torch.constant_pad_nd(x, [1, 2, 1, 1], 0.5)");
        row("unfold", "return x.unfold(1, 2, 1) * 2.0");
        row("narrow", "return x.narrow(1, 1, x.size(1) - 2) * 2.0");
        row("split_sizes", "a, b = torch.split(x, [x.size(1) - 2, 2], 1)\n    return a, b");
        row("split_static_axis", "a, b = torch.split(x, [1, 3], 2)\n    return a * 2.0, b");
        row("chunk_static_axis", "a, b = x.chunk(2, 2)\n    return a, b");
        // issue 40: the shape operations of recent architectures
        row("repeat_interleave_heads", "return x.unsqueeze(1).repeat_interleave(2, dim=1) * 2.0");
        row("repeat_interleave_dynamic_axis", "return x.repeat_interleave(3, dim=1) + 1.0");
        row("tril_diagonal_from_size",
            "L = x.size(1)\n    return x[0] + torch.tril(torch.ones(L, 4), diagonal=L - 3)");
        row("triu_diagonal_from_size", "return torch.triu(x, diagonal=x.size(1) - 5) + 1.0");
        row("pad_to_multiple",
            "L = x.size(1)\n    return torch.constant_pad_nd(x, [0, 0, 0, (4 - L % 4) % 4], 0.5)");
        row("pad_computed_half", "return torch.constant_pad_nd(x, [1, x.size(1) // 2], 2.0) * 2.0");
        row("roll_dynamic_axis", "return torch.roll(x, shifts=[-2, 1], dims=[1, 2]) * 2.0");
        row("arange_negative_step",
            "return x + torch.arange(x.size(1) - 1, -1, -1.0).unsqueeze(-1)");
        row("arange_step_minus_two", "return x + torch.arange(x.size(1) * 2, 0, -2).unsqueeze(-1)");
        row("cumsum_integer_dynamic_axis", "return ((x > 0).long().cumsum(1) - 1) * 2");
        row("cumsum_float_dynamic_axis", "return x.cumsum(1) * 2.0");
        row("meshgrid_dynamic",
            "gy, gx = torch.meshgrid(torch.arange(x.size(2), dtype=6), torch.arange(x.size(3), "
            "dtype=6), indexing='ij')\n    return x + gy + 2.0 * gx",
            {1, 2, 4, 5}, "x:2=H");
        row("adaptive_avg_pool_dynamic_to_one", "return torch.adaptive_avg_pool2d(x, [1, 1]) * 2.0",
            {1, 2, 4, 5}, "x:2=H");
        row("group_norm_dynamic_sides", "return torch.group_norm(x, 2, None, None, 1e-5) * 2.0",
            {1, 4, 4, 5}, "x:2=H");
        row("einsum_ellipsis", "return torch.einsum('...ij,...jk->...ik', x, x.transpose(1, 2))");
        // neighbours (issue 40 item 1): computed indices, masks and fills
        row("select_computed_index", "return x.select(1, x.size(1) - 2) * 2.0");
        row("narrow_computed_start", "return x.narrow(1, x.size(1) // 2, 2) * 2.0");
        row("masked_fill_computed_mask",
            "m = torch.arange(x.size(1)).unsqueeze(-1) >= x.size(1) - 2\n"
            "    return x.masked_fill(m, 0.5)");
        row("new_full_from_size", "return x + x.new_full([x.size(1), 1], 0.25)");
        row("full_like_dynamic", "return x * torch.full_like(x, 3.0)");
        row("remainder_size", "return x[:, : x.size(1) % 4 + 1] * 2.0");
        // writes into a tensor sized at run time (PointPillars' canvas)
        row("scatter_reduce_sum_runtime_sized",
            "idx = (torch.arange(x.size(1)) % 3).unsqueeze(1).expand(x.size(1), 4)\n"
            "    return torch.zeros(x.size(1), 4).scatter_reduce(0, idx, x[0], 'sum')");
        row("scatter_reduce_mean_runtime_sized",
            "idx = (torch.arange(x.size(1)) % 3).unsqueeze(1).expand(x.size(1), 4)\n"
            "    return torch.ones(x.size(1) + 1, 4).scatter_reduce(0, idx, x[1], 'mean')");
        row("scatter_reduce_amin_runtime_sized",
            "idx = (torch.arange(x.size(1)) % 2).unsqueeze(1).expand(x.size(1), 4)\n"
            "    return torch.zeros(x.size(1), 4).scatter_reduce(0, idx, x[0], 'amin', "
            "include_self=False)");
        row("index_put_accumulate_runtime_sized",
            "idx = torch.arange(x.size(1)) % 4\n"
            "    return torch.zeros(x.size(1) * 2, 4).index_put_([idx], x[0], accumulate=True)");
        row("interpolate_nearest_size", "return torch.upsample_nearest1d(x, [x.size(2) * 2], None)",
            {1, 3, 6}, "x:2=T");
        row("interpolate_nearest_2d_scale", "return torch.upsample_nearest2d(x, None, [2.0, 3.0])",
            {1, 2, 4, 5}, "x:2=H");
        row("interpolate_linear_size",
            "return torch.upsample_linear1d(x, [x.size(2) * 2], False, None)", {1, 3, 6}, "x:2=T");
        row("interpolate_linear_size_align_corners",
            "return torch.upsample_linear1d(x, [x.size(2) * 2 - 1], True, None)", {1, 3, 6},
            "x:2=T");
        row("interpolate_linear_scale", "return torch.upsample_linear1d(x, None, False, [2.0])",
            {1, 3, 6}, "x:2=T");
        row("interpolate_linear_downscale", "return torch.upsample_linear1d(x, None, False, [0.5])",
            {1, 3, 6}, "x:2=T");
        row("interpolate_bilinear_scale",
            "return torch.upsample_bilinear2d(x, None, False, [2.0, 1.5])", {1, 2, 4, 5}, "x:2=H");
        row("interpolate_bilinear_scale_align_corners",
            "return torch.upsample_bilinear2d(x, None, True, [2.0, 2.0])", {1, 2, 4, 5}, "x:2=H");
        row("interpolate_bilinear_size_from_shape",
            "return torch.upsample_bilinear2d(x, [x.size(2) * 3, x.size(3)], False, None)",
            {1, 2, 4, 5}, "x:2=H");
        row("interpolate_bicubic_scale",
            "return torch.upsample_bicubic2d(x, None, False, [2.0, 2.0])", {1, 2, 4, 5}, "x:2=H");
        row("interpolate_bicubic_scale_align_corners",
            "return torch.upsample_bicubic2d(x, None, True, [1.5, 2.0])", {1, 2, 4, 5}, "x:2=H");
        row("interpolate_bicubic_downscale",
            "return torch.upsample_bicubic2d(x, None, False, [0.5, 1.0])", {1, 2, 8, 5}, "x:2=H");
        row("interpolate_bicubic_size_from_shape",
            "return torch.upsample_bicubic2d(x, [x.size(2) * 2 + 1, 7], False, None)", {1, 2, 4, 5},
            "x:2=H");
        // min/max/clamp of sizes (sliding windows, chunk counts): tract's TDim
        // keeps min and max; S = 3 is below the bound, the probe's S above it.
        row("min_window", "return x[:, x.size(1) - min(x.size(1), 4):] * 2.0", {2, 3, 4});
        row("max_chunks", "n = max(1, x.size(1) // 4)\n    return x[:, : n * 2] * 2.0", {2, 7, 4});
        row("min_of_list", "return x[:, : min([x.size(1), 4, 9])] * 2.0", {2, 3, 4});
        row("clamp_size_tensor",
            "w = torch.clamp(torch.tensor(x.size(1)), 1, 4)\n    return x[:, :w] * 2.0", {2, 3, 4});
        row("clamp_max_size_tensor",
            "w = torch.clamp_max(torch.tensor(x.size(1)), 4)\n    return x[:, :w] * 2.0",
            {2, 3, 4});
        row("minimum_of_sizes",
            "w = torch.minimum(torch.tensor(x.size(1)), torch.tensor(4))\n"
            "    return x.new_zeros([int(w), 2]) + 1.0",
            {2, 3, 4});
        row("interpolate_trilinear_scale",
            "return torch.upsample_trilinear3d(x, None, False, [2.0, 1.0, 3.0])", {1, 2, 3, 2, 2},
            "x:2=D");
    }
    void shapeOperationFollowsTheSymbol() {
        QFETCH(QString, forward);
        QFETCH(QList<qint64>, shape);
        QFETCH(QString, dynamic);
        const std::vector<int64_t> dims(shape.begin(), shape.end());
        Exported e;
        try {
            e = exportSnippet(QString("op_") + QTest::currentDataTag(), forward.toStdString(),
                              options(dims, dynamic.toStdString()));
        } catch (const t2n::Error& err) {
            QFAIL(err.render().c_str());
        }
        EXPECT_PASSES_AT_TWO_SIZES(e);
    }

    /// A resampled size that is a multiple of the input's (T * 2): tract
    /// 0.23.5 folded in / out of two cast sizes in integer arithmetic (T / 2T
    /// is 0) and replaced the positions by zeros; every output item then read
    /// item 0. The positions are written (i + 0.5) * in / out, so that no
    /// quotient of two sizes is left for tract to fold. With T2N_TRACT_BIN
    /// set, the check also runs the archive in tract.
    void resampledPositionsDivideNoTwoSizes() {
        Exported e;
        try {
            e = exportSnippet(
                "upsample_twice",
                "def forward(self, x):\n"
                "    return torch.upsample_linear1d(x, [x.size(2) * 2], False, None)\n",
                options({1, 3, 6}, "x:2=T"));
        } catch (const t2n::Error& err) {
            QFAIL(err.render().c_str());
        }
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("upsample_linear1d_stretched_axis2 = mul("), qPrintable(e.nnef));
        QVERIFY2(
            e.nnef.contains("upsample_linear1d_scaled_axis2 = div(upsample_linear1d_stretched"),
            qPrintable(e.nnef));
        QVERIFY2(!e.nnef.contains("scale_axis2 = div("), qPrintable(e.nnef));
    }

    /// min(S, 4) is written as tract's TDim min (a statement whose result
    /// stays symbolic), read where the slice reads it.
    void minOfSizeIsWritten() {
        auto e = exportSnippet("min_written", R"(
def forward(self, x):
    s = x.size(1)
    return x[:, s - min(s, 4):] * 2.0
)",
                               options({2, 3, 4}, "x:1=S"));
        EXPECT_PASSES_AT_TWO_SIZES(e);
        QVERIFY2(e.nnef.contains("= min(S, "), qPrintable(e.nnef));
    }

    /// A size divided by another size (S // max(1, S // 4)) has no TDim (tract
    /// divides sizes by constants only): refused, naming the slice, the
    /// division and the symbol, not frozen at the example's 4.
    void divisionBySizeIsRefused() {
        try {
            exportSnippet("div_by_size", R"(
def forward(self, x):
    s = x.size(1)
    n = max(1, s // 4)
    return x[:, : s // n] * 2.0
)",
                          options({2, 9, 3}, "x:1=S"));
            QFAIL("exported");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Unsupported);
            // The slice that reads the size, then the nodes that computed it.
            QVERIFY(!err.details().empty());
            const auto& d = err.details().front();
            QCOMPARE(QString::fromStdString(d.node.kind), QString("aten::slice"));
            for (const char* text : {"aten::floordiv", "divide by constants only", "(S)"})
                QVERIFY2(d.message.find(text) != std::string::npos, d.message.c_str());
        }
    }

    /// A Fourier transform along a dynamic axis runs at that axis's length;
    /// a zero-pad to a fixed n there is refused, naming the axis, its symbol
    /// and the way out.
    void fftToAnotherLengthAlongADynamicAxisIsRefused() {
        try {
            exportSnippet("rfft_padded", R"(
def forward(self, x):
    return torch.view_as_real(torch.fft_rfft(x, 16, 1))
)",
                          options({2, 6, 3}, "x:1=S"));
            QFAIL("exported");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Unsupported);
            const auto& d = err.details().front();
            QCOMPARE(QString::fromStdString(d.node.kind), QString("aten::fft_rfft"));
            for (const char* text : {"dynamic axis 1 (S)", "length n"})
                QVERIFY2(d.message.find(text) != std::string::npos, d.message.c_str());
            QVERIFY2(err.render().find("declare that axis static") != std::string::npos,
                     err.render().c_str());
        }
    }

    /// S & 4 (bitwise) is no arithmetic t2n follows: the export is refused,
    /// naming the slice that reads it and the node that computes it, instead
    /// of freezing 4 (which happens to be right at both probe sizes).
    void unfollowableSizeIsRefused() {
        try {
            exportSnippet("bitand", R"(
def forward(self, x):
    s = x.size(1)
    return x[:, : s & 4] * 2.0
)",
                          options({2, 6, 3}, "x:1=S"));
            QFAIL("exported");
        } catch (const t2n::Error& err) {
            QCOMPARE(err.code(), t2n::ErrorCode::Unsupported);
            QCOMPARE(err.stage(), t2n::Stage::Translate);
            QCOMPARE(err.details().size(), size_t(1));
            const auto& d = err.details().front();
            QVERIFY(d.hasNode);
            QCOMPARE(QString::fromStdString(d.node.kind), QString("aten::slice"));
            QVERIFY2(d.message.find("aten::__and__") != std::string::npos, d.message.c_str());
            QVERIFY2(d.message.find("dynamic axes (S)") != std::string::npos, d.message.c_str());
        }
    }
};

T2N_TEST_SUITE(SymbolicSizesTest)
#include "tst_symbolic_sizes.moc"
