#include "studio/model_pane.h"

#include "graph/graph_search.h"
#include "graph/graph_view.h"
#include "session/graph_adapters.h"
#include "session/nnef_graph.h"
#include "session/remark_index.h"
#include "studio/inputs_bar.h"
#include "studio/pane_host.h"
#include "text/code_view.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
QWidget* titled(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

// The TorchScript and NNEF panes show their text or their laid-out graph.
QTabWidget* textOrGraph(QWidget* parent, CodeView* text, GraphView* graph) {
    auto* tabs = new QTabWidget(parent);
    tabs->setDocumentMode(true);
    tabs->addTab(text, QObject::tr("Text"));
    tabs->addTab(graph, QObject::tr("Graph"));
    return tabs;
}

} // namespace

void registerModelPane(PaneRegistry& r) {
    r.add({QStringLiteral("model"), QObject::tr("&Model"), Place::Tab,
           Follow::State | Follow::Node | Follow::Value | Follow::Failure, 0,
           [](PaneHost& h, QWidget* parent) { return new ModelPane(h, parent); }});
}

ModelPane::ModelPane(PaneHost& host, QWidget* parent) : Pane(host) {
    page_ = new QWidget(parent);
    auto* layout = new QVBoxLayout(page_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    inputsBar_ = new InputsBar(page_);
    layout->addWidget(inputsBar_);
    auto* split = new QSplitter(Qt::Horizontal, page_);
    layout->addWidget(split, 1);

    torchText_ = new CodeView(split);
    torchText_->setObjectName(QStringLiteral("torchScriptText"));
    tsGraph_ = new GraphView(split);
    tsGraph_->setObjectName(QStringLiteral("torchScriptGraph"));
    tsTabs_ = textOrGraph(split, torchText_, tsGraph_);
    split->addWidget(titled(tr("TorchScript (hardened)"), tsTabs_, split));

    auto* middle = new QSplitter(Qt::Vertical, split);
    middle->addWidget(titled(tr("t2n IR graph"), buildGraphBox(middle), middle));
    irText_ = new CodeView(middle);
    irText_->setObjectName(QStringLiteral("irText"));
    middle->addWidget(titled(tr("t2n IR"), irText_, middle));
    middle->setStretchFactor(0, 3);
    split->addWidget(middle);

    nnefText_ = new CodeView(split);
    nnefText_->setObjectName(QStringLiteral("nnefText"));
    nnefGraph_ = new GraphView(split);
    nnefGraph_->setObjectName(QStringLiteral("nnefGraph"));
    split->addWidget(
        titled(tr("NNEF (graph.nnef)"), textOrGraph(split, nnefText_, nnefGraph_), split));
    split->setStretchFactor(1, 2);

    // A node chosen in any of the six views is selected in all of them.
    for (GraphView* graph : {irGraph_, tsGraph_, nnefGraph_}) {
        connect(graph, &GraphView::nodeSelected, &host, &PaneHost::selectGraphNode);
        connect(graph, &GraphView::showInOtherViewsRequested, &host, &PaneHost::selectGraphNode);
    }
    connect(irText_, &CodeView::lineClicked, this, [this](int line) {
        if (const int node = this->host().index().irNodeAtIrLine(line); node >= 0)
            this->host().selectIrNode(node);
    });
    connect(nnefText_, &CodeView::lineClicked, this, [this](int line) {
        if (const int node = this->host().index().irNodeAtNnefLine(line); node >= 0)
            this->host().selectIrNode(node);
    });
}

QWidget* ModelPane::buildGraphBox(QWidget* parent) {
    auto* graphBox = new QWidget(parent);
    auto* graphLayout = new QVBoxLayout(graphBox);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    search_ = new QLineEdit(graphBox);
    search_->setObjectName(QStringLiteral("graphSearch"));
    search_->setPlaceholderText(tr("Search nodes by name, op kind, module path or shape"));
    search_->setClearButtonEnabled(true);
    auto* graphBar = new QHBoxLayout;
    graphBar->addWidget(search_, 1);
    searchCount_ = new QLabel(graphBox);
    searchCount_->setObjectName(QStringLiteral("searchCount"));
    graphBar->addWidget(searchCount_);
    colourBy_ = new QComboBox(graphBox);
    colourBy_->setObjectName(QStringLiteral("colourBy"));
    colourBy_->addItem(tr("Colour: op family"));
    colourBy_->addItem(tr("Colour: numeric error per op"));
    // In a small window the search field keeps room to type; the choice shrinks.
    search_->setMinimumWidth(100);
    colourBy_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    colourBy_->setMinimumContentsLength(14);
    colourBy_->setToolTip(tr("Numeric error: each op's worst value against TorchScript, fed "
                             "TorchScript's operands (green exact, yellow ~1e-5 relative, "
                             "orange ~1e-3, red out of tolerance). Needs an export or validation "
                             "with \"compare every value\"."));
    graphBar->addWidget(colourBy_);
    onlyFailed_ = new QCheckBox(tr("Only what failed"), graphBox);
    onlyFailed_->setObjectName(QStringLiteral("onlyFailed"));
    onlyFailed_->setToolTip(tr("Fade every node but those the last failure is about "
                               "(outlined red), here and on the TorchScript graph"));
    onlyFailed_->setEnabled(false);
    graphBar->addWidget(onlyFailed_);
    connect(onlyFailed_, &QCheckBox::toggled, this, &ModelPane::applyFailedFilter);
    connect(colourBy_, &QComboBox::currentIndexChanged, this, &ModelPane::applyOverlay);
    graphLayout->addLayout(graphBar);
    irGraph_ = new GraphView(graphBox);
    irGraph_->setObjectName(QStringLiteral("irGraph"));
    graphLayout->addWidget(irGraph_, 1);
    // Enter: the next match (the first for a new text), Shift+Enter the previous.
    connect(search_, &QLineEdit::returnPressed, this, [this] { stepSearch(1); });
    search_->installEventFilter(this);
    return graphBox;
}

void ModelPane::addViewActions(QMenu* view) {
    QAction* find = view->addAction(tr("&Find node…"), this, [this] {
        Q_EMIT host().paneRequested(QStringLiteral("model"));
        search_->setFocus();
        search_->selectAll();
    });
    find->setObjectName(QStringLiteral("findNode"));
    find->setShortcut(QKeySequence::Find);
    view->addAction(tr("Find &next"), this, [this] { stepSearch(1); })
        ->setShortcut(QKeySequence::FindNext);
    view->addAction(tr("Find pre&vious"), this, [this] { stepSearch(-1); })
        ->setShortcut(QKeySequence::FindPrevious);
    view->addAction(tr("&Fit graph"), irGraph_, &GraphView::fitGraph)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    // The overview can be hidden; the choice is remembered.
    QAction* minimap = view->addAction(tr("Graph &overview"));
    minimap->setObjectName(QStringLiteral("minimapToggle"));
    minimap->setCheckable(true);
    minimap->setChecked(QSettings().value(QStringLiteral("minimap"), true).toBool());
    connect(minimap, &QAction::toggled, this, [this](bool on) {
        for (GraphView* g : {irGraph_, tsGraph_, nnefGraph_})
            g->setMinimapShown(on);
        QSettings().setValue(QStringLiteral("minimap"), on);
    });
    for (GraphView* g : {irGraph_, tsGraph_, nnefGraph_})
        g->setMinimapShown(minimap->isChecked());
}

void ModelPane::showState(const SessionState& st) {
    torchText_->setCode(QString::fromStdString(st.hardened ? st.hardenedText : st.torchScriptText),
                        Language::TorchScriptIR);
    irText_->setCode(host().irText(), Language::Plain); // the listing the index is of
    nnefText_->setCode(QString::fromStdString(st.nnefText), Language::Nnef);
    // An empty pane says why it is empty.
    const QString noModel = tr("Open a model (File > Open, or drop a .pt file here) to see it "
                               "here.");
    nnefText_->setPlaceholderText(
        st.modelPath.isEmpty() ? noModel
        : st.translated        ? QString()
        : st.traced ? tr("No NNEF: the translation stopped. The Results page says why and what to "
                         "try; the IR graph marks the operators concerned.")
                    : tr("No NNEF yet: t2n writes it once the model's inputs are known (the "
                         "Export page) and the model has run on them."));
    torchText_->setPlaceholderText(st.modelPath.isEmpty() ? noModel : QString());
    irText_->setPlaceholderText(st.modelPath.isEmpty() ? noModel
                                : st.traced            ? QString()
                                                       : tr("No IR yet: t2n builds it by running "
                                                                       "the model on its inputs (the Export "
                                                                       "page)."));
    const harden::GraphSnapshot* hardened = st.hardened ? finalSnapshot(st.report.harden) : nullptr;
    tsGraph_->setGraph(hardened ? graphFromSnapshot(*hardened) : GraphData{});
    nnefGraph_->setGraph(st.translated ? graphFromNnef(st.nnefText, st.provenance, st.graph)
                                       : GraphData{});
    const auto remarks =
        st.hardened ? remarksByNode(st.report.harden) : QHash<harden::StableId, QStringList>{};
    if (st.hardened)
        torchText_->setLineNotes(remarkNotesForText(st.report.harden, remarks));
    if (st.traced) {
        GraphData irData = graphFromIr(st.graph);
        badgeRemarks(irData, st.graph, remarks);
        irGraph_->setGraph(irData);
    } else {
        irGraph_->setGraph(GraphData{});
    }
    applyOverlay();
}

void ModelPane::followNode(int id) {
    const SessionState& st = *host().state();
    const SelectionIndex& index = host().index();
    irGraph_->selectNode(irNodeKey(id));
    if (const auto torchNode = st.graph.node(id).torchNode; torchNode >= 0)
        tsGraph_->selectNode(QStringLiteral("ts:%1").arg(torchNode));
    const std::vector<int> nnefLines = index.nnefLinesOf(id);
    if (!nnefLines.empty())
        nnefGraph_->selectNode(nnefNodeKey(nnefLines.front()));
    auto link = [](CodeView* view, const std::vector<int>& lines) {
        QList<LineRange> ranges;
        for (int l : lines)
            if (l > 0)
                ranges.push_back({l, l});
        view->setLinkedLines(ranges);
        if (!ranges.isEmpty())
            view->scrollToLine(ranges.first().first);
    };
    link(irText_, {index.irLineOf(id)});
    link(torchText_, {index.torchLineOf(id)});
    link(nnefText_, nnefLines);
}

void ModelPane::followValue(ir::ValueId input) {
    // Both graphs draw inputs: the IR graph by NNEF name, TorchScript's by debug name.
    const ir::Value& v = host().state()->graph.value(input);
    irGraph_->selectNode(QStringLiteral("input:%1")
                             .arg(QString::fromStdString(v.name.empty() ? v.debugName : v.name)));
    tsGraph_->selectNode(QStringLiteral("input:%1").arg(QString::fromStdString(v.debugName)));
}

void ModelPane::followFailureRow(const QString& graphKey) {
    irGraph_->setHighlightSet(QStringLiteral("diverging"), {graphKey}, QColor(0xd0, 0x00, 0x20));
}

void ModelPane::followFailure(const FailedNodes& nodes) {
    const QColor red(0xd0, 0x00, 0x20);
    irGraph_->setHighlightSet(QStringLiteral("failed"),
                              QSet<QString>(nodes.ir.begin(), nodes.ir.end()), red);
    tsGraph_->setHighlightSet(QStringLiteral("failed"),
                              QSet<QString>(nodes.torchScript.begin(), nodes.torchScript.end()),
                              red);
    onlyFailed_->setEnabled(!nodes.isEmpty());
    applyFailedFilter();
    if (!nodes.torchScript.isEmpty())
        tsTabs_->setCurrentWidget(tsGraph_); // the marks are on its graph
    // With IR nodes, the host selects the first; else the TorchScript one.
    if (nodes.irNodes.isEmpty() && !nodes.torchScript.isEmpty())
        tsGraph_->selectNode(nodes.torchScript.first());
}

void ModelPane::setOnlyFailedShown(bool only) {
    onlyFailed_->setChecked(only);
    applyFailedFilter();
}

void ModelPane::applyFailedFilter() {
    const FailedNodes& failed = host().failedNodes();
    const bool only = onlyFailed_->isChecked() && !failed.isEmpty();
    irGraph_->setFocusSet(only ? QSet<QString>(failed.ir.begin(), failed.ir.end())
                               : QSet<QString>{});
    tsGraph_->setFocusSet(only ? QSet<QString>(failed.torchScript.begin(), failed.torchScript.end())
                               : QSet<QString>{});
}

void ModelPane::setColourBy(int mode) {
    colourBy_->setCurrentIndex(mode); // a change re-applies the overlay through the signal
}

void ModelPane::applyOverlay() {
    const bool byError = colourBy_->currentIndex() == 1;
    const auto& errors = host().nodeErrors();
    irGraph_->setNodeOverlay(byError ? errorOverlay(errors) : QHash<QString, QColor>{});
    if (byError && errors.isEmpty())
        Q_EMIT host().statusMessage(tr("No per-op errors yet: export or validate with \"compare "
                                       "every value\" on"));
}

QString ModelPane::searchCountText() const {
    return searchCount_->text();
}

void ModelPane::stepSearch(int direction) {
    const QString text = search_->text().trimmed();
    if (text.isEmpty()) {
        searchCount_->clear();
        return;
    }
    Q_EMIT host().paneRequested(QStringLiteral("model"));
    int count = irGraph_->searchModel()->rowCount();
    if (text != lastSearch_) {
        lastSearch_ = text;
        count = irGraph_->search(text);
        if (direction < 0 && count > 0)
            irGraph_->previousMatch();
    } else if (direction > 0) {
        irGraph_->nextMatch();
    } else {
        irGraph_->previousMatch();
    }
    if (count == 0) {
        searchCount_->setText(tr("no match"));
        Q_EMIT host().statusMessage(tr("No node matches '%1'").arg(text));
        return;
    }
    searchCount_->setText(tr("%1 of %2").arg(irGraph_->currentMatch() + 1).arg(count));
    // The hit in every view: texts, the other graphs, Properties.
    const QString id = irGraph_->searchModel()->nodeId(irGraph_->currentMatch());
    if (id.startsWith(QStringLiteral("ir:")))
        host().selectIrNode(id.mid(3).toInt());
}

bool ModelPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == search_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & Qt::ShiftModifier)) {
            stepSearch(-1);
            return true;
        }
    }
    return Pane::eventFilter(watched, event);
}

} // namespace t2n::ui
