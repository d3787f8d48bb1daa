#include "translate/context.h"

#include "translate/integer_literals.h"
#include "translate/nonfinite.h"
#include "translate/tensor_convert.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

// A label is the path of the variable's .dat file in the archive, and comes
// from the model's module and parameter names: a module named "/abs/path",
// "a\0b" or ".." must neither leave the archive's folder nor stop its
// writer (exit 10 before). Control bytes become '_', empty components go,
// a component starting with '.' gets a '_' in front (tract ignores those).
std::string archiveLabel(const std::string& label) {
    std::string out;
    std::string part;
    auto flush = [&] {
        if (part.empty())
            return;
        if (part.front() == '.')
            part.insert(part.begin(), '_');
        out += (out.empty() ? "" : "/") + part;
        part.clear();
    };
    for (char c : label) {
        if (c == '/')
            flush();
        else
            part += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '_' : c;
    }
    flush();
    return out.empty() ? std::string("variable") : out;
}
// Tensors up to this many items that are not model parameters are written
// inline as literals, as tract allows (reference/nnef-and-tract.md §2.2), or
// as `constant` operations for targets whose grammar has no tensor literals.
constexpr int64_t kInlineLimit = 8;

std::string nnefTypeOf(DType t) {
    if (isFloat(t))
        return "scalar";
    return t == DType::Bool ? "logical" : "integer";
}

Expr literalItem(const TensorData& d, int64_t i) {
    if (d.dtype() == DType::Bool)
        return Expr::b(d.asInt(i) != 0);
    if (isFloat(d.dtype()))
        return Expr::f(d.asDouble(i));
    return Expr::i(d.asInt(i));
}

Expr nestedLiteral(const TensorData& d, size_t axis, int64_t& flat) {
    if (axis == d.shape().size())
        return literalItem(d, flat++);
    std::vector<Expr> items;
    for (int64_t k = 0; k < d.shape()[axis]; ++k)
        items.push_back(nestedLiteral(d, axis + 1, flat));
    return Expr::array(std::move(items));
}

bool allFinite(const TensorData& d) {
    if (!isFloat(d.dtype()))
        return true;
    for (int64_t i = 0; i < d.numel(); ++i)
        if (!std::isfinite(d.asDouble(i)))
            return false;
    return true;
}

Expr convertLiteral(const Expr& e, DType to) {
    switch (e.kind) {
    case Expr::Kind::Integer:
    case Expr::Kind::Scalar:
    case Expr::Kind::Logical: {
        double v = e.kind == Expr::Kind::Integer  ? static_cast<double>(e.integer)
                   : e.kind == Expr::Kind::Scalar ? e.scalar
                                                  : (e.logical ? 1.0 : 0.0);
        return Context::scalarLiteral(v, to);
    }
    case Expr::Kind::Array: {
        std::vector<Expr> items;
        for (const auto& it : e.items)
            items.push_back(convertLiteral(it, to));
        return Expr::array(std::move(items));
    }
    default:
        return e;
    }
}
} // namespace

Context::Context(const ir::Graph& graph, const target::InferenceTarget& target, nnef::Document& doc,
                 const ExportOptions& options)
    : graph_(graph), target_(target), doc_(doc), options_(options),
      pool_(options.naming == NamingScheme::Numeric), uses_(graph.values.size(), 0), sizes_(graph),
      scaled_(graph, !target.isKhronos() && target.has("slice:symbolic-bounds")) {
    auto use = [&](ir::ValueId id, auto& self) -> void {
        ++uses_[static_cast<size_t>(id)];
        for (ir::ValueId e : graph_.value(id).elements)
            if (graph_.value(e).producer != graph_.value(id).producer)
                self(e, self);
    };
    for (const auto& n : graph.nodes)
        if (!n.folded)
            for (ir::ValueId id : n.inputs)
                use(id, use);
    for (ir::ValueId id : graph.outputs)
        use(id, use);
}

bool Context::isUsed(ir::ValueId id) const {
    return uses_.at(static_cast<size_t>(id)) > 0;
}

const ir::Value& Context::in(size_t i) const {
    if (i >= node_->inputs.size())
        unsupported(
            fmt::format("expected at least {} inputs, found {}", i + 1, node_->inputs.size()));
    return graph_.value(node_->inputs[i]);
}

