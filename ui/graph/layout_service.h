#pragma once
// The one layout thread: Graphviz is not thread-safe, so every layout of the
// studio runs here, one after the other, and the GUI thread only queues
// requests and receives geometries by signal. The per-block cache of
// GraphLayout lives on that thread and is shared by all requests.
#include "graph/graph_layout.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>

namespace t2n::ui {

struct LayoutJob {
    std::shared_ptr<const GraphData> graph;
    std::shared_ptr<const ClusterTree> tree;
    QSet<QString> collapsed;
};

class LayoutWorker;

class LayoutService : public QObject {
    Q_OBJECT
public:
    explicit LayoutService(QObject* parent = nullptr);
    ~LayoutService() override;

    /// Queues a layout and returns its ticket. A request still waiting when a
    /// newer one arrives is dropped (its answer would be stale anyway).
    quint64 request(LayoutJob job);

Q_SIGNALS:
    void finished(quint64 ticket, const t2n::ui::GraphGeometry& geometry, qint64 elapsedMs);

private:
    QThread thread_;
    LayoutWorker* worker_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> latest_;
    quint64 next_ = 0;
};

} // namespace t2n::ui
