#include "target/random_kinds.h"

#include <algorithm>
#include <array>

namespace t2n::target {

namespace {

// tract_onnx_random (onnx-opl/src/random.rs) draws uniform or normal floats
// of a fixed shape: these kinds are such a draw, possibly scaled and shifted,
// or a sampler built from such draws with a fixed number of candidates
// (gamma, Poisson: translate/lower_samplers.cpp). (Hardening makes uniform_
// the functional uniform, and normal_ a normal(mean, std, size) of the
// operand's size.)
constexpr std::array<std::string_view, 10> kTractDraws{
    "aten::rand",    "aten::rand_like",      "aten::randn",    "aten::randn_like",
    "aten::normal",  "aten::normal_",        "aten::uniform_", "aten::uniform",
    "aten::poisson", "aten::_standard_gamma"};

// Random integers, permutations, Bernoulli, multinomial and the other
// samplers, in-place and functional: t2n writes no tract operation for them.
constexpr std::array<std::string_view, 18> kOtherDraws{
    "aten::randint",      "aten::randint_like",     "aten::randperm",    "aten::bernoulli",
    "aten::bernoulli_",   "aten::multinomial",      "aten::binomial",    "aten::exponential",
    "aten::exponential_", "aten::geometric",        "aten::geometric_",  "aten::cauchy",
    "aten::cauchy_",      "aten::log_normal",       "aten::log_normal_", "aten::random",
    "aten::random_",      "aten::_sample_dirichlet"};

bool inKinds(std::string_view kind, const auto& kinds) {
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

} // namespace

bool drawsRandom(std::string_view kind) {
    return inKinds(kind, kTractDraws) || inKinds(kind, kOtherDraws);
}

bool tractDraws(std::string_view kind) {
    return inKinds(kind, kTractDraws);
}

} // namespace t2n::target
