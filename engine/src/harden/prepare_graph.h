// The part of stage harden that every model needs before tracing: resolve
// method calls and module attributes (freeze, else inline), and turn
// in-place tensor ops into functional ones where that is provably safe.
// The full JIT-only hardening chain of seed 001 builds on this.
#pragma once

#include <torch/script.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace t2n::harden {

struct PreparedModule {
    /// Receiver passed as the graph's first input when running it.
    torch::jit::Module module;
    /// forward() with every call inlined; its first input is `self`.
    std::shared_ptr<torch::jit::Graph> graph;
    /// Storage address of each parameter and buffer -> its qualified name.
    std::unordered_map<const void*, std::string> paramNames;
    bool froze = false;
    std::vector<std::string> warnings;
};

PreparedModule prepareGraph(const torch::jit::Module& model, bool freeze);

} // namespace t2n::harden
