#include "harden/unpack_mobile_contexts.h"

#include "harden/graph_utils.h"
#include "jit/packed_params.h"
#include "t2n/error.h"

namespace t2n::harden {

namespace {

using torch::jit::Node;
using torch::jit::Value;

/// Writes `kind(inputs...)` before `before`, typed and sourced as `before`'s output.
Value* insertCall(Node* before, const char* kind, const std::vector<Value*>& inputs) {
    auto* graph = before->owningGraph();
    Node* n = graph->create(c10::Symbol::fromQualString(kind), inputs, 1);
    n->insertBefore(before);
    copyOrigin(n, before);
    n->output()->setType(before->output()->type());
    return n->output();
}

bool isZero(const c10::IValue& v) {
    return (v.isInt() && v.toInt() == 0) || (v.isDouble() && v.toDouble() == 0.0);
}

/// The aten call computing what the context computes before its clamp.
Value* insertUnpacked(Node* n, const jit::UnpackedParams& p) {
    auto constant = [&](const c10::IValue& v) { return insertConstantBefore(n, v); };
    const c10::IValue bias = p.bias ? c10::IValue(*p.bias) : c10::IValue();
    if (!p.conv)
        return insertCall(n, "aten::linear", {n->input(0), constant(p.weight), constant(bias)});
    if (p.transposed) // conv_transpose2d takes (..., output_padding, groups, dilation)
        return insertCall(n, "aten::conv_transpose2d",
                          {n->input(0), constant(p.weight), constant(bias), constant(p.stride),
                           constant(p.padding), constant(p.outputPadding), constant(p.groups),
                           constant(p.dilation)});
    return insertCall(n, "aten::conv2d",
                      {n->input(0), constant(p.weight), constant(bias), constant(p.stride),
                       constant(p.padding), constant(p.dilation), constant(p.groups)});
}

} // namespace

void unpackMobileContexts(PassContext& ctx) {
    for (const char* kind : {"prepacked::conv2d_clamp_run", "prepacked::conv2d_transpose_clamp_run",
                             "prepacked::linear_clamp_run"}) {
        for (Node* n : nodesOfKind(ctx.graph->block(), c10::Symbol::fromQualString(kind))) {
            auto context = constantValue(n->input(1));
            if (!context) {
                ctx.remark(n, "missed: its context is computed in the graph, not a constant");
                continue;
            }
            std::optional<jit::UnpackedParams> p;
            try {
                p = jit::unpackMobileContext(*context);
            } catch (const Error& e) {
                ctx.remark(n, "missed: " + e.message());
                continue;
            }
            if (!p) {
                ctx.remark(n, "missed: its context is not an XNNPACK context");
                continue;
            }
            if (!ctx.rewrite("contexts_unpacked"))
                return;
            Value* y = insertUnpacked(n, *p);
            if (!p->outputMin.isNone() || !p->outputMax.isNone()) {
                ctx.count("clamps_written");
                if (isZero(p->outputMin) && p->outputMax.isNone())
                    y = insertCall(n, "aten::relu", {y});
                else
                    y = insertCall(n, "aten::clamp",
                                   {y, insertConstantBefore(n, p->outputMin),
                                    insertConstantBefore(n, p->outputMax)});
            }
            n->output()->replaceAllUsesWith(y);
            n->destroy();
        }
    }
}

} // namespace t2n::harden
