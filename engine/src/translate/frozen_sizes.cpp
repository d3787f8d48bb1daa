#include "translate/frozen_sizes.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace t2n::translate {

namespace {

std::string listText(const std::vector<int64_t>& shape) {
    return fmt::format("[{}]", fmt::join(shape, ", "));
}

// A value at one of the two sizes: its number or list when it is known at
// export time, else a tensor's shape.
std::string sizeAtText(const ir::Value& v, const std::optional<ir::Constant>& constant,
                       const std::vector<int64_t>& shape) {
    if (constant) {
        std::string text = describeConstant(*constant);
        if (!text.empty())
            return text;
    }
    if (v.kind == ir::ValueKind::Tensor && !shape.empty())
        return listText(shape);
    return {};
}

std::string archiveAtSecond(const FrozenRead& r, const std::string& example) {
    switch (r.why) {
    case FrozenRead::Why::CannotCompute:
        return "cannot be computed in the graph";
    case FrozenRead::Why::NeededFixed:
    case FrozenRead::Why::ReadAsConstant:
        break;
    }
    return example.empty() ? "fixed at its example value" : "fixed at the example's " + example;
}

// The reader in a table cell: the error above the table names it in full.
std::string readerCell(const NodeRef& n) {
    std::string text = n.kind;
    if (!n.valueName.empty())
        text += " (%" + n.valueName + ")";
    if (!n.modulePath.empty())
        text += " in " + n.modulePath;
    if (n.sourceLine > 0)
        text += fmt::format(" at {}:{}", std::filesystem::path(n.sourceFile).filename().string(),
                            n.sourceLine);
    return text;
}

} // namespace

std::string describeConstant(const ir::Constant& c) {
    if (auto* i = std::get_if<int64_t>(&c))
        return std::to_string(*i);
    if (auto* l = std::get_if<std::vector<int64_t>>(&c))
        return listText(*l);
    if (auto* d = std::get_if<double>(&c))
        return fmt::format("{}", *d);
    if (auto* b = std::get_if<bool>(&c))
        return *b ? "true" : "false";
    if (auto* t = std::get_if<TensorData>(&c); t && t->numel() == 1)
        return fmt::format("{}", t->asDouble(0));
    return {};
}

std::string symbolSizesLabel(const ir::Graph& graph, bool probe) {
    std::vector<std::string> parts;
    for (const auto& s : graph.symbolSizes)
        parts.push_back(fmt::format("{}={}", s.name, probe ? s.probe : s.example));
    return fmt::format("{}", fmt::join(parts, ", "));
}

FrozenSizes frozenSizeTable(const ir::Graph& graph, const std::vector<FrozenRead>& reads) {
    FrozenSizes table;
    table.exampleSizes = symbolSizesLabel(graph, false);
    table.secondSizes = symbolSizesLabel(graph, true);
    const bool probed = !graph.symbolSizes.empty();
    // Graph order: the value computed first is where the size froze first.
    std::vector<FrozenRead> sorted = reads;
    auto order = [&](const FrozenRead& r) {
        const int producer = graph.value(r.value).producer;
        return std::pair{producer, r.value};
    };
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const auto& a, const auto& b) { return order(a) < order(b); });
    std::set<ir::ValueId> seen;
    for (const FrozenRead& r : sorted) {
        if (r.value < 0 || !seen.insert(r.value).second)
            continue;
        const ir::Value& v = graph.value(r.value);
        FrozenSize row;
        row.value = v.debugName;
        if (v.producer >= 0)
            row.node = graph.node(v.producer).where;
        row.atExample = sizeAtText(v, v.constant, v.shape);
        row.atSecond = probed ? sizeAtText(v, v.probeConstant, v.probeShape) : std::string();
        if (row.atSecond.empty())
            row.atSecond = "unknown (the model did not run at other sizes)";
        row.archive = archiveAtSecond(r, row.atExample);
        if (r.reader >= 0 && r.reader != v.producer) {
            const NodeRef& reader = graph.node(r.reader).where;
            row.readBy = readerCell(reader);
            // A list TorchScript builds for a call (roll's shifts=[s - 2])
            // has no line of its own: it is written where the call is.
            if (row.node.sourceLine <= 0 && reader.sourceLine > 0) {
                row.node.sourceFile = reader.sourceFile;
                row.node.sourceLine = reader.sourceLine;
                row.node.sourceText = reader.sourceText;
            }
        }
        table.values.push_back(std::move(row));
    }
    return table;
}

} // namespace t2n::translate
