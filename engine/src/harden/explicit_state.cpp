#include "harden/explicit_state.h"

#include "jit/torch_bridge.h"
#include "t2n/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/passes/inliner.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace t2n::harden {

namespace {

using torch::jit::Node;
using torch::jit::Value;

bool isViewKind(const std::string& kind) {
    static const char* views[] = {
        "aten::slice",  "aten::select",    "aten::view",    "aten::reshape",    "aten::narrow",
        "aten::expand", "aten::unsqueeze", "aten::squeeze", "aten::transpose",  "aten::permute",
        "aten::t",      "aten::detach",    "aten::alias",   "aten::__getitem__"};
    return std::any_of(std::begin(views), std::end(views),
                       [&](const char* v) { return kind == v; });
}

// forward() (inlined) assigns an attribute, or writes in place into a
// tensor read from one (through views): only then is a run worth it.
bool mayWriteAttributes(const torch::jit::Block* block) {
    for (const Node* n : block->nodes()) {
        if (n->kind() == c10::prim::SetAttr)
            return true;
        const std::string kind = n->kind().toQualString();
        if (kind.starts_with("aten::") && kind.ends_with("_") && !kind.ends_with("__") &&
            !n->inputs().empty()) {
            const Value* v = n->input(0);
            for (int step = 0; step < 8 && isViewKind(v->node()->kind().toQualString()) &&
                               !v->node()->inputs().empty();
                 ++step)
                v = v->node()->input(0);
            if (v->node()->kind() == c10::prim::GetAttr)
                return true;
        }
        for (const torch::jit::Block* b : n->blocks())
            if (mayWriteAttributes(b))
                return true;
    }
    return false;
}

// "a.b.c": the attribute a GetAttr/SetAttr node accesses, read from self
// through attribute reads; "" for another owner.
std::string accessedPath(const Node* n) {
    const std::string name = n->s(c10::attr::name);
    const Value* owner = n->input(0);
    if (owner->node()->kind() == c10::prim::Param)
        return owner->offset() == 0 && !owner->node()->owningBlock()->owningNode() ? name : "";
    if (owner->node()->kind() != c10::prim::GetAttr)
        return {};
    const std::string prefix = accessedPath(owner->node());
    return prefix.empty() ? prefix : prefix + "." + name;
}

// Attributes whose first access (in the order forward() runs) is an
// assignment outside any branch: every call computes them afresh (RAFT's
// pyramid, built by one method for another to read), nothing is carried.
void assignedFirst(const torch::jit::Block* block, bool top, std::set<std::string>& seen,
                   std::set<std::string>& out) {
    for (const Node* n : block->nodes()) {
        const bool get = n->kind() == c10::prim::GetAttr;
        if (get || n->kind() == c10::prim::SetAttr) {
            const std::string path = accessedPath(n);
            if (!path.empty() && seen.insert(path).second && !get && top)
                out.insert(path);
        }
        for (const torch::jit::Block* b : n->blocks())
            assignedFirst(b, false, seen, out);
    }
}

// Every attribute of `m` and its submodules that is not a module: path -> value.
void attributesOf(const torch::jit::Module& m, const std::string& prefix,
                  std::map<std::string, c10::IValue>& out) {
    const auto& type = m.type();
    for (size_t i = 0; i < type->numAttributes(); ++i) {
        const std::string name = type->getAttributeName(i);
        const c10::IValue v = m._ivalue()->getSlot(i);
        const std::string path = prefix.empty() ? name : prefix + "." + name;
        if (v.isModule())
            attributesOf(v.toModule(), path, out);
        else if (v.isTensor() || v.isInt() || v.isDouble() || v.isBool() || v.isTensorList())
            out.emplace(path, v);
    }
}

bool sameValue(const c10::IValue& a, const c10::IValue& b) {
    if (a.isTensorList() || b.isTensorList()) {
        if (!a.isTensorList() || !b.isTensorList())
            return false;
        const auto x = a.toTensorVector();
        const auto y = b.toTensorVector();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!sameValue(x[i], y[i]))
                return false;
        return true;
    }
    if (a.isTensor() != b.isTensor())
        return false;
    if (!a.isTensor())
        return a == b;
    const at::Tensor& x = a.toTensor();
    const at::Tensor& y = b.toTensor();
    if (x.defined() != y.defined())
        return false;
    if (!x.defined())
        return true;
    if (x.is_same(y))
        return true;
    if (x.sizes() != y.sizes() || x.scalar_type() != y.scalar_type() || x.is_quantized() ||
        y.is_quantized())
        return x.sizes() == y.sizes() && x.scalar_type() == y.scalar_type() && x.is_quantized();
    return at::equal(x, y);
}

