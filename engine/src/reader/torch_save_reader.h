// torch.save files (PyTorch >= 1.6: a zip holding data.pkl and one record
// per storage), read without LibTorch and without running any Python code.
// LibTorch's own unpickler turns every collections.OrderedDict into None, so
// it cannot read a state_dict; and a pickle is untrusted input. This reader
// runs the subset of the pickle machine torch.save writes (protocol 2, and
// the opcodes of 3-5 that carry data), knows exactly four callables
// (OrderedDict, _rebuild_tensor_v2, _rebuild_parameter and the typed
// storages) and turns any other object into an opaque value it never calls.
// Every size, index and stride is checked against the bytes there are.
// Fuzzed by tests/fuzz/fuzz_torch_save_reader.cpp.
#pragma once

#include "t2n/tensor_data.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace t2n::reader {

struct SavedTensor {
    std::string name; ///< keys from the root, joined with '.' ("model.fc.weight")
    TensorData data;  ///< contiguous; bf16 widened to f32
    std::string note;
};

struct SavedObject {
    std::vector<SavedTensor> tensors; ///< in pickle order
    /// Keys of values that are not tensors (numbers, strings, opaque objects).
    std::vector<std::string> skipped;
};

/// Bytes of the storage record `key` ("0", "1", ...); null when missing.
using StorageLookup =
    std::function<std::shared_ptr<const std::vector<std::byte>>(const std::string& key)>;

/// Runs `pickle` (data.pkl). Throws t2n::Error (Load, ModelFile) naming the
/// opcode or value that is not what torch.save writes.
SavedObject unpickleTorchSave(std::span<const std::byte> pickle, const StorageLookup& storages);

/// A whole torch.save zip file. Throws t2n::Error (Load, ModelFile).
SavedObject readTorchSave(const std::filesystem::path& file);

/// One storage a pickle names: ('storage', torch.FloatStorage, key, location, numel).
struct StorageUse {
    std::string type; ///< "torch.FloatStorage"
    std::string key;  ///< the record's name under the pickle's tensor folder
    int64_t numel = 0;
    std::string location; ///< the device it was saved from ("cpu", "cuda:0")
};
/// Every storage `pickle` names, in order, found by running the same machine
/// without building any tensor or calling anything: a TorchScript archive's
/// data.pkl or constants.pkl (whose objects and storage types torch.save
/// files do not hold). Throws t2n::Error (Load, ModelFile).
std::vector<StorageUse> storageUses(std::span<const std::byte> pickle);

} // namespace t2n::reader
