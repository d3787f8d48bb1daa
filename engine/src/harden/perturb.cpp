#include "harden/perturb.h"

#include "t2n/error.h"

namespace t2n::harden {

void perturbFirstOutput(torch::jit::Graph& graph) {
    torch::jit::Node* user = graph.return_node();
    torch::jit::Value* target = graph.outputs().at(0);
    while (target->node()->kind() == c10::prim::TupleConstruct ||
           target->node()->kind() == c10::prim::ListConstruct) {
        user = target->node();
        target = user->input(0);
    }
    if (!target->type()->cast<c10::TensorType>())
        throw Error(Stage::Harden, ErrorCode::Usage,
                    "perturbAfter: the first graph output holds no tensor",
                    "this test hook needs a model whose first output is a tensor");
    torch::jit::WithInsertPoint guard(user);
    torch::jit::Value* scaled = graph.insert(c10::aten::mul, {target, 1.5});
    for (size_t i = 0; i < user->inputs().size(); ++i)
        if (user->input(i) == target) {
            user->replaceInput(i, scaled);
            break;
        }
}

} // namespace t2n::harden
