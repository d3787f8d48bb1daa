#include "ir/ir_builder.h"

#include "ir/control_flow_refusal.h"
#include "jit/packed_params.h"
#include "jit/torch_bridge.h"
#include "t2n/error.h"
#include "target/random_kinds.h"

#include <fmt/format.h>

#include <fstream>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace t2n::ir {

namespace {

using JitValue = torch::jit::Value;
using JitNode = torch::jit::Node;

// Kinds whose result depends only on tensor shapes (and constants), never
// on data: their outputs are folded like constants.
const std::unordered_set<std::string> kShapeOnly{
    "aten::size",       "aten::dim",       "aten::numel",     "aten::len",       "prim::shape",
    "aten::zeros_like", "aten::ones_like", "aten::full_like", "aten::new_zeros", "aten::new_ones",
    "aten::new_full",   "prim::device",    "prim::dtype",     "prim::layout"};

ValueKind kindOf(const c10::IValue& v) {
    if (v.isTensor())
        return ValueKind::Tensor;
    if (v.isInt())
        return ValueKind::Int;
    if (v.isDouble())
        return ValueKind::Float;
    if (v.isBool())
        return ValueKind::Bool;
    if (v.isString())
        return ValueKind::String;
    if (v.isNone())
        return ValueKind::None;
    if (v.isIntList())
        return ValueKind::IntList;
    if (v.isDoubleList())
        return ValueKind::FloatList;
    if (v.isBoolList())
        return ValueKind::BoolList;
    if (v.isTensorList())
        return ValueKind::TensorList;
    if (v.isTuple())
        return ValueKind::Tuple;
    return ValueKind::Other;
}

ValueKind kindOfType(const c10::TypePtr& t) {
    switch (t->kind()) {
    case c10::TypeKind::TensorType:
        return ValueKind::Tensor;
    case c10::TypeKind::IntType:
        return ValueKind::Int;
    case c10::TypeKind::FloatType:
        return ValueKind::Float;
    case c10::TypeKind::BoolType:
        return ValueKind::Bool;
    case c10::TypeKind::StringType:
        return ValueKind::String;
    case c10::TypeKind::NoneType:
        return ValueKind::None;
    case c10::TypeKind::TupleType:
        return ValueKind::Tuple;
    case c10::TypeKind::ListType: {
        auto elem = t->containedType(0)->kind();
        if (elem == c10::TypeKind::IntType)
            return ValueKind::IntList;
        if (elem == c10::TypeKind::FloatType)
            return ValueKind::FloatList;
        if (elem == c10::TypeKind::BoolType)
            return ValueKind::BoolList;
        if (elem == c10::TypeKind::TensorType)
            return ValueKind::TensorList;
        return ValueKind::Other;
    }
    default:
        return ValueKind::Other;
    }
}

bool carriesTensors(ValueKind k) {
    return k == ValueKind::Tensor || k == ValueKind::TensorList || k == ValueKind::Tuple ||
           k == ValueKind::Other;
}

std::optional<Constant> constantOf(const c10::IValue& v) {
    if (v.isTensor())
        return jit::toTensorData(v.toTensor());
    if (v.isInt())
        return v.toInt();
    if (v.isDouble())
        return v.toDouble();
    if (v.isBool())
        return v.toBool();
    if (v.isString())
        return v.toStringRef();
    if (v.isNone())
        return Constant{};
    if (v.isIntList())
        return v.toIntVector();
    if (v.isDoubleList())
        return v.toDoubleVector();
    if (v.isBoolList()) {
        std::vector<bool> out;
        for (bool b : v.toBoolList())
            out.push_back(b);
        return out;
    }
    if (v.isDevice())
        return v.toDevice().str();
    return std::nullopt;
}

/// Storage, scale and zero point of a quantized tensor, std::nullopt for others.
std::optional<Quantization> quantizationOf(const at::Tensor& t) {
    if (!t.is_quantized())
        return std::nullopt;
    Quantization q;
    switch (t.scalar_type()) {
    case c10::ScalarType::QUInt8:
        q.storage = DType::U8;
        break;
    case c10::ScalarType::QInt8:
        q.storage = DType::I8;
        break;
    case c10::ScalarType::QInt32:
        q.storage = DType::I32;
        break;
    default:
        throw Error(Stage::Trace, ErrorCode::Unsupported,
                    fmt::format("quantized tensors of type {} are not supported",
                                c10::toString(t.scalar_type())),
                    "t2n exports quint8, qint8 and qint32 tensors");
    }
    if (t.qscheme() == at::kPerTensorAffine) {
        q.scale = t.q_scale();
        q.zeroPoint = t.q_zero_point();
    } else {
        q.perChannel = true;
    }
    return q;
}

// A constant Tensor?[] (indices with axes taken whole), not an empty list.
bool optionalTensors(const c10::IValue& v) {
    if (!v.isList() || v.toListRef().empty())
        return false;
    for (const c10::IValue& item : v.toListRef())
        if (!item.isTensor() && !item.isNone())
            return false;
    return true;
}

bool sameValue(const c10::IValue& a, const c10::IValue& b) {
    if (a.isTensor() && b.isTensor()) {
        const auto& x = a.toTensor();
        const auto& y = b.toTensor();
        // The attention weights nn.MultiheadAttention(need_weights=False) does
        // not compute are an undefined tensor at both sizes.
        if (!x.defined() || !y.defined())
            return x.defined() == y.defined();
        return x.sizes() == y.sizes() && x.scalar_type() == y.scalar_type() && x.equal(y);
    }
    if (a.isTensorList() && b.isTensorList()) {
        auto x = a.toTensorVector();
        auto y = b.toTensorVector();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i].sizes() != y[i].sizes())
                return false;
        return true;
    }
    if (a.isTuple() || b.isTuple() || a.isGenericDict())
        return true; // compared through their elements
    // A Tensor?[] (index_put_'s indices) is a generic list: its tensors may
    // differ in size between the two runs, which IValue's == would broadcast.
    if (a.isList() && b.isList()) {
        const auto x = a.toListRef(), y = b.toListRef();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!sameValue(x[i], y[i]))
                return false;
        return true;
    }
    return a == b;
}

