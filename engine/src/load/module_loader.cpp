#include "load/module_loader.h"

#include "load/example_values.h"

#include "t2n/error.h"
#include "util/memory_limits.h"

#include <ATen/Context.h>
#include <fmt/format.h>
#include <fstream>

namespace t2n::load {

namespace {
// Quantized modules re-pack their weights for the global quantized engine
// when they are loaded, and the packed form decides the rounding of their
// kernels. Debian's LibTorch has no fbgemm: qnnpack, the engine the fixture
// generator quantizes with, is chosen every time so that the recorded
// outputs are deterministic and match the model's author on the same build.
void selectQuantizedEngine() {
    auto& ctx = at::globalContext();
    for (at::QEngine e : ctx.supportedQEngines())
        if (e == at::QEngine::QNNPACK) {
            ctx.setQEngine(e);
            return;
        }
}

bool looksLikeZip(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K';
}
} // namespace

torch::jit::Module loadTorchScript(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("model file '{}' does not exist", path.string()),
                    "check the path; t2n reads files written by torch.jit.save");
    if (std::filesystem::is_directory(path, ec))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is a directory, not a TorchScript file", path.string()),
                    "pass the .pt/.jit file written by torch.jit.save");
    if (!looksLikeZip(path))
        throw Error(
            Stage::Load, ErrorCode::ModelFile,
            fmt::format("'{}' is not a TorchScript archive (it is not a zip file)", path.string()),
            "save the model with torch.jit.save(torch.jit.trace(model, example), path) "
            "or torch.jit.script; t2n cannot read plain pickles, ONNX or safetensors");
    try {
        selectQuantizedEngine();
        auto m = torch::jit::load(path.string());
        m.eval();
        if (!m.find_method("forward"))
            throw Error(Stage::Load, ErrorCode::ModelFile,
                        fmt::format("'{}' has no forward() method", path.string()),
                        "export a module whose forward() is the inference entry point");
        return m;
    } catch (const c10::Error& e) {
        std::string what = e.what_without_backtrace();
        bool pickle = what.find("constants.pkl") != std::string::npos ||
                      what.find("code/") != std::string::npos;
        std::string first = what.substr(0, what.find('\n'));
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is not a TorchScript archive: {}", path.string(), first),
                    pickle ? "this looks like a torch.save() pickle (e.g. a state_dict); save the "
                             "module with torch.jit.save(torch.jit.trace(model, example), path)"
                           : "save the model with torch.jit.save; the file may be truncated or "
                             "written by an incompatible PyTorch");
    }
}

std::vector<std::string> forwardArgumentNames(const torch::jit::Module& m) {
    std::vector<std::string> names;
    const auto& schema = m.get_method("forward").function().getSchema();
    for (size_t i = 1; i < schema.arguments().size(); ++i)
        names.push_back(schema.arguments()[i].name());
    return names;
}

std::vector<at::Tensor> makeExampleInputs(const std::vector<InputSpec>& specs, uint64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    std::vector<at::Tensor> out;
    for (const auto& s : specs) {
        if (!s.valuesFile.empty()) {
            out.push_back(readExampleValues(s));
            continue;
        }
        // Random values are drawn as f32 (or i64) and converted: room for those first.
        util::checkedTensorBytes(s.shape, s.dtype, Stage::Load, fmt::format("input '{}'", s.name),
                                 isFloat(s.dtype) ? 4 : 8);
        at::Tensor t;
        switch (s.dtype) {
        case DType::F16:
        case DType::F32:
        case DType::F64:
            t = at::randn(s.shape, gen, at::TensorOptions().dtype(at::kFloat))
                    .to(s.dtype == DType::F16   ? at::kHalf
                        : s.dtype == DType::F64 ? at::kDouble
                                                : at::kFloat);
            break;
        case DType::Bool:
            t = at::randint(0, 2, s.shape, gen, at::TensorOptions().dtype(at::kLong)).to(at::kBool);
            break;
        default:
            t = at::randint(0, 10, s.shape, gen, at::TensorOptions().dtype(at::kLong))
                    .to(s.dtype == DType::I32   ? at::kInt
                        : s.dtype == DType::I16 ? at::kShort
                        : s.dtype == DType::I8  ? at::kChar
                        : s.dtype == DType::U8  ? at::kByte
                                                : at::kLong);
        }
        out.push_back(t);
    }
    return out;
}

} // namespace t2n::load
