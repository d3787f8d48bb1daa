// Reading an NNEF artifact back: the archive (folder, .tar, .tgz), the
// graph text, the .dat tensors and graph.quant, in one of two modes.
#pragma once

#include "reader/ast.h"
#include "t2n/tensor_data.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::nnef {

enum class ReadMode {
    Strict, ///< Khronos NNEF 1.0.5: KHR_* extensions only, no tract_* operations
    Tract,  ///< tract: free-form extension lines, symbols, asserts, tract_core_properties
};

struct ReadOptions {
    ReadMode mode = ReadMode::Tract;
    /// Refuse any single entry larger than this, and archives whose entries
    /// add up to more than maxTotalBytes (protection against archive bombs).
    uint64_t maxEntryBytes = uint64_t(8) << 30;
    uint64_t maxTotalBytes = uint64_t(32) << 30;
};

struct LoadedModel {
    ast::Document document;
    std::string graphText;
    /// Every .dat of the artifact, by label (path without ".dat").
    std::map<std::string, TensorData> tensors;
    std::vector<ast::QuantEntry> quant;
    /// Things tract would silently skip: dot-prefixed entries, sub-models,
    /// files that are neither graph.nnef, graph.quant nor .dat.
    std::vector<std::string> warnings;
};

/// Throws t2n::Error (Stage::Check) naming the file, line and column of a
/// syntax error, the entry of a bad archive member, or the field of a bad
/// .dat header.
LoadedModel readModel(const std::filesystem::path& artifact, const ReadOptions& options = {});

ast::Document parseDocument(std::string_view text, const std::string& fileName, ReadMode mode);
std::vector<ast::QuantEntry> parseQuant(std::string_view text, const std::string& fileName);
/// Validates the 128-byte header and the length; returns the decoded tensor.
TensorData readDat(std::vector<std::byte> bytes, const std::string& fileName);

} // namespace t2n::nnef