// Line `line` (1-based) of a source file, when it is readable here: traced
// archives record "file(line): function" stacks rather than the statement.
std::string sourceLineText(const std::string& file, int line) {
    static std::mutex mutex;
    static std::unordered_map<std::string, std::vector<std::string>> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(file);
    if (it == cache.end()) {
        std::vector<std::string> lines;
        std::ifstream in(file);
        for (std::string l; std::getline(in, l);)
            lines.push_back(l);
        it = cache.emplace(file, std::move(lines)).first;
    }
    if (line < 1 || static_cast<size_t>(line) > it->second.size())
        return {};
    return it->second[static_cast<size_t>(line) - 1];
}

std::string firstLine(std::string s) {
    auto nl = s.find('\n');
    if (nl != std::string::npos)
        s.resize(nl);
    auto start = s.find_first_not_of(" \t");
    return start == std::string::npos ? std::string() : s.substr(start);
}

class Builder {
public:
    explicit Builder(const TraceInputs& in) : in_(in) {}

    TracedGraph build() {
        const auto& g = *in_.prepared->graph;
        recordSymbolSizes(); // before any value: symbolFor reads them
        auto inputs = g.inputs();
        for (size_t i = 1; i < inputs.size(); ++i) {
            ValueId id = addValue(inputs[i], -1);
            Value& v = graph_.value(id);
            v.dataDependent = true;
            v.constant.reset();
            if (i - 1 < in_.inputSymbols.size())
                for (auto& [axis, sym] : in_.inputSymbols[i - 1])
                    if (axis >= 0 && static_cast<size_t>(axis) < v.symbols.size())
                        v.symbols[static_cast<size_t>(axis)] = sym;
            graph_.inputs.push_back(id);
        }
        for (const JitNode* n : g.nodes())
            addNode(n);
        for (const JitValue* out : g.outputs())
            flattenOutput(out);
        std::vector<const JitValue*> jit(graph_.values.size(), nullptr);
        for (const auto& [jv, id] : valueIds_)
            jit[static_cast<size_t>(id)] = jv;
        return {std::move(graph_), std::move(jit), std::move(warnings_)};
    }

private:
    const c10::IValue* recorded(const jit::Recorded* rec, const JitValue* v) const {
        if (!rec)
            return nullptr;
        auto it = rec->find(v);
        return it == rec->end() ? nullptr : &it->second;
    }

