// tract's Fourier transforms (core/src/ops/fft.rs), written from their
// definitions: a plain DFT accumulated in double, never LibTorch's FFT, so
// that the check stays an independent judge of the lowerings that use them.
// Complex numbers are a trailing axis of 2 (real, imaginary).
//   tract_core_fft(input, axis, inverse): X[k] = sum_t x[t] e^(-+2 pi i k t / n)
//     along `axis`; the inverse is not normalized (rustfft).
//   tract_core_stft(input, axis, frame, stride, window): frames of `frame`
//     samples every `stride` along `axis` (as many as fit), each multiplied by
//     the real window (centered with zeros when shorter than the frame) and
//     transformed; the output has axis `axis` of frames and `axis + 1` of bins.
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace t2n::interp::kernels {

namespace {

// `x` [..., 2] as double with the transform axis moved just before the 2:
// [M, n, 2], contiguous; `shape` receives the moved shape.
at::Tensor rowsOf(const at::Tensor& x, int64_t axis, std::vector<int64_t>& moved) {
    at::Tensor m = x.to(at::kDouble).movedim(axis, -2).contiguous();
    moved = m.sizes().vec();
    return m.reshape({-1, m.size(-2), 2});
}

// The DFT of the n complex samples at `in` (each scaled by `window` when
// given) into the n complex values at `out`.
void dft(const double* in, const std::vector<double>* window, double* out, int64_t n,
         bool inverse) {
    const double sign = inverse ? 1.0 : -1.0;
    std::vector<double> c(static_cast<size_t>(n)), s(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
        const double a = 2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(n);
        c[static_cast<size_t>(j)] = std::cos(a);
        s[static_cast<size_t>(j)] = sign * std::sin(a);
    }
    std::vector<double> re(static_cast<size_t>(n)), im(static_cast<size_t>(n));
    for (int64_t t = 0; t < n; ++t) {
        const double w = window ? (*window)[static_cast<size_t>(t)] : 1.0;
        re[static_cast<size_t>(t)] = in[t * 2] * w;
        im[static_cast<size_t>(t)] = in[t * 2 + 1] * w;
    }
    for (int64_t k = 0; k < n; ++k) {
        double sr = 0, si = 0;
        int64_t j = 0; // k * t mod n
        for (int64_t t = 0; t < n; ++t) {
            const double cr = c[static_cast<size_t>(j)], ci = s[static_cast<size_t>(j)];
            sr += re[static_cast<size_t>(t)] * cr - im[static_cast<size_t>(t)] * ci;
            si += re[static_cast<size_t>(t)] * ci + im[static_cast<size_t>(t)] * cr;
            j += k;
            if (j >= n)
                j -= n;
        }
        out[k * 2] = sr;
        out[k * 2 + 1] = si;
    }
}

void checkComplex(const at::Tensor& x, std::string_view op) {
    if (!x.is_floating_point())
        throw InterpError(fmt::format("{} needs a float tensor, not {}", op, describeTensor(x)));
    if (x.dim() < 2 || x.size(-1) != 2)
        throw InterpError(fmt::format("{} needs complex numbers as an inner axis of 2, not {}", op,
                                      describeTensor(x)));
}

} // namespace

std::vector<Value> kFft(const Call& call) {
    const at::Tensor x = call.tensor("input");
    checkComplex(x, call.op);
    const int64_t axis = checkAxis(call.integer("axis"), x.dim() - 1, call.op);
    std::vector<int64_t> moved;
    const at::Tensor rows = rowsOf(x, axis, moved);
    const int64_t m = rows.size(0), n = rows.size(1);
    at::Tensor out = at::empty_like(rows);
    for (int64_t r = 0; r < m; ++r)
        dft(rows.data_ptr<double>() + r * n * 2, nullptr, out.data_ptr<double>() + r * n * 2, n,
            call.logical("inverse"));
    return one(out.reshape(moved).movedim(-2, axis).to(x.scalar_type()).contiguous());
}

std::vector<Value> kStft(const Call& call) {
    const at::Tensor x = call.tensor("input");
    checkComplex(x, call.op);
    const int64_t axis = checkAxis(call.integer("axis"), x.dim() - 1, call.op);
    const int64_t frame = call.integer("frame"), stride = call.integer("stride");
    if (frame < 1 || stride < 1 || frame > x.size(axis))
        throw InterpError(fmt::format("{} frame {} and stride {} do not fit {}", call.op, frame,
                                      stride, describeTensor(x)));
    std::vector<double> window;
    const at::Tensor w = call.tensor("window");
    const bool windowed = w.scalar_type() != at::kBool;
    if (windowed) {
        if (w.dim() != 1 || w.size(0) > frame)
            throw InterpError(fmt::format("{} window {} must be one axis of at most {} values",
                                          call.op, describeTensor(w), frame));
        window.assign(static_cast<size_t>(frame), 0.0);
        const at::Tensor wd = w.to(at::kDouble).contiguous();
        const int64_t left = (frame - w.size(0)) / 2;
        for (int64_t i = 0; i < w.size(0); ++i)
            window[static_cast<size_t>(left + i)] = wd.data_ptr<double>()[i];
    }
    std::vector<int64_t> moved;
    const at::Tensor rows = rowsOf(x, axis, moved);
    const int64_t m = rows.size(0), len = rows.size(1);
    const int64_t frames = (len - frame) / stride + 1;
    at::Tensor out = at::empty({m, frames, frame, 2}, rows.options());
    for (int64_t r = 0; r < m; ++r)
        for (int64_t f = 0; f < frames; ++f)
            dft(rows.data_ptr<double>() + (r * len + f * stride) * 2, windowed ? &window : nullptr,
                out.data_ptr<double>() + ((r * frames + f) * frame) * 2, frame, false);
    // [pre..., post..., frames, frame, 2] -> [pre..., frames, frame, post..., 2]
    std::vector<int64_t> shape(moved.begin(), moved.end() - 2);
    shape.insert(shape.end(), {frames, frame, 2});
    return one(
        out.reshape(shape).movedim({-3, -2}, {axis, axis + 1}).to(x.scalar_type()).contiguous());
}

} // namespace t2n::interp::kernels
