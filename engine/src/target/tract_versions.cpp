// The version table. Sources: tract's git history (registry names and CLI
// flags over the release tags v0.19.0 … v0.23.5 and HEAD 0.23.6-pre), its
// CHANGELOG for releases without a tag (0.19.9), and docs.rs sources of
// tract-core 0.23.6 … 0.23.9 for what came after the last readable tag.
// Operations that exist in every version t2n targets (0.18.0 and newer) have
// no row. Removed operations t2n never writes (tract_core_load, _store and
// _force_eval, gone in 0.23.0; tract_onnx_is_nan / _isinf, replaced by
// tract_core_is_nan / _is_inf in 0.23.0) are in neither this table nor the
// operation catalog.
#include "target/tract_versions.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <vector>

namespace t2n::target {

namespace {

// clang-format off
constexpr TractGate kGates[] = {
    // tract_core operations (nnef/src/ops/core*.rs)
    {"tract_core_erf", "0.19.0", "", "moved from tract_onnx"},
    {"tract_core_hard_swish", "0.19.9", "", "CHANGELOG 0.19.9"},
    {"tract_core_submodel", "0.19.9", "", "CHANGELOG 0.19.9"},
    {"tract_core_fft", "0.19.0", "", "nnef/src/ops/core/fft.rs (2faa69a7c, 2022-12-31)"},
    {"tract_core_stft", "0.19.0", "", "a window shorter than frame is centered from 0.22.0 (#1798)"},
    {"tract_core_einsum", "0.20.0", "", ""},
    {"tract_core_einsum_q", "0.20.0", "", ""},
    {"tract_core_einsum:f16-acc-f32", "0.21.11", "",
     "f16 operands with acc 'f32': \"accumulator promotion is back\" (fe28938fb, v0.21.11); "
     "torch_to_nnef's gate for force_linear_accumulation_in_f32"},
    {"tract_core_topk", "0.20.0", "", ""},
    {"tract_core_trilu", "0.20.0", "", ""},
    {"tract_core_dyn_slice", "0.20.18", "", ""},
    {"tract_core_softmax", "0.21.1", "", "softmax(x, axes, exp)"},
    {"dat:q4_0", "0.21.11", "", "Q4_0 .dat blocks in GGML nibble order (item type 0x5452:3040)"},
    {"tract_core_gather:datum_type", "0.21.11", "", "dedicated gather registration"},
    {"tract_core_log_softmax", "0.21.15 0.22.0", "",
     "absent from 0.21.14; backported to 0.21.15 (\"backport LogSoftmax from main\")"},
    {"tract_core_is_nan", "0.23.0", "", "replaces tract_onnx_is_nan"},
    {"tract_core_is_inf", "0.23.0", "", "replaces tract_onnx_isinf"},
    {"tract_core_rms_norm", "0.23.0", "", "moved from tract_transformers (kept as an alias)"},
    {"tract_core_silu", "0.23.0", "", "moved from tract_transformers (kept as an alias)"},
    {"tract_core_gelu_approx", "0.23.0", "", "moved from tract_transformers (kept as an alias)"},
    {"tract_core_scatter_elements:reduction", "0.23.0", "", "none, add, mul, min, max"},
    {"tract_core_scatter_nd:reduction", "0.23.0", "", "none, add, mul, min, max"},
    {"tract_core_lstm_epilogue", "0.23.2", "", ""},
    {"tract_core_resize", "0.23.3", "", ""},
    {"tract_core_grid_sample", "0.23.3", "", ""},
    {"nearest_upsample", "0.23.3", "", "registered as a primitive in tract_core"},
    {"multilinear_upsample", "0.23.3", "", "registered as a primitive in tract_core"},
    // standard operations tract registered late (nnef/src/ops/nnef/mod.rs)
    {"debox", "0.23.0", "", "a primitive from 0.23.0; older stdlibs declare it without a body"},
    {"tract_core_gru_epilogue", "0.23.6", "", "in HEAD 0.23.6-pre and tract-core 0.23.6"},
    {"tract_core_pow_const", "0.23.6", "", "in HEAD 0.23.6-pre"},
    // other registries
    {"tract_extra_exp_unit_norm", "0.20.19", "", ""},
    {"tract_extra_exp_mean_norm", "0.20.22", "", ""},
    {"tract_pulse_mask", "0.20.20", "", ""},
    {"tract_onnx_grid_sample", "0.23.0", "", ""},
    {"tract_onnx_random", "0.19.0", "", "onnx-opl/src/random.rs (0526da12f, 2022-12-29)"},
    {"tract_onnx_resize", "0.23.0", "", ""},
    {"tract_onnx_non_zero", "0.23.5", "", ""},
    {"tract_transformers_apply_rope", "0.21.13", "", ""},
    {"tract_transformers_gelu_approx", "0.21.13", "", "alias of tract_core_gelu_approx from 0.23.0"},
    {"tract_transformers_rms_norm", "0.21.13", "", "alias of tract_core_rms_norm from 0.23.0"},
    {"tract_transformers_scaled_masked_softmax", "0.21.13", "", ""},
    {"tract_transformers_silu", "0.21.13", "", "alias of tract_core_silu from 0.23.0"},
    {"tract_transformers_sdpa", "0.22.0", "", ""},
    {"tract_transformers_dyn_kv_cache", "0.23.0", "", ""},
    {"tract_transformers_window_kv_sdpa", "0.23.1", "", ""},
    {"tract_transformers_quantized_kv_sdpa", "0.23.3", "", ""},
    {"tract_transformers_quantized_dyn_kv_cache", "0.23.5", "", ""},
    {"tract_transformers_gdn_recurrent", "0.23.5", "", ""},
    {"tract_transformers_causal_conv1d_update", "0.23.5", "", ""},
    // the NNEF text tract reads (nnef/src/ast/parse.rs)
    {"literal:inf", "0.20.19", "", "inf and -inf as numeric literals"},
    // slice's begin and end as expressions of a symbol (nnef/src/ops/nnef/deser.rs)
    {"slice:symbolic-bounds", "0.19.6", "", "older: begin and end are fixed integers"},
    // meanings that changed between releases: what the reader makes of the
    // same text (nnef/src/ops/nnef/deser.rs, nnef/src/deser.rs). The
    // interpreter models each release's reading (check/tract_readings.cpp).
    {"reading:box:constant-border-counts-padding", "0.23.6", "",
     "box / avg_pool with border 'constant' divide by the whole window, padding included "
     "(9c4bf2db8, 2026-08-17, first in the release after 0.23.5); up to 0.23.5 every border "
     "divides by the real cells only. t2n writes border 'ignore' and pads explicitly, which both "
     "readings agree on"},
    {"reading:tract_assert:warns-on-unused-symbol", "0.23.4", "",
     "a tract_assert bounding only symbols absent from every tensor shape has no effect, and "
     "tract warns about it (CHANGELOG 0.23.4); t2n drops such an assertion"},
    // the tract command line (cli/src/main.rs, params.rs)
    {"cli:--input-from-bundle", "0.18.0", "", "older: --input-bundle"},
    {"cli:--nnef-tract-extra", "0.20.20", "", ""},
    {"cli:--nnef-tract-transformers", "0.21.13", "", ""},
    {"cli:--approx", "0.21.7", "", "exact, close, approximate, super"},
    {"cli:--approx=very", "0.21.8", "", ""},
    {"cli:--approx=ultra", "0.21.8", "", ""},
    {"cli:--approx-custom", "0.21.10", "", ""},
    {"cli:--allow-missing-outputs", "0.21.8", "", "b258b2875 (2024-10-08)"},
};
// clang-format on

std::vector<SemVer> sinceList(std::string_view since) {
    std::vector<SemVer> out;
    size_t start = 0;
    while (start < since.size()) {
        size_t end = since.find(' ', start);
        if (end == std::string_view::npos)
            end = since.size();
        if (end > start)
            out.push_back(SemVer::parse(since.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

} // namespace

SemVer SemVer::parse(std::string_view s) {
    if (!s.empty() && s.front() == 'v')
        s.remove_prefix(1);
    s = s.substr(0, s.find_first_of("-+"));
    SemVer v;
    for (size_t i = 0; i < 3 && !s.empty(); ++i) {
        const size_t dot = s.find('.');
        const std::string_view part = s.substr(0, dot);
        int n = 0;
        std::from_chars(part.data(), part.data() + part.size(), n);
        v.parts[i] = n;
        s = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
    }
    return v;
}

std::string SemVer::str() const {
    return fmt::format("{}.{}.{}", parts[0], parts[1], parts[2]);
}

std::span<const TractGate> tractGates() {
    return kGates;
}

const TractGate* findTractGate(std::string_view what) {
    const auto* it = std::find_if(std::begin(kGates), std::end(kGates),
                                  [&](const TractGate& g) { return g.what == what; });
    return it == std::end(kGates) ? nullptr : it;
}

bool tractHas(std::string_view what, const SemVer& v) {
    const TractGate* g = findTractGate(what);
    if (!g)
        return true;
    if (!g->until.empty() && v >= SemVer::parse(g->until))
        return false;
    const auto since = sinceList(g->since);
    if (since.empty() || v >= since.back())
        return true;
    // A backport: the release line of an earlier entry has it from there on.
    return std::any_of(since.begin(), since.end() - 1,
                       [&](const SemVer& s) { return v.sameLine(s) && v >= s; });
}

std::string_view tractSince(std::string_view what) {
    const TractGate* g = findTractGate(what);
    if (!g || g->since.empty())
        return {};
    return g->since.substr(0, g->since.find(' '));
}

std::string describeGate(const TractGate& gate) {
    const auto since = sinceList(gate.since);
    std::string out;
    if (since.size() == 1) {
        out = fmt::format("tract {} or newer", since[0].str());
    } else if (!since.empty()) {
        for (size_t i = 0; i + 1 < since.size(); ++i)
            out += fmt::format("tract {} or newer on the {}.{} line, ", since[i].str(),
                               since[i].parts[0], since[i].parts[1]);
        out += fmt::format("{} or newer after it", since.back().str());
    }
    if (!gate.until.empty())
        out += fmt::format("{}before {}", out.empty() ? "tract " : ", ", gate.until);
    return out;
}

} // namespace t2n::target
