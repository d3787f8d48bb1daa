#include "studio/pass_stepper.h"

#include "graph/graph_view.h"
#include "session/graph_adapters.h"
#include "session/node_change_model.h"
#include "session/node_story.h"
#include "session/pass_list_model.h"
#include "studio/pass_scrubber.h"
#include "text/diff_view.h"
#include "text/highlight_style.h"

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
    // The graph under its scrubber first: what a pass did is seen faster on
    // the graph than in the text.
    auto* graphPage = new QWidget(views);
    auto* graphLayout = new QVBoxLayout(graphPage);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    graphLayout->setSpacing(0);
    scrubber_ = new PassScrubber(graphPage);
    graphLayout->addWidget(scrubber_);
    auto* graphSplit = new QSplitter(Qt::Vertical, graphPage);
    graph_ = new GraphView(graphSplit);
    graph_->setObjectName(QStringLiteral("passGraph"));
    changes_ = new NodeChangeModel(this);
    changeTable_ = new QTableView(graphSplit);
    changeTable_->setObjectName(QStringLiteral("passChanges"));
    changeTable_->setModel(changes_);
    changeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    changeTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    changeTable_->verticalHeader()->setVisible(false);
    changeTable_->horizontalHeader()->setSectionResizeMode(NodeChangeModel::Change,
                                                           QHeaderView::ResizeToContents);
    changeTable_->horizontalHeader()->setSectionResizeMode(NodeChangeModel::Node,
                                                           QHeaderView::ResizeToContents);
    changeTable_->horizontalHeader()->setStretchLastSection(true);
    changeTable_->setToolTip(tr("What the pass added, removed and modified; a click shows the "
                                "node and follows it through the passes"));
    graphSplit->addWidget(graph_);
    graphSplit->addWidget(changeTable_);
    graphSplit->setStretchFactor(0, 4);
    graphSplit->setStretchFactor(1, 1);
    graphLayout->addWidget(graphSplit, 1);
    views->addTab(graphPage, tr("Graph (changes marked)"));
    diff_ = new DiffView(views);
    views->addTab(diff_, tr("Text diff"));
    rightLayout->addWidget(views, 1);
    split->addWidget(right);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(hideNoOp_, &QCheckBox::toggled, this, &PassStepper::setHideNoOp);
    connect(scrubber_->hideNoOp(), &QCheckBox::toggled, this, &PassStepper::setHideNoOp);
    connect(scrubber_->onlyChanged(), &QCheckBox::toggled, this, &PassStepper::applyPinAndFilter);
    connect(scrubber_, &PassScrubber::positionChanged, this, [this](int position) {
        if (position >= 0 && position < filter_->rowCount())
            table_->setCurrentIndex(filter_->index(position, 0));
    });
    connect(scrubber_, &PassScrubber::relayoutRequested, this, [this] {
        layoutRow_ = graphRow_;
        graph_->relayout();
    });
    connect(filter_, &QAbstractItemModel::modelReset, this, &PassStepper::updateScrubber);
    connect(filter_, &QAbstractItemModel::layoutChanged, this, &PassStepper::updateScrubber);
    connect(filter_, &QAbstractItemModel::rowsInserted, this, &PassStepper::updateScrubber);
    connect(filter_, &QAbstractItemModel::rowsRemoved, this, &PassStepper::updateScrubber);
    connect(graph_, &GraphView::layoutFinished, this, &PassStepper::onGraphLaidOut);
    connect(graph_, &GraphView::nodeSelected, this, &PassStepper::pinNode);
    connect(changeTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const QString id = current.data(NodeChangeModel::NodeIdRole).toString();
                if (!id.isEmpty() && id != pinned_) {
                    pinNode(id);
                    graph_->selectNode(id);
                }
            });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PassStepper::onCurrentChanged);
}

