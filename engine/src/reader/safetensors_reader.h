// The safetensors format (Hugging Face): an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range,
// then the bytes. Read without LibTorch and without copying: the file is
// mapped and each tensor is a view into the mapping. Every size comes from
// the file, so each is checked (ranges inside the data, byte counts that
// match the shape, no overflow) before anything is trusted. Fuzzed by
// tests/fuzz/fuzz_safetensors_reader.cpp.
#pragma once

#include "t2n/tensor_data.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace t2n::reader {

struct SafetensorsEntry {
    std::string name;
    std::string dtype; ///< as spelled in the file: F32, BF16, I64, BOOL...
    std::vector<int64_t> shape;
    uint64_t begin = 0; ///< byte range inside the data section
    uint64_t end = 0;
};

struct SafetensorsHeader {
    std::vector<SafetensorsEntry> entries; ///< in data order
    std::map<std::string, std::string> metadata;
    uint64_t dataOffset = 0; ///< 8 + the header length
};

/// The header of a safetensors file whose whole content is `bytes` (used for
/// the ranges check). Throws t2n::Error (Load, ModelFile) saying what is wrong.
SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> bytes);

/// Whether `bytes` (the first bytes of a file) look like safetensors: a
/// plausible header length followed by '{'.
bool looksLikeSafetensors(std::span<const std::byte> bytes);

struct SafetensorsTensor {
    SafetensorsEntry entry;
    /// The bytes as stored; F16/BF16/F32... keep their width. BF16 has no
    /// t2n dtype: `data` is then its exact widening to F32.
    TensorData data;
};

/// Every tensor of the safetensors bytes `file`, each a view into them that
/// keeps `owner` alive (BF16 widened into its own buffer). Same errors as
/// readSafetensors().
std::vector<SafetensorsTensor> viewSafetensors(std::span<const std::byte> file,
                                               std::shared_ptr<const void> owner);

/// Every tensor of a safetensors file, each a view into a read-only mapping
/// of the file (BF16 widened into its own buffer). Dtypes without an NNEF
/// `.dat` form (U16, U32, U64, F8_*) throw Error (Load, Unsupported) naming
/// the tensor.
std::vector<SafetensorsTensor> readSafetensors(const std::filesystem::path& file);

/// t2n's dtype for a safetensors dtype name; BF16 maps to F32 (widened).
/// Throws Error (Load, Unsupported) for the others, naming `tensor`.
DType safetensorsDType(const std::string& name, const std::string& tensor);

} // namespace t2n::reader
