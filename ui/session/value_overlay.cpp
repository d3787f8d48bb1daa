#include "session/value_overlay.h"

#include "session/graph_adapters.h"

#include <cmath>

namespace t2n::ui {

QHash<QString, NodeError> nodeErrors(const CheckReport& check, const Provenance& provenance) {
    QHash<QString, NodeError> out;
    for (const ValueError& v : check.valueErrors) {
        const ProvenanceLine* line = provenance.defining(v.identifier);
        if (!line || line->irNode < 0)
            continue;
        const QString key = irNodeKey(line->irNode);
        const bool seen = out.contains(key);
        NodeError& e = out[key];
        if (!seen || v.relative > e.relative || (!v.ok && e.ok)) {
            e.relative = v.relative;
            e.maxAbs = v.maxAbs;
            e.identifier = QString::fromStdString(v.identifier);
        }
        e.ok = e.ok && v.ok;
    }
    return out;
}

QColor errorColor(const NodeError& e) {
    if (!e.ok)
        return QColor(0xef, 0x9a, 0x9a);
    // log10 of the relative error: -9 (or exact) is green, -5 yellow, -3 orange.
    const double level = e.relative <= 0 ? -9.0 : std::clamp(std::log10(e.relative), -9.0, -3.0);
    const double t = (level + 9.0) / 6.0; // 0 .. 1
    const double hue = 120.0 * (1.0 - t) + 30.0 * t;
    return QColor::fromHslF(static_cast<float>(hue / 360.0), 0.65f, 0.80f);
}

QHash<QString, QColor> errorOverlay(const QHash<QString, NodeError>& errors) {
    QHash<QString, QColor> out;
    for (auto it = errors.begin(); it != errors.end(); ++it)
        out.insert(it.key(), errorColor(it.value()));
    return out;
}

QString describeError(const NodeError& e) {
    return QStringLiteral("max abs %1, relative %2%3 (%4)")
        .arg(e.maxAbs, 0, 'g', 2)
        .arg(e.relative, 0, 'g', 2)
        .arg(e.ok ? QString() : QStringLiteral(", out of tolerance"), e.identifier);
}

} // namespace t2n::ui
