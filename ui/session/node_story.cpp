#include "session/node_story.h"

#include "session/node_change_model.h"
#include "session/pass_list_model.h"

#include <map>

namespace t2n::ui {

QStringList nodeStory(const harden::HardenDiagnostics& d, const QString& id,
                      const RowGraph& graphAt) {
    // The pass's remarks about the node, by pass index.
    std::map<size_t, QStringList> remarks;
    bool numeric = false;
    const qlonglong stable = id.section(QLatin1Char(':'), 1).toLongLong(&numeric);
    if (numeric)
        for (const auto& h : harden::nodeHistory(d, stable))
            if (!h.text.empty())
                remarks[h.passIndex] << QString::fromStdString(h.text);

    QStringList lines;
    std::shared_ptr<const GraphData> before = graphAt(0);
    for (size_t i = 0; i < d.passes.size(); ++i) {
        const std::shared_ptr<const GraphData> after = graphAt(int(i) + 1);
        const StepGraphs step(*before, *after);
        const bool was = step.before(id) != nullptr;
        const bool is = step.after(id) != nullptr;
        QString what;
        if (!was && is) {
            what = nodeChangeName(NodeChange::Added);
        } else if (was && !is) {
            what = nodeChangeName(NodeChange::Removed);
        } else if (was) {
            if (const QStringList aspects = step.changes(id); !aspects.isEmpty())
                what = QStringLiteral("%1: %2").arg(nodeChangeName(NodeChange::Modified),
                                                    step.describe(id, aspects));
        }
        QStringList parts;
        if (!what.isEmpty())
            parts << what;
        if (auto it = remarks.find(i); it != remarks.end())
            parts << it->second;
        if (!parts.isEmpty())
            lines << QStringLiteral("%1 %2: %3")
                         .arg(i + 1)
                         .arg(passTitle(d.passes[i]), parts.join(QStringLiteral(" \u2014 ")));
        before = after;
    }
    return lines;
}

} // namespace t2n::ui
