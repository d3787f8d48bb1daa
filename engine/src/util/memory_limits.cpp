#include "util/memory_limits.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

namespace t2n::util {

uint64_t availableMemory() {
    uint64_t bytes = 0;
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
        uint64_t kib = 0;
        meminfo >> kib;
        meminfo.ignore(64, '\n');
        if (key == "MemAvailable:") {
            bytes = kib * 1024;
            break;
        }
    }
    if (bytes == 0) {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0)
            bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
    }
    if (const char* limit = std::getenv("T2N_MEMORY_LIMIT")) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(limit, &end, 10);
        if (end != limit && *end == '\0' && (bytes == 0 || v < bytes))
            bytes = v;
    }
    return bytes == 0 ? UINT64_MAX : bytes;
}

uint64_t checkedTensorBytes(const std::vector<int64_t>& shape, DType dtype, Stage stage,
                            std::string_view what, uint64_t workingWidth) {
    auto refuse = [&](const std::string& why) {
        return Error(stage, ErrorCode::Usage,
                     fmt::format("{} of shape [{}] ({}) {}", what, fmt::join(shape, ", "),
                                 dtypeName(dtype), why),
                     "give a smaller shape");
    };
    uint64_t elements = 1;
    for (int64_t d : shape) {
        if (d < 0)
            throw refuse(fmt::format("has the negative dimension {}", d));
        if (d != 0 && elements > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(d))
            throw refuse("has more elements than a 64-bit count can hold");
        elements *= static_cast<uint64_t>(d);
    }
    const uint64_t width = std::max<uint64_t>((dtypeBits(dtype) + 7) / 8, workingWidth);
    if (elements > UINT64_MAX / width)
        throw refuse("has more bytes than a 64-bit size can hold");
    const uint64_t need = elements * width;
    if (const uint64_t available = availableMemory(); need > available)
        throw refuse(fmt::format("needs {} bytes ({} elements), more than the {} bytes of memory "
                                 "available",
                                 need, elements, available));
    return elements * ((dtypeBits(dtype) + 7) / 8);
}

void checkExamplesHaveData(const std::vector<ExampleShape>& examples) {
    const ExampleShape* first = nullptr;
    int64_t firstAxis = 0;
    for (const auto& e : examples) {
        const auto zero = std::find(e.shape.begin(), e.shape.end(), 0);
        if (zero == e.shape.end())
            return; // an input with data
        if (!first) {
            first = &e;
            firstAxis = zero - e.shape.begin();
        }
    }
    if (!first)
        return;
    throw Error(Stage::Load, ErrorCode::Usage,
                fmt::format("input '{}' has a zero-size dimension (axis {}){}: t2n runs the model "
                            "on example values, which need data",
                            first->input, firstAxis,
                            examples.size() > 1 ? ", as every input has" : ""),
                fmt::format("give a size of at least 1; for a batch that may be empty at run "
                            "time use --dynamic-axis {}:{}=B",
                            first->input, firstAxis));
}

} // namespace t2n::util
