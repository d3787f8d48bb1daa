// libFuzzer target: arbitrary bytes as a .safetensors file (`t2n tensors`).
// Either the reader refuses them with a t2n::Error, or every tensor it
// returns lies inside the input and holds exactly the bytes its shape needs.
#include "fuzz_support.h"
#include "reader/safetensors_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    (void)t2n::reader::looksLikeSafetensors(bytes);
    try {
        for (const auto& t : t2n::reader::viewSafetensors(bytes, nullptr))
            t2n::fuzz::requireWholeAndReadable(t.data);
    } catch (const t2n::Error&) {
    }
    return 0;
}
