// NumPy's .npy format and .npz archives (a zip of .npy files), read without
// LibTorch: example input values come from files the user hands over, so
// every size is checked before it is allocated (util/memory_limits.h) and
// a member is read only up to the bytes its header declares. Fuzzed by
// tests/fuzz/fuzz_npy_reader.cpp.
#pragma once

#include "t2n/dtype.h"
#include "t2n/tensor_data.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::load {

struct NpyHeader {
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    uint64_t dataOffset = 0; ///< where the data starts: magic, version, length and dict
    uint64_t dataBytes = 0;  ///< what the shape and dtype need
};

/// The header at the start of `bytes` (which may hold the whole file or only
/// its beginning). Throws t2n::Error (Load, Usage) saying what is wrong: no
/// magic, a truncated header, an unknown or big-endian dtype, Fortran order,
/// a malformed shape, or data larger than the memory available.
NpyHeader parseNpyHeader(std::span<const std::byte> bytes);

/// A whole .npy in memory.
TensorData readNpy(std::span<const std::byte> bytes);
/// A .npy file: its header, then exactly the data bytes the header declares.
TensorData readNpyFile(const std::filesystem::path& file);

/// Member `member` (with or without ".npy") of a .npz file or of .npz bytes.
/// A member that is not there is an error listing the members; a file that
/// is not a readable zip says so (libarchive's reason).
TensorData readNpzMember(const std::filesystem::path& file, const std::string& member);
TensorData readNpzMember(std::span<const std::byte> bytes, const std::string& member);

} // namespace t2n::load
