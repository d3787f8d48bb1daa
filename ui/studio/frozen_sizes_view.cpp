#include "studio/frozen_sizes_view.h"

#include "session/frozen_sizes_model.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
constexpr int kRowsShown = 8;
} // namespace

FrozenSizesView::FrozenSizesView(QWidget* parent)
    : QWidget(parent), model_(new FrozenSizesModel(this)) {
    setObjectName(QStringLiteral("frozenSizes"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    layout->addWidget(title_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("frozenSizesTable"));
    table_->setModel(model_);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    layout->addWidget(table_);
    // A click (or Enter) on a row: its node, on every graph.
    auto request = [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT nodeRequested(model_->nodeOf(index.row()), model_->identifierOf(index.row()));
    };
    connect(table_, &QTableView::clicked, this, request);
    connect(table_, &QTableView::activated, this, request);
    hide();
}

void FrozenSizesView::showState(const SessionState& state) {
    const FrozenSizes& table = state.report.frozenSizes;
    model_->setTable(table);
    title_->setText(
        tr("<b>Where a size froze</b>: values that should have followed the dynamic axes "
           "(%1 at the example, %2 at the second size) but did not. Click one to see its node.")
            .arg(QString::fromStdString(table.exampleSizes).toHtmlEscaped(),
                 QString::fromStdString(table.secondSizes).toHtmlEscaped()));
    table_->resizeColumnsToContents();
    // As tall as its rows (up to a screenful of them, then it scrolls):
    // the window's spare height goes to the details and figures below.
    const int rows = std::min(model_->rowCount(), kRowsShown);
    int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth();
    for (int r = 0; r < rows; ++r)
        height += table_->rowHeight(r);
    // Room for the scroll bar a long cell (a source line) may need.
    height += table_->horizontalScrollBar()->sizeHint().height();
    table_->setFixedHeight(height);
    setVisible(!table.empty());
}

} // namespace t2n::ui
