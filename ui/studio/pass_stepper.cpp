#include "studio/pass_stepper.h"

#include "session/pass_list_model.h"
#include "text/diff_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
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
    diff_ = new DiffView(right);
    rightLayout->addWidget(diff_, 1);
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
    const int first = firstChangingRow();
    showRow(first >= 0 ? first : 0);
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
    Q_EMIT passShown(row);
}

} // namespace t2n::ui
