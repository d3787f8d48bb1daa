#include "harden/default_arguments.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>

#include <algorithm>
#include <fmt/format.h>
#include <sstream>

namespace t2n::harden {

std::vector<std::string> defaultedArguments(const torch::jit::Module& model, size_t given) {
    const auto& args = model.get_method("forward").function().getSchema().arguments();
    std::vector<std::string> out;
    for (size_t i = given + 1; i < args.size(); ++i) {
        if (!args[i].default_value())
            return {};
        out.push_back(args[i].name());
    }
    return out;
}

std::vector<std::string>
replaceArgumentsWithConstants(torch::jit::Module& model,
                              const std::vector<std::pair<size_t, c10::IValue>>& bound) {
    auto& fn = torch::jit::toGraphFunction(model.get_method("forward").function());
    auto graph = fn.graph();
    const c10::FunctionSchema schema = fn.getSchema();
    std::vector<std::pair<size_t, c10::IValue>> order = bound;
    // From the last: erasing an input shifts the ones after it.
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    torch::jit::WithInsertPoint guard(graph->block()->nodes().front());
    for (const auto& [index, value] : order) {
        torch::jit::Value* constant = graph->insertConstant(value);
        graph->inputs().at(index)->replaceAllUsesWith(constant);
        graph->eraseInput(index);
    }
    std::vector<c10::Argument> kept;
    for (size_t i = 0; i < schema.arguments().size(); ++i)
        if (std::none_of(bound.begin(), bound.end(), [&](const auto& b) { return b.first == i; }))
            kept.push_back(schema.arguments()[i]);
    fn.setSchema(schema.cloneWithArguments(kept));
    std::vector<std::string> texts;
    for (const auto& b : bound) {
        std::ostringstream text;
        text << b.second;
        texts.push_back(text.str());
    }
    return texts;
}

std::vector<std::string> bindDefaultArguments(torch::jit::Module& model, size_t given) {
    const auto& args = model.get_method("forward").function().getSchema().arguments();
    std::vector<std::pair<size_t, c10::IValue>> bound;
    for (size_t i = given + 1; i < args.size(); ++i)
        bound.emplace_back(i, *args[i].default_value());
    std::vector<std::string> names;
    for (const auto& b : bound)
        names.push_back(args[b.first].name());
    const std::vector<std::string> texts = replaceArgumentsWithConstants(model, bound);
    std::vector<std::string> said;
    for (size_t i = 0; i < texts.size(); ++i)
        said.push_back(
            fmt::format("forward()'s argument '{}' takes its default ({})", names[i], texts[i]));
    return said;
}

} // namespace t2n::harden
