// Whole recurrent layers as TorchScript carries them (aten::lstm, aten::gru,
// aten::rnn_tanh / rnn_relu with their flattened weight lists) and their
// cells (aten::lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell). A layer over a static time axis
// is unrolled: the input projection of every step is one matmul over the whole sequence, then each
// step adds the hidden projection and applies the gates, in plain NNEF that any consumer reads. A
// symbolic time axis (a dynamic axis of the export) becomes a tract_core_scan
// (lower_recurrent_scan.cpp). Stacked layers and both directions follow PyTorch's weight order
// (layer-major, forward before reverse; w_ih, w_hh, b_ih, b_hh).
#include "translate/lower_quantized.h"
#include "translate/recurrent.h"
#include "translate/registry.h"

#include <fmt/format.h>

#include <numeric>
#include <optional>

namespace t2n::translate {

namespace {

using recurrent::Cell;
using recurrent::Weights;

// "base_model.gru._all_weight_values.0.param.ih" from its weight's name.
std::string dynamicLabel(const std::string& weightName) {
    std::string s = weightName.rfind("self.", 0) == 0 ? weightName.substr(5) : weightName;
    const std::string suffix = ".weight_real";
    if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
        s.resize(s.size() - suffix.size());
    return s;
}

// x W^T (+ b): x of rank `rank`, W [G, K] and b [G] padded to that rank; with
// `dynamic`, x is quantized per call first, as quantize_dynamic's layers do.
Expr project(Context& ctx, Expr x, int64_t rank, ir::ValueId w, ir::ValueId b,
             const std::string& suffix, bool dynamic = false) {
    if (dynamic) {
        const ir::Value& weight = ctx.graph().value(w);
        return dynamicLinear(ctx, std::move(x), rank, weight,
                             b < 0 ? nullptr : &ctx.graph().value(b),
                             dynamicLabel(weight.debugName));
    }
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
    Expr hg = project(ctx, s.h, 2, w.whh, w.bhh, "hidden_gates", w.dynamic);
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
        if (w.whr >= 0)
            h = project(ctx, h, 2, w.whr, -1, "h_projected");
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
    std::vector<Expr> steps; ///< [1, B, H] each, in time order
    State last;
};

/// The steps of a layer as one sequence [T, B, H].
Expr joinSteps(Context& ctx, const std::vector<Expr>& steps) {
    return steps.size() == 1
               ? steps[0]
               : ctx.emitTemp("concat", {Expr::array(steps)}, {{"axis", Expr::i(0)}}, "sequence");
}

/// A bidirectional layer's output [T, B, 2H]: each step's two directions side
/// by side, then the steps. Not concat(forward, reverse, axis 2) of the two
/// sequences: tract 0.23.5's optimizer pushes a slice over time (`o[:, -1]`)
/// up through that concat into the per-step concats and folds a concat of
/// empty pieces, which panics ("attempt to divide by zero" in
/// Tensor::stack_tensors; a traced bidirectional GRU read at its last step).
Expr joinDirections(Context& ctx, const LayerResult& forward, const LayerResult& reverse) {
    std::vector<Expr> paired;
    for (size_t t = 0; t < forward.steps.size(); ++t)
        paired.push_back(ctx.emitTemp("concat", {Expr::array({forward.steps[t], reverse.steps[t]})},
                                      {{"axis", Expr::i(2)}}, "step_directions"));
    return ctx.emitTemp("concat", {Expr::array(paired)}, {{"axis", Expr::i(0)}}, "bidirectional");
}

// `mask` (a packed sequence's [T, B, 1], or none): at a step past an item's
// length its state stays what it was, so the forward direction ends on the
// item's last step and the reverse one starts there, as over packed data.
LayerResult runLayer(Context& ctx, Cell cell, Expr seq, int64_t steps, const Weights& w, State s,
                     bool reverse, int64_t hidden, const std::optional<Expr>& mask = {}) {
    Expr xg = project(ctx, seq, 3, w.wih, w.bih, "input_gates", w.dynamic);
    std::vector<Expr> outs(static_cast<size_t>(steps));
    for (int64_t k = 0; k < steps; ++k) {
        const int64_t t = reverse ? steps - 1 - k : k;
        Expr at = ctx.emitTemp("slice", {xg}, sliceArgs(0, t, t + 1), fmt::format("step{}", t));
        Expr xt = ctx.emitTemp("squeeze", {at}, {{"axes", Expr::ints({0})}}, "step_gates");
        State next = step(ctx, cell, xt, s, w, hidden);
        if (mask) {
            Expr mt = ctx.emitTemp("slice", {*mask}, sliceArgs(0, t, t + 1), "valid_step");
            mt = ctx.emitTemp("squeeze", {mt}, {{"axes", Expr::ints({0})}}, "valid");
            next.h = ctx.emitTemp("select", {mt, next.h, s.h}, {}, "h_kept");
            if (cell == Cell::Lstm)
                next.c = ctx.emitTemp("select", {mt, next.c, s.c}, {}, "c_kept");
        }
        s = next;
        outs[static_cast<size_t>(t)] =
            ctx.emitTemp("unsqueeze", {s.h}, {{"axes", Expr::ints({0})}}, "step_out");
    }
    return {outs, s};
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

// The weights of each layer and direction (layer-major, forward before
// reverse). A float layer's list is flat (w_ih, w_hh[, b_ih, b_hh][, w_hr]
// each); quantize_dynamic's layers list one CellParamsBase each, whose
// elements the IR opened as (type, packed W_ih, packed W_hh)
// (ir_builder addCellElements), each packed linear as (weight, bias,
// weight_real, ...).
std::vector<Weights> layerWeights(Context& ctx, Cell cell, const std::vector<ir::ValueId>& params,
                                  int64_t count, bool biases) {
    std::vector<Weights> out;
    const bool quantized = ctx.node().kind.rfind("aten::quantized_", 0) == 0;
    if (quantized) {
        if (static_cast<int64_t>(params.size()) != count)
            ctx.unsupported(fmt::format("{} cell parameters for {} layer(s) x direction(s)",
                                        params.size(), count));
        for (ir::ValueId p : params) {
            const auto& el = ctx.graph().value(p).elements;
            if (el.size() != 3) {
                const ir::Value* type = el.empty() ? nullptr : &ctx.graph().value(el[0]);
                const std::string name =
                    type && type->constant && std::holds_alternative<std::string>(*type->constant)
                        ? std::get<std::string>(*type->constant)
                        : std::string("unknown");
                ctx.unsupported(
                    fmt::format("recurrent cell parameters of type '{}' (t2n reads the int8 "
                                "dynamically quantized ones, 'quantized_dynamic')",
                                name),
                    "quantize the layer with torch.quantization.quantize_dynamic(model, "
                    "{nn.LSTM, nn.GRU}, dtype=torch.qint8), or keep it in float");
            }
            const auto& ih = ctx.graph().value(el[1]).elements;
            const auto& hh = ctx.graph().value(el[2]).elements;
            if (ih.size() < 3 || hh.size() < 3)
                ctx.unsupported("recurrent cell parameters whose packed linears t2n could not "
                                "open");
            auto bias = [&](ir::ValueId b) {
                return ctx.graph().value(b).kind == ir::ValueKind::None ? -1 : b;
            };
            Weights w{ih[2], hh[2], bias(ih[1]), bias(hh[1])};
            w.dynamic = true;
            out.push_back(w);
        }
        return out;
    }
    int64_t per = biases ? 4 : 2;
    // An LSTM with proj_size has a fifth (or third) weight per direction,
    // W_hr [P, H], after the biases (torch.nn.LSTM._flat_weights).
    const bool projected =
        cell == Cell::Lstm && static_cast<int64_t>(params.size()) == count * (per + 1);
    if (projected)
        ++per;
    if (static_cast<int64_t>(params.size()) != count * per)
        ctx.unsupported(
            fmt::format("{} weights for {} layer(s) x direction(s)", params.size(), count));
    for (int64_t k = 0; k < count; ++k) {
        const size_t base = static_cast<size_t>(k * per);
        out.push_back({params[base], params[base + 1], biases ? params[base + 2] : -1,
                       biases ? params[base + 3] : -1,
                       projected ? params[base + static_cast<size_t>(per) - 1] : -1});
    }
    return out;
}

// lstm(x, [h0, c0], params, has_biases, layers, dropout, train, bidirectional,
//      batch_first) -> (out, h_n, c_n); gru/rnn_*: hx is one tensor.
//
// Over a packed sequence (the data overload: lstm(data, batch_sizes, hx,
// params, has_biases, layers, dropout, train, bidirectional), no batch_first)
// the layer runs over pack_padded_sequence's padded tensor with its mask, and
// its output is packed again for pad_packed_sequence.
template <Cell C> void lowerLayers(Context& ctx) {
    const bool overPacked = ctx.in(1).kind == ir::ValueKind::Tensor &&
                            ctx.in(0).kind == ir::ValueKind::Tensor && rankOf(ctx.in(1)) == 1;
    const Context::PackedSequence* packed = overPacked ? ctx.packed(ctx.node().inputs[0]) : nullptr;
    if (overPacked && !packed)
        ctx.unsupported("a recurrent layer over packed data that pack_padded_sequence did not make "
                        "here",
                        "pack the padded batch with pack_padded_sequence(x, lengths) in the model");
    const size_t o = overPacked ? 1 : 0; // the data overload's arguments start one later
    const bool biases = ctx.boolArg(3 + o), train = ctx.boolArg(6 + o), bidir = ctx.boolArg(7 + o),
               batchFirst = overPacked ? false : ctx.boolArg(8);
    const int64_t layers = ctx.intArg(4 + o);
    // A layer saved in training mode (model.eval() forgotten before
    // saving) differs from eval mode only by the dropout between its
    // layers: with none (p = 0, or one layer) it computes the same numbers.
    if (train) {
        const double dropout = ctx.floatArg(5 + o);
        if (dropout > 0 && layers > 1)
            ctx.unsupported(fmt::format("recurrent layer in training mode with dropout {} between "
                                        "its {} layers: the model draws random masks on every call",
                                        dropout, layers),
                            "call model.eval() before saving the model (torch.jit.trace or "
                            "torch.jit.script), so that its layers run without dropout");
        ctx.warn(fmt::format("{} was saved in training mode (train=True); with {} it computes as "
                             "in eval mode, and is exported as such (call model.eval() before "
                             "saving to avoid this)",
                             ctx.node().kind,
                             layers > 1 ? "no dropout between its layers" : "a single layer"));
    }
    const int64_t dirs = bidir ? 2 : 1;
    const std::vector<Weights> weights = layerWeights(
        ctx, C, ctx.graph().value(ctx.node().inputs[2 + o]).elements, layers * dirs, biases);
    const ir::Value& x = ctx.in(0);
    if (!packed && rankOf(x) != 3)
        ctx.unsupported("recurrent layer input that is not [T, B, F] or [B, T, F]");
    const int64_t steps = packed ? packed->steps : x.shape[batchFirst ? 1 : 0];
    // H from W_hh [G*H, H or P]: its columns are P with proj_size.
    const int64_t gateCount = C == Cell::Lstm ? 4 : C == Cell::Gru ? 3 : 1;
    const int64_t hidden = ctx.graph().value(weights[0].whh).shape.at(0) / gateCount;
    std::vector<ir::ValueId> hx;
    if (C == Cell::Lstm)
        hx = ctx.graph().value(ctx.node().inputs[1 + o]).elements;
    else
        hx = {ctx.node().inputs[1 + o]};
    if (hx.size() != (C == Cell::Lstm ? 2u : 1u))
        ctx.unsupported("recurrent layer state that is not a list of tensors");

    const bool scan = !packed && symbolicAxis(x, batchFirst ? 1 : 0);
    // The initial states [L*D, B, H]. nn.LSTM's default zeros follow a
    // dynamic batch: they are computed in the graph (aten::zeros over the
    // symbolic batch, lower_factories.cpp), not recorded.
    std::vector<Expr> init;
    for (ir::ValueId h : hx)
        init.push_back(ctx.operand(h, 3, ctx.out().dtype));

    Expr seq = packed ? packed->padded : ctx.operand(ctx.node().inputs[0], 3, ctx.out().dtype);
    std::optional<Expr> mask;
    if (packed)
        mask = packed->mask;
    if (batchFirst)
        seq = ctx.emitTemp("transpose", {seq}, {{"axes", Expr::ints({1, 0, 2})}}, "time_major");
    std::vector<Expr> lastH, lastC;
    for (int64_t l = 0; l < layers; ++l) {
        std::vector<Expr> dirOut;      // scanned directions' sequences
        std::vector<LayerResult> runs; // unrolled directions
        for (int64_t d = 0; d < dirs; ++d) {
            const int64_t k = l * dirs + d;
            const Weights& w = weights[static_cast<size_t>(k)];
            Expr h0 = initialRow(ctx, init[0], k);
            Expr c0 = C == Cell::Lstm ? initialRow(ctx, init[1], k) : Expr{};
            if (scan) {
                if (w.dynamic)
                    ctx.unsupported("a dynamically quantized recurrent layer over a dynamic "
                                    "time axis",
                                    "export it with a fixed sequence length (no --dynamic-axis "
                                    "on the time axis): t2n unrolls it then");
                auto r = recurrent::scanLayer(ctx, C, seq, w, h0, c0, d == 1, hidden);
                dirOut.push_back(r.sequence);
                lastH.push_back(r.h);
                lastC.push_back(r.c);
                continue;
            }
            State s{squeezed(ctx, h0), C == Cell::Lstm ? squeezed(ctx, c0) : Expr{}};
            LayerResult r = runLayer(ctx, C, seq, steps, w, s, d == 1, hidden, mask);
            lastH.push_back(
                ctx.emitTemp("unsqueeze", {r.last.h}, {{"axes", Expr::ints({0})}}, "h_n"));
            if (C == Cell::Lstm)
                lastC.push_back(
                    ctx.emitTemp("unsqueeze", {r.last.c}, {{"axes", Expr::ints({0})}}, "c_n"));
            runs.push_back(std::move(r));
        }
        if (runs.size() == 2)
            seq = joinDirections(ctx, runs[0], runs[1]);
        else if (runs.size() == 1)
            seq = joinSteps(ctx, runs[0].steps);
        else
            seq = dirs == 1 ? dirOut[0]
                            : ctx.emitTemp("concat", {Expr::array(dirOut)}, {{"axis", Expr::i(2)}},
                                           "bidirectional");
    }
    if (packed)
        ctx.setPacked(ctx.node().outputs[0], {seq, packed->mask, packed->lengths, steps});
    else if (batchFirst)
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

// _pack_padded_sequence(input, lengths, batch_first) -> (data, batch_sizes):
// PyTorch gathers the valid steps of every item, a number that follows the
// lengths' values. Nothing is gathered here: the padded input (time-major)
// and a mask of the valid steps, step t < lengths[b], stand for the packed
// data (Context::PackedSequence), which only a recurrent layer and
// pad_packed_sequence read; batch_sizes is computed from the mask. The
// lengths are graph values (an input), the padded length T is fixed or
// refused.
void lowerPackPaddedSequence(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const bool batchFirst = ctx.boolArg(2);
    if (rankOf(x) != 3)
        ctx.unsupported("pack_padded_sequence of a tensor that is not [B, T, F] or [T, B, F]");
    const int64_t timeAxis = batchFirst ? 1 : 0;
    if (symbolicAxis(x, timeAxis))
        ctx.unsupported("pack_padded_sequence over a dynamic time axis",
                        "export with a fixed padded length; the lengths stay inputs");
    const int64_t steps = x.shape[static_cast<size_t>(timeAxis)];
    Expr seq = ctx.operand(ctx.node().inputs[0], 3, ctx.in(0).dtype);
    if (batchFirst)
        seq = ctx.emitTemp("transpose", {seq}, {{"axes", Expr::ints({1, 0, 2})}}, "time_major");
    std::vector<int64_t> t(static_cast<size_t>(steps));
    std::iota(t.begin(), t.end(), int64_t{0});
    Expr lengths = ctx.operand(ctx.node().inputs[1], 2, DType::I64); // [1, B]
    Expr valid =
        ctx.emitTemp("lt", {indexTable(ctx, t, {steps, 1}, "steps"), lengths}, {}, "valid_steps");
    // batch_sizes[t], the number of items longer than t, when something reads
    // it (nn.LSTM sizes its default state from batch_sizes[0]).
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1])) {
        Expr counted =
            ctx.emitTemp("tract_core_cast", {valid}, {{"to", Expr::str("i64")}}, "valid_count");
        counted = ctx.emitTemp("sum_reduce", {counted}, {{"axes", Expr::ints({1})}}, "batch");
        ctx.emitOut("squeeze", {counted}, {{"axes", Expr::ints({1})}}, 1);
    }
    valid = ctx.emitTemp("unsqueeze", {valid}, {{"axes", Expr::ints({2})}}, "valid_mask");
    ctx.setPacked(ctx.node().outputs[0], {seq, valid, ctx.node().inputs[1], steps});
}

// _pad_packed_sequence(data, batch_sizes, batch_first, padding_value,
// total_length) -> (padded, lengths): the layer's time-major output with
// padding_value past each item's length, batch-first if asked, and the
// lengths. PyTorch pads to the longest length (or total_length), which
// follows the lengths' values: the export keeps the padded input's T, right
// whenever the longest item fills the batch (as padding a batch makes it).
void lowerPadPackedSequence(Context& ctx) {
    const Context::PackedSequence* p = ctx.packed(ctx.node().inputs[0]);
    if (!p)
        ctx.unsupported("pad_packed_sequence of data that pack_padded_sequence did not make here");
    const bool batchFirst = ctx.boolArg(2);
    const int64_t length = ctx.out().shape.at(batchFirst ? 1 : 0);
    if (length != p->steps)
        ctx.unsupported(fmt::format("pad_packed_sequence to {} steps of a sequence padded to {} "
                                    "(the longest length is shorter than the padded input, or "
                                    "total_length is longer)",
                                    length, p->steps),
                        "give lengths whose longest fills the padded input");
    const DType t = ctx.out().dtype;
    Expr fill = Context::scalarLiteral(ctx.floatArg(3), t);
    if (batchFirst) {
        Expr padded = ctx.emitTemp("select", {p->mask, p->padded, fill}, {}, "padded");
        ctx.emitOut("transpose", {padded}, {{"axes", Expr::ints({1, 0, 2})}}, 0);
    } else {
        ctx.emitOut("select", {p->mask, p->padded, fill}, {}, 0);
    }
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        ctx.bindOut(ctx.operand(p->lengths, rankOf(ctx.out(1)), ctx.out(1).dtype), 1);
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
        "a symbolic batch; over a packed sequence (lengths as graph values, a fixed padded "
        "length): masked steps";
    r.add("aten::lstm", lowerLayers<Cell::Lstm>, std::string(kLayers) + ", proj_size");
    r.add("aten::gru", lowerLayers<Cell::Gru>, kLayers);
    // quantize_dynamic's layers: the float layers' arithmetic, each gate
    // projection a dynamically quantized linear (lower_quantized.cpp).
    constexpr const char* kDynamicLayers =
        "int8 cell parameters (torch.quantization.quantize_dynamic, dtype qint8): each gate "
        "projection quantizes its operand on its own range per call as PyTorch (qnnpack) does "
        "(the input projection once over the whole sequence, the hidden one per step); layers, "
        "bidirectional, batch_first, initial state; unrolled over a static time axis";
    constexpr const char* kDynamicEmits =
        "matmul add mul sub sigmoid tanh slice squeeze unsqueeze concat transpose +select "
        "min_reduce max_reduce min max div neg clamp ?tract_core_round_even +round +linear";
    r.add("aten::quantized_lstm", lowerLayers<Cell::Lstm>, kDynamicLayers, kDynamicEmits);
    r.add("aten::quantized_gru", lowerLayers<Cell::Gru>, kDynamicLayers, kDynamicEmits);
    r.add("aten::rnn_tanh", lowerLayers<Cell::Tanh>, kLayers);
    r.add("aten::rnn_relu", lowerLayers<Cell::Relu>, kLayers);
    r.add("aten::_pack_padded_sequence", lowerPackPaddedSequence,
          "the padded input and a mask of the valid steps (read by a recurrent layer and "
          "pad_packed_sequence only); a fixed padded length",
          "+transpose lt unsqueeze +tract_core_cast +sum_reduce +squeeze");
    r.add("aten::_pad_packed_sequence", lowerPadPackedSequence,
          "padding_value past each length; the padded input's length", "select +transpose");
    r.add("aten::lstm_cell", lowerCell<Cell::Lstm>, "decomposed into matmul, slices and gates");
    r.add("aten::gru_cell", lowerCell<Cell::Gru>, "decomposed into matmul, slices and gates");
    r.add("aten::rnn_tanh_cell", lowerCell<Cell::Tanh>, "decomposed");
    r.add("aten::rnn_relu_cell", lowerCell<Cell::Relu>, "decomposed");
}

} // namespace t2n::translate
