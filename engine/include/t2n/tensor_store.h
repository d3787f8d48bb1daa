// Tensors alone, without a graph: read every tensor of a weights file and
// write each as an NNEF .dat file (torch_to_nnef's export_tensors_to_nnef and
// export_tensors_from_disk_to_nnef; `t2n tensors`). Useful to ship new weights
// for an archive already exported, or LoRA/PEFT tensors beside one.
#pragma once

#include "t2n/tensor_data.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace t2n {

struct NamedTensor {
    std::string name; ///< state_dict key, e.g. "encoder.layers.0.weight"
    TensorData data;
    std::string note; ///< how it was converted, e.g. "bf16 widened to f32"
};

struct TensorStore {
    std::string format; ///< "safetensors", "torch.save" or "TorchScript"
    std::vector<NamedTensor> tensors;
    /// Entries that are not tensors (an epoch number, an optimizer's
    /// hyper-parameters), by their flattened key: reported, not written.
    std::vector<std::string> skipped;
};

/// Reads a .safetensors file, a torch.save file (.pt, .pth, .bin: a tensor,
/// a state_dict, or nested dicts/lists of them, keys joined with '.'), or a
/// TorchScript module (its parameters and buffers, named as in its
/// state_dict). The format is told by the bytes, not the suffix. Throws
/// t2n::Error (Load, ModelFile) for a file that is none of these, naming
/// what it is and how to save it instead.
TensorStore readTensorStore(const std::filesystem::path& file);

/// The tensors of `store` whose name matches `filter` (a POSIX extended
/// regular expression, as `grep -E` reads it, searched, not fully matched;
/// empty selects every tensor), in the store's order. Throws t2n::Error
/// (Usage) when `filter` is not a regular expression or has a back-reference.
std::vector<const NamedTensor*> selectTensors(const TensorStore& store, const std::string& filter);

struct TensorFileOptions {
    /// POSIX extended regular expression a name must match (search, not full
    /// match) to be written; empty writes every tensor.
    std::string filter;
    /// The model, store and other files that must never be replaced.
    std::vector<std::filesystem::path> protect;
};

struct WrittenTensorFile {
    std::string name;
    std::filesystem::path file;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    uint64_t bytes = 0; ///< file size, header included
    std::string note;
};

/// Writes NAME.dat into `dir` for each tensor of `store` that passes the
/// filter, all or nothing: every file is written under a temporary name and
/// renamed into place only when all are written; on failure `dir` is as it
/// was. `dir` is created when missing (its parent must exist). Throws
/// t2n::Error (Write, OutputPath) for a name that is not a plain file name,
/// two tensors with one name, or an unwritable folder; (Write, Usage) for a
/// bad filter or a filter that selects nothing.
std::vector<WrittenTensorFile> writeTensorFiles(const TensorStore& store,
                                                const std::filesystem::path& dir,
                                                const TensorFileOptions& options = {});

} // namespace t2n
