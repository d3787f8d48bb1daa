// Whole recurrent layers as TorchScript carries them (aten::lstm, aten::gru,
// aten::rnn_tanh / rnn_relu with their flattened weight lists) and their
// cells (aten::lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell). A layer over a static time axis
// is unrolled: the input projection of every step is one matmul over the whole sequence, then each
// step adds the hidden projection and applies the gates, in plain NNEF that any consumer reads. A
// symbolic time axis (a dynamic axis of the export) becomes a tract_core_scan
// (lower_recurrent_scan.cpp). Stacked layers and both directions follow PyTorch's weight order
// (layer-major, forward before reverse; w_ih, w_hh, b_ih, b_hh).
#include "translate/recurrent.h"
#include "translate/registry.h"

#include <fmt/format.h>

namespace t2n::translate {

namespace {

using recurrent::Cell;
using recurrent::Weights;

// x W^T (+ b): x of rank `rank`, W [G, K] and b [G] padded to that rank.
Expr project(Context& ctx, Expr x, int64_t rank, ir::ValueId w, ir::ValueId b,
             const std::string& suffix) {
    DType t = ctx.out().dtype;
    Expr m = ctx.emitTemp("matmul", {x, ctx.operand(w, rank, t)},
                          {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}}, suffix);
    if (b < 0)
        return m;
    return ctx.emitTemp("add", {m, ctx.operand(b, rank, t)}, {}, suffix + "_biased");
}

Expr gateSlice(Context& ctx, Expr e, int k, int64_t hidden, const std::string& name) {
    return ctx.emitTemp("slice", {e}, sliceArgs(1, k * hidden, (k + 1) * hidden), name);
}

struct State {
    Expr h, c;
};

// One step: `xg` is the input projection [B, G*H] (with b_ih), `s` the state.
State step(Context& ctx, Cell cell, Expr xg, State s, const Weights& w, int64_t hidden) {
    Expr hg = project(ctx, s.h, 2, w.whh, w.bhh, "hidden_gates");
    if (cell == Cell::Tanh || cell == Cell::Relu) {
        Expr sum = ctx.emitTemp("add", {xg, hg}, {}, "preact");
        return {ctx.emitTemp(cell == Cell::Tanh ? "tanh" : "relu", {sum}, {}, "h"), {}};
    }
    if (cell == Cell::Lstm) {
        Expr gates = ctx.emitTemp("add", {xg, hg}, {}, "gates");
        auto act = [&](int k, const char* op, const std::string& name) {
            return ctx.emitTemp(op, {gateSlice(ctx, gates, k, hidden, name)}, {}, name + "_act");
        };
        Expr i = act(0, "sigmoid", "in"), f = act(1, "sigmoid", "forget");
        Expr g = act(2, "tanh", "cell"), o = act(3, "sigmoid", "out");
        Expr kept = ctx.emitTemp("mul", {f, s.c}, {}, "kept");
        Expr c = ctx.emitTemp("add", {kept, ctx.emitTemp("mul", {i, g}, {}, "added")}, {}, "c");
        Expr h = ctx.emitTemp("mul", {o, ctx.emitTemp("tanh", {c}, {}, "c_tanh")}, {}, "h");
        return {h, c};
    }
    // GRU: r, z from both projections; n = tanh(x_n + r * h_n); h' = n + z (h - n)
    auto both = [&](int k, const std::string& name) {
        Expr sum = ctx.emitTemp("add",
                                {gateSlice(ctx, xg, k, hidden, name + "_x"),
                                 gateSlice(ctx, hg, k, hidden, name + "_h")},
                                {}, name + "_sum");
        return ctx.emitTemp("sigmoid", {sum}, {}, name);
    };
    Expr r = both(0, "reset"), z = both(1, "update");
    Expr hn = ctx.emitTemp("mul", {r, gateSlice(ctx, hg, 2, hidden, "new_h")}, {}, "reset_h");
    Expr n = ctx.emitTemp(
        "tanh", {ctx.emitTemp("add", {gateSlice(ctx, xg, 2, hidden, "new_x"), hn}, {}, "new_sum")},
        {}, "new");
    Expr d = ctx.emitTemp("sub", {s.h, n}, {}, "delta");
    return {ctx.emitTemp("add", {n, ctx.emitTemp("mul", {z, d}, {}, "kept")}, {}, "h"), {}};
}

struct LayerResult {
    Expr sequence; ///< [T, B, H]
    State last;
};

LayerResult runLayer(Context& ctx, Cell cell, Expr seq, int64_t steps, const Weights& w, State s,
                     bool reverse, int64_t hidden) {
    Expr xg = project(ctx, seq, 3, w.wih, w.bih, "input_gates");
    std::vector<Expr> outs(static_cast<size_t>(steps));
    for (int64_t k = 0; k < steps; ++k) {
        const int64_t t = reverse ? steps - 1 - k : k;
        Expr at = ctx.emitTemp("slice", {xg}, sliceArgs(0, t, t + 1), fmt::format("step{}", t));
        Expr xt = ctx.emitTemp("squeeze", {at}, {{"axes", Expr::ints({0})}}, "step_gates");
        s = step(ctx, cell, xt, s, w, hidden);
        outs[static_cast<size_t>(t)] =
            ctx.emitTemp("unsqueeze", {s.h}, {{"axes", Expr::ints({0})}}, "step_out");
    }
    Expr all = steps == 1 ? outs[0]
                          : ctx.emitTemp("concat", {Expr::array(outs)}, {{"axis", Expr::i(0)}},
                                         "sequence");
    return {all, s};
}

// Row k of an initial state [L*D, B, H] as [1, B, H].
Expr initialRow(Context& ctx, Expr all, int64_t k) {
    return ctx.emitTemp("slice", {all}, sliceArgs(0, k, k + 1), fmt::format("init{}", k));
}

Expr squeezed(Context& ctx, Expr row) {
    return ctx.emitTemp("squeeze", {row}, {{"axes", Expr::ints({0})}}, "init");
}

bool symbolicAxis(const ir::Value& v, int64_t axis) {
    return static_cast<int64_t>(v.symbols.size()) > axis &&
           !v.symbols[static_cast<size_t>(axis)].empty();
}

// lstm(x, [h0, c0], params, has_biases, layers, dropout, train, bidirectional,
//      batch_first) -> (out, h_n, c_n); gru/rnn_*: hx is one tensor.
template <Cell C> void lowerLayers(Context& ctx) {
    if (ctx.in(1).kind == ir::ValueKind::Tensor && ctx.in(0).kind == ir::ValueKind::Tensor &&
        rankOf(ctx.in(1)) == 1 && C == Cell::Lstm)
        ctx.unsupported("packed sequences (lstm over data and batch sizes)");
    const bool biases = ctx.boolArg(3), train = ctx.boolArg(6), bidir = ctx.boolArg(7),
               batchFirst = ctx.boolArg(8);
    const int64_t layers = ctx.intArg(4);
    if (train)
        ctx.unsupported("recurrent layer in training mode");
    const auto& params = ctx.graph().value(ctx.node().inputs[2]).elements;
    const int64_t dirs = bidir ? 2 : 1, per = biases ? 4 : 2;
    if (static_cast<int64_t>(params.size()) != layers * dirs * per)
        ctx.unsupported(fmt::format("{} weights for {} layer(s) x {} direction(s) (LSTM "
                                    "projections are not supported)",
                                    params.size(), layers, dirs));
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) != 3)
        ctx.unsupported("recurrent layer input that is not [T, B, F] or [B, T, F]");
    const int64_t steps = x.shape[batchFirst ? 1 : 0];
    const int64_t hidden = ctx.graph().value(params[1]).shape.at(1);
    std::vector<ir::ValueId> hx;
    if (C == Cell::Lstm)
        hx = ctx.graph().value(ctx.node().inputs[1]).elements;
    else
        hx = {ctx.node().inputs[1]};
    if (hx.size() != (C == Cell::Lstm ? 2u : 1u))
        ctx.unsupported("recurrent layer state that is not a list of tensors");

    const bool scan = symbolicAxis(x, batchFirst ? 1 : 0);
    // The initial states [L*D, B, H]. nn.LSTM's default zeros follow a
    // dynamic batch: they are computed in the graph (aten::zeros over the
    // symbolic batch, lower_factories.cpp), not recorded.
    std::vector<Expr> init;
    for (ir::ValueId h : hx)
        init.push_back(ctx.operand(h, 3, ctx.out().dtype));

    Expr seq = ctx.operand(ctx.node().inputs[0], 3, ctx.out().dtype);
    if (batchFirst)
        seq = ctx.emitTemp("transpose", {seq}, {{"axes", Expr::ints({1, 0, 2})}}, "time_major");
    std::vector<Expr> lastH, lastC;
    for (int64_t l = 0; l < layers; ++l) {
        std::vector<Expr> dirOut;
        for (int64_t d = 0; d < dirs; ++d) {
            const int64_t k = l * dirs + d;
            const size_t base = static_cast<size_t>(k * per);
            Weights w{params[base], params[base + 1], biases ? params[base + 2] : -1,
                      biases ? params[base + 3] : -1};
            Expr h0 = initialRow(ctx, init[0], k);
            Expr c0 = C == Cell::Lstm ? initialRow(ctx, init[1], k) : Expr{};
            if (scan) {
                auto r = recurrent::scanLayer(ctx, C, seq, w, h0, c0, d == 1, hidden);
                dirOut.push_back(r.sequence);
                lastH.push_back(r.h);
                lastC.push_back(r.c);
                continue;
            }
            State s{squeezed(ctx, h0), C == Cell::Lstm ? squeezed(ctx, c0) : Expr{}};
            LayerResult r = runLayer(ctx, C, seq, steps, w, s, d == 1, hidden);
            dirOut.push_back(r.sequence);
            lastH.push_back(
                ctx.emitTemp("unsqueeze", {r.last.h}, {{"axes", Expr::ints({0})}}, "h_n"));
            if (C == Cell::Lstm)
                lastC.push_back(
                    ctx.emitTemp("unsqueeze", {r.last.c}, {{"axes", Expr::ints({0})}}, "c_n"));
        }
        seq = dirs == 1 ? dirOut[0]
                        : ctx.emitTemp("concat", {Expr::array(dirOut)}, {{"axis", Expr::i(2)}},
                                       "bidirectional");
    }
    if (batchFirst)
        ctx.emitOut("transpose", {seq}, {{"axes", Expr::ints({1, 0, 2})}}, 0);
    else
        ctx.bindOut(seq, 0);
    auto stackOut = [&](std::vector<Expr>& rows, size_t i) {
        if (ctx.node().outputs.size() <= i || !ctx.isUsed(ctx.node().outputs[i]))
            return;
        if (rows.size() == 1)
            ctx.bindOut(rows[0], i);
        else
            ctx.emitOut("concat", {Expr::array(rows)}, {{"axis", Expr::i(0)}}, i);
    };
    stackOut(lastH, 1);
    if (C == Cell::Lstm)
        stackOut(lastC, 2);
}

