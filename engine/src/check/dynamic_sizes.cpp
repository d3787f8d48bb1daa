#include "check/dynamic_sizes.h"

#include "util/input_values.h"

#include <fmt/format.h>
#include <map>

namespace t2n::check {

std::vector<SizedInputs> otherSizes(const ExportOptions& options,
                                    const std::map<std::string, int64_t>& probed) {
    SizedInputs sized;
    sized.specs = options.inputs;
    std::map<std::string, int64_t> size;    // symbol -> second size
    std::map<std::string, int64_t> example; // symbol -> example size
    for (const auto& d : options.dynamicAxes) {
        for (size_t i = 0; i < options.inputs.size(); ++i) {
            const bool named = options.inputs[i].name == d.tensor ||
                               (i < options.inputNames.size() && options.inputNames[i] == d.tensor);
            auto& shape = sized.specs[i].shape;
            const int64_t rank = static_cast<int64_t>(shape.size());
            const int64_t axis = d.axis < 0 ? d.axis + rank : d.axis;
            if (!named || axis < 0 || axis >= rank)
                continue;
            const auto known = probed.find(d.symbol);
            auto it = size.try_emplace(d.symbol, known != probed.end()
                                                     ? known->second
                                                     : options.inputs[i].shape[axis] + 1)
                          .first;
            shape[static_cast<size_t>(axis)] = it->second;
            dropValuesOfOtherSize(sized.specs[i]);
            example.try_emplace(d.symbol, options.inputs[i].shape[axis]);
        }
    }
    if (size.empty())
        return {};
    auto label = [](const std::map<std::string, int64_t>& sizes) {
        std::vector<std::string> parts;
        for (const auto& [symbol, n] : sizes)
            parts.push_back(fmt::format("{}={}", symbol, n));
        return fmt::format("{}", fmt::join(parts, ", "));
    };
    sized.label = label(size);
    sized.exampleLabel = label(example);
    return {sized};
}

} // namespace t2n::check
