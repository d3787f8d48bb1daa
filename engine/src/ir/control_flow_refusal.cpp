#include "ir/control_flow_refusal.h"

#include "harden/dependence.h"
#include "harden/unroll_loops.h"
#include "ir/ir_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace t2n::ir {

namespace {

// "tok.3", "tok0" -> "tok": TorchScript numbers the versions of a Python
// name, with a suffix ".N" and, where a loop or a branch gives it a new
// value, digits appended to the name (a name that ends in digits itself
// loses them too: a hint may shorten it, the node's line names it whole).
std::string pythonName(const torch::jit::Value* v) {
    std::string name = v->debugName();
    const auto dot = name.rfind('.');
    auto digits = [](std::string_view s) {
        return !s.empty() &&
               std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    if (dot != std::string::npos && digits(std::string_view(name).substr(dot + 1)))
        name.resize(dot);
    size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1])))
        --end;
    if (end > 0 && end < name.size())
        name.resize(end);
    return name;
}

// The values a loop carries from one iteration to the next, "h (Tensor), n
// (int)": what one exported step takes and gives back.
std::string carriedValues(const torch::jit::Node* loop) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < loop->outputs().size(); ++i) {
        const torch::jit::Value* out = loop->outputs()[i];
        // The initial value carries the Python name ("h"); the loop's output
        // a numbered version of it ("h0").
        const torch::jit::Value* initial =
            i + 2 < loop->inputs().size() ? loop->inputs()[i + 2] : nullptr;
        const torch::jit::Value* named = initial && initial->hasDebugName() ? initial : out;
        parts.push_back(fmt::format("{} ({})", pythonName(named), out->type()->annotation_str()));
    }
    return parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", "));
}

bool hasReceiver(const torch::jit::Graph& g) {
    return !g.inputs().empty() && g.inputs()[0]->type()->cast<c10::ClassType>() != nullptr;
}

} // namespace

Error controlFlowRefusal(const torch::jit::Node* node, const std::string& hardening) {
    const std::string kind = node->kind().toQualString();
    const torch::jit::Graph& graph = *node->owningGraph();
    bool onValues = false;
    std::string why;
    if (node->kind() == c10::prim::Loop)
        why = harden::explainDependence(harden::tripCountDependence(node), graph,
                                        hasReceiver(graph), onValues);
    else if (node->kind() == c10::prim::If && !node->inputs().empty())
        why = harden::explainDependence(harden::dependenceOf(node->inputs()[0]), graph,
                                        hasReceiver(graph), onValues);
    const std::string said = hardening.empty() ? "" : ": " + hardening;
    if (node->kind() == c10::prim::Loop && onValues)
        return Error(Stage::Trace, ErrorCode::Unsupported,
                     fmt::format("a loop whose number of iterations is decided by the values it "
                                 "computes cannot be exported: its trip count {}, and an NNEF "
                                 "graph has no loop (tract runs a fixed graph, with no "
                                 "`while`)",
                                 why),
                     describeNode(node),
                     fmt::format("export what one iteration does instead: the loop's body as "
                                 "its own method or module (e.g. a `step` that torch.jit.script "
                                 "or torch.jit.trace can export), whose carried values - {} - are "
                                 "its inputs and outputs, and run the loop (the stop test, such "
                                 "as argmax == EOS) in the program that calls the archive; "
                                 "tracing this model instead would freeze the example's number "
                                 "of iterations",
                                 carriedValues(node)));
    if (node->kind() == c10::prim::Loop)
        return Error(Stage::Trace, ErrorCode::Unsupported,
                     fmt::format("control flow ({}) is left in the graph{}", kind, said),
                     describeNode(node),
                     fmt::format("t2n unrolls loops whose trip count follows from shapes and "
                                 "constants, up to {} iterations; compute the count from tensor "
                                 "sizes, or trace the model with example inputs "
                                 "(torch.jit.trace) so that the loop is unrolled for them",
                                 harden::kMaxUnrolledIterations));
    if (node->kind() == c10::prim::If && onValues)
        return Error(Stage::Trace, ErrorCode::Unsupported,
                     fmt::format("a branch chosen by the values the model computes cannot be "
                                 "exported: its condition {}, and an NNEF graph has no branch{}",
                                 why, said),
                     describeNode(node),
                     "compute both branches and choose between their results with torch.where "
                     "(which exports, as tract's select), or export each branch as its own "
                     "module and choose in the program that calls the archives");
    return Error(Stage::Trace, ErrorCode::Unsupported,
                 fmt::format("control flow ({}) is left in the graph{}", kind, said),
                 describeNode(node),
                 "t2n exports straight-line graphs; trace the model with example inputs "
                 "(torch.jit.trace) so that branches and loops are resolved");
}

} // namespace t2n::ir
