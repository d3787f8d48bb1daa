#include "jit/graph_runner.h"

#include "t2n/error.h"

#include <torch/csrc/jit/runtime/custom_operator.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace t2n::jit {

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
bool setsAttributes(const torch::jit::Block* block) {
    for (const torch::jit::Node* n : block->nodes()) {
        if (n->kind() == c10::prim::SetAttr)
            return true;
        for (const torch::jit::Block* b : n->blocks())
            if (setsAttributes(b))
                return true;
    }
    return false;
}

/// Runs `copy` (the graph's own copy: a run may change it) on `self` and
/// `inputs`; a graph that sets attributes gets a deep copy of `self`.
torch::jit::Stack runCopy(const torch::jit::Module* self,
                          const std::shared_ptr<torch::jit::Graph>& copy,
                          const std::vector<at::Tensor>& inputs) {
    torch::jit::Stack stack;
    if (self)
        stack.emplace_back(setsAttributes(copy->block()) ? self->deepcopy()._ivalue()
                                                         : self->_ivalue());
    for (const auto& t : inputs)
        stack.emplace_back(t);
    torch::NoGradGuard noGrad;
    torch::jit::Code code(copy, "t2n_run");
    torch::jit::InterpreterState state(code);
    state.run(stack);
    return stack;
}

// What a graph input can be fed an example tensor for.
bool graphInputTakesTensor(const c10::TypePtr& type) {
    if (type->kind() == c10::TypeKind::OptionalType)
        return graphInputTakesTensor(type->expectRef<c10::OptionalType>().getElementType());
    return type->kind() == c10::TypeKind::TensorType || type->kind() == c10::TypeKind::AnyType;
}

bool recordable(const Value* v) {
    auto kind = v->type()->kind();
    return kind != c10::TypeKind::ClassType && kind != c10::TypeKind::FunctionType &&
           kind != c10::TypeKind::InterfaceType;
}
} // namespace

namespace {
// The recording of the run under way on this thread (runs never nest: a
// recording point only fires inside runGraph's own interpreter call).
struct Recording {
    std::vector<const Value*> slots; ///< what each recording point records
    std::vector<bool> shapeOnly;     ///< per slot: keep dtype and sizes only
    Recorded* out = nullptr;
};
thread_local Recording* currentRecording = nullptr;

// A tensor's dtype and sizes without its data: a zero-stride view of one
// element (the IR reads dtypes and shapes of input-dependent values, never
// their data). Lists and tuples keep their structure.
c10::IValue withoutData(const c10::IValue& v) {
    if (v.isTensor()) {
        const at::Tensor& t = v.toTensor();
        if (!t.defined() || t.is_quantized())
            return v;
        return at::zeros({}, t.options()).expand(t.sizes());
    }
    if (v.isTensorList()) {
        c10::List<at::Tensor> out;
        for (const at::Tensor& t : v.toTensorVector())
            out.push_back(withoutData(c10::IValue(t)).toTensor());
        return out;
    }
    if (v.isTuple()) {
        std::vector<c10::IValue> items;
        for (const auto& e : v.toTupleRef().elements())
            items.push_back(withoutData(e));
        return c10::ivalue::Tuple::create(std::move(items));
    }
    return v;
}

// t2n::record(value, slot): a recording point after the node that computes
// `value`. Recording as the run goes (rather than returning every value at
// the end) lets the interpreter free a value after its last use: a run then
// needs the memory of what is live, plus what is recorded.
const torch::jit::RegisterOperators registerRecordingPoint({torch::jit::Operator(
    "t2n::record(Any value, int slot) -> ()",
    [](torch::jit::Stack& stack) {
        const auto slot = static_cast<size_t>(stack.back().toInt());
        stack.pop_back();
        c10::IValue value = std::move(stack.back());
        stack.pop_back();
        Recording* r = currentRecording;
        if (!r || slot >= r->slots.size())
            return;
        r->out->insert_or_assign(r->slots[slot],
                                 r->shapeOnly[slot] ? withoutData(value) : std::move(value));
    },
    // Conservative: a side effect, so that no clean-up removes the point.
    c10::AliasAnalysisKind::CONSERVATIVE)});

const c10::Symbol kRecord = c10::Symbol::fromQualString("t2n::record");
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

    // A recording point right after the definition of every wanted value
    // (graph inputs: at the top).
    const auto& wanted = options.wanted.empty() ? all : options.wanted;
    Recording recording;
    Recorded out;
    recording.out = &out;
    torch::jit::WithInsertPoint top(copy->nodes().front());
    for (const Value* v : wanted) {
        auto it = twin.find(v);
        if (it == twin.end() ||
            std::find(recording.slots.begin(), recording.slots.end(), v) != recording.slots.end())
            continue;
        Value* value = it->second;
        auto* slot = copy->insertConstant(static_cast<int64_t>(recording.slots.size()));
        if (value->node()->kind() != c10::prim::Param)
            slot->node()->moveAfter(value->node()); // else it stays at the top
        copy->create(kRecord, {value, slot}, 0)->insertAfter(slot->node());
        recording.slots.push_back(v);
        recording.shapeOnly.push_back(options.shapeOnly.count(v) != 0);
    }

    const size_t receiver = self ? 1 : 0;
    if (graph.inputs().size() != inputs.size() + receiver)
        throw Error(options.stage, ErrorCode::InvalidOption,
                    fmt::format("forward() takes {} input(s) but {} were given",
                                graph.inputs().size() - receiver, inputs.size()),
                    "give one --input per forward() argument, in order");
    // The interpreter trusts its stack: a tensor where the graph reads an
    // int (Silero VAD's `sr`) is read as one and crashes the process.
    for (size_t i = 0; i < inputs.size(); ++i) {
        const Value* in = graph.inputs()[i + receiver];
        if (!graphInputTakesTensor(in->type()))
            throw Error(options.stage, ErrorCode::Usage,
                        fmt::format("forward()'s argument '{}' is of type {}, not a tensor: it "
                                    "cannot be run with a tensor example",
                                    in->debugNameBase(), in->type()->str()),
                        "give its value with --input (e.g. --input " + in->debugNameBase() +
                            ":scalar:i64=16000): t2n folds it into the graph as a constant");
    }
    torch::jit::Stack stack;
    CollectWarnings collector(options.warnings);
    c10::Warning::WarningHandlerGuard guard(&collector);
    struct Current {
        explicit Current(Recording* r) : previous(currentRecording) { currentRecording = r; }
        ~Current() { currentRecording = previous; }
        Current(const Current&) = delete;
        Current& operator=(const Current&) = delete;
        Recording* previous;
    } current(&recording);
    try {
        stack = runCopy(self, copy, inputs);
    } catch (const std::exception& e) {
        const auto* c10e = dynamic_cast<const c10::Error*>(&e);
        throw modelRunError(options.stage, "the model failed on the example inputs",
                            c10e ? c10e->what_without_backtrace() : e.what());
    }
    return out;
}

Error modelRunError(Stage stage, std::string_view context, std::string_view what) {
    // An allocation that failed is the machine's limit, not the inputs'.
    for (std::string_view words : {"std::bad_alloc", "can't allocate memory"})
        if (what.find(words) != std::string_view::npos)
            return Error(
                stage, ErrorCode::ModelRun,
                fmt::format("{}: out of memory ({})", context, what.substr(0, what.find('\n'))),
                "free memory, raise the process's limit (ulimit -v) or give smaller "
                "--input shapes");
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

} // namespace t2n::jit
