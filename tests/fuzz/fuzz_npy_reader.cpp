// libFuzzer target: arbitrary bytes as a .npy file and as a .npz (zip)
// archive, the example-value files a user hands to --input NAME=@FILE.
// Either the reader refuses them with a t2n::Error, or the tensor it returns
// holds exactly the bytes its shape and dtype need.
#include "fuzz_support.h"
#include "load/npy_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    try {
        t2n::fuzz::requireWholeAndReadable(t2n::load::readNpy(bytes));
    } catch (const t2n::Error&) {
    }
    for (const char* member : {"x", "image.npy"}) {
        try {
            t2n::fuzz::requireWholeAndReadable(t2n::load::readNpzMember(bytes, member));
        } catch (const t2n::Error&) {
        }
    }
    return 0;
}
