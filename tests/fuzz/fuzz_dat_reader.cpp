// libFuzzer target: arbitrary bytes as a .dat tensor file. Either readDat
// refuses them with a t2n::Error, or every decoded element must be readable.
#include "fuzz_support.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data),
                                 reinterpret_cast<const std::byte*>(data) + size);
    try {
        const auto t = t2n::nnef::readDat(std::move(bytes), "fuzz.dat");
        t2n::fuzz::requireWholeAndReadable(t);
    } catch (const t2n::Error&) {
    }
    return 0;
}
