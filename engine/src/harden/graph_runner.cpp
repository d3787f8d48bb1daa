#include "harden/graph_runner.h"

#include "harden/graph_utils.h"
#include "t2n/error.h"

#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace t2n::harden {

using torch::jit::Value;

namespace {
// Collects PyTorch's warnings of a run (or drops them) instead of stderr.
class CollectWarnings : public c10::WarningHandler {
public:
    explicit CollectWarnings(std::vector<std::string>* out) : out_(out) {}
    void process(const c10::SourceLocation&, const std::string& msg, bool) override {
        if (out_ && std::find(out_->begin(), out_->end(), msg) == out_->end())
            out_->push_back(msg);
    }

private:
    std::vector<std::string>* out_;
};

std::vector<std::string_view> linesOf(std::string_view text) {
    std::vector<std::string_view> out;
    for (size_t pos = 0; pos <= text.size();) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::string_view trimmed(std::string_view s) {
    const auto a = s.find_first_not_of(' ');
    return a == std::string_view::npos ? std::string_view{} : s.substr(a);
}
} // namespace

ModelFailure describeModelFailure(std::string_view what) {
    ModelFailure out;
    const auto lines = linesOf(what);
    // The last "...Error: " line says what went wrong ("builtins.ValueError:
    // ..." for a `raise` in the model).
    for (auto line : lines)
        if (line.find("Error: ") != std::string_view::npos ||
            line.find("Exception: ") != std::string_view::npos)
            out.message = std::string(trimmed(line));
    if (out.message.starts_with("builtins."))
        out.message.erase(0, 9);
    if (out.message.empty())
        out.message = std::string(lines.empty() ? what : lines.front());
    // Where: the innermost frame of the original code's traceback (the
    // model's Python source), else of the serialized code's.
    bool original = what.find("Traceback of TorchScript, original code") != std::string_view::npos;
    bool inOriginal = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.starts_with("Traceback of TorchScript"))
            inOriginal = line.find("original code") != std::string_view::npos;
        if (original != inOriginal)
            continue;
        const std::string_view t = trimmed(line);
        if (t.starts_with("File \"")) {
            const auto close = t.find('"', 6);
            const auto at = t.find(", line ", close);
            if (close == std::string_view::npos || at == std::string_view::npos)
                continue;
            out.node.sourceFile = std::string(t.substr(6, close - 6));
            out.node.sourceLine = 0;
            for (size_t k = at + 7; k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]));
                 ++k)
                out.node.sourceLine = out.node.sourceLine * 10 + (t[k] - '0');
            out.node.sourceText.clear();
        }
        // The statement is the line above the "~~~~ <--- HERE" marker.
        if (t.starts_with("~") && t.find("<--- HERE") != std::string_view::npos && i > 0)
            out.node.sourceText = std::string(trimmed(lines[i - 1]));
    }
    if (what.find("ops.prim.RaiseException") != std::string_view::npos)
        out.node.kind = "prim::RaiseException";
    out.located = out.node.sourceLine > 0;
    return out;
}

namespace {
bool setsAttributes(torch::jit::Graph& g) {
    return !nodesOfKind(g.block(), c10::prim::SetAttr).empty();
}

/// Runs `copy` (the graph's own copy: a run may change it) on `self` and
/// `inputs`; a graph that sets attributes gets a deep copy of `self`.
torch::jit::Stack runCopy(const torch::jit::Module* self,
                          const std::shared_ptr<torch::jit::Graph>& copy,
                          const std::vector<at::Tensor>& inputs) {
    torch::jit::Stack stack;
    if (self)
        stack.emplace_back(setsAttributes(*copy) ? self->deepcopy()._ivalue() : self->_ivalue());
    for (const auto& t : inputs)
        stack.emplace_back(t);
    torch::NoGradGuard noGrad;
    torch::jit::Code code(copy, "t2n_run");
    torch::jit::InterpreterState state(code);
    state.run(stack);
    return stack;
}

bool recordable(const Value* v) {
    auto kind = v->type()->kind();
    return kind != c10::TypeKind::ClassType && kind != c10::TypeKind::FunctionType &&
           kind != c10::TypeKind::InterfaceType;
}
} // namespace