    ValueId addValue(const JitValue* jv, NodeId producer) {
        Value v;
        v.id = static_cast<ValueId>(graph_.values.size());
        v.debugName = jv->debugName();
        v.producer = producer;
        v.kind = kindOfType(jv->type());
        if (const c10::IValue* iv = recorded(in_.main, jv)) {
            if (!iv->isNone() || v.kind == ValueKind::Other)
                v.kind = kindOf(*iv);
            if (iv->isTensor()) {
                const at::Tensor t = jit::realView(iv->toTensor());
                v.complex = iv->toTensor().is_complex();
                auto dt = jit::fromScalarType(t.scalar_type());
                if (dt)
                    v.dtype = *dt;
                v.quant = quantizationOf(t);
                v.shape = t.sizes().vec();
                v.symbols.assign(v.shape.size(), "");
            }
            if (const c10::IValue* fv = recorded(in_.farProbe, jv)) {
                // An axis that moves only at the far probe follows the
                // symbols through a stride: dynamic ("?"), never one symbol.
                v.varies = !sameValue(*iv, *fv);
                if (iv->isTensor() && fv->isTensor()) {
                    auto a = jit::realView(iv->toTensor()).sizes();
                    auto b = jit::realView(fv->toTensor()).sizes();
                    for (size_t d = 0; d < a.size() && d < b.size(); ++d)
                        if (a[d] != b[d])
                            v.symbols[d] = "?";
                    v.farShape = b.vec();
                }
            }
            if (const c10::IValue* pv = recorded(in_.probe, jv)) {
                v.varies = v.varies || !sameValue(*iv, *pv);
                if (pv->isTensor()) {
                    const at::Tensor t = jit::realView(pv->toTensor());
                    v.probeShape = t.sizes().vec();
                    if (t.numel() == 1 && !t.is_quantized() && !t.is_floating_point())
                        v.probeConstant = constantOf(*pv); // a size as a 0-d tensor
                } else if (pv->isInt() || pv->isIntList() || pv->isDouble())
                    v.probeConstant = constantOf(*pv);
                if (iv->isTensor() && pv->isTensor()) {
                    const at::Tensor ta = jit::realView(iv->toTensor());
                    const at::Tensor tb = jit::realView(pv->toTensor());
                    auto a = ta.sizes();
                    auto b = tb.sizes();
                    for (size_t d = 0; d < a.size() && d < b.size(); ++d)
                        if (a[d] != b[d] || !v.symbols[d].empty())
                            v.symbols[d] = symbolFor(a[d], b[d]);
                }
            }
        }
        valueIds_[jv] = v.id;
        graph_.values.push_back(std::move(v));
        return graph_.values.back().id;
    }

    // Each symbol's size in the example and probe runs, read from the first
    // input axis that carries it.
    void recordSymbolSizes() {
        if (!in_.probe)
            return;
        const auto& ins = in_.prepared->graph->inputs();
        for (size_t i = 1; i < ins.size() && i - 1 < in_.inputSymbols.size(); ++i) {
            const c10::IValue* m = recorded(in_.main, ins[i]);
            const c10::IValue* p = recorded(in_.probe, ins[i]);
            if (!m || !p || !m->isTensor() || !p->isTensor())
                continue;
            for (auto& [axis, sym] : in_.inputSymbols[i - 1]) {
                bool known = false;
                for (const auto& s : graph_.symbolSizes)
                    known = known || s.name == sym;
                const c10::IValue* f = in_.farProbe ? recorded(in_.farProbe, ins[i]) : nullptr;
                const int64_t far =
                    f && f->isTensor() && axis < f->toTensor().dim() ? f->toTensor().size(axis) : 0;
                if (!known && axis < m->toTensor().dim())
                    graph_.symbolSizes.push_back(
                        {sym, m->toTensor().size(axis), p->toTensor().size(axis), far});
            }
        }
    }

