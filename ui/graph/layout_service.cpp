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
        GraphGeometry geometry = layout_.layout(*job.graph, *job.tree, job.collapsed);
        Q_EMIT done(ticket, geometry, timer.elapsed());
    }

Q_SIGNALS:
    void done(quint64 ticket, const t2n::ui::GraphGeometry& geometry, qint64 elapsedMs);

private:
    GraphLayout layout_;
};

LayoutService::LayoutService(QObject* parent)
    : QObject(parent), worker_(new LayoutWorker),
      latest_(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<t2n::ui::GraphGeometry>();
    thread_.setObjectName(QStringLiteral("t2n-graph-layout"));
    worker_->moveToThread(&thread_);
    connect(worker_, &LayoutWorker::done, this, &LayoutService::finished, Qt::QueuedConnection);
    thread_.start();
}

LayoutService::~LayoutService() {
    latest_->store(UINT64_MAX); // queued jobs return at once
    thread_.quit();
    thread_.wait();
    delete worker_;
}

quint64 LayoutService::request(LayoutJob job) {
    const quint64 ticket = ++next_;
    latest_->store(ticket);
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, ticket, job = std::move(job), latest = latest_] {
            worker->run(ticket, job, *latest);
        },
        Qt::QueuedConnection);
    return ticket;
}

} // namespace t2n::ui

#include "layout_service.moc"
