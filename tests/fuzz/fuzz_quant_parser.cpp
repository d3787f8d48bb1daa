// libFuzzer target: arbitrary bytes as graph.quant. A t2n::Error is the
// expected outcome for garbage; anything else escaping (another exception, a
// crash, a sanitizer report, a hang) is a bug.
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        for (const auto& entry : t2n::nnef::parseQuant(text, "graph.quant"))
            (void)entry;
    } catch (const t2n::Error&) {
    }
    return 0;
}
