#include "studio/pass_stepper.h"

#include "graph/graph_view.h"
#include "session/graph_adapters.h"
#include "session/pass_list_model.h"
#include "text/diff_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace t2n::ui {

PassStepper::PassStepper(QWidget* parent)
    : QWidget(parent), model_(new PassListModel(this)), filter_(new PassFilterModel(this)) {
    filter_->setSourceModel(model_);
    auto* split = new QSplitter(Qt::Horizontal, this);

    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    hideNoOp_ = new QCheckBox(tr("Hide passes that changed nothing"), left);
    hideNoOp_->setObjectName(QStringLiteral("hideNoOp"));
    leftLayout->addWidget(hideNoOp_);
    table_ = new QTableView(left);
    table_->setObjectName(QStringLiteral("passTable"));
    table_->setModel(filter_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(PassListModel::Name,
                                                     QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    leftLayout->addWidget(table_, 1);
    auto* buttons = new QHBoxLayout;
    skip_ = new QPushButton(tr("Skip this pass and re-run"), left);
    skip_->setObjectName(QStringLiteral("skipPass"));
    skip_->setToolTip(tr("Runs the chain again without the selected pass, to see what changes"));
    auto* rerun = new QPushButton(tr("Re-run"), left);
    rerun->setObjectName(QStringLiteral("rerunChain"));
    rerun->setToolTip(tr("Runs the chain again with the Export tab's passes and freeze setting"));
    buttons->addWidget(skip_);
    buttons->addWidget(rerun);
    leftLayout->addLayout(buttons);
    // One rewrite at a time: the slider re-runs the chain stopped after N
    // rewrites; the pass list and diffs then show where the chain stopped.
    auto* rewriteRow = new QHBoxLayout;
    rewriteRow->addWidget(new QLabel(tr("Rewrites:"), left));
    rewrites_ = new QSlider(Qt::Horizontal, left);
    rewrites_->setObjectName(QStringLiteral("rewriteSlider"));
    rewrites_->setToolTip(tr("Re-runs the chain stopped after this many rewrites (all of them "
                             "at the right end), like t2n harden --harden-step N"));
    rewrites_->setEnabled(false);
    rewriteRow->addWidget(rewrites_, 1);
    rewritesLabel_ = new QLabel(left);
    rewritesLabel_->setObjectName(QStringLiteral("rewriteLabel"));
    rewriteRow->addWidget(rewritesLabel_);
    leftLayout->addLayout(rewriteRow);
    connect(rewrites_, &QSlider::valueChanged, this,
            [this](int v) { rewritesLabel_->setText(tr("%1 of %2").arg(v).arg(fullRewrites_)); });
    // Dragging only moves the label; the chain re-runs on release (or on a
    // keyboard step, which is not a drag).
    connect(rewrites_, &QSlider::sliderReleased, this,
            [this] { requestRewriteLimit(rewrites_->value()); });
    connect(rewrites_, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove && !rewrites_->isSliderDown())
            QMetaObject::invokeMethod(
                this, [this] { requestRewriteLimit(rewrites_->value()); }, Qt::QueuedConnection);
    });
    auto* bisect = new QPushButton(tr("Find the first pass that changes the numbers"), left);
    bisect->setObjectName(QStringLiteral("bisectButton"));
    bisect->setToolTip(tr("Runs the example inputs after every pass and compares with the "
                          "model as loaded"));
    leftLayout->addWidget(bisect);
    bisect_ = new QLabel(left);
    bisect_->setObjectName(QStringLiteral("bisectVerdict"));
    bisect_->setWordWrap(true);
    leftLayout->addWidget(bisect_);
    connect(bisect, &QPushButton::clicked, this, &PassStepper::bisectRequested);
    connect(rerun, &QPushButton::clicked, this, &PassStepper::rerunRequested);
    connect(skip_, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row > 0)
            Q_EMIT skipRequested(model_->index(row, 0).data(PassListModel::PassNameRole).toString(),
                                 true);
    });
    remarks_ = new QListWidget(left);
    remarks_->setObjectName(QStringLiteral("passRemarks"));
    remarks_->setMaximumHeight(150);
    leftLayout->addWidget(
        new QLabel(tr("Remarks of the pass (what it did, what it missed):"), left));
    leftLayout->addWidget(remarks_);
    split->addWidget(left);

    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    header_ = new QLabel(right);
    header_->setObjectName(QStringLiteral("passHeader"));
    rightLayout->addWidget(header_);
    auto* views = new QTabWidget(right);
    views->setObjectName(QStringLiteral("passViews"));
    diff_ = new DiffView(views);
    views->addTab(diff_, tr("Text diff"));
    graph_ = new GraphView(views);
    graph_->setObjectName(QStringLiteral("passGraph"));
    views->addTab(graph_, tr("Graph (changes marked)"));
    rightLayout->addWidget(views, 1);
    split->addWidget(right);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(hideNoOp_, &QCheckBox::toggled, filter_, &PassFilterModel::setHideNoOp);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PassStepper::onCurrentChanged);
}

