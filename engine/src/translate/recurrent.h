// Shared by the two ways a whole recurrent layer (aten::lstm, gru, rnn_*) is
// emitted: unrolled over a static time axis (lower_recurrent.cpp, plain NNEF)
// and as a tract_core_scan over a one-step body fragment when the time axis
// is symbolic (lower_recurrent_scan.cpp).
#pragma once

#include "translate/lower_util.h"

namespace t2n::translate::recurrent {

enum class Cell { Lstm, Gru, Tanh, Relu };

struct Weights {
    ir::ValueId wih = -1, whh = -1, bih = -1, bhh = -1; // -1: no bias
    ir::ValueId whr = -1; ///< LSTM proj_size: h = (o * tanh(c)) W_hr^T; -1: none
    /// quantize_dynamic's layers (aten::quantized_lstm / quantized_gru): w* are
    /// the int8 weights' real values, and each gate projection quantizes its
    /// operand on its own range at every call, as the layer's packed linears
    /// do (dynamicLinear). Only the unrolled layer computes them.
    bool dynamic = false;
};

/// One direction of one layer run by tract_core_scan over the time axis.
struct ScanLayer {
    Expr sequence; ///< [T, B, H]
    Expr h, c;     ///< last states [1, B, H] (c only for LSTM; h is [1, B, P] with proj_size)
};

/// `seq` is time-major [T, B, F]; `h0`, `c0` are the initial rows [1, B, H].
/// The reverse direction scans backwards (chunk -1 on the inputs and on the
/// sequence output, so the output stays in input time order).
ScanLayer scanLayer(Context& ctx, Cell cell, Expr seq, const Weights& w, Expr h0, Expr c0,
                    bool reverse, int64_t hidden);

} // namespace t2n::translate::recurrent
