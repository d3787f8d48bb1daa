#include "t2n/ir.h"

#include <algorithm>
#include <fmt/format.h>

namespace t2n::ir {

std::string_view valueKindName(ValueKind k) {
    switch (k) {
    case ValueKind::Tensor:
        return "Tensor";
    case ValueKind::Int:
        return "int";
    case ValueKind::Float:
        return "float";
    case ValueKind::Bool:
        return "bool";
    case ValueKind::String:
        return "str";
    case ValueKind::None:
        return "None";
    case ValueKind::IntList:
        return "int[]";
    case ValueKind::FloatList:
        return "float[]";
    case ValueKind::BoolList:
        return "bool[]";
    case ValueKind::TensorList:
        return "Tensor[]";
    case ValueKind::Tuple:
        return "tuple";
    case ValueKind::Other:
        return "other";
    }
    return "?";
}

namespace {
std::string typeOf(const Value& v) {
    if (v.kind != ValueKind::Tensor)
        return std::string(valueKindName(v.kind));
    std::vector<std::string> dims;
    for (size_t i = 0; i < v.shape.size(); ++i)
        dims.push_back(i < v.symbols.size() && !v.symbols[i].empty()
                           ? fmt::format("{}={}", v.symbols[i], v.shape[i])
                           : std::to_string(v.shape[i]));
    std::string type = fmt::format("{}[{}]", dtypeName(v.dtype), fmt::join(dims, ", "));
    if (v.quant) // stored as q(storage), real = (q - zero point) * scale
        type += v.quant->perChannel
                    ? fmt::format(" q{} per-channel", dtypeName(v.quant->storage))
                    : fmt::format(" q{}(scale {:.6g}, zero point {})", dtypeName(v.quant->storage),
                                  v.quant->scale, v.quant->zeroPoint);
    return type;
}

std::string constantText(const Value& v) {
    if (!v.constant)
        return {};
    return std::visit(
        [](const auto& c) -> std::string {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return "None";
            else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                               std::is_same_v<T, bool>)
                return fmt::format("{}", c);
            else if constexpr (std::is_same_v<T, std::string>)
                return "'" + c + "'";
            else if constexpr (std::is_same_v<T, TensorData>)
                return fmt::format("<{} {}>", dtypeName(c.dtype()), fmt::join(c.shape(), "x"));
            else
                return fmt::format("[{}]", fmt::join(c, ", "));
        },
        *v.constant);
}
} // namespace

NodeId Graph::nodeFor(const NodeRef& ref) const {
    // Any output: a report's row may name a node's second value.
    for (const auto& n : nodes)
        if (!ref.valueName.empty())
            for (ValueId out : n.outputs)
                if (value(out).debugName == ref.valueName)
                    return n.id;
    for (const auto& n : nodes)
        if (n.where.kind == ref.kind && ref.sourceLine > 0 &&
            n.where.sourceLine == ref.sourceLine && n.where.sourceFile == ref.sourceFile)
            return n.id;
    return -1;
}

std::string Graph::print(std::vector<int>* nodeLines) const {
    std::string out = "inputs:\n";
    for (ValueId id : inputs)
        out += fmt::format("  %{} : {}\n", value(id).debugName, typeOf(value(id)));
    out += "nodes:\n";
    if (nodeLines)
        nodeLines->clear();
    int line = 1; // of the end of `out`; constants may hold newlines, so count them
    size_t counted = 0;
    for (const auto& n : nodes) {
        if (nodeLines) {
            line += static_cast<int>(
                std::count(out.begin() + static_cast<std::ptrdiff_t>(counted), out.end(), '\n'));
            counted = out.size();
            nodeLines->push_back(line);
        }
        std::vector<std::string> outs, ins;
        for (ValueId id : n.outputs)
            outs.push_back(fmt::format("%{} : {}", value(id).debugName, typeOf(value(id))));
        for (ValueId id : n.inputs) {
            const Value& v = value(id);
            std::string c = v.producer < 0 ? constantText(v) : std::string();
            ins.push_back(c.empty() || !v.paramName.empty()
                              ? "%" + (v.paramName.empty() ? v.debugName : v.paramName)
                              : c);
        }
        out += fmt::format("  {}{} = {}({})", n.folded ? "(folded) " : "", fmt::join(outs, ", "),
                           n.kind, fmt::join(ins, ", "));
        if (!n.where.modulePath.empty())
            out += "  # " + n.where.modulePath;
        if (n.where.sourceLine > 0)
            out += fmt::format("  @ {}:{}", n.where.sourceFile, n.where.sourceLine);
        out += "\n";
    }
    out += "outputs:";
    for (ValueId id : outputs)
        out += " %" + value(id).debugName;
    return out + "\n";
}

} // namespace t2n::ir
