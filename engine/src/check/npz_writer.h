// Writes the io.npz bundle tract reads with --input-from-bundle and
// --assert-output-bundle: what numpy.savez writes (reference/nnef-and-tract.md
// §3 and §6 tier 2). An uncompressed ZIP (libarchive, STORED entries, fixed
// timestamps: the same tensors always give the same bytes) whose members are
// `<name>.npy` in NPY format 1.0.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::check {

struct NpzEntry {
    std::string name; ///< member "<name>.npy"; a '/' makes a folder (turn_0/x)
    at::Tensor tensor;
};

/// numpy's descr of the dtype the tensor is written as: "<f4", "|b1", ...
/// f16 and bf16 are written as f32 ("<f4"): tract's npz reader has no f16.
/// Throws t2n::Error (Check, Unsupported) for complex and quantized tensors.
std::string npyDescr(const at::Tensor& tensor);

/// The NPY 1.0 preamble: magic, version, header length and the header dict
/// padded with spaces and a final '\n' to a multiple of 64 bytes.
std::string npyHeader(std::string_view descr, const std::vector<int64_t>& shape);

/// One whole .npy file (preamble + C-order data).
std::vector<std::byte> npyBytes(const at::Tensor& tensor);

/// The .npz file in memory. Members are written in the given order.
/// Throws t2n::Error (Check, Internal) for empty or duplicate names, and
/// (Check, InvalidOption) for names too long for a zip member.
std::vector<std::byte> npzBytes(const std::vector<NpzEntry>& entries);

/// Writes the .npz under a temporary name next to `path`, then renames it:
/// never a partial file. Throws t2n::Error (Check, OutputPath) on I/O errors.
void writeNpz(const std::filesystem::path& path, const std::vector<NpzEntry>& entries);

} // namespace t2n::check
