#include "interp/quant.h"

#include "t2n/error.h"

#include <ATen/ATen.h>
#include <fmt/format.h>

namespace t2n::interp {

using nnef::ast::Expr;
using nnef::ast::invocationArgument;

int64_t QuantParams::low() const {
    return isSigned ? -(int64_t{1} << (bits - 1)) : 0;
}
int64_t QuantParams::high() const {
    return isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
}

namespace {

[[noreturn]] void refuse(const nnef::ast::QuantEntry& e, const std::string& why) {
    NodeRef ref;
    ref.kind = e.op;
    ref.valueName = e.tensor;
    ref.sourceFile = "graph.quant";
    ref.sourceLine = e.loc.line;
    throw Error(Stage::Check, ErrorCode::Unsupported,
                fmt::format("graph.quant entry for '{}': {}", e.tensor, why), ref,
                "tract reads zero_point_linear_quantize(zero_point, scale, bits = 8 or 32, "
                "signed, symmetric) with scalar values only");
}

double number(const nnef::ast::QuantEntry& e, const std::string& name, bool required = true) {
    for (const auto& [n, v] : e.args)
        if (n == name) {
            bool neg = v->kind == Expr::Kind::Unary && v->op == "-" && !v->items.empty();
            const Expr& x = neg ? *v->items[0] : *v;
            double d = 0;
            if (x.kind == Expr::Kind::Integer)
                d = static_cast<double>(x.integer);
            else if (x.kind == Expr::Kind::Scalar)
                d = x.scalar;
            else if (x.kind == Expr::Kind::Logical)
                d = x.logical ? 1 : 0;
            else
                refuse(e, fmt::format("'{}' must be a scalar literal (per-channel lists are not "
                                      "read by tract)",
                                      name));
            return neg ? -d : d;
        }
    if (required)
        refuse(e, fmt::format("missing '{}'", name));
    return 0;
}

} // namespace

QuantTable readQuantTable(const std::vector<nnef::ast::QuantEntry>& entries) {
    QuantTable table;
    for (const auto& e : entries) {
        if (e.op != "zero_point_linear_quantize")
            refuse(e, fmt::format("'{}' is not supported by the checker", e.op));
        QuantParams q;
        q.scale = number(e, "scale");
        q.zeroPoint = static_cast<int64_t>(number(e, "zero_point"));
        q.bits = static_cast<int>(number(e, "bits"));
        q.isSigned = number(e, "signed") != 0;
        if (q.bits != 8 && q.bits != 32)
            refuse(e, fmt::format("{} bits (tract reads 8 or 32)", q.bits));
        if (!(q.scale > 0))
            refuse(e, fmt::format("scale {} is not positive", q.scale));
        table[e.tensor] = q;
    }
    return table;
}

at::Tensor applyQuant(const at::Tensor& t, const QuantParams& q) {
    // tract reads the scale as an f32; a product in double rounded once to
    // f32 is the f32 product.
    const double scale32 = static_cast<float>(q.scale);
    if (!t.is_floating_point())
        return ((t.to(at::kDouble) - static_cast<double>(q.zeroPoint)) * scale32).to(at::kFloat);
    // As tract's cast to a quantized type computes it (data/src/tensor.rs,
    // q_via_f32, since 0.21.2): x / scale + zero_point in f32, each step
    // rounded, then half to even. (tract's ONNX QuantizeLinear rounds x *
    // (1 / scale) half away from zero: not what an NNEF cast runs.)
    const at::Tensor shifted =
        t.to(at::kFloat) / scale32 + static_cast<float>(q.zeroPoint); // f32 tensor ops
    const at::Tensor stored =
        at::clamp(at::round(shifted), static_cast<double>(q.low()), static_cast<double>(q.high()))
            .to(at::kDouble);
    return ((stored - static_cast<double>(q.zeroPoint)) * scale32).to(t.scalar_type());
}

std::optional<std::pair<std::string, Value>> realBias(const Expr& rhs, const Scope& scope,
                                                      const QuantTable& table) {
    if (table.empty() || rhs.kind != Expr::Kind::Invocation ||
        (rhs.text != "conv" && rhs.text != "deconv" && rhs.text != "linear"))
        return std::nullopt;
    const Expr* input = invocationArgument(rhs, "input", 0);
    const Expr* filter = invocationArgument(rhs, "filter", 1);
    const Expr* bias = invocationArgument(rhs, "bias", 2);
    auto idOf = [](const Expr* e) {
        return e && e->kind == Expr::Kind::Identifier ? e->text : std::string();
    };
    auto qi = table.find(idOf(input));
    auto qf = table.find(idOf(filter));
    const std::string b = idOf(bias);
    if (qi == table.end() || qf == table.end() || b.empty() || table.count(b))
        return std::nullopt;
    const Value* v = scope.find(b);
    if (!v || !v->isTensor() || v->tensor.is_floating_point())
        return std::nullopt;
    Value real = *v;
    real.tensor =
        (v->tensor.to(at::kDouble) * (qi->second.scale * qf->second.scale)).to(at::kFloat);
    return std::make_pair(b, std::move(real));
}

std::optional<double> dequantizedStep(const nnef::LoadedModel& model, const std::string& output) {
    const QuantTable table = readQuantTable(model.quant);
    if (auto own = table.find(output); own != table.end())
        return own->second.scale; // a quantized graph output
    std::string name = output;
    for (int hops = 0; hops < 2; ++hops) {
        const nnef::ast::Assignment* def = nullptr;
        for (const auto& a : model.document.graph.body)
            if (a.lhs->kind == Expr::Kind::Identifier && a.lhs->text == name)
                def = &a;
        if (!def || def->rhs->kind != Expr::Kind::Invocation)
            return std::nullopt;
        const Expr* x = invocationArgument(*def->rhs, def->rhs->text == "copy" ? "x" : "input", 0);
        if (!x || x->kind != Expr::Kind::Identifier)
            return std::nullopt;
        if (def->rhs->text == "copy") {
            name = x->text;
            continue;
        }
        if (def->rhs->text != "tract_core_cast")
            return std::nullopt;
        auto q = table.find(x->text);
        if (q == table.end())
            return std::nullopt;
        return q->second.scale;
    }
    return std::nullopt;
}

} // namespace t2n::interp