// A list of tensors (kws_crnn's frame_buffer, a sliding window appended to
// and sliced in forward()) is copied element by element: the model's list
// object must not see a copy's appends.
c10::IValue snapshot(const c10::IValue& v) {
    if (v.isTensorList()) {
        c10::List<at::Tensor> copy;
        for (const at::Tensor& t : v.toTensorVector())
            copy.push_back(t.defined() ? t.clone() : t);
        return copy;
    }
    return v.isTensor() && v.toTensor().defined() ? c10::IValue(v.toTensor().clone()) : v;
}

// A carried state as the archive holds it: a list of tensors stacked on a
// new first axis (unbind(0) gives the list back).
at::Tensor stateTensor(const c10::IValue& v) {
    return v.isTensorList() ? at::stack(v.toTensorVector(), 0) : v.toTensor();
}

// A copy whose runs cannot change `m`: its own module objects (assignments
// land there) and its own copy of every tensor attribute but parameters
// (in-place writes land there), the rest shared. Not Module::deepcopy():
// LibTorch 1.13's breaks nn.LSTM's flat weights in Silero VAD v4 ("expanded
// size of the tensor (256) must match the existing size (64)").
torch::jit::Module stateCopy(const torch::jit::Module& m) {
    torch::jit::Module copy = m.clone(/*inplace=*/true);
    std::vector<torch::jit::Module> pending{copy};
    while (!pending.empty()) {
        torch::jit::Module c = pending.back();
        pending.pop_back();
        const auto& type = c.type();
        for (size_t i = 0; i < type->numAttributes(); ++i) {
            const c10::IValue v = c._ivalue()->getSlot(i);
            if (v.isModule())
                pending.push_back(v.toModule());
            else if ((v.isTensor() && v.toTensor().defined() && !type->is_parameter(i)) ||
                     v.isTensorList())
                c._ivalue()->setSlot(i, snapshot(v));
        }
    }
    return copy;
}

// The graph outputs `v` becomes: its tensors and numbers (kws_crnn's
// forward() returns a float), tuples and lists flattened.
size_t outputLeaves(const c10::IValue& v) {
    if (v.isTuple()) {
        size_t n = 0;
        for (const auto& e : v.toTupleRef().elements())
            n += outputLeaves(e);
        return n;
    }
    if (v.isList()) {
        size_t n = 0;
        for (const auto& e : v.toListRef())
            n += outputLeaves(e);
        return n;
    }
    return v.isTensor() || v.isDouble() || v.isInt() || v.isBool() ? 1 : 0;
}

std::vector<at::Tensor> call(torch::jit::Module& m, const std::vector<c10::IValue>& args,
                             size_t* leaves = nullptr) {
    torch::NoGradGuard noGrad;
    torch::jit::GraphOptimizerEnabledGuard oneShot(false); // two calls: no profiling run
    std::vector<at::Tensor> out;
    const c10::IValue returned = m.forward(args);
    jit::flattenTensors(returned, out);
    if (leaves)
        *leaves = outputLeaves(returned);
    return out;
}

std::vector<c10::IValue> argsOf(const std::vector<at::Tensor>& examples) {
    std::vector<c10::IValue> args;
    for (const auto& t : examples)
        args.emplace_back(t.clone());
    return args;
}

torch::jit::Module ownerOf(torch::jit::Module m, const std::string& path) {
    size_t start = 0;
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
        m = m.attr(path.substr(start, dot - start)).toModule();
        start = dot + 1;
    }
    return m;
}

std::string lastPart(const std::string& path) {
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

// The owner of `path` read from self in `g` at the insertion point.
Value* ownerValue(torch::jit::Graph& g, const std::string& path) {
    Value* v = g.inputs().at(0);
    size_t start = 0;
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
        v = g.insertGetAttr(v, path.substr(start, dot - start));
        start = dot + 1;
    }
    return v;
}

std::string identifierOf(const std::string& path) {
    std::string out = path;
    std::replace(out.begin(), out.end(), '.', '_');
    return out;
}

// The worst |a - b| over paired tensors; infinity for a shape mismatch.
double worstDifference(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
    if (a.size() != b.size())
        return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].sizes() != b[i].sizes())
            return std::numeric_limits<double>::infinity();
        if (a[i].numel() == 0)
            continue;
        const at::Tensor x = a[i].is_quantized() ? a[i].dequantize() : a[i].to(at::kDouble);
        const at::Tensor y = b[i].is_quantized() ? b[i].dequantize() : b[i].to(at::kDouble);
        worst = std::max(worst, (x.to(at::kDouble) - y.to(at::kDouble)).abs().max().item<double>());
    }
    return worst;
}