const ir::Value& Context::out(size_t i) const {
    return graph_.value(node_->outputs.at(i));
}

bool Context::isNone(size_t i) const {
    return i >= numInputs() || in(i).kind == ir::ValueKind::None ||
           (in(i).constant && std::holds_alternative<std::monostate>(*in(i).constant));
}

int64_t Context::intArg(size_t i) const {
    const auto& v = in(i);
    if (v.varies)
        frozenArgument(i);
    if (v.constant) {
        if (auto* x = std::get_if<int64_t>(&*v.constant))
            return *x;
        if (auto* b = std::get_if<bool>(&*v.constant))
            return *b ? 1 : 0;
        if (auto* t = std::get_if<TensorData>(&*v.constant); t && t->numel() == 1)
            return t->asInt(0);
    }
    unsupported(
        fmt::format("argument {} (%{}) must be an integer known at export time", i, v.debugName),
        "t2n needs sizes, axes and counts to be constants of the traced graph");
}

double Context::floatArg(size_t i) const {
    const auto& v = in(i);
    if (v.varies)
        frozenArgument(i);
    if (v.constant) {
        if (auto* x = std::get_if<double>(&*v.constant))
            return *x;
        if (auto* n = std::get_if<int64_t>(&*v.constant))
            return static_cast<double>(*n);
        if (auto* t = std::get_if<TensorData>(&*v.constant); t && t->numel() == 1)
            return t->asDouble(0);
    }
    unsupported(
        fmt::format("argument {} (%{}) must be a number known at export time", i, v.debugName));
}

bool Context::boolArg(size_t i) const {
    const auto& v = in(i);
    if (v.constant) {
        if (auto* b = std::get_if<bool>(&*v.constant))
            return *b;
        if (auto* n = std::get_if<int64_t>(&*v.constant))
            return *n != 0;
    }
    unsupported(
        fmt::format("argument {} (%{}) must be a boolean known at export time", i, v.debugName));
}

std::string Context::stringArg(size_t i) const {
    const auto& v = in(i);
    if (v.constant)
        if (auto* s = std::get_if<std::string>(&*v.constant))
            return *s;
    unsupported(
        fmt::format("argument {} (%{}) must be a string known at export time", i, v.debugName));
}

std::vector<int64_t> Context::intsArg(size_t i) const {
    const auto& v = in(i);
    if (v.varies)
        frozenArgument(i);
    if (v.constant) {
        if (auto* l = std::get_if<std::vector<int64_t>>(&*v.constant))
            return *l;
        if (auto* x = std::get_if<int64_t>(&*v.constant))
            return {*x};
    }
    unsupported(fmt::format("argument {} (%{}) must be a list of integers known at export time", i,
                            v.debugName));
}

int64_t Context::axis(int64_t a, int64_t rank) const {
    int64_t r = a < 0 ? a + rank : a;
    if (r < 0 || r >= std::max<int64_t>(rank, 1))
        unsupported(fmt::format("axis {} is out of range for rank {}", a, rank));
    return r;
}

Expr Context::scalarLiteral(double v, DType dtype) {
    if (dtype == DType::Bool)
        return Expr::b(v != 0);
    if (isFloat(dtype))
        return Expr::f(v);
    return Expr::i(static_cast<int64_t>(v));
}

std::string Context::originOf(ir::ValueId id) const {
    const auto& v = graph_.value(id);
    if (v.producer < 0)
        return "constant %" + v.debugName;
    return graph_.node(v.producer).where.describe();
}

Expr Context::tensor(ir::ValueId id) {
    if (auto it = bound_.find(id); it != bound_.end())
        return it->second;
    const auto& v = graph_.value(id);
    if (v.varies && (v.kind == ir::ValueKind::Int || v.kind == ir::ValueKind::Float))
        return sizeTensor(id, v.kind == ir::ValueKind::Int ? DType::I64 : DType::F32);
    if (v.constant) {
        if (auto* t = std::get_if<TensorData>(&*v.constant)) {
            Expr e = constantTensor(*t, v.paramName, v.name.empty() ? v.debugName : v.name);
            if (e.isIdentifier())
                bind(id, e);
            return e;
        }
        if (auto* n = std::get_if<int64_t>(&*v.constant))
            return Expr::i(*n);
        if (auto* f = std::get_if<double>(&*v.constant))
            return Expr::f(*f);
        if (auto* b = std::get_if<bool>(&*v.constant))
            return Expr::b(*b);
    }
    unsupported(
        fmt::format("input %{} has no NNEF value (its producer was not translated)", v.debugName));
}

