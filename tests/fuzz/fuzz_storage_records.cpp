// libFuzzer target: arbitrary bytes as a TorchScript zip whose storage
// records are checked before LibTorch reads them (reader/storage_records.h):
// its central directory, zip64 fields, stored and deflated pickles, and the
// storages they name. Either the check refuses them with a t2n::Error, or it
// accepts them having read nothing outside the bytes.
#include "reader/storage_records.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const t2n::reader::ReadAt read = [&](uint64_t offset, std::span<std::byte> into) {
        if (offset > size || into.size() > size - offset)
            throw t2n::Error(t2n::Stage::Load, t2n::ErrorCode::ModelFile, "short");
        if (!into.empty())
            std::memcpy(into.data(), data + offset, into.size());
    };
    try {
        t2n::reader::checkStorageRecords(size, read, "fuzz.pt");
    } catch (const t2n::Error&) {
    }
    return 0;
}
