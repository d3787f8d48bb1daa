// The storage records of a TorchScript archive checked against what its
// pickles say they hold, before LibTorch reads any of them. LibTorch 1.13
// gives a storage the byte size its pickle claims (numel times the element
// size) over a buffer of the record's size, and never compares the two: a
// record cut short makes every later read (the .dat writer's, the check's)
// run past the buffer, and heap bytes end up in the archive as weights.
//
// The zip is read the way LibTorch's reader (miniz) reads it: its central
// directory, names resolved under the folder of the first entry, compared
// without regard to ASCII case; two records miniz could confuse are refused,
// since which of them it reads is not defined. LibTorch-free, fuzzed by
// tests/fuzz/fuzz_storage_records.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <span>
#include <string>
#include <vector>

namespace t2n::reader {

/// One entry of a zip's central directory.
struct ZipRecord {
    std::string name;
    uint64_t size = 0;       ///< uncompressed: the bytes LibTorch allocates and reads
    uint64_t packedSize = 0; ///< as stored in the file
    uint16_t method = 0;     ///< 0 stored, 8 deflated
    uint64_t localHeader = 0;
};

/// Reads `into.size()` bytes at `offset` of the zip; throws t2n::Error when
/// there are fewer.
using ReadAt = std::function<void(uint64_t offset, std::span<std::byte> into)>;

/// The central directory of a zip of `fileSize` bytes, in its order. Throws
/// t2n::Error (Load, ModelFile) naming `shown` for a directory that does
/// not fit the file, and for two records whose names differ only in case.
std::vector<ZipRecord> readZipDirectory(uint64_t fileSize, const ReadAt& read,
                                        const std::string& shown);

/// The bytes of `record` (stored or deflated), at most `limit` of them.
std::vector<std::byte> readZipRecord(const ZipRecord& record, const ReadAt& read, uint64_t limit,
                                     const std::string& shown);

/// Every storage that the pickles of the TorchScript archive `zip` name
/// (data.pkl under data/, constants.pkl under constants/) checked against
/// its record: a missing record, or one shorter than numel times the
/// element size of its type, is refused (Error Load, ModelFile) naming the
/// record. A zip without data.pkl is left to LibTorch to refuse. Returns the
/// devices other than the CPU the storages were saved from ("cuda:0"), once each.
std::vector<std::string> checkStorageRecords(uint64_t fileSize, const ReadAt& read,
                                             const std::string& shown);
/// The same for a TorchScript file, or a stream at its start.
std::vector<std::string> checkStorageRecords(std::istream& in, const std::string& shown);

/// The lines of TorchScript source in the archive's code/ folder (its .py
/// records): how large a graph LibTorch will compile from it, known before it
/// allocates anything. Each record is read with at most 64 MiB.
uint64_t codeLines(uint64_t fileSize, const ReadAt& read, const std::string& shown);
/// The same for a TorchScript file, or a stream at its start.
uint64_t codeLines(std::istream& in, const std::string& shown);

} // namespace t2n::reader