Expr Context::operand(ir::ValueId id, int64_t rank, std::optional<DType> dtype) {
    const auto& v = graph_.value(id);
    DType want = dtype.value_or(v.dtype);
    if (v.kind != ir::ValueKind::Tensor && v.varies) // a size computed from a symbol
        return sizeTensor(id, dtype.value_or(v.kind == ir::ValueKind::Int ? DType::I64 : want));
    if (v.kind != ir::ValueKind::Tensor) // Python scalars: literals of the operand type
        return convertLiteral(tensor(id), want);
    // A folded value computed in the graph (it follows a symbolic axis) is
    // read from its binding, not from its example value.
    if (v.constant && !isBound(id)) {
        if (auto* t = std::get_if<TensorData>(&*v.constant)) {
            TensorData d = *t;
            if (d.rank() == 0 && v.paramName.empty() && allFinite(d))
                return scalarLiteral(d.asDouble(0), want);
            bool changed = false;
            if (d.dtype() != want) {
                d = convertDType(d, want);
                changed = true;
            }
            if (d.rank() < rank) {
                std::vector<int64_t> shape(static_cast<size_t>(rank - d.rank()), 1);
                shape.insert(shape.end(), d.shape().begin(), d.shape().end());
                d = d.reshaped(shape);
            }
            std::string hint = v.name.empty() ? v.debugName : v.name;
            return constantTensor(d, changed ? std::string() : v.paramName, hint);
        }
    }
    Expr e = tensor(id);
    const int64_t r = static_cast<int64_t>(v.shape.size());
    auto key = std::make_pair(id, rank * 64 + static_cast<int64_t>(want));
    if (auto it = aligned_.find(key); it != aligned_.end())
        return it->second;
    if (v.dtype != want)
        e = cast(e, v.dtype, want);
    if (r > 0 && r < rank) {
        std::vector<int64_t> axes;
        for (int64_t a = 0; a < rank - r; ++a)
            axes.push_back(a);
        e = emitTemp("unsqueeze", {e}, {{"axes", Expr::ints(axes)}}, "aligned");
    }
    if (e.isIdentifier())
        aligned_[key] = e;
    return e;
}

std::vector<Expr> Context::list(ir::ValueId id) {
    if (auto it = bound_.find(id); it != bound_.end() && it->second.kind == Expr::Kind::Array)
        return it->second.items;
    const auto& v = graph_.value(id);
    if (v.producer >= 0 && graph_.node(v.producer).kind == "prim::ListConstruct") {
        std::vector<Expr> items;
        for (ir::ValueId e : v.elements)
            items.push_back(tensor(e));
        return items;
    }
    if (v.constant)
        unsupported(fmt::format("list %{} is a constant list of tensors, which t2n cannot "
                                "inline yet",
                                v.debugName));
    unsupported(
        fmt::format("list %{} has no NNEF value (its producer was not translated)", v.debugName));
}

std::string Context::freshName(const std::string& base) {
    return pool_.make(base);
}

std::optional<std::string> Context::outputNameOf(ir::ValueId id) const {
    auto it = outputNames_.find(id);
    if (it == outputNames_.end())
        return std::nullopt;
    return it->second;
}

Expr Context::emitOut(const std::string& op, std::vector<Expr> args, Kwargs kwargs, size_t i) {
    ir::ValueId id = node_->outputs.at(i);
    std::string name;
    if (auto reserved = outputNameOf(id); reserved && !isBound(id))
        name = *reserved;
    else
        name = freshName(out(i).name.empty() ? out(i).debugName : out(i).name);
    push(nnef::Invocation{op, "", std::move(args), std::move(kwargs), {name}, false, node_->id});
    Expr e = Expr::id(name);
    bind(id, e);
    return e;
}

Expr Context::emitFor(ir::ValueId id, const std::string& op, std::vector<Expr> args,
                      Kwargs kwargs) {
    const auto& v = graph_.value(id);
    std::string name;
    if (auto reserved = outputNameOf(id); reserved && !isBound(id))
        name = *reserved;
    else
        name = freshName(v.name.empty() ? v.debugName : v.name);
    push(nnef::Invocation{op, "", std::move(args), std::move(kwargs), {name}, false, node_->id});
    Expr e = Expr::id(name);
    bind(id, e);
    return e;
}

