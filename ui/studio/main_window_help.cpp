// MainWindow's Help menu: the operators t2n translates (the same rows as
// `t2n ops`, searchable), the keyboard shortcuts, and what this build is.
#include "session/operator_table_model.h"
#include "session/ui_version.h"
#include "studio/main_window.h"

#include "t2n/runtime_info.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
QDialog* closableDialog(QWidget* parent, const QString& title, const QString& name) {
    auto* d = new QDialog(parent);
    d->setObjectName(name);
    d->setWindowTitle(title);
    d->setAttribute(Qt::WA_DeleteOnClose);
    return d;
}
} // namespace

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Supported operators…"), this, &MainWindow::showSupportedOperators);
    help->addAction(tr("&Keyboard shortcuts…"), this, [this] {
        QDialog* d = closableDialog(this, tr("Keyboard shortcuts"), QStringLiteral("shortcuts"));
        auto* table = new QTableWidget(0, 2, d);
        table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
        table->horizontalHeader()->setStretchLastSection(true);
        table->verticalHeader()->setVisible(false);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        // Every menu action that has one: the list cannot go out of date.
        for (QAction* menu : menuBar()->actions())
            for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{})
                if (!a->shortcut().isEmpty()) {
                    const int r = table->rowCount();
                    table->insertRow(r);
                    table->setItem(r, 0, new QTableWidgetItem(a->text().remove(QLatin1Char('&'))));
                    table->setItem(
                        r, 1,
                        new QTableWidgetItem(a->shortcut().toString(QKeySequence::NativeText)));
                }
        table->resizeColumnsToContents();
        auto* layout = new QVBoxLayout(d);
        layout->addWidget(table);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
        connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::close);
        layout->addWidget(buttons);
        d->resize(460, 360);
        d->show();
    });
    help->addAction(tr("&About t2n studio"), this, [this] {
        const RuntimeInfo info = runtimeInfo();
        auto* box = new QMessageBox(
            QMessageBox::Information, tr("About t2n studio"),
            tr("<b>%1</b><p>Turns TorchScript models into NNEF archives "
               "for the tract inference engine, and shows every step."
               "<p>%2<br>tract for the check: %3")
                .arg(studioTitle().toHtmlEscaped(),
                     QString::fromStdString(info.summary()).toHtmlEscaped(),
                     QString::fromStdString(info.tract.empty() ? info.tractNote : info.tract)
                         .toHtmlEscaped()),
            QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("aboutBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // never blocks: a headless run has nobody to close it
    });
}

void MainWindow::showSupportedOperators() {
    QDialog* d =
        closableDialog(this, tr("Operators t2n translates"), QStringLiteral("supportedOperators"));
    auto* model = new OperatorTableModel(d);
    auto* filter = new OperatorFilterModel(d);
    filter->setSourceModel(model);
    auto* search = new QLineEdit(d);
    search->setObjectName(QStringLiteral("operatorSearch"));
    search->setClearButtonEnabled(true);
    search->setPlaceholderText(tr("Filter by operator, family or note (e.g. conv, norm, erf)"));
    auto* count = new QLabel(d);
    auto* view = new QTableView(d);
    view->setObjectName(QStringLiteral("operatorTable"));
    view->setModel(filter);
    view->setSortingEnabled(true);
    view->sortByColumn(0, Qt::AscendingOrder);
    view->verticalHeader()->setVisible(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto update = [filter, count, search, model] {
        filter->setText(search->text());
        QString text = tr("%1 of %2 operators").arg(filter->rowCount()).arg(model->rowCount());
        // An unsupported kind typed in full: what is near it.
        const QString typed = search->text().trimmed();
        if (typed.contains(QStringLiteral("::")) && model->rowOf(typed) < 0)
            text += QStringLiteral(" — ") + nearestOperatorsText(typed);
        count->setText(text);
    };
    connect(search, &QLineEdit::textChanged, d, update);
    update();
    auto* layout = new QVBoxLayout(d);
    layout->addWidget(search);
    layout->addWidget(count);
    layout->addWidget(view, 1);
    view->resizeColumnsToContents();
    d->resize(900, 600);
    d->show();
    search->setFocus();
}

} // namespace t2n::ui
