#include "harden/default_arguments.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>

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

std::vector<std::string> bindDefaultArguments(torch::jit::Module& model, size_t given) {
    auto& fn = torch::jit::toGraphFunction(model.get_method("forward").function());
    auto graph = fn.graph();
    const c10::FunctionSchema schema = fn.getSchema();
    const auto& args = schema.arguments();
    std::vector<std::string> bound;
    torch::jit::WithInsertPoint guard(graph->block()->nodes().front());
    for (size_t i = args.size(); i-- > given + 1;) {
        const c10::IValue value = *args[i].default_value();
        torch::jit::Value* constant = graph->insertConstant(value);
        graph->inputs().at(i)->replaceAllUsesWith(constant);
        graph->eraseInput(i);
        std::ostringstream text;
        text << value;
        bound.insert(bound.begin(), fmt::format("forward()'s argument '{}' takes its default ({})",
                                                args[i].name(), text.str()));
    }
    fn.setSchema(schema.cloneWithArguments(
        std::vector<c10::Argument>(args.begin(), args.begin() + static_cast<long>(given + 1))));
    return bound;
}

} // namespace t2n::harden
