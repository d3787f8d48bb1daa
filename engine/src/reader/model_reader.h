// Reading an NNEF artifact back: the archive (folder, .tar, .tgz), the
// graph text, the .dat tensors and graph.quant, in one of two modes.
#pragma once

#include "reader/ast.h"
#include "t2n/tensor_data.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::archive {
class EntryStream;
} // namespace t2n::archive

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
    /// Tensors the caller already holds, by label. A .dat whose dtype, shape
    /// and bytes equal the one of its label is read as that tensor: its bytes
    /// are compared as they stream and never held a second time (the check
    /// reads back the archive it has just written from these tensors). A .dat
    /// that differs is read as a copy of what the file holds.
    const std::map<std::string, TensorData>* known = nullptr;
};

struct LoadedModel {
    ast::Document document;
    std::string graphText;
    /// Every .dat of the artifact, by label (path without ".dat").
    std::map<std::string, TensorData> tensors;
    std::vector<ast::QuantEntry> quant;
    /// Labels of the tensors stored as tract's block-quantized Q4_0: decoded
    /// to f32 in `tensors`, but tract keeps them compressed and each
    /// consumer dequantizes to its own type.
    std::set<std::string> blockQuantized;
    /// Things tract would silently skip: dot-prefixed entries, sub-models,
    /// files that are neither graph.nnef, graph.quant nor .dat.
    std::vector<std::string> warnings;
};

/// The most bytes graph.nnef or graph.quant may have, whitespace included:
/// far beyond any graph t2n writes, and the bound of what a reader holds of
/// it (the text once, as long as it is; the parsed document grows with its
/// tokens, not its padding).
inline constexpr uint64_t kMaxGraphTextBytes = uint64_t{64} << 20;

/// The text of the entry `path` (graph.nnef, graph.quant) of `artifact`;
/// Error(Check, ModelFile) when it is over kMaxGraphTextBytes, refused on
/// its announced size before anything is read.
std::string readGraphTextEntry(const std::string& artifact, const std::string& path,
                               archive::EntryStream& bytes);

/// Throws t2n::Error (Stage::Check) naming the file, line and column of a
/// syntax error, the entry of a bad archive member, or the field of a bad
/// .dat header.
LoadedModel readModel(const std::filesystem::path& artifact, const ReadOptions& options = {});

ast::Document parseDocument(std::string_view text, const std::string& fileName, ReadMode mode);
std::vector<ast::QuantEntry> parseQuant(std::string_view text, const std::string& fileName);
/// Validates the 128-byte header and the length; returns the decoded tensor.
TensorData readDat(std::vector<std::byte> bytes, const std::string& fileName);

/// A .dat file fed piece by piece, as an archive streams it: the header is
/// validated as soon as its 128 bytes are in (same errors as readDat()), the
/// lengths at finish().
class DatDecoder {
public:
    /// `known`: see ReadOptions::known. `sizeHint`: the size the container
    /// announces (0: unknown), to reserve the data once.
    explicit DatDecoder(std::string fileName, const TensorData* known = nullptr,
                        uint64_t sizeHint = 0);
    ~DatDecoder();
    void feed(std::span<const std::byte> piece);
    TensorData finish();
    /// After the header: whether the file holds Q4_0 blocks.
    bool blockQuantized() const;

    struct Header; ///< the validated header fields

private:
    void startData();
    std::string file_;
    const TensorData* known_;
    uint64_t sizeHint_;
    std::array<std::byte, 128> head_{};
    uint64_t fed_ = 0;    ///< bytes fed, header included
    uint64_t stored_ = 0; ///< data bytes kept or matched (at most the header's length)
    bool matching_ = false;
    std::unique_ptr<Header> header_;
    std::shared_ptr<std::vector<std::byte>> data_;
};

} // namespace t2n::nnef