void rewriteForward(torch::jit::Module& m, const std::vector<std::string>& paths,
                    const std::vector<std::string>& names, const std::set<std::string>& lists) {
    auto& fn = torch::jit::toGraphFunction(m.get_method("forward").function());
    auto g = fn.graph();
    const c10::FunctionSchema schema = fn.getSchema();
    std::vector<c10::Argument> args = schema.arguments();
    {
        torch::jit::WithInsertPoint top(*g->nodes().begin());
        for (size_t i = 0; i < paths.size(); ++i) {
            Value* in = g->addInput(names[i])->setType(c10::TensorType::get());
            args.emplace_back(names[i], c10::TensorType::get());
            // A copy: an in-place write (hidden_state.copy_(h)) must not
            // change the caller's input.
            Value* copy = g->insert(c10::aten::clone, {in});
            if (lists.count(paths[i]))
                copy = g->insert(c10::aten::unbind, {copy, 0});
            Value* owner = ownerValue(*g, paths[i]);
            g->insertNode(g->create(c10::prim::SetAttr, {owner, copy}, 0))
                ->s_(c10::attr::name, lastPart(paths[i]));
        }
    }
    torch::jit::WithInsertPoint end(g->return_node());
    Value* returned = g->outputs().at(0);
    std::vector<Value*> items;
    if (returned->type()->kind() == c10::TypeKind::TupleType) {
        Node* unpack = g->insertNode(g->createTupleUnpack(returned));
        items.assign(unpack->outputs().begin(), unpack->outputs().end());
    } else {
        items.push_back(returned);
    }
    for (const auto& path : paths) {
        Value* state = g->insertGetAttr(ownerValue(*g, path), lastPart(path));
        items.push_back(lists.count(path) ? g->insert(c10::aten::stack, {state, 0}) : state);
    }
    Value* tuple = g->insertNode(g->createTuple(items))->output();
    g->return_node()->replaceInput(0, tuple);
    fn.setSchema(c10::FunctionSchema(schema.name(), schema.overload_name(), args,
                                     {c10::Argument("", tuple->type())}));
}

Error refusal(const std::string& message) {
    return Error(Stage::Harden, ErrorCode::Unsupported, message,
                 "export a module whose forward() takes the state as an argument and returns "
                 "its new value (the way torch_to_nnef exports Silero VAD's inner model)");
}

} // namespace

