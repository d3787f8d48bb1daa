#include "check/dynamic_sizes.h"

#include "util/input_values.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace t2n::check {

std::vector<SizedInputs> otherSizes(const ExportOptions& options,
                                    const std::map<std::string, int64_t>& probed,
                                    const std::set<std::string>& exampleOnly) {
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
            if (!named || axis < 0 || axis >= rank || exampleOnly.count(d.symbol))
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
    sized.sizes = size;
    sized.examples = example;
    return {sized};
}

namespace {

// "a multiple of 32 and at least 64"
std::string rulePhrase(const ir::SymbolProbe& p) {
    std::string out;
    for (const auto& part : util::split(p.rule, ',')) {
        const auto eq = part.find('=');
        const std::string key(part.substr(0, eq)), n(part.substr(eq + 1));
        out += out.empty() ? "" : " and ";
        out += key == "min" ? "at least " + n : "a multiple of " + n;
    }
    return out;
}

} // namespace

DynamicSizeCheck describeSymbolCheck(const std::string& symbol, int64_t example,
                                     const ir::SymbolProbe* probe, int64_t checked,
                                     const std::string& refusal) {
    DynamicSizeCheck d;
    d.symbol = symbol;
    d.example = example;
    d.second = checked;
    if (probe) {
        d.rule = probe->rule;
        d.declared = probe->declared;
    }
    std::string why;
    if (probe && !probe->rule.empty())
        why = probe->declared
                  ? fmt::format("{}, as --dynamic-axis gives it", rulePhrase(*probe))
                  : fmt::format("{}, as the graph requires: {}", rulePhrase(*probe), probe->why);
    std::string refused;
    if (probe && !probe->refused.empty())
        refused = fmt::format("the model refuses {}={} ({})", symbol,
                              fmt::join(probe->refused, ", "), probe->refusal);
    if (checked > 0) {
        std::string said = !why.empty()             ? why
                           : checked == example + 1 ? std::string("the example + 1")
                           : checked == example + 2 && probe && probe->refused.empty()
                               ? std::string("the example + 2, apart from another symbol of the "
                                             "same example size")
                               : std::string();
        d.words = fmt::format("{}: checked at {} and at {}{}{}{}", symbol, example, checked,
                              said.empty() ? "" : " (" + said + ")", refused.empty() ? "" : "; ",
                              refused);
        return d;
    }
    std::string reason =
        !refusal.empty() ? fmt::format("the model refuses {}={} ({})", symbol, example + 1, refusal)
        : probe && !probe->refused.empty()
            ? fmt::format("the model refuses every other size tried, {}={} ({})", symbol,
                          fmt::join(probe->refused, ", "), probe->refusal)
            : std::string("no input carries it");
    d.words = fmt::format("{}: checked at the example size {} only, so nothing shows that the "
                          "archive follows {} at other sizes: {}; give the sizes the axis accepts "
                          "(--dynamic-axis NAME:AXIS={}:multiple-of=N,min=N) to check a second "
                          "size",
                          symbol, example, symbol, reason, symbol);
    return d;
}

} // namespace t2n::check
