// readTensorStore: safetensors and torch.save files through torch-free
// readers; TorchScript modules through LibTorch (their parameters and
// buffers).
#include "t2n/tensor_store.h"

#include "jit/torch_bridge.h"
#include "reader/safetensors_reader.h"
#include "reader/storage_records.h"
#include "reader/torch_save_reader.h"
#include "t2n/error.h"
#include "util/half.h"

#include <caffe2/serialize/inline_container.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/script.h>

#include <array>
#include <fstream>

namespace t2n {

namespace {

std::string first(const std::string& what) {
    return what.substr(0, what.find('\n'));
}

std::array<std::byte, 16> leadingBytes(const std::filesystem::path& file) {
    std::array<std::byte, 16> b{};
    std::ifstream in(file, std::ios::binary);
    in.read(reinterpret_cast<char*>(b.data()), b.size());
    return b;
}

void addTensor(TensorStore& store, const std::string& key, const at::Tensor& t) {
    NamedTensor n;
    n.name = key;
    at::Tensor value = t;
    if (t.scalar_type() == at::kBFloat16) {
        value = t.to(at::kFloat);
        n.note = util::kBf16WidenedNote;
    } else if (t.is_quantized()) {
        n.note = "quantized tensor written as the real numbers it stands for";
    }
    try {
        n.data = jit::toTensorData(value);
    } catch (const Error& e) {
        throw Error(Stage::Load, ErrorCode::Unsupported,
                    fmt::format("tensor '{}': {}", key, e.message()),
                    "leave it out with --filter, or convert it before saving");
    }
    store.tensors.push_back(std::move(n));
}

TensorStore readSafetensorsStore(const std::filesystem::path& file) {
    TensorStore store{"safetensors", {}, {}};
    for (auto& t : reader::readSafetensors(file))
        store.tensors.push_back({t.entry.name, std::move(t.data),
                                 t.entry.dtype == "BF16" ? util::kBf16WidenedNote : ""});
    return store;
}

// In state_dict() order: a module's own parameters, its own buffers, then
// each child's, depth first.
void addModule(TensorStore& store, const torch::jit::Module& m, const std::string& prefix) {
    for (const auto& p : m.named_parameters(/*recurse=*/false))
        addTensor(store, prefix + p.name, p.value);
    for (const auto& b : m.named_buffers(/*recurse=*/false))
        addTensor(store, prefix + b.name, b.value);
    for (const auto& c : m.named_children())
        addModule(store, c.value, prefix + c.name + ".");
}

TensorStore readTorchScriptStore(const std::filesystem::path& file) {
    TensorStore store{"TorchScript", {}, {}};
    // Every record as long as its storage says, before LibTorch reads one.
    std::ifstream records(file, std::ios::binary);
    reader::checkStorageRecords(records, file.string());
    addModule(store, torch::jit::load(file.string()), "");
    return store;
}

TensorStore readZipStore(const std::filesystem::path& file) {
    caffe2::serialize::PyTorchStreamReader reader(file.string());
    if (reader.hasRecord("constants.pkl") || reader.hasRecord("code/__torch__.py"))
        return readTorchScriptStore(file);
    // torch.save: LibTorch's unpickler turns every OrderedDict (a state_dict)
    // into None, so t2n reads it itself.
    reader::SavedObject saved = reader::readTorchSave(file);
    TensorStore store{"torch.save", {}, std::move(saved.skipped)};
    for (auto& t : saved.tensors)
        store.tensors.push_back({std::move(t.name), std::move(t.data), std::move(t.note)});
    if (store.tensors.empty())
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' holds no tensors t2n can read ({})", file.string(),
                                store.skipped.empty()
                                    ? "it is empty"
                                    : "only " + fmt::format("{}", fmt::join(store.skipped, ", "))),
                    "a whole pickled nn.Module is Python code t2n never runs: save "
                    "model.state_dict() instead");
    return store;
}

} // namespace

TensorStore readTensorStore(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is not a file", file.string()),
                    "pass a .safetensors, .pt, .pth or .bin file");
    const auto lead = leadingBytes(file);
    if (reader::looksLikeSafetensors(lead))
        return readSafetensorsStore(file);
    const bool zip = lead[0] == std::byte{'P'} && lead[1] == std::byte{'K'};
    if (!zip) {
        // Protocol 2 pickle opcode: torch.save before PyTorch 1.6, or with
        // _use_new_zipfile_serialization=False.
        const bool legacy = lead[0] == std::byte{0x80};
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is {}", file.string(),
                                legacy ? "a torch.save file in the legacy (pre-1.6) format, "
                                         "which LibTorch cannot read"
                                       : "neither safetensors nor a torch.save/TorchScript zip"),
                    legacy ? "save it again with torch.save(obj, path) from PyTorch >= 1.6"
                           : "pass a .safetensors file, a torch.save file or a TorchScript "
                             "module");
    }
    try {
        return readZipStore(file);
    } catch (const Error&) {
        throw;
    } catch (const c10::Error& e) {
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("LibTorch cannot read the tensors of '{}': {}", file.string(),
                                first(e.what_without_backtrace())),
                    "a torch.save file may only hold tensors, dicts, lists, tuples and plain "
                    "values (not a whole nn.Module); save model.state_dict() instead");
    } catch (const std::exception& e) {
        throw Error(
            Stage::Load, ErrorCode::ModelFile,
            fmt::format("cannot read the tensors of '{}': {}", file.string(), first(e.what())),
            "save model.state_dict() with torch.save, or use safetensors");
    }
}

} // namespace t2n
