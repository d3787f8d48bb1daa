// libFuzzer target: arbitrary bytes as graph.nnef (strict and tract mode;
// graph.quant has its own target). A t2n::Error is the expected outcome for garbage; anything
// else escaping (another exception, a crash, a sanitizer report, a hang) is a
// bug. Documents that parse are also run through the structural check.
#include "check/structure_check.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const auto mode : {t2n::nnef::ReadMode::Strict, t2n::nnef::ReadMode::Tract}) {
        try {
            t2n::nnef::LoadedModel model;
            model.graphText = std::string(text);
            model.document = t2n::nnef::parseDocument(text, "graph.nnef", mode);
            (void)t2n::check::checkStructure(model, t2n::nnef::ReadMode::Strict);
            (void)t2n::check::checkStructure(model, t2n::nnef::ReadMode::Tract);
        } catch (const t2n::Error&) {
        }
    }
    return 0;
}