std::optional<ExplicitState> makeStateExplicit(const torch::jit::Module& model,
                                               const std::vector<InputSpec>& specs,
                                               const std::vector<at::Tensor>& examples) {
    auto inlined = model.get_method("forward").graph()->copy();
    torch::jit::Inline(*inlined);
    if (!mayWriteAttributes(inlined->block()))
        return std::nullopt;
    // Three calls on a copy: the first reaches the steady state (Silero
    // makes its context on the first call), the next two are the reference.
    torch::jit::Module warm = stateCopy(model);
    std::map<std::string, c10::IValue> before, first, second, third;
    attributesOf(model, "", before);
    std::vector<at::Tensor> outputs1;
    size_t leaves = 0;
    try {
        outputs1 = call(warm, argsOf(examples), &leaves);
    } catch (const std::exception&) {
        return std::nullopt; // the stages say why the model fails, with context
    }
    attributesOf(warm, "", first);
    std::set<std::string> seen, fresh;
    assignedFirst(inlined->block(), true, seen, fresh);
    std::vector<std::string> changed;
    for (const auto& [path, value] : first) {
        auto it = before.find(path);
        if (!fresh.count(path) && (it == before.end() || !sameValue(it->second, value)))
            changed.push_back(path);
    }
    if (changed.empty())
        return std::nullopt;
    std::map<std::string, c10::IValue> steady;
    for (const auto& p : changed)
        steady.emplace(p, snapshot(first.at(p)));
    const std::vector<at::Tensor> outputs2 = call(warm, argsOf(examples));
    attributesOf(warm, "", second);
    std::map<std::string, c10::IValue> afterSecond;
    for (const auto& p : changed)
        afterSecond.emplace(p, snapshot(second.at(p)));
    const std::vector<at::Tensor> outputs3 = call(warm, argsOf(examples));
    attributesOf(warm, "", third);

    ExplicitState out;
    out.modelOutputs = leaves;
    out.specs = specs;
    std::vector<std::string> frozen;
    std::set<std::string> lists;
    for (const auto& p : changed) {
        const c10::IValue& v = steady.at(p);
        if (v.isTensorList()) {
            // Carried stacked while its length and its items' shapes stay
            // (a window at its full length); a list that grows is refused.
            const auto items = v.toTensorVector();
            const auto next = afterSecond.at(p).toTensorVector();
            const bool same = !items.empty() && items.size() == next.size() &&
                              std::all_of(items.begin(), items.end(), [&](const at::Tensor& t) {
                                  return t.defined() && t.sizes() == items[0].sizes() &&
                                         t.scalar_type() == items[0].scalar_type();
                              });
            if (!same)
                throw refusal(fmt::format(
                    "forward() keeps state in module attribute '{}', a list of tensors whose "
                    "length or item shapes change from call to call ({} items, then {}): t2n "
                    "carries a list only at a fixed length",
                    p, items.size(), next.size()));
            lists.insert(p);
        } else if (!v.isTensor()) {
            if (!sameValue(v, afterSecond.at(p)))
                throw refusal(fmt::format(
                    "forward() changes module attribute '{}' ({}) on every call: t2n carries "
                    "tensor state as inputs and outputs, not numbers",
                    p, v.tagKind()));
            std::ostringstream text;
            text << v;
            frozen.push_back(fmt::format("{} = {}", p, text.str()));
            continue;
        }
        const at::Tensor t = stateTensor(v);
        const auto dtype = jit::fromScalarType(t.scalar_type());
        if (!dtype || t.is_quantized())
            throw refusal(fmt::format("forward() keeps state in module attribute '{}' of dtype "
                                      "{}, which t2n does not export",
                                      p, c10::toString(t.scalar_type())));
        out.paths.push_back(p);
        out.names.push_back(identifierOf(p));
        InputSpec spec;
        spec.name = out.names.back();
        spec.shape = t.sizes().vec();
        spec.dtype = *dtype;
        const at::Tensor flat = t.to(at::kDouble).contiguous().view(-1);
        const bool uniform = flat.numel() == 0 || (flat == flat[0]).all().item<bool>();
        if (flat.numel() > 0) {
            if (uniform)
                spec.values = {flat[0].item<double>()};
            else
                spec.values.assign(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
        }
        out.specs.push_back(std::move(spec));
    }
    if (out.paths.empty())
        return std::nullopt; // numbers that settle after one call: frozen by hardening as before

    out.module = model.clone(/*inplace=*/true);
    out.module.eval();
    for (const auto& p : changed)
        if (!steady.at(p).isTensor() && !lists.count(p))
            ownerOf(out.module, p).setattr(lastPart(p), steady.at(p));
    rewriteForward(out.module, out.paths, out.names, lists);

    // Two consecutive calls of the copy, fed its own state back, against
    // the model's second and third calls.
    torch::jit::Module runner = stateCopy(out.module);
    std::vector<c10::IValue> args = argsOf(examples);
    for (const auto& p : out.paths)
        args.emplace_back(stateTensor(steady.at(p)).clone());
    std::vector<at::Tensor> got = call(runner, args);
    auto expected = [&](const std::vector<at::Tensor>& outputs,
                        const std::map<std::string, c10::IValue>& state) {
        std::vector<at::Tensor> all = outputs;
        for (const auto& p : out.paths)
            all.push_back(stateTensor(state.at(p)));
        return all;
    };
    double worst = worstDifference(got, expected(outputs2, afterSecond));
    if (worst <= 1e-5) {
        args = argsOf(examples);
        for (size_t i = 0; i < out.paths.size(); ++i)
            args.emplace_back(got.at(outputs1.size() + i));
        got = call(runner, args);
        worst = std::max(worst, worstDifference(got, expected(outputs3, third)));
    }
    if (!(worst <= 1e-5))
        throw refusal(fmt::format(
            "forward() keeps state in module attributes ({}); carried as inputs and outputs it "
            "does not reproduce two consecutive calls of the model (largest difference {:.3g})",
            fmt::join(out.paths, ", "), worst));
    for (size_t i = 0; i < out.paths.size(); ++i)
        out.said.push_back(fmt::format(
            "forward() keeps state in module attribute '{}': exported as input '{}' ({}, its "
            "value after one call on the example inputs) and output '{}_out' (its new value); "
            "feed each call's '{}_out' to the next call's '{}'. Checked over two consecutive "
            "calls",
            out.paths[i], out.names[i],
            fmt::format("{} {}", fmt::join(out.specs[specs.size() + i].shape, "x"),
                        dtypeName(out.specs[specs.size() + i].dtype)),
            out.names[i], out.names[i], out.names[i]));
    if (!frozen.empty())
        out.said.push_back(fmt::format("forward() also sets {} on every call; the archive holds "
                                       "the value it settles at after one call",
                                       fmt::join(frozen, ", ")));
    return out;
}

} // namespace t2n::harden
