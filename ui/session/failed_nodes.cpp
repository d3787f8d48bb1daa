#include "session/failed_nodes.h"
#include "session/qt_text.h"

#include "session/graph_adapters.h"

#include <filesystem>

namespace t2n::ui {

namespace {

/// "model.py:42" of a snapshot node against the reference's file and line.
bool sameSource(const std::string& source, const NodeRef& ref) {
    if (ref.sourceLine <= 0 || source.empty())
        return false;
    const std::string line = ":" + std::to_string(ref.sourceLine);
    if (source.size() < line.size() ||
        source.compare(source.size() - line.size(), line.size(), line))
        return false;
    const std::string file = std::filesystem::path(ref.sourceFile).filename().string();
    return file.empty() || source.find(file) != std::string::npos;
}

/// The TorchScript snapshot node `ref` names: the node defining its value, or
/// the same kind at the same source line.
QString torchScriptNodeFor(const SessionState& st, const NodeRef& ref) {
    const harden::GraphSnapshot* snap = st.hardened ? finalSnapshot(st.report.harden) : nullptr;
    if (!snap)
        return {};
    for (const auto& n : snap->nodes)
        for (const auto& out : n.outputs)
            if (!ref.valueName.empty() && out == ref.valueName)
                return QStringLiteral("ts:%1").arg(n.id);
    for (const auto& n : snap->nodes)
        if (n.kind == ref.kind && sameSource(n.source, ref))
            return QStringLiteral("ts:%1").arg(n.id);
    return {};
}

void addTorchScriptNode(FailedNodes& out, const QString& key, const QString& reason) {
    if (key.isEmpty() || out.torchScript.contains(key))
        return;
    out.torchScript << key;
    out.reasons.insert(key, reason);
}

void addIrNode(const SessionState& st, FailedNodes& out, int id, const QString& reason) {
    if (id < 0)
        return;
    const QString key = irNodeKey(id);
    if (out.ir.contains(key))
        return;
    out.ir << key;
    out.irNodes << id;
    out.reasons.insert(key, reason);
    if (const int64_t ts = st.graph.node(id).torchNode; ts >= 0)
        addTorchScriptNode(out, QStringLiteral("ts:%1").arg(ts), reason);
}

} // namespace

int irNodeFor(const ir::Graph& graph, const NodeRef& node) {
    return graph.nodeFor(node);
}

FailedNodes failedNodes(const SessionState& st, const std::vector<Diagnostic>& details) {
    FailedNodes out;
    for (const auto& d : details) {
        if (!d.hasNode)
            continue;
        const int id = st.traced ? irNodeFor(st.graph, d.node) : -1;
        if (id >= 0)
            addIrNode(st, out, id, qs(d.message));
        else // not traced (the model failed to run), or folded away
            addTorchScriptNode(out, torchScriptNodeFor(st, d.node), qs(d.message));
    }
    return out;
}

FailedNodes failedCheckNodes(const SessionState& st, const QHash<QString, NodeError>& errors) {
    FailedNodes out;
    const CheckReport& check = st.report.check;
    if (!st.traced || !check.ran || check.passed)
        return out;
    if (check.diverged) {
        const Divergence& d = check.divergence;
        const ProvenanceLine* pl = st.provenance.defining(d.identifier);
        addIrNode(st, out, pl && pl->irNode >= 0 ? pl->irNode : irNodeFor(st.graph, d.node),
                  QStringLiteral("first diverging operation: %1 = %2(...): %3")
                      .arg(qs(d.identifier), qs(d.operation), qs(d.detail)));
    }
    for (int id = 0; id < static_cast<int>(st.graph.nodes.size()); ++id)
        if (auto it = errors.constFind(irNodeKey(id)); it != errors.constEnd() && !it->ok)
            addIrNode(st, out, id, QStringLiteral("out of tolerance: ") + describeError(*it));
    return out;
}

} // namespace t2n::ui