    // The symbol of an input axis whose sizes match exactly, else "?": a
    // size that depends on a symbol through arithmetic.
    std::string symbolFor(int64_t a, int64_t b) const {
        for (const auto& s : graph_.symbolSizes)
            if (s.example == a && s.probe == b)
                return s.name;
        return "?";
    }

    // Why the hardening chain left a node it could not fold (its last
    // "missed: <node>: <why>" remark), e.g. a loop's count that follows
    // tensor values; "" when it said nothing.
    std::string whyKept(const JitNode* n) const {
        auto id = in_.prepared->nodeIds.find(n);
        if (id == in_.prepared->nodeIds.end())
            return {};
        std::string why;
        for (const auto& pass : in_.prepared->diagnostics.passes)
            for (const auto& r : pass.nodeRemarks)
                if (r.node == id->second && r.text.starts_with("missed: "))
                    why = r.text;
        auto colon = why.find(": ", 8);
        return colon == std::string::npos ? std::string() : why.substr(colon + 2);
    }

    ValueId idOf(const JitValue* jv) const {
        auto it = valueIds_.find(jv);
        return it == valueIds_.end() ? -1 : it->second;
    }

    void addNode(const JitNode* n) {
        std::string kind = n->kind().toQualString();
        if (!n->blocks().empty())
            throw controlFlowRefusal(n, whyKept(n));
        if (kind == "prim::Constant") {
            addConstant(n->output(), -1);
            return;
        }
        if (kind == "prim::GetAttr" && resolveAttribute(n))
            return;
        Node node;
        node.id = static_cast<NodeId>(graph_.nodes.size());
        node.kind = kind;
        node.where = describeNode(n);
        if (auto it = in_.prepared->nodeIds.find(n); it != in_.prepared->nodeIds.end())
            node.torchNode = it->second;
        for (const JitValue* in : n->inputs()) {
            ValueId id = idOf(in);
            if (id < 0)
                throw Error(Stage::Trace, ErrorCode::Unsupported,
                            fmt::format("{} reads a value the IR cannot represent (%{} of type {})",
                                        kind, in->debugName(), in->type()->str()),
                            node.where,
                            "this usually means module calls were not resolved; freezing may "
                            "have failed (see the warnings)");
            node.inputs.push_back(id);
        }
        bool tensorInputData = false;
        bool anyInputData = false;
        for (ValueId id : node.inputs) {
            const Value& v = graph_.value(id);
            anyInputData = anyInputData || v.dataDependent;
            tensorInputData = tensorInputData || (v.dataDependent && carriesTensors(v.kind));
        }
        if (kShapeOnly.count(kind))
            anyInputData = tensorInputData = false;
        // A random draw is never a constant, whatever its inputs: folding it
        // would freeze the trace's one sample into the archive (issue 26). It
        // stays a node, which the translation writes or refuses by name.
        if (target::drawsRandom(kind))
            anyInputData = tensorInputData = true;
        bool folded = true;
        for (const JitValue* out : n->outputs()) {
            ValueId id = addValue(out, node.id);
            node.outputs.push_back(id);
            Value& v = graph_.value(id);
            if (carriesTensors(v.kind))
                v.dataDependent = tensorInputData;
            else
                v.dataDependent = anyInputData;
            if (!v.dataDependent || !carriesTensors(v.kind))
                if (const c10::IValue* iv = recorded(in_.main, out))
                    v.constant = constantOf(*iv);
            folded = folded && v.constant.has_value() && !v.dataDependent;
        }
        if (kind == "prim::ListConstruct" || kind == "prim::TupleConstruct")
            graph_.value(node.outputs.at(0)).elements = node.inputs;
        if (kind == "prim::ListUnpack" || kind == "prim::TupleUnpack")
            graph_.value(node.inputs.at(0)).elements = node.outputs;
        node.folded = folded;
        graph_.nodes.push_back(std::move(node));
    }

