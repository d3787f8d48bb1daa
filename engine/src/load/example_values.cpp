#include "load/example_values.h"

#include "jit/torch_bridge.h"
#include "load/npy_reader.h"
#include "t2n/error.h"

#include <fmt/format.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <cstring>
#include <fstream>
#include <map>
#include <memory>

namespace t2n::load {

namespace {
Error bad(const InputSpec& s, const std::string& why) {
    return Error(Stage::Load, ErrorCode::Usage,
                 fmt::format("cannot take the example values of input '{}' from '{}': {}", s.name,
                             s.valuesFile, why),
                 "give a .npy, a .npz (NAME=@FILE.npz#MEMBER) or a .pt written by "
                 "torch.save(tensor)");
}

std::vector<char> readFile(const InputSpec& s) {
    std::ifstream in(s.valuesFile, std::ios::binary);
    if (!in)
        throw bad(s, "the file cannot be read");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The readers' errors, with the input and the file in front.
template <class Read> at::Tensor read(const InputSpec& s, Read&& readTensor) {
    try {
        // The reader's copy is this tensor's alone: no second copy.
        return jit::toTensor(readTensor());
    } catch (const Error& e) {
        throw bad(s, e.message());
    }
}
} // namespace

at::Tensor readExampleValues(const InputSpec& s) {
    const std::string& f = s.valuesFile;
    if (f.ends_with(".npy"))
        return read(s, [&] { return readNpyFile(f); });
    if (f.ends_with(".npz"))
        return read(s, [&] {
            return readNpzMember(std::filesystem::path(f),
                                 s.valuesMember.empty() ? s.name : s.valuesMember);
        });
    if (f.ends_with(".pt") || f.ends_with(".pth")) {
        c10::IValue v;
        try {
            v = torch::jit::pickle_load(readFile(s));
        } catch (const c10::Error& e) {
            std::string what = e.what_without_backtrace();
            throw bad(s, "torch::pickle_load failed: " + what.substr(0, what.find('\n')));
        }
        if (!v.isTensor())
            throw bad(s, fmt::format("the file holds a {}, not a tensor", v.tagKind()));
        return v.toTensor().contiguous();
    }
    throw bad(s, "unknown file type (expected .npy, .npz or .pt)");
}

std::vector<InputSpec> withFileShapes(std::vector<InputSpec> specs) {
    for (auto& s : specs) {
        if (s.valuesFile.empty())
            continue;
        auto t = readExampleValues(s);
        auto dt = jit::fromScalarType(t.scalar_type());
        if (!dt)
            throw bad(s, "the tensor's dtype is not one t2n exports");
        s.shape = t.sizes().vec();
        s.dtype = *dt;
    }
    return specs;
}

} // namespace t2n::load