Expr Context::emitTemp(const std::string& op, std::vector<Expr> args, Kwargs kwargs,
                       const std::string& suffix) {
    const auto& o = node_->outputs.empty() ? graph_.value(node_->inputs.at(0)) : out(0);
    std::string base = (o.name.empty() ? o.debugName : o.name) + "_" + suffix;
    std::string name = freshName(base);
    push(nnef::Invocation{
        op, "", std::move(args), std::move(kwargs), {name}, false, node_ ? node_->id : -1});
    return Expr::id(name);
}

std::vector<Expr> Context::emitMulti(const std::string& op, std::vector<Expr> args, Kwargs kwargs,
                                     const std::vector<std::string>& suffixes) {
    const auto& o = out(0);
    std::vector<std::string> names;
    std::vector<Expr> exprs;
    for (const auto& s : suffixes) {
        names.push_back(freshName((o.name.empty() ? o.debugName : o.name) + "_" + s));
        exprs.push_back(Expr::id(names.back()));
    }
    push(nnef::Invocation{op, "", std::move(args), std::move(kwargs), std::move(names), false,
                          node_->id});
    return exprs;
}

void Context::push(nnef::Invocation inv) {
    if (node_) {
        legalizeNonFiniteLiterals(*this, inv);
        typeIntegerOperands(*this, inv);
    }
    doc_.body.push_back(std::move(inv));
}

void Context::bind(ir::ValueId id, Expr e) {
    if (e.isIdentifier())
        identifiers_.emplace(e.text, id);
    bound_[id] = std::move(e);
}

Expr Context::cast(Expr e, DType from, DType to, const std::string& suffix) {
    if (from == to)
        return e;
    if (!e.isIdentifier())
        return convertLiteral(e, to);
    return emitTemp("tract_core_cast", {e}, {{"to", Expr::str(std::string(dtypeName(to)))}},
                    suffix);
}

Expr Context::constantTensor(const TensorData& data, const std::string& paramName,
                             const std::string& nameHint) {
    if (paramName.empty() && data.numel() <= kInlineLimit && allFinite(data)) {
        if (data.rank() == 0)
            return literalItem(data, 0);
        if (!target_.inlineTensorLiterals())
            return constantOperation(data, nameHint);
        int64_t flat = 0;
        return nestedLiteral(data, 0, flat);
    }
    if (!paramName.empty())
        return variable(data, paramName, "parameter", "");
    std::string from = node_ ? node_->where.describe() : std::string("a folded constant");
    return variable(data, nameHint, "derived", "value computed at export time by " + from);
}

void Context::addFragment(const std::string& name, const std::string& definition) {
    if (fragmentNames_.insert(name).second)
        doc_.fragments.push_back(definition);
}

// constant<T>(shape = [...], value = [...]) with the values in C order: the
// flat form Khronos NNEF reads where tract would take a nested literal.
Expr Context::constantOperation(const TensorData& data, const std::string& nameHint) {
    std::vector<Expr> values;
    for (int64_t i = 0; i < data.numel(); ++i)
        values.push_back(literalItem(data, i));
    std::string name = freshName(nameHint);
    doc_.body.push_back(nnef::Invocation{
        "constant",
        nnefTypeOf(data.dtype()),
        {},
        {{"shape", Expr::ints(data.shape())}, {"value", Expr::array(std::move(values))}},
        {name},
        false,
        node_ ? node_->id : -1});
    return Expr::id(name);
}

Expr Context::derivedTensor(TensorData data, const std::string& nameHint) {
    derived_.push_back(std::move(data));
    return constantTensor(derived_.back(), {}, nameHint);
}

Expr Context::storedVariable(TensorData data, const std::string& label,
                             const std::optional<nnef::QuantEntry>& quant) {
    derived_.push_back(std::move(data));
    const size_t before = doc_.variables.size();
    const std::string from = node_ ? node_->where.describe() : std::string("a quantized module");
    Expr e = variable(derived_.back(), label, "derived", "quantized parameters of " + from);
    if (quant && doc_.variables.size() > before) {
        doc_.variables.back().quantized = true;
        doc_.body.back().typeParam = "scalar"; // real numbers once dequantized
        addQuant(e.text, *quant);
    }
    return e;
}

