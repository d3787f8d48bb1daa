// Recurrent cells decomposed into primitive operations, as seed 001 says
// torch_to_nnef does for nn.LSTMCell (and aten::lstm_cell once inlined).
// Whole LSTM/GRU/RNN layers (tract scan bodies) come with the operator
// breadth issue.
#include "translate/lower_util.h"
#include "translate/registry.h"

namespace t2n::translate {

namespace {

// x W^T + b for a weight [G, K] and an optional bias [G].
Expr projection(Context& ctx, Expr x, size_t weight, size_t bias, const std::string& suffix) {
    DType t = ctx.out().dtype;
    Expr w = ctx.operand(ctx.node().inputs[weight], 2, t);
    Expr m = ctx.emitTemp("matmul", {x, w},
                          {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}}, suffix);
    if (ctx.isNone(bias))
        return m;
    const ir::Value& b = ctx.in(bias);
    Expr bb = b.constant && std::holds_alternative<TensorData>(*b.constant)
                  ? ctx.constantTensor(std::get<TensorData>(*b.constant).reshaped({1, b.shape[0]}),
                                       b.paramName, b.name.empty() ? b.debugName : b.name)
                  : ctx.operand(ctx.node().inputs[bias], 2, t);
    return ctx.emitTemp("add", {m, bb}, {}, suffix + "_biased");
}

// lstm_cell(x, [h, c], w_ih, w_hh, b_ih, b_hh) -> (h', c'):
//   i, f, g, o = split(x W_ih^T + b_ih + h W_hh^T + b_hh, 4)
//   c' = sigmoid(f) c + sigmoid(i) tanh(g);  h' = sigmoid(o) tanh(c')
void lowerLstmCell(Context& ctx) {
    if (rankOf(ctx.in(0)) != 2)
        ctx.unsupported("lstm_cell on an unbatched input", "give the cell a batch axis");
    std::vector<Expr> state = ctx.list(ctx.node().inputs[1]);
    if (state.size() != 2)
        ctx.unsupported("lstm_cell without its (h, c) state");
    const int64_t hidden = ctx.in(3).shape.at(1);
    Expr x = ctx.input(0);
    Expr gates = ctx.emitTemp(
        "add",
        {projection(ctx, x, 2, 4, "input_gates"), projection(ctx, state[0], 3, 5, "hidden_gates")},
        {}, "gates");
    auto gate = [&](int k, const std::string& act, const std::string& name) {
        Expr s = ctx.emitTemp("slice", {gates}, sliceArgs(1, k * hidden, (k + 1) * hidden), name);
        return ctx.emitTemp(act, {s}, {}, name + "_" + act);
    };
    Expr i = gate(0, "sigmoid", "in");
    Expr f = gate(1, "sigmoid", "forget");
    Expr g = gate(2, "tanh", "cell");
    Expr o = gate(3, "sigmoid", "out");
    Expr kept = ctx.emitTemp("mul", {f, state[1]}, {}, "kept");
    Expr added = ctx.emitTemp("mul", {i, g}, {}, "added");
    Expr c = ctx.emitOut("add", {kept, added}, {}, 1);
    ctx.emitOut("mul", {o, ctx.emitTemp("tanh", {c}, {}, "c_tanh")}, {}, 0);
}

} // namespace

void registerRnnOps(Registry& r) {
    r.beginFamily("rnn");
    r.add("aten::lstm_cell", lowerLstmCell, "decomposed into matmul, slices and gates");
}

} // namespace t2n::translate
