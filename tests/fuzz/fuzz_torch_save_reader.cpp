// libFuzzer target: arbitrary bytes as the data.pkl of a torch.save file
// (`t2n tensors`), every storage record 256 bytes. Either the reader refuses
// them with a t2n::Error, or every tensor it returns holds exactly the bytes
// its shape needs, all of them readable.
#include "fuzz_support.h"
#include "reader/torch_save_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    static const auto record = std::make_shared<const std::vector<std::byte>>(256, std::byte{1});
    try {
        const auto saved =
            t2n::reader::unpickleTorchSave(bytes, [](const std::string&) { return record; });
        for (const auto& t : saved.tensors)
            t2n::fuzz::requireWholeAndReadable(t.data);
    } catch (const t2n::Error&) {
    }
    return 0;
}