    void addConstant(const JitValue* out, NodeId producer) {
        ValueId id = addValue(out, producer);
        Value& v = graph_.value(id);
        auto iv = torch::jit::toIValue(out);
        if (!iv)
            return;
        v.kind = kindOf(*iv);
        v.constant = constantOf(*iv);
        if (auto packed = jit::unpackPackedParams(*iv)) {
            addPackedElements(id, *packed);
            return;
        }
        if (auto cell = jit::unpackCellParams(*iv)) {
            addCellElements(id, *cell);
            return;
        }
        if (iv->isTensorList() || optionalTensors(*iv)) {
            // A frozen list of weights (the flat weights of nn.LSTM/GRU/RNN),
            // or the constant indices of `x[:, idx]` (Tensor?[]): one constant
            // element value per item, like a ListConstruct.
            std::vector<ValueId> elements;
            for (const c10::IValue& item : iv->toListRef()) {
                std::string name = fmt::format("{}.{}", v.debugName, elements.size());
                elements.push_back(item.isTensor()
                                       ? addTensorConstant(item.toTensor(), name)
                                       : addPlainConstant(name, Constant{}, ValueKind::None));
            }
            graph_.value(id).elements = std::move(elements);
            return;
        }
        if (iv->isTensor()) {
            const at::Tensor t = jit::realView(iv->toTensor());
            v.complex = iv->toTensor().is_complex();
            v.shape = t.sizes().vec();
            v.symbols.assign(v.shape.size(), "");
            if (auto dt = jit::fromScalarType(t.scalar_type()))
                v.dtype = *dt;
            auto it = in_.prepared->paramNames.find(t.data_ptr());
            if (it != in_.prepared->paramNames.end())
                v.paramName = it->second;
            else if (v.debugName.rfind("self.", 0) == 0)
                v.paramName = v.debugName.substr(5);
        }
    }

    // Quantized conv/linear parameters become element values of the packed
    // object: the int8 weight (its stored integers, with its quantization),
    // the float bias, then conv geometry; lowerings read them by position.
    void addPackedElements(ValueId id, const jit::UnpackedParams& p) {
        const std::string base = graph_.value(id).debugName;
        std::vector<ValueId> elements;
        ValueId w = addTensorConstant(p.weight.int_repr(), base + ".weight");
        graph_.value(w).quant = quantizationOf(p.weight);
        if (auto q = graph_.value(w).quant; q && !q->perChannel)
            graph_.value(w).dtype = q->storage;
        elements.push_back(w);
        elements.push_back(p.bias ? addTensorConstant(*p.bias, base + ".bias")
                                  : addPlainConstant(base + ".bias", Constant{}, ValueKind::None));
        if (p.conv) {
            elements.push_back(addPlainConstant(base + ".stride", p.stride, ValueKind::IntList));
            elements.push_back(addPlainConstant(base + ".padding", p.padding, ValueKind::IntList));
            elements.push_back(
                addPlainConstant(base + ".dilation", p.dilation, ValueKind::IntList));
            elements.push_back(addPlainConstant(base + ".groups", p.groups, ValueKind::Int));
        } else {
            // The weight's real values (per-tensor or per-channel), for what
            // computes in floats: dynamically quantized linears.
            elements.push_back(addTensorConstant(p.weight.dequantize(), base + ".weight_real"));
        }
        // Per-channel weights (over the output channels): the integers minus
        // each channel's zero point, as f32, and the channels' scales, which
        // graph.quant cannot hold; None for per-tensor weights.
        const auto scheme = p.weight.qscheme();
        if ((scheme == at::kPerChannelAffine || scheme == at::kPerChannelSymmetric) &&
            p.weight.q_per_channel_axis() == 0) {
            std::vector<int64_t> shape(static_cast<size_t>(p.weight.dim()), 1);
            shape[0] = p.weight.size(0);
            const at::Tensor zeros = p.weight.q_per_channel_zero_points().to(at::kFloat);
            elements.push_back(addTensorConstant(
                p.weight.int_repr().to(at::kFloat) - zeros.reshape(shape), base + ".weight_steps"));
            elements.push_back(addTensorConstant(p.weight.q_per_channel_scales().to(at::kDouble),
                                                 base + ".weight_scales"));
        } else {
            elements.push_back(
                addPlainConstant(base + ".weight_steps", Constant{}, ValueKind::None));
            elements.push_back(
                addPlainConstant(base + ".weight_scales", Constant{}, ValueKind::None));
        }
        graph_.value(id).elements = std::move(elements);
    }

