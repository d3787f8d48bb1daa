// libFuzzer target: arbitrary bytes as the data.pkl of a torch.save file
// (`t2n tensors`), every storage record 256 bytes. Either the reader refuses
// them with a t2n::Error, or every tensor it returns holds exactly the bytes
// its shape needs, all of them readable.
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
        for (const auto& t : saved.tensors) {
            if (t.data.byteSize() != t.data.bytes().size())
                __builtin_trap();
            double sum = 0;
            for (int64_t i = 0; i < t.data.numel(); ++i)
                sum += t.data.asDouble(i);
            (void)sum;
        }
    } catch (const t2n::Error&) {
    }
    return 0;
}