void PassStepper::setDiagnostics(const harden::HardenDiagnostics& d) {
    model_->setDiagnostics(d);
    // The slider's range is what the unlimited chain does; a limited run
    // only moves the handle.
    if (!d.rewriteLimit || fullRewrites_ < 0)
        fullRewrites_ = static_cast<int>(d.rewrites);
    {
        const QSignalBlocker block(rewrites_);
        rewrites_->setRange(0, fullRewrites_);
        rewrites_->setValue(d.rewriteLimit ? static_cast<int>(*d.rewriteLimit) : fullRewrites_);
    }
    rewrites_->setEnabled(fullRewrites_ > 0);
    rewritesLabel_->setText(tr("%1 of %2").arg(rewrites_->value()).arg(fullRewrites_));
    graphRow_ = -1;
    // A limited chain opens on the pass where it stopped: that rewrite is
    // what the person is stepping through.
    int row = firstChangingRow();
    if (d.rewriteLimit) {
        for (size_t i = 0; i < d.passes.size(); ++i)
            if (d.passes[i].total() > 0)
                row = static_cast<int>(i) + 1;
    }
    showRow(row >= 0 ? row : 0);
}

void PassStepper::requestRewriteLimit(int limit) {
    if (fullRewrites_ < 0)
        return;
    limit = qBound(0, limit, fullRewrites_);
    {
        const QSignalBlocker block(rewrites_);
        rewrites_->setValue(limit);
    }
    rewritesLabel_->setText(tr("%1 of %2").arg(limit).arg(fullRewrites_));
    Q_EMIT rewriteLimitRequested(limit == fullRewrites_ ? -1 : limit);
}

int PassStepper::currentRow() const {
    const QModelIndex idx = table_->currentIndex();
    return idx.isValid() ? filter_->mapToSource(idx).row() : -1;
}

void PassStepper::showRow(int row) {
    const QModelIndex idx = filter_->mapFromSource(model_->index(row, 0));
    if (!idx.isValid())
        return;
    table_->setCurrentIndex(idx);
    table_->scrollTo(idx);
}

void PassStepper::step(int delta) {
    const QModelIndex cur = table_->currentIndex();
    const int next = (cur.isValid() ? cur.row() : 0) + delta;
    if (next >= 0 && next < filter_->rowCount())
        table_->setCurrentIndex(filter_->index(next, 0));
}

int PassStepper::firstChangingRow() const {
    for (int r = 1; r < model_->rowCount(); ++r)
        if (!model_->index(r, 0).data(PassListModel::IsNoOpRole).toBool())
            return r;
    return -1;
}

