#include "ir/value_recorder.h"

#include "t2n/error.h"

#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <fmt/format.h>

namespace t2n::ir {

namespace {
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

// The interpreter's message is a TorchScript traceback; its last
// "...Error: " line says what went wrong.
std::string summarize(const std::string& what) {
    std::string best;
    size_t pos = 0;
    while (pos < what.size()) {
        size_t end = what.find('\n', pos);
        std::string line =
            what.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (line.find("Error: ") != std::string::npos)
            best = line;
        if (end == std::string::npos)
            break;
        pos = end + 1;
    }
    return best.empty() ? what.substr(0, what.find('\n')) : best;
}

bool recordable(const torch::jit::Value* v) {
    auto kind = v->type()->kind();
    return kind != c10::TypeKind::ClassType && kind != c10::TypeKind::FunctionType &&
           kind != c10::TypeKind::InterfaceType;
}
} // namespace

Recording recordValues(const torch::jit::Module& self,
                       const std::shared_ptr<torch::jit::Graph>& graph,
                       const std::vector<at::Tensor>& inputs, std::vector<std::string>* warnings) {
    auto copy = graph->copy();
    // copy() keeps node order, so original and copied values pair up in order.
    std::vector<const torch::jit::Value*> originals;
    std::vector<torch::jit::Value*> copies;
    auto pair = [&](at::ArrayRef<torch::jit::Value*> a, at::ArrayRef<torch::jit::Value*> b) {
        for (size_t i = 0; i < a.size(); ++i)
            if (recordable(a[i])) {
                originals.push_back(a[i]);
                copies.push_back(b[i]);
            }
    };
    pair(graph->inputs(), copy->inputs());
    auto itA = graph->nodes().begin();
    auto itB = copy->nodes().begin();
    for (; itA != graph->nodes().end(); ++itA, ++itB)
        pair(itA->outputs(), itB->outputs());

    auto* tuple = copy->insertNode(copy->createTuple(copies));
    copy->return_node()->removeAllInputs();
    copy->registerOutput(tuple->output());

    torch::jit::Stack stack;
    stack.emplace_back(self._ivalue());
    for (const auto& t : inputs)
        stack.emplace_back(t);
    if (graph->inputs().size() != stack.size())
        throw Error(Stage::Trace, ErrorCode::InvalidOption,
                    fmt::format("forward() takes {} input(s) but {} were given",
                                graph->inputs().size() - 1, inputs.size()),
                    "give one --input per forward() argument, in order");
    CollectWarnings collector(warnings);
    c10::Warning::WarningHandlerGuard guard(&collector);
    try {
        torch::NoGradGuard noGrad;
        torch::jit::Code code(copy, "t2n_record");
        torch::jit::InterpreterState state(code);
        state.run(stack);
    } catch (const c10::Error& e) {
        throw Error(Stage::Trace, ErrorCode::ModelRun,
                    fmt::format("the model failed on the example inputs: {}",
                                summarize(e.what_without_backtrace())),
                    "check that --input shapes and dtypes are what forward() expects");
    } catch (const std::exception& e) { // the interpreter's own exceptions
        throw Error(Stage::Trace, ErrorCode::ModelRun,
                    fmt::format("the model failed on the example inputs: {}", summarize(e.what())),
                    "check that --input shapes and dtypes are what forward() expects");
    }
    auto elements = stack.back().toTupleRef().elements();
    Recording rec;
    for (size_t i = 0; i < originals.size(); ++i)
        rec.emplace(originals[i], elements[i]);
    return rec;
}

} // namespace t2n::ir