bool Context::addQuant(const std::string& identifier, nnef::QuantEntry q) {
    for (const auto& existing : doc_.quant)
        if (existing.identifier == identifier)
            return false;
    q.identifier = identifier;
    doc_.quant.push_back(std::move(q));
    return true;
}

Expr Context::variable(const TensorData& data, const std::string& label, const std::string& origin,
                       const std::string& from) {
    auto key = std::make_tuple(data.identity(), data.shape(), static_cast<int>(data.dtype()));
    if (auto it = variableCache_.find(key); it != variableCache_.end())
        return Expr::id(it->second);
    // A label names one file: a parameter used in a second shape gets a new one.
    const std::string safe = archiveLabel(label);
    std::string finalLabel = safe;
    std::string finalOrigin = origin;
    std::string finalFrom = from;
    for (int n = 1; labelToIdentifier_.count(finalLabel); ++n) {
        finalLabel = fmt::format("{}.{}", safe, n);
        // Same bytes in another shape: still the parameter, under a new label.
        finalFrom = origin == "parameter"
                        ? label
                        : fmt::format("{} (reshaped to [{}])", from, fmt::join(data.shape(), ", "));
    }
    std::string ident = pool_.makeNamed(finalLabel);
    labelToIdentifier_[finalLabel] = ident;
    variableCache_[key] = ident;
    doc_.body.push_back(
        nnef::Invocation{"variable",
                         nnefTypeOf(data.dtype()),
                         {},
                         {{"shape", Expr::ints(data.shape())}, {"label", Expr::str(finalLabel)}},
                         {ident},
                         false,
                         -1});
    doc_.variables.push_back(nnef::Variable{ident, finalLabel, data, finalOrigin, finalFrom});
    return Expr::id(ident);
}

void Context::unsupported(const std::string& why, const std::string& hint) const {
    throw Error(Stage::Translate, ErrorCode::Unsupported, why, node_ ? node_->where : NodeRef{},
                hint);
}

void Context::warn(const std::string& message) {
    warnings_.push_back(node_ ? message + " (" + node_->where.describe() + ")" : message);
}

void Context::declareInputs(const std::vector<std::string>& names,
                            const std::vector<std::map<int, std::string>>& symbols,
                            const std::vector<bool>& keep) {
    for (size_t i = 0; i < graph_.inputs.size(); ++i) {
        if (!keep.at(i))
            continue;
        const auto& v = graph_.value(graph_.inputs[i]);
        const std::string& name = names.at(i);
        pool_.reserve(name);
        std::vector<Expr> dims;
        for (size_t a = 0; a < v.shape.size(); ++a) {
            auto s = i < symbols.size() ? symbols[i].find(static_cast<int>(a))
                                        : std::map<int, std::string>::const_iterator{};
            if (i < symbols.size() && s != symbols[i].end()) {
                const ScaledSymbols::Scaled* sc = scaled_.find(s->second);
                dims.push_back(sc ? affineExpr({sc->name, sc->multiple, 0}) : Expr::id(s->second));
                doc_.addExtension("tract_symbol " + (sc ? sc->name : s->second));
            } else {
                dims.push_back(Expr::i(v.shape[a]));
            }
        }
        nnef::Invocation inv;
        inv.results = {name};
        if (v.dtype == DType::F32 || v.dtype == DType::I64 || v.dtype == DType::Bool) {
            inv.op = "external";
            inv.typeParam = nnefTypeOf(v.dtype);
            inv.kwargs = {{"shape", Expr::array(dims)}};
        } else {
            inv.op = "tract_core_external";
            inv.kwargs = {{"shape", Expr::array(dims)},
                          {"datum_type", Expr::str(std::string(dtypeName(v.dtype)))}};
        }
        doc_.body.push_back(std::move(inv));
        doc_.inputs.push_back(name);
        bind(v.id, Expr::id(name));
    }
}

void Context::declareOutputs(const std::vector<std::string>& names) {
    for (size_t i = 0; i < graph_.outputs.size(); ++i) {
        pool_.reserve(names.at(i));
        outputNames_.emplace(graph_.outputs[i], names[i]);
    }
}

} // namespace t2n::translate