Recorded runGraph(const torch::jit::Module* self, torch::jit::Graph& graph,
                  const std::vector<at::Tensor>& inputs, const RunOptions& options) {
    auto copy = graph.copy();
    // copy() keeps input and node order, so top-level values pair up in order.
    std::unordered_map<const Value*, Value*> twin;
    std::vector<const Value*> all;
    auto pair = [&](at::ArrayRef<Value*> x, at::ArrayRef<Value*> y) {
        for (size_t i = 0; i < x.size(); ++i) {
            twin.emplace(x[i], y[i]);
            if (recordable(x[i]))
                all.push_back(x[i]);
        }
    };
    pair(graph.inputs(), copy->inputs());
    auto a = graph.nodes().begin();
    auto b = copy->nodes().begin();
    for (; a != graph.nodes().end(); ++a, ++b)
        pair(a->outputs(), b->outputs());

    const auto& wanted = options.wanted.empty() ? all : options.wanted;
    std::vector<const Value*> order;
    std::vector<Value*> outs;
    for (const Value* v : wanted) {
        auto it = twin.find(v);
        if (it == twin.end() || std::find(order.begin(), order.end(), v) != order.end())
            continue;
        order.push_back(v);
        outs.push_back(it->second);
    }
    auto* tuple = copy->insertNode(copy->createTuple(outs));
    copy->return_node()->removeAllInputs();
    copy->registerOutput(tuple->output());

    const size_t receiver = self ? 1 : 0;
    if (graph.inputs().size() != inputs.size() + receiver)
        throw Error(options.stage, ErrorCode::InvalidOption,
                    fmt::format("forward() takes {} input(s) but {} were given",
                                graph.inputs().size() - receiver, inputs.size()),
                    "give one --input per forward() argument, in order");
    torch::jit::Stack stack;
    CollectWarnings collector(options.warnings);
    c10::Warning::WarningHandlerGuard guard(&collector);
    try {
        stack = runCopy(self, copy, inputs);
    } catch (const std::exception& e) {
        const auto* c10e = dynamic_cast<const c10::Error*>(&e);
        throw modelRunError(options.stage, "the model failed on the example inputs",
                            c10e ? c10e->what_without_backtrace() : e.what());
    }
    auto elements = stack.back().toTupleRef().elements();
    Recorded out;
    for (size_t i = 0; i < order.size(); ++i)
        out.emplace(order[i], elements[i]);
    return out;
}

Error modelRunError(Stage stage, std::string_view context, std::string_view what) {
    const ModelFailure f = describeModelFailure(what);
    const std::string message = fmt::format("{}: {}", context, f.message);
    const std::string hint =
        f.node.kind == "prim::RaiseException"
            ? "the model's own check rejects these inputs: give --input shapes, dtypes or values "
              "that forward() accepts"
            : "check that --input shapes and dtypes are what forward() expects";
    if (f.located)
        return Error(stage, ErrorCode::ModelRun, message, f.node, hint);
    return Error(stage, ErrorCode::ModelRun, message, hint);
}

Recorded runAndRecord(const PassContext& ctx, const std::vector<const Value*>& wanted) {
    RunOptions options;
    options.stage = Stage::Harden;
    options.wanted = wanted;
    if (options.wanted.empty())
        return {};
    return runGraph(ctx.module ? &*ctx.module : nullptr, *ctx.graph, ctx.exampleInputs, options);
}

const torch::jit::Node* firstFailingNode(const torch::jit::Module* self, torch::jit::Graph& graph,
                                         const std::vector<at::Tensor>& inputs) {
    const std::vector<torch::jit::Node*> top(graph.nodes().begin(), graph.nodes().end());
    // Runs the top-level nodes 0..last, the later ones dropped: true when it fails.
    auto prefixFails = [&](size_t last) {
        auto copy = graph.copy();
        std::vector<torch::jit::Node*> nodes(copy->nodes().begin(), copy->nodes().end());
        std::vector<Value*> outs;
        for (size_t i = 0; i <= last; ++i)
            for (Value* o : nodes[i]->outputs())
                outs.push_back(o);
        copy->return_node()->removeAllInputs();
        copy->registerOutput(copy->insertNode(copy->createTuple(outs))->output());
        // In reverse order each later node's outputs have lost their last use.
        for (size_t i = nodes.size(); i-- > last + 1;) {
            if (nodes[i]->hasUses())
                return false; // cannot cut here; treat as running
            nodes[i]->destroy();
        }
        try {
            CollectWarnings quiet(nullptr);
            c10::Warning::WarningHandlerGuard guard(&quiet);
            runCopy(self, copy, inputs);
            return false;
        } catch (const std::exception&) {
            return true;
        }
    };
    if (top.empty() || !prefixFails(top.size() - 1))
        return nullptr;
    size_t lo = 0, hi = top.size() - 1; // the prefix ending at hi fails
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (prefixFails(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return top[lo];
}

} // namespace t2n::harden
