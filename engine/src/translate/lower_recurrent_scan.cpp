// A recurrent layer direction as tract_core_scan over a one-step body
// fragment, the form torch_to_nnef emits (reference §2.7): it follows a
// symbolic time axis, which an unrolled layer cannot. The input projections of
// every gate are computed for the whole sequence outside the scan and sliced
// one time step per iteration; the recurrent weights are passed whole; h (and
// c) are carried as states of shape [1, B, H], so that the sequence output is
// h stacked along axis 0 and the final states need no reshaping. Gates get
// separate weights, so a body holds no size and one fragment serves every
// layer of a cell kind.
#include "translate/recurrent.h"

#include <fmt/format.h>

namespace t2n::translate::recurrent {

namespace {

// PyTorch's gate order in weight_ih / weight_hh rows.
const std::vector<std::string>& gateNames(Cell cell) {
    static const std::vector<std::string> lstm{"in", "forget", "cell", "out"};
    static const std::vector<std::string> gru{"reset", "update", "new"};
    static const std::vector<std::string> rnn{"hidden"};
    return cell == Cell::Lstm ? lstm : cell == Cell::Gru ? gru : rnn;
}

std::string fragmentName(Cell cell, bool projected) {
    switch (cell) {
    case Cell::Lstm:
        return projected ? "t2n_lstm_projected_scan_step" : "t2n_lstm_scan_step";
    case Cell::Gru:
        return "t2n_gru_scan_step";
    case Cell::Tanh:
        return "t2n_rnn_tanh_scan_step";
    case Cell::Relu:
        return "t2n_rnn_relu_scan_step";
    }
    return {};
}

// The body: x_<gate> are this step's input projections [1, B, H] (biases
// included, except GRU's hidden bias of the new gate, b_new, which PyTorch
// applies inside the reset product), w_<gate> the recurrent weights [1, H, H]
// ([1, H, P] with proj_size, whose w_proj [1, P, H] projects h).
std::string fragmentText(Cell cell, bool projected) {
    std::vector<std::string> params, lines;
    for (const auto& g : gateNames(cell))
        params.push_back(fmt::format("x_{}: tensor<scalar>", g));
    params.push_back("h_prev: tensor<scalar>");
    if (cell == Cell::Lstm)
        params.push_back("c_prev: tensor<scalar>");
    for (const auto& g : gateNames(cell))
        params.push_back(fmt::format("w_{}: tensor<scalar>", g));
    if (cell == Cell::Gru)
        params.push_back("b_new: tensor<scalar>");
    if (projected)
        params.push_back("w_proj: tensor<scalar>");
    for (const auto& g : gateNames(cell))
        lines.push_back(fmt::format(
            "hw_{0} = matmul(h_prev, w_{0}, transposeA = false, transposeB = true);", g));
    auto gate = [&](const std::string& g, const char* act) {
        lines.push_back(fmt::format("sum_{0} = add(x_{0}, hw_{0});", g));
        lines.push_back(fmt::format("{0}_gate = {1}(sum_{0});", g, act));
    };
    std::string results = "h: tensor<scalar>";
    switch (cell) {
    case Cell::Lstm:
        gate("in", "sigmoid");
        gate("forget", "sigmoid");
        gate("cell", "tanh");
        gate("out", "sigmoid");
        lines.insert(lines.end(),
                     {"kept = mul(forget_gate, c_prev);", "added = mul(in_gate, cell_gate);",
                      "c = add(kept, added);", "c_tanh = tanh(c);"});
        lines.push_back(projected ? "h_full = mul(out_gate, c_tanh);"
                                  : "h = mul(out_gate, c_tanh);");
        if (projected)
            lines.push_back("h = matmul(h_full, w_proj, transposeA = false, transposeB = true);");
        results += ", c: tensor<scalar>";
        break;
    case Cell::Gru:
        // n = tanh(x_n + r * (h W_hn^T + b_hn));  h' = n + z * (h - n)
        gate("reset", "sigmoid");
        gate("update", "sigmoid");
        lines.insert(lines.end(), {"hw_new_biased = add(hw_new, b_new);",
                                   "reset_hidden = mul(reset_gate, hw_new_biased);",
                                   "sum_new = add(x_new, reset_hidden);",
                                   "new_gate = tanh(sum_new);", "delta = sub(h_prev, new_gate);",
                                   "kept = mul(update_gate, delta);", "h = add(new_gate, kept);"});
        break;
    case Cell::Tanh:
    case Cell::Relu:
        lines.push_back("sum_hidden = add(x_hidden, hw_hidden);");
        lines.push_back(fmt::format("h = {}(sum_hidden);", cell == Cell::Tanh ? "tanh" : "relu"));
        break;
    }
    std::string text = fmt::format("fragment {}(\n", fragmentName(cell, projected));
    for (size_t i = 0; i < params.size(); ++i)
        text += fmt::format("  {}{}\n", params[i], i + 1 < params.size() ? "," : "");
    text += fmt::format(") -> ({})\n{{\n", results);
    for (const auto& l : lines)
        text += "  " + l + "\n";
    return text + "}\n";
}

Expr rowsOf(Context& ctx, Expr e, int64_t axis, int64_t k, int64_t hidden,
            const std::string& name) {
    return ctx.emitTemp("slice", {e}, sliceArgs(axis, k * hidden, (k + 1) * hidden), name);
}

TensorData zeros(DType dtype, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    std::vector<std::byte> bytes(static_cast<size_t>(n) * (dtypeBits(dtype) / 8), std::byte{0});
    return TensorData::copyOf(dtype, std::move(shape), bytes);
}

Expr tupleOf(std::vector<Expr> items) {
    return Expr::tuple(std::move(items));
}

} // namespace

ScanLayer scanLayer(Context& ctx, Cell cell, Expr seq, const Weights& w, Expr h0, Expr c0,
                    bool reverse, int64_t hidden) {
    const bool projected = w.whr >= 0;
    const std::string body = fragmentName(cell, projected);
    ctx.addFragment(body, fragmentText(cell, projected));
    const DType t = ctx.out().dtype;
    const auto& gates = gateNames(cell);
    const std::string dir = reverse ? "reverse" : "forward";

    // All gates' input projections at once, [T, B, G*H]; LSTM and RNN add
    // b_hh here too, GRU only for reset and update.
    Expr xg = ctx.emitTemp("matmul", {seq, ctx.operand(w.wih, 3, t)},
                           {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}},
                           dir + "_input_gates");
    if (w.bih >= 0)
        xg = ctx.emitTemp("add", {xg, ctx.operand(w.bih, 3, t)}, {}, dir + "_input_biased");
    Expr bhh = w.bhh >= 0 ? ctx.operand(w.bhh, 3, t) : Expr{};
    if (w.bhh >= 0 && cell != Cell::Gru)
        xg = ctx.emitTemp("add", {xg, bhh}, {}, dir + "_both_biased");
    Expr whh = ctx.operand(w.whh, 3, t);

