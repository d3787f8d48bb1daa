#include "load/weight_compression.h"

#include "nnef/q4_0.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <span>

namespace t2n::load {

namespace {

// torch_to_nnef's min_max_q4_0_all: Linear (and its attention subclass),
// every Conv and ConvTranspose, Embedding. Names without the mangling atoms
// TorchScript adds to classes saved more than once.
bool compressible(const c10::ClassTypePtr& type) {
    static const std::set<std::string> kTypes = {
        "__torch__.torch.nn.modules.linear.Linear",
        "__torch__.torch.nn.modules.linear.NonDynamicallyQuantizableLinear",
        "__torch__.torch.nn.modules.conv.Conv1d",
        "__torch__.torch.nn.modules.conv.Conv2d",
        "__torch__.torch.nn.modules.conv.Conv3d",
        "__torch__.torch.nn.modules.conv.ConvTranspose1d",
        "__torch__.torch.nn.modules.conv.ConvTranspose2d",
        "__torch__.torch.nn.modules.conv.ConvTranspose3d",
        "__torch__.torch.nn.modules.sparse.Embedding",
    };
    if (!type || !type->name())
        return false;
    std::vector<std::string> atoms;
    for (const auto& a : type->name()->atoms())
        if (a.rfind("___torch_mangle_", 0) != 0)
            atoms.push_back(a);
    return kTypes.count(fmt::format("{}", fmt::join(atoms, "."))) != 0;
}

} // namespace

CompressedWeights roundTripQ4_0Weights(torch::jit::Module& module) {
    torch::NoGradGuard noGrad;
    CompressedWeights out;
    for (const auto& sub : module.named_modules()) {
        if (!compressible(sub.value.type()) || !sub.value.hasattr("weight"))
            continue;
        const c10::IValue w = sub.value.attr("weight");
        if (!w.isTensor())
            continue;
        at::Tensor t = w.toTensor();
        const std::string name = sub.name.empty() ? "weight" : sub.name + ".weight";
        const std::vector<int64_t> shape = t.sizes().vec();
        std::string why;
        if (t.scalar_type() != at::kFloat)
            why = fmt::format("{} weights stay as they are (Q4_0 is made from f32)",
                              c10::toString(t.scalar_type()));
        else if (!t.is_contiguous())
            why = "not contiguous";
        else if (!nnef::q4_0Eligible(shape))
            why = "Q4_0 needs rank 2 to 4 and a multiple of 32 values per output row";
        if (!why.empty()) {
            out.skipped.push_back(fmt::format("{} [{}]: {}", name, fmt::join(shape, ", "), why));
            continue;
        }
        if (out.storages.count(t.data_ptr()))
            continue; // tied to a weight already rounded
        out.originals.emplace_back(t, t.clone());
        nnef::roundTripQ4_0(std::span<float>(t.data_ptr<float>(), static_cast<size_t>(t.numel())));
        out.names.push_back(name);
        out.storages.insert(t.data_ptr());
    }
    return out;
}

void restore(CompressedWeights& w) {
    torch::NoGradGuard noGrad;
    for (auto& [param, original] : w.originals)
        param.copy_(original);
    w = CompressedWeights{};
}

} // namespace t2n::load
