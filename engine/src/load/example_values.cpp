#include "load/example_values.h"

#include "jit/torch_bridge.h"
#include "load/npy_reader.h"
#include "t2n/error.h"
#include "util/memory_limits.h"

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

// The whole file for pickle_load, which holds it and the tensor it decodes
// (twice the file at most): a file, or a stream (a FIFO, /dev/zero) that
// goes on, larger than half the memory available is refused, not read on.
std::vector<char> readFile(const InputSpec& s) {
    std::ifstream in(s.valuesFile, std::ios::binary);
    if (!in)
        throw bad(s, "the file cannot be read");
    const uint64_t limit = util::availableMemory() / 2;
    auto tooLarge = [&] {
        return bad(s, fmt::format("it holds more than {} bytes, half the memory available", limit));
    };
    std::error_code ec;
    std::vector<char> bytes;
    if (const auto size = std::filesystem::file_size(s.valuesFile, ec); !ec) {
        if (size > limit)
            throw tooLarge();
        bytes.reserve(size);
    }
    std::vector<char> piece(1 << 20);
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0) {
        if (bytes.size() + static_cast<uint64_t>(in.gcount()) > limit)
            throw tooLarge();
        bytes.insert(bytes.end(), piece.data(), piece.data() + in.gcount());
    }
    return bytes;
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

namespace {
at::Tensor readValuesFile(const InputSpec& s) {
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
} // namespace

at::Tensor readExampleValues(const InputSpec& s) {
    // (An empty one is refused with the others: util::checkExamplesHaveData.)
    return readValuesFile(s);
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