    // A dynamically quantized recurrent layer's cell parameters (one layer,
    // one direction): its type, then W_ih's and W_hh's packed linears as
    // values whose elements are addPackedElements'; only the type for cells
    // t2n does not open, which the lowering names.
    void addCellElements(ValueId id, const jit::CellParams& c) {
        const std::string base = graph_.value(id).debugName;
        std::vector<ValueId> elements{addPlainConstant(base + ".type", c.type, ValueKind::String)};
        if (c.ih.weight.defined() && c.hh.weight.defined())
            for (const auto& [p, suffix] : {std::pair{&c.ih, ".ih"}, std::pair{&c.hh, ".hh"}}) {
                ValueId packed = addPlainConstant(base + suffix, Constant{}, ValueKind::Other);
                addPackedElements(packed, *p);
                elements.push_back(packed);
            }
        graph_.value(id).elements = std::move(elements);
    }

    ValueId addPlainConstant(const std::string& debugName, Constant c, ValueKind kind) {
        Value v;
        v.id = static_cast<ValueId>(graph_.values.size());
        v.debugName = debugName;
        v.kind = kind;
        v.constant = std::move(c);
        graph_.values.push_back(std::move(v));
        return graph_.values.back().id;
    }

    ValueId addTensorConstant(const at::Tensor& t, const std::string& debugName) {
        Value v;
        v.id = static_cast<ValueId>(graph_.values.size());
        v.debugName = debugName;
        v.kind = ValueKind::Tensor;
        v.complex = t.is_complex();
        v.shape = jit::realView(t).sizes().vec();
        v.symbols.assign(v.shape.size(), "");
        if (auto dt = jit::fromScalarType(jit::realView(t).scalar_type()))
            v.dtype = *dt;
        v.constant = constantOf(c10::IValue(t));
        auto it = in_.prepared->paramNames.find(t.data_ptr());
        if (it != in_.prepared->paramNames.end())
            v.paramName = it->second;
        graph_.values.push_back(std::move(v));
        return graph_.values.back().id;
    }

    // prim::GetAttr chains from `self` (left when freezing was not possible)
    // read module attributes: they become constants named by their path.
    bool resolveAttribute(const JitNode* n) {
        std::vector<std::string> path;
        const JitNode* cur = n;
        while (cur->kind() == c10::prim::GetAttr) {
            path.insert(path.begin(), cur->s(c10::attr::name));
            const JitValue* src = cur->input(0);
            if (src == in_.prepared->graph->inputs().at(0))
                break;
            cur = src->node();
            if (cur->kind() != c10::prim::GetAttr)
                return false;
        }
        c10::IValue obj = in_.prepared->module._ivalue();
        for (const auto& p : path) {
            if (!obj.isObject())
                return false;
            obj = obj.toObjectRef().getAttr(p);
        }
        if (obj.isObject() || obj.isModule())
            return true; // a submodule: only its attributes matter
        ValueId id = addValue(n->output(), -1);
        Value& v = graph_.value(id);
        v.kind = kindOf(obj);
        v.constant = constantOf(obj);
        if (obj.isTensor()) {
            std::string name;
            for (const auto& p : path)
                name += (name.empty() ? "" : ".") + p;
            v.paramName = name;
            v.shape = obj.toTensor().sizes().vec();
            v.symbols.assign(v.shape.size(), "");
            if (auto dt = jit::fromScalarType(obj.toTensor().scalar_type()))
                v.dtype = *dt;
        }
        return true;
    }