void PassStepper::setHideNoOp(bool hide) {
    for (QCheckBox* box : {hideNoOp_, scrubber_->hideNoOp()}) {
        const QSignalBlocker block(box);
        box->setChecked(hide);
    }
    filter_->setHideNoOp(hide);
}

void PassStepper::updateScrubber() {
    scrubber_->setRange(filter_->rowCount());
    const QModelIndex cur = table_->currentIndex();
    if (cur.isValid())
        scrubber_->setPosition(cur.row());
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
    layoutRow_ = -1;
    storyOf_.clear();
    layouts_.reset(
        model_->rowCount(),
        [this](int row) {
            const auto& diag = model_->diagnostics();
            const harden::GraphSnapshot* snap = snapshotAt(row);
            if (!snap)
                return GraphData{};
            const std::vector<harden::NodeRemark> none;
            return graphFromSnapshot(
                *snap, row >= 1 ? diag.passes[static_cast<size_t>(row - 1)].nodeRemarks : none);
        },
        graph_->options().splitAbove);
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
    scrubber_->setPosition(table_->currentIndex().row());
    // The node count is the engine's (constants and nested blocks included);
    // the marks count the nodes drawn.
    scrubber_->setStep(row == 0 ? tr("graph as loaded") : name,
                       idx.data(PassListModel::DescriptionRole).toString(), stepFigures(row),
                       row == 0 ? nullptr : &lastStep_);
    Q_EMIT passShown(row);
    if (!pinned_.isEmpty())
        Q_EMIT pinnedNodeShown(pinned_);
}

QString PassStepper::stepFigures(int row) const {
    const QModelIndex idx = model_->index(row, 0);
    const qlonglong nodes = model_->index(row, PassListModel::Nodes).data().toLongLong();
    if (row == 0)
        return tr("%1 nodes").arg(nodes);
    const qlonglong delta = idx.data(PassListModel::NodeDeltaRole).toLongLong();
    const QString time = model_->index(row, PassListModel::Time).data().toString();
    return tr("%1 \u00b7 %2 \u2192 %3 nodes").arg(time).arg(nodes - delta).arg(nodes);
}

const harden::GraphSnapshot* PassStepper::snapshotAt(int row) const {
    const auto& d = model_->diagnostics();
    for (int r = row; r >= 1; --r) // a skipped pass keeps the snapshot before it
        if (!d.passes[static_cast<size_t>(r - 1)].snapshot.empty())
            return &d.passes[static_cast<size_t>(r - 1)].snapshot;
    return d.inputSnapshot.empty() ? nullptr : &d.inputSnapshot;
}

void PassStepper::showGraphStep(int row) {
    graphRow_ = row;
    if (row < 0 || row >= layouts_.rowCount() || !snapshotAt(row))
        return;
    if (layouts_.baseRow() < 0 || graph_->isLayoutPending()) {
        // Nothing laid out yet: Graphviz lays this row out once, and every
        // other row is placed from it (onGraphLaidOut). A layout on its way
        // (a cluster opened) brings the row shown when it lands.
        lastStep_ =
            row >= 1 ? diffGraphs(*layouts_.graph(row - 1), *layouts_.graph(row)) : GraphDiff{};
        if (layouts_.baseRow() < 0 && layoutRow_ < 0) {
            layoutRow_ = row;
            graph_->setGraph(*layouts_.graph(row));
        }
    } else {
        StepLayouts::Step step = layouts_.step(row);
        lastStep_ = std::move(step.diff);
        graph_->showPlaced(layouts_.graph(row), layouts_.tree(row), step.geometry);
        layoutRow_ = row;
    }
    if (row >= 1)
        changes_->setStep(layouts_.graph(row - 1), layouts_.graph(row), lastStep_);
    else
        changes_->clear();
    applyPinAndFilter();
}