void PassStepper::onCurrentChanged() {
    const int row = currentRow();
    remarks_->clear();
    skip_->setEnabled(row > 0);
    if (row < 0)
        return;
    const QModelIndex idx = model_->index(row, 0);
    for (const QString& r : idx.data(PassListModel::RemarksRole).toStringList()) {
        auto* item = new QListWidgetItem(r, remarks_);
        if (r.startsWith(QStringLiteral("missed")))
            item->setForeground(QColor(0xb0, 0x5a, 0x00));
    }
    const QString name = model_->index(row, PassListModel::Name).data().toString();
    diff_->setTexts(idx.data(PassListModel::BeforeTextRole).toString(),
                    idx.data(PassListModel::GraphTextRole).toString(), Language::TorchScriptIR);
    header_->setText(
        row == 0
            ? tr("The graph as loaded")
            : tr("<b>%1</b>: %2 — %3")
                  .arg(name.toHtmlEscaped(),
                       model_->index(row, PassListModel::Changes).data().toString().toHtmlEscaped(),
                       diff_->summary().toHtmlEscaped()));
    showGraphStep(row);
    Q_EMIT passShown(row);
}

const harden::GraphSnapshot* PassStepper::snapshotAt(int row) const {
    const auto& d = model_->diagnostics();
    for (int r = row; r >= 1; --r) // a skipped pass keeps the snapshot before it
        if (!d.passes[static_cast<size_t>(r - 1)].snapshot.empty())
            return &d.passes[static_cast<size_t>(r - 1)].snapshot;
    return d.inputSnapshot.empty() ? nullptr : &d.inputSnapshot;
}

void PassStepper::showGraphStep(int row) {
    const auto& d = model_->diagnostics();
    const harden::GraphSnapshot* after = snapshotAt(row);
    if (!after)
        return;
    const std::vector<harden::NodeRemark> none;
    const auto& remarks = row >= 1 ? d.passes[static_cast<size_t>(row - 1)].nodeRemarks : none;
    GraphData next = graphFromSnapshot(*after, remarks);
    const harden::GraphSnapshot* before = row >= 1 ? snapshotAt(row - 1) : nullptr;
    // Stepping on from the row shown (laid out) keeps every unchanged box in
    // place and marks removed, added and rewired nodes; a jump lays the
    // snapshot out afresh and outlines what the pass added or rewired.
    graph_->clearHighlightSet(QStringLiteral("pass"));
    if (before && graphRow_ == row - 1 && !graph_->isLayoutPending()) {
        lastStep_ = graph_->showStep(graph_->graph(), next);
    } else {
        lastStep_ = before ? diffGraphs(graphFromSnapshot(*before), next) : GraphDiff{};
        graph_->setGraph(next);
        graph_->setHighlightSet(QStringLiteral("pass"), lastStep_.added + lastStep_.rewired,
                                QColor(0x2e, 0x9d, 0x4a));
    }
    graphRow_ = row;
}

int PassStepper::showBisect(const BisectReport& report) {
    const BisectStep* first = report.first();
    int row = -1;
    if (first)
        for (int r = 1; r < model_->rowCount(); ++r) {
            const QModelIndex idx = model_->index(r, 0);
            if (idx.data(PassListModel::PassNameRole).toString() ==
                    QString::fromStdString(first->pass) &&
                idx.data(PassListModel::RoundRole).toInt() == first->round) {
                row = r;
                break;
            }
        }
    bisect_->setText(first ? tr("<b>Semantic bisect:</b> %1")
                                 .arg(QString::fromStdString(report.summary()).toHtmlEscaped())
                           : tr("Semantic bisect: no pass changed the outputs (tolerance %1).")
                                 .arg(QString::fromStdString(report.tolerance)));
    bisect_->setStyleSheet(first ? QStringLiteral("color: #b00020;") : QString());
    if (row >= 0) {
        filter_->setHideNoOp(false);
        showRow(row);
    }
    return row;
}

QString PassStepper::bisectVerdict() const {
    return bisect_->text();
}

} // namespace t2n::ui