    const int64_t step = reverse ? -1 : 1;
    std::vector<Expr> scans, fulls, states;
    for (size_t k = 0; k < gates.size(); ++k) {
        const auto& g = gates[k];
        const auto gk = static_cast<int64_t>(k);
        Expr x = gates.size() == 1 ? xg : rowsOf(ctx, xg, 2, gk, hidden, dir + "_x_" + g);
        if (cell == Cell::Gru && g != "new" && w.bhh >= 0)
            x = ctx.emitTemp("add", {x, rowsOf(ctx, bhh, 2, gk, hidden, dir + "_b_" + g)}, {},
                             dir + "_x_" + g + "_biased");
        scans.push_back(tupleOf({Expr::str("x_" + g), x, Expr::i(0), Expr::i(step)}));
        Expr wk = gates.size() == 1 ? whh : rowsOf(ctx, whh, 1, gk, hidden, dir + "_w_" + g);
        fulls.push_back(tupleOf({Expr::str("w_" + g), wk}));
    }
    if (cell == Cell::Gru) {
        Expr bn = w.bhh >= 0 ? rowsOf(ctx, bhh, 2, 2, hidden, dir + "_b_new")
                             : ctx.derivedTensor(zeros(t, {1, 1, hidden}), "gru_no_bias");
        fulls.push_back(tupleOf({Expr::str("b_new"), bn}));
    }
    if (projected)
        fulls.push_back(tupleOf({Expr::str("w_proj"), ctx.operand(w.whr, 3, t)}));
    states.push_back(tupleOf({Expr::str("h_prev"), h0, Expr::str("h")}));
    std::vector<Expr> outputs{
        tupleOf({Expr::str("h"), Expr::str("full"), Expr::i(0), Expr::i(step)}),
        tupleOf({Expr::str("h"), Expr::str("last"), Expr::i(0), Expr::i(1)})};
    std::vector<std::string> names{dir + "_sequence", dir + "_h_n"};
    if (cell == Cell::Lstm) {
        states.push_back(tupleOf({Expr::str("c_prev"), c0, Expr::str("c")}));
        outputs.push_back(tupleOf({Expr::str("c"), Expr::str("last"), Expr::i(0), Expr::i(1)}));
        names.push_back(dir + "_c_n");
    }
    auto r = ctx.emitMulti("tract_core_scan", {},
                           {{"body", Expr::str(body)},
                            {"scan", Expr::array(scans)},
                            {"full", Expr::array(fulls)},
                            {"state", Expr::array(states)},
                            {"output", Expr::array(outputs)}},
                           names);
    return {r[0], r[1], cell == Cell::Lstm ? r[2] : Expr{}};
}

} // namespace t2n::translate::recurrent