// gru_cell / rnn_tanh_cell / rnn_relu_cell(x, h, w_ih, w_hh, b_ih?, b_hh?)
// -> h'; lstm_cell(x, [h, c], w_ih, w_hh, b_ih?, b_hh?) -> (h', c'). One
// step of the layers' own cell.
template <Cell C> void lowerCell(Context& ctx) {
    const char* kind = C == Cell::Lstm ? "lstm_cell" : "recurrent cell";
    if (rankOf(ctx.in(0)) != 2)
        ctx.unsupported(fmt::format("{} on an unbatched input", kind),
                        "give the cell a batch axis");
    auto bias = [&](size_t i) {
        return ctx.numInputs() > i && !ctx.isNone(i) ? ctx.node().inputs[i] : -1;
    };
    Weights w{ctx.node().inputs[2], ctx.node().inputs[3], bias(4), bias(5)};
    const int64_t hidden = ctx.in(3).shape.at(1);
    DType t = ctx.out().dtype;
    State s;
    if constexpr (C == Cell::Lstm) {
        std::vector<Expr> state = ctx.list(ctx.node().inputs[1]);
        if (state.size() != 2)
            ctx.unsupported("lstm_cell without its (h, c) state");
        s = {state[0], state[1]};
    } else {
        s = {ctx.operand(ctx.node().inputs[1], 2, t), {}};
    }
    Expr xg = project(ctx, ctx.operand(ctx.node().inputs[0], 2, t), 2, w.wih, w.bih, "input_gates");
    s = step(ctx, C, xg, s, w, hidden);
    ctx.bindOut(s.h, 0);
    if constexpr (C == Cell::Lstm)
        ctx.bindOut(s.c, 1);
}

} // namespace

void registerRecurrentOps(Registry& r) {
    r.beginFamily("rnn");
    constexpr const char* kLayers =
        "layers, bidirectional, batch_first, initial state; unrolled over a static time axis, "
        "tract_core_scan over a one-step body over a symbolic one; a default zero state follows "
        "a symbolic batch; no packed sequences";
    r.add("aten::lstm", lowerLayers<Cell::Lstm>, std::string(kLayers) + ", no proj_size");
    r.add("aten::gru", lowerLayers<Cell::Gru>, kLayers);
    r.add("aten::rnn_tanh", lowerLayers<Cell::Tanh>, kLayers);
    r.add("aten::rnn_relu", lowerLayers<Cell::Relu>, kLayers);
    r.add("aten::lstm_cell", lowerCell<Cell::Lstm>, "decomposed into matmul, slices and gates");
    r.add("aten::gru_cell", lowerCell<Cell::Gru>, "decomposed into matmul, slices and gates");
    r.add("aten::rnn_tanh_cell", lowerCell<Cell::Tanh>, "decomposed");
    r.add("aten::rnn_relu_cell", lowerCell<Cell::Relu>, "decomposed");
}

} // namespace t2n::translate