void PassStepper::onGraphLaidOut() {
    // A fresh layout (the first one, a cluster opened or closed, Re-lay out)
    // is the new base; the row shown gets its marks back on top of it.
    if (layoutRow_ < 0 || layoutRow_ >= layouts_.rowCount())
        return;
    layouts_.setBase(layoutRow_, graph_->geometry(), graph_->collapsedClusters());
    if (graphRow_ >= 0)
        showGraphStep(graphRow_);
}

void PassStepper::applyPinAndFilter() {
    if (!pinned_.isEmpty())
        graph_->keepSelected(pinned_);
    if (!scrubber_->onlyChanged()->isChecked()) {
        graph_->setFocusSet({});
        return;
    }
    // Marked items: changed nodes, ghosts, clusters hiding changes. A pass
    // that changed nothing fades everything (an empty set would fade nothing).
    QSet<QString> keep{QStringLiteral("\n")};
    for (const NodeGeometry& n : graph_->geometry().nodes)
        if (n.mark != DiffMark::None)
            keep.insert(n.key);
    graph_->setFocusSet(keep);
}

void PassStepper::pinNode(const QString& id) {
    if (id == pinned_)
        return;
    pinned_ = id;
    if (const int r = changes_->rowOf(id); r >= 0) {
        const QSignalBlocker block(changeTable_->selectionModel());
        changeTable_->selectRow(r);
    }
    Q_EMIT pinnedNodeShown(id);
}

QList<QPair<QString, QString>> PassStepper::pinnedProperties() {
    QList<QPair<QString, QString>> rows;
    if (pinned_.isEmpty() || graphRow_ < 0 || graphRow_ >= layouts_.rowCount())
        return rows;
    // The node as the pass shown left it, else in the nearest pass that has
    // it (before this one when it was removed, after when not added yet).
    const GraphNode* node = nullptr;
    for (int d = 0; !node && d < layouts_.rowCount(); ++d)
        for (int r : {graphRow_ - d, graphRow_ + d}) {
            if (r < 0 || r >= layouts_.rowCount() || node)
                continue;
            const auto g = layouts_.graph(r);
            if (const int i = g->indexById().value(pinned_, -1); i >= 0)
                node = &g->nodes[i];
        }
    if (!node)
        return rows;
    rows.append({tr("node"), QStringLiteral("%1  (%2)").arg(node->kind, node->id)});
    for (const char* key : {"text", "module path", "source"})
        if (const QString v = node->properties.value(QString::fromLatin1(key)).toString();
            !v.isEmpty())
            rows.append({QString::fromLatin1(key), v});
    QString now = layouts_.graph(graphRow_)->indexById().contains(pinned_)
                      ? tr("unchanged")
                      : tr("not in the graph after this pass");
    if (lastStep_.added.contains(pinned_))
        now = nodeChangeName(NodeChange::Added);
    else if (lastStep_.removed.contains(pinned_))
        now = nodeChangeName(NodeChange::Removed);
    else if (const int r = changes_->rowOf(pinned_); r >= 0)
        now = QStringLiteral("%1: %2").arg(
            nodeChangeName(NodeChange::Modified),
            changes_->index(r, NodeChangeModel::Details).data().toString());
    rows.append({tr("this pass"), graphRow_ == 0 ? tr("(the graph as loaded)") : now});
    if (storyOf_ != pinned_) { // the history spans every pass: once per node
        story_ = nodeStory(model_->diagnostics(), pinned_,
                           [this](int row) { return layouts_.graph(row); });
        storyOf_ = pinned_;
    }
    rows.append({tr("history"), story_.isEmpty() ? tr("unchanged by the hardening passes")
                                                 : story_.join(QLatin1Char('\n'))});
    return rows;
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
    bisect_->setStyleSheet(
        first ? QStringLiteral("color: %1;").arg(verdictColor(false, palette()).name())
              : QString());
    if (row >= 0) {
        setHideNoOp(false);
        showRow(row);
    }
    return row;
}

QString PassStepper::bisectVerdict() const {
    return bisect_->text();
}

} // namespace t2n::ui