    void flattenOutput(const JitValue* out) {
        const JitNode* p = out->node();
        if (p->kind() == c10::prim::TupleConstruct || p->kind() == c10::prim::ListConstruct) {
            for (const JitValue* in : p->inputs())
                flattenOutput(in);
            return;
        }
        // A dict (segmentation models return {"out": ..., "aux": ...}): its
        // values in insertion order, as the check flattens the model's result.
        if (p->kind() == c10::prim::DictConstruct) {
            for (size_t i = 1; i < p->inputs().size(); i += 2)
                flattenOutput(p->inputs()[i]);
            return;
        }
        // An output that is always None (GoogLeNet's and Inception's aux logits
        // in eval mode) holds no data: the check's reference leaves it out too.
        if (out->type()->kind() == c10::TypeKind::NoneType) {
            warnings_.push_back(fmt::format("forward() returns None at the place of output "
                                            "{}; the NNEF graph leaves it out",
                                            graph_.outputs.size()));
            return;
        }
        ValueId id = idOf(out);
        if (id < 0)
            throw Error(Stage::Trace, ErrorCode::Unsupported,
                        fmt::format("graph output %{} of type {} cannot be exported",
                                    out->debugName(), out->type()->str()),
                        "forward() should return tensors, or tuples and lists of tensors");
        // A list of tensors not built in the graph (the result of chunk or
        // split, which hardening gives a construct of its pieces when it can
        // count them): its elements when an unpack named them, else refused
        // here rather than written as one output the check would miscount.
        if (graph_.value(id).kind == ValueKind::TensorList) {
            const std::vector<ValueId> elements = graph_.value(id).elements;
            if (elements.empty())
                throw Error(Stage::Trace, ErrorCode::Unsupported,
                            fmt::format("graph output %{} is a list of tensors made by {} whose "
                                        "length t2n could not count at export",
                                        out->debugName(), p->kind().toQualString()),
                            "return its pieces as a tuple (`a, b = x.chunk(2, 1); return a, b`), "
                            "or split outside loops and branches");
            for (ValueId e : elements)
                graph_.outputs.push_back(e);
            return;
        }
        graph_.outputs.push_back(id);
    }

    const TraceInputs& in_;
    Graph graph_;
    std::vector<std::string> warnings_;
    std::unordered_map<const JitValue*, ValueId> valueIds_;
};

} // namespace

NodeRef describeNode(const torch::jit::Node* node) {
    NodeRef ref;
    ref.kind = node->kind().toQualString();
    if (node->outputs().size() > 0)
        ref.valueName = node->outputs()[0]->debugName();
    if (auto cs = node->callstack()) {
        for (const auto& entry : (*cs)->vec()) {
            const auto& info = std::get<2>(entry);
            if (info && !info->instance_name().empty())
                ref.modulePath += (ref.modulePath.empty() ? "" : ".") + info->instance_name();
        }
    }
    // The original Python location when the archive recorded it (debug info),
    // else the location in the serialized TorchScript code.
    auto range = node->sourceRange();
    if (auto generated = range.findSourceRangeThatGenerated())
        range = *generated;
    if (auto flc = range.file_line_col()) {
        ref.sourceFile = std::get<0>(*flc);
        ref.sourceLine = static_cast<int>(std::get<1>(*flc));
        std::string text = range.source() ? firstLine(range.text().str()) : std::string();
        if (text.empty() || text.starts_with(ref.sourceFile + "("))
            text = firstLine(sourceLineText(ref.sourceFile, ref.sourceLine));
        ref.sourceText = text;
    }
    return ref;
}

std::unordered_set<const torch::jit::Value*> inputDependentValues(const torch::jit::Graph& g) {
    auto carries = [](const c10::TypePtr& t) {
        const auto k = t->kind();
        return k == c10::TypeKind::TensorType || k == c10::TypeKind::TupleType ||
               (k == c10::TypeKind::ListType &&
                t->containedType(0)->kind() == c10::TypeKind::TensorType);
    };
    std::unordered_set<const torch::jit::Value*> out;
    for (size_t i = 1; i < g.inputs().size(); ++i)
        out.insert(g.inputs()[i]);
    for (const JitNode* n : g.nodes()) {
        if (kShapeOnly.count(n->kind().toQualString()))
            continue;
        bool reads = false;
        for (const JitValue* in : n->inputs())
            reads = reads || (out.count(in) && carries(in->type()));
        if (reads)
            for (const JitValue* o : n->outputs())
                out.insert(o);
    }
    return out;
}

TracedGraph buildGraph(const TraceInputs& in) {
    return Builder(in).build();
}

} // namespace t2n::ir
