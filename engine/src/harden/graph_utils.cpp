#include "harden/graph_utils.h"

#include <torch/csrc/jit/ir/constants.h>

#include <fmt/format.h>

#include <filesystem>
#include <sstream>
#include <string_view>

namespace t2n::harden {

using torch::jit::Block;
using torch::jit::Node;
using torch::jit::Value;

namespace {
void collect(Block* block, std::vector<Node*>& out, const std::function<bool(Node*)>& keep) {
    for (Node* n : block->nodes()) {
        if (keep(n))
            out.push_back(n);
        for (Block* b : n->blocks())
            collect(b, out, keep);
    }
}

int64_t count(const Block* block) {
    int64_t n = 0;
    for (const Node* node : block->nodes()) {
        ++n;
        for (const Block* b : node->blocks())
            n += count(b);
    }
    return n;
}
} // namespace

std::vector<Node*> allNodes(Block* block) {
    std::vector<Node*> out;
    collect(block, out, [](Node*) { return true; });
    return out;
}

std::vector<Node*> nodesOfKind(Block* block, c10::Symbol kind) {
    std::vector<Node*> out;
    collect(block, out, [kind](Node* n) { return n->kind() == kind; });
    return out;
}

int64_t countNodes(const torch::jit::Graph& graph) {
    return count(graph.block());
}

int64_t countNodes(const Block& block) {
    return count(&block);
}

std::string graphText(const torch::jit::Graph& graph) {
    std::ostringstream os;
    os << graph;
    return os.str();
}

bool isTensor(const torch::jit::Value* v) {
    return v->type()->kind() == c10::TypeKind::TensorType;
}

bool isPrimitive(const c10::TypePtr& type) {
    switch (type->kind()) {
    case c10::TypeKind::BoolType:
    case c10::TypeKind::IntType:
    case c10::TypeKind::FloatType:
    case c10::TypeKind::NumberType:
    case c10::TypeKind::StringType:
    case c10::TypeKind::NoneType:
    case c10::TypeKind::DeviceObjType:
    case c10::TypeKind::ScalarTypeType:
        return true;
    case c10::TypeKind::ListType:
    case c10::TypeKind::OptionalType:
    case c10::TypeKind::TupleType:
        for (const auto& t : type->containedTypes())
            if (!isPrimitive(t))
                return false;
        return true;
    default:
        return false;
    }
}

std::string where(const Node* node) {
    auto range = node->sourceRange();
    if (auto generated = range.findSourceRangeThatGenerated())
        range = *generated;
    auto flc = range.file_line_col();
    if (!flc)
        return {};
    return fmt::format("{}:{}", std::filesystem::path(std::get<0>(*flc)).filename().string(),
                       std::get<1>(*flc));
}

std::string callPath(const Node* node) {
    std::string path;
    if (auto cs = node->callstack())
        for (const auto& entry : (*cs)->vec()) {
            const auto& info = std::get<2>(entry);
            if (!info || info->instance_name().empty())
                continue;
            // Appended piecewise: `"." + name` trips GCC 12's -Wstringop-overflow.
            if (!path.empty())
                path += '.';
            path += info->instance_name();
        }
    return path;
}

std::string receiverPath(const Node* node) {
    const Value* v = nullptr;
    if (node->kind() == c10::prim::GetAttr)
        v = node->output();
    else if (node->kind() == c10::prim::CallMethod && node->inputs().size() > 0)
        v = node->input(0);
    std::string path;
    while (v && v->node()->kind() == c10::prim::GetAttr) {
        const Node* get = v->node();
        path = get->s(c10::attr::name) + (path.empty() ? "" : ".") + path;
        v = get->input(0);
    }
    bool fromSelf = v && v->node()->kind() == c10::prim::Param &&
                    !v->node()->owningBlock()->owningNode() && v->offset() == 0;
    return fromSelf ? path : std::string();
}

std::string describe(const Node* node) {
    std::vector<std::string> outs, ins;
    for (const Value* v : node->outputs())
        outs.push_back(fmt::format("%{}", v->debugName()));
    for (const Value* v : node->inputs())
        ins.push_back(fmt::format("%{}", v->debugName()));
    std::string text =
        fmt::format("{}{}({})", outs.empty() ? "" : fmt::format("{} = ", fmt::join(outs, ", ")),
                    node->kind().toQualString(), fmt::join(ins, ", "));
    std::string at = where(node);
    return at.empty() ? text : fmt::format("{} at {}", text, at);
}

std::optional<c10::IValue> constantValue(const Value* value) {
    const Node* n = value->node();
    if (n->kind() == c10::prim::Constant)
        return torch::jit::toIValue(value);
    if (n->kind() == c10::prim::ListConstruct) {
        auto list = value->type()->cast<c10::ListType>();
        // Lists are mutable: one some op writes to (append, _set_item, ...) is
        // not a constant even when built from constants.
        if (!list || isWritten(value))
            return std::nullopt;
        c10::impl::GenericList items(list->getElementType());
        for (const Value* in : n->inputs()) {
            auto iv = constantValue(in);
            if (!iv)
                return std::nullopt;
            items.push_back(*iv);
        }
        return c10::IValue(items);
    }
    if (n->kind() == c10::prim::TupleConstruct) {
        std::vector<c10::IValue> items;
        for (const Value* in : n->inputs()) {
            auto iv = constantValue(in);
            if (!iv)
                return std::nullopt;
            items.push_back(*iv);
        }
        return c10::ivalue::Tuple::create(std::move(items));
    }
    return std::nullopt;
}

Value* insertConstantBefore(Node* before, const c10::IValue& iv) {
    torch::jit::WithInsertPoint guard(before);
    auto v = torch::jit::tryInsertConstant(*before->owningGraph(), iv, before->sourceRange(),
                                           before->scope());
    return v ? *v : nullptr;
}

bool replaceWithConstant(Node* node, const c10::IValue& iv) {
    Value* c = insertConstantBefore(node, iv);
    if (!c)
        return false;
    node->output()->replaceAllUsesWith(c);
    node->destroy();
    return true;
}

void copyOrigin(Node* to, Node* from) {
    to->setSourceRange(from->sourceRange());
    to->setScope(from->scope());
    if (auto cs = from->callstack())
        to->setCallStack(*cs);
}

void inlineIfBranch(Node* node, size_t branch) {
    Block* body = node->blocks().at(branch);
    for (auto it = body->nodes().begin(); it != body->nodes().end();) {
        Node* inner = *it++; // advance first: moving relinks inner's next pointer
        inner->moveBefore(node);
    }
    for (size_t i = 0; i < node->outputs().size(); ++i)
        node->outputs()[i]->replaceAllUsesWith(body->outputs()[i]);
    node->destroy();
}

bool isSizeCall(const Node* node) {
    static const c10::Symbol numel = c10::Symbol::fromQualString("aten::numel");
    auto k = node->kind();
    return k == c10::aten::dim || k == c10::aten::size || k == c10::aten::len || k == numel;
}

bool isInPlace(const Node* node) {
    if (!node->kind().is_aten())
        return false;
    std::string_view name = node->kind().toUnqualString();
    return name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_';
}

bool writesInput(const Node* node, size_t offset) {
    const auto* schema = node->maybeSchema();
    if (!schema || offset >= schema->arguments().size())
        return false;
    const auto* alias = schema->arguments()[offset].alias_info();
    return alias && alias->isWrite();
}

bool isWritten(const Value* value) {
    for (const auto& use : value->uses())
        if (writesInput(use.user, use.offset))
            return true;
    return false;
}

bool keepsInput(const Node* user, size_t offset) {
    bool used = false;
    for (const Value* out : user->outputs())
        used = used || out->hasUses();
    if (!used || user->kind() == c10::prim::ListUnpack ||
        user == user->owningGraph()->return_node())
        return false;
    const auto* schema = user->maybeSchema();
    if (!schema || offset >= schema->arguments().size())
        return true;
    const auto* in = schema->arguments()[offset].alias_info();
    if (!in)
        return false;
    for (const auto& ret : schema->returns()) {
        const auto* out = ret.alias_info();
        if (!out)
            continue;
        for (const auto& set : out->beforeSets())
            if (in->beforeSets().count(set))
                return true;
    }
    return false;
}

bool isOnlyRead(const Value* value) {
    for (const auto& use : value->uses())
        if (writesInput(use.user, use.offset) || keepsInput(use.user, use.offset))
            return false;
    return true;
}

bool insideLoop(const Node* node) {
    for (const Block* b = node->owningBlock(); b && b->owningNode();
         b = b->owningNode()->owningBlock())
        if (b->owningNode()->kind() == c10::prim::Loop)
            return true;
    return false;
}

} // namespace t2n::harden
