#include "harden/bind_arguments.h"

#include "harden/default_arguments.h"
#include "t2n/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace t2n::harden {

namespace {
// The type an argument holds when given: Optional[int] is given as an int.
c10::TypePtr argumentValueType(const c10::TypePtr& type) {
    if (type->kind() == c10::TypeKind::OptionalType)
        return type->expectRef<c10::OptionalType>().getElementType();
    return type;
}

bool isTensorArgument(const c10::TypePtr& type) {
    return argumentValueType(type)->kind() == c10::TypeKind::TensorType;
}

Error bindRefusal(const c10::Argument& arg, const std::string& why, const std::string& hint) {
    return Error(Stage::Load, ErrorCode::Usage,
                 fmt::format("forward()'s argument '{}' is of type {}: {}", arg.name(),
                             arg.type()->str(), why),
                 hint);
}

// The constant an --input spec gives a non-tensor argument.
c10::IValue constantFromSpec(const c10::Argument& arg, const InputSpec& spec) {
    const c10::TypePtr type = argumentValueType(arg.type());
    const auto kind = type->kind();
    const bool scalar = kind == c10::TypeKind::IntType || kind == c10::TypeKind::FloatType ||
                        kind == c10::TypeKind::BoolType || kind == c10::TypeKind::NumberType;
    const std::string example = kind == c10::TypeKind::FloatType  ? "f32=0.5"
                                : kind == c10::TypeKind::BoolType ? "bool=1"
                                                                  : "i64=16000";
    if (!scalar)
        throw bindRefusal(arg, "t2n can give forward() tensors and single numbers only",
                          "export a wrapper module whose forward() takes tensors and passes this "
                          "value itself");
    const std::string hint =
        fmt::format("give its value inline: --input {}:scalar:{} (the archive is specialised "
                    "for that value)",
                    arg.name(), example);
    if (!spec.valuesFile.empty() || spec.randomRange || spec.values.size() != 1)
        throw bindRefusal(arg, "it becomes a constant of the exported graph, so it needs one value",
                          hint);
    int64_t elements = 1;
    for (int64_t d : spec.shape)
        elements *= d;
    if (elements != 1)
        throw bindRefusal(
            arg, fmt::format("the spec gives it shape {}", fmt::join(spec.shape, "x")), hint);
    const double v = spec.values.front();
    if (kind == c10::TypeKind::FloatType ||
        (kind == c10::TypeKind::NumberType && isFloat(spec.dtype)))
        return c10::IValue(v);
    if (std::nearbyint(v) != v)
        throw bindRefusal(arg, fmt::format("{} is not a whole number", v), hint);
    if (kind == c10::TypeKind::BoolType) {
        if (v != 0 && v != 1)
            throw bindRefusal(arg, fmt::format("{} is not 0 or 1", v), hint);
        return c10::IValue(v != 0);
    }
    return c10::IValue(static_cast<int64_t>(v));
}
} // namespace

std::optional<BoundArguments> bindNonTensorArguments(const torch::jit::Module& model,
                                                     const std::vector<InputSpec>& specs) {
    const auto& args = model.get_method("forward").function().getSchema().arguments();
    std::vector<std::pair<size_t, c10::IValue>> values;
    BoundArguments out;
    for (size_t i = 0; i < specs.size() && i + 1 < args.size(); ++i) {
        if (isTensorArgument(args[i + 1].type())) {
            out.tensorSpecs.push_back(specs[i]);
            continue;
        }
        values.emplace_back(i + 1, constantFromSpec(args[i + 1], specs[i]));
    }
    if (values.empty())
        return std::nullopt;
    std::vector<std::string> names;
    for (const auto& v : values)
        names.push_back(args[v.first].name());
    // clone(inplace=true): new types and graph copies, shared tensors; the
    // loaded model keeps its signature.
    out.module = model.clone(/*inplace=*/true);
    out.module.eval();
    const std::vector<std::string> texts = replaceArgumentsWithConstants(out.module, values);
    for (size_t i = 0; i < texts.size(); ++i)
        out.bound.push_back(fmt::format("{} = {}", names[i], texts[i]));
    return out;
}

} // namespace t2n::harden
