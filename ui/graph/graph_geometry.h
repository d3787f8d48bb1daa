#pragma once
// Where everything goes, in scene coordinates (points, y down): the result of
// a layout, and what the scene draws.
#include <QHash>
#include <QMetaType>
#include <QPainterPath>
#include <QRectF>
#include <QString>
#include <QVector>

namespace t2n::ui {

/// How a pass step changed an item (see placeStep). A Modified edge is a new
/// edge between nodes that were there before.
enum class DiffMark { None, Added, Removed, Modified };

struct NodeGeometry {
    QString key;        ///< node id, or clusterItemKey(cluster id) for a collapsed cluster
    QString clusterId;  ///< set for a collapsed cluster
    int nodeIndex = -1; ///< index in GraphData::nodes, -1 for a collapsed cluster
    QRectF rect;
    QString title;    ///< node label, or cluster title
    QString subtitle; ///< short op kind, or "N ops"
    QString kind;     ///< op kind (colours the box)
    QString badge;    ///< the node's remark badge
    DiffMark mark = DiffMark::None;
    QString diffSummary; ///< on a collapsed cluster: "+a -r ~m" of what changed inside
};

struct EdgeGeometry {
    QString from; ///< item keys (see NodeGeometry::key)
    QString to;
    QPainterPath path;
    QPointF arrowBase; ///< the arrow head goes from here to arrowTip
    QPointF arrowTip;
    QString label;
    int count = 1; ///< graph edges bundled into this one
    DiffMark mark = DiffMark::None;
};

/// An expanded cluster, drawn as a frame around its content.
struct FrameGeometry {
    QString clusterId;
    QString title;
    QRectF rect;
    int depth = 1;
};

struct GraphGeometry {
    QVector<NodeGeometry> nodes;
    QVector<EdgeGeometry> edges;
    QVector<FrameGeometry> frames;
    QRectF bounds;

    int indexOf(const QString& key) const { return index_.value(key, -1); }
    /// The box of an item, or of an expanded cluster's frame (by clusterItemKey).
    bool itemRect(const QString& key, QRectF* rect) const;
    void appendNode(const NodeGeometry& node);
    void reindex();

private:
    QHash<QString, int> index_;
    QHash<QString, int> frameIndex_;
};

/// Straight-ish connector from one box to another (used for edges placed
/// without Graphviz): leaves `from` at its bottom, enters `to` at its top.
EdgeGeometry connectBoxes(const QString& fromKey, const QRectF& from, const QString& toKey,
                          const QRectF& to);

} // namespace t2n::ui

Q_DECLARE_METATYPE(t2n::ui::GraphGeometry)
