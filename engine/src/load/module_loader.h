// Stage load: read a TorchScript archive and make the example inputs.
#pragma once

#include "t2n/error.h"
#include "t2n/input_spec.h"

#include <torch/script.h>

#include <filesystem>
#include <istream>
#include <string>
#include <vector>

namespace t2n::load {

/// torch::jit::load in eval mode. Throws t2n::Error (Load, ModelFile) with a
/// hint that tells a torch.save() pickle or a stray file from a TorchScript file.
/// Tensors saved on a GPU are read onto the CPU; `notes` then says so.
torch::jit::Module loadTorchScript(const std::filesystem::path& path,
                                   std::vector<std::string>* notes = nullptr);
/// The same from the bytes torch.jit.save wrote (to a file or a buffer), read
/// from `in`'s current position; `name` stands for the file in messages.
torch::jit::Module loadTorchScript(std::istream& in, const std::string& name,
                                   std::vector<std::string>* notes = nullptr);

/// Names of forward()'s arguments after `self`.
std::vector<std::string> forwardArgumentNames(const torch::jit::Module& m);

/// Seeded example inputs for the specs: floats from N(0,1), ints in [0, 10),
/// bools from a fair coin; a spec with a valuesFile takes its file's tensor,
/// one with inline values those (throws t2n::Error, Usage, for a wrong count).
std::vector<at::Tensor> makeExampleInputs(const std::vector<InputSpec>& specs, uint64_t seed);

/// When the model fails on its example inputs: which integer inputs were
/// random numbers in [0, 10) (lengths and token ids usually need real ones)
/// and how to give values; empty when no input was a random integer.
std::string randomIntegersHint(const std::vector<InputSpec>& specs);

/// `e` (a ModelRun error) with randomIntegersHint() added to its hint.
Error withRandomIntegersHint(const Error& e, const std::vector<InputSpec>& specs);

/// `e` as withRandomIntegersHint() makes it, and, when the model refused the
/// given sizes (a ModelRun error), the inputs it runs with if t2n's input
/// proposal finds them within `seconds`: "the model runs with --input ...".
Error withModelRunHints(const Error& e, const std::vector<InputSpec>& specs,
                        const torch::jit::Module& model, double seconds = 20);

} // namespace t2n::load
