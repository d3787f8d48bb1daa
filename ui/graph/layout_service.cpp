#include "graph/layout_service.h"

#include <QElapsedTimer>

namespace t2n::ui {

class LayoutWorker : public QObject {
    Q_OBJECT
public:
    void run(quint64 ticket, const LayoutJob& job, const std::atomic<quint64>& latest) {
        if (ticket < latest.load())
            return;
        QElapsedTimer timer;
        timer.start();
        GraphGeometry geometry = m_layout.layout(*job.graph, *job.tree, job.collapsed);
        Q_EMIT done(ticket, geometry, timer.elapsed());
    }

Q_SIGNALS:
    void done(quint64 ticket, const t2n::ui::GraphGeometry& geometry, qint64 elapsedMs);

private:
    GraphLayout m_layout;
};

LayoutService::LayoutService(QObject* parent)
    : QObject(parent), m_worker(new LayoutWorker),
      m_latest(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<t2n::ui::GraphGeometry>();
    m_thread.setObjectName(QStringLiteral("t2n-graph-layout"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &LayoutWorker::done, this, &LayoutService::finished, Qt::QueuedConnection);
    m_thread.start();
}

LayoutService::~LayoutService() {
    m_latest->store(UINT64_MAX); // queued jobs return at once
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
}

quint64 LayoutService::request(LayoutJob job) {
    const quint64 ticket = ++m_next;
    m_latest->store(ticket);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, ticket, job = std::move(job), latest = m_latest] {
            worker->run(ticket, job, *latest);
        },
        Qt::QueuedConnection);
    return ticket;
}

} // namespace t2n::ui

#include "layout_service.moc"
