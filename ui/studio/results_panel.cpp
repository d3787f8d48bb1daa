#include "studio/results_panel.h"

#include "session/report_models.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
QString where(const NodeRef& n) {
    return QString::fromStdString(n.describe());
}

QTableView* table(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setVisible(false);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return view;
}
} // namespace

ResultsPanel::ResultsPanel(QWidget* parent)
    : QWidget(parent), outputs_(new OutputComparisonModel(this)),
      variables_(new VariablesModel(this)) {
    auto* layout = new QVBoxLayout(this);
    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("verdictBanner"));
    banner_->setWordWrap(true);
    banner_->setMargin(10);
    layout->addWidget(banner_);

    divergence_ = new QLabel(this);
    divergence_->setObjectName(QStringLiteral("divergenceLink"));
    divergence_->setWordWrap(true);
    divergence_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(divergence_, &QLabel::linkActivated, this,
            [this] { Q_EMIT nodeRequested(divergenceNode_, divergenceIdentifier_); });
    layout->addWidget(divergence_);

    problems_ = new QListWidget(this);
    problems_->setObjectName(QStringLiteral("problemList"));
    problems_->setMaximumHeight(120);
    connect(problems_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const int i = problems_->row(item);
        if (i >= 0 && i < static_cast<int>(problemNodes_.size()) && problemNodes_[i].hasNode)
            Q_EMIT nodeRequested(problemNodes_[i].node, QString());
    });
    layout->addWidget(problems_);

    auto* split = new QSplitter(Qt::Vertical, this);
    outputsView_ = table(outputs_, QStringLiteral("outputsTable"), split);
    variablesView_ = table(variables_, QStringLiteral("variablesTable"), split);
    split->addWidget(outputsView_);
    split->addWidget(variablesView_);
    layout->addWidget(split, 1);
    clear();
}

void ResultsPanel::clear() {
    banner_->setText(tr("Open a model and press Export: the archive is written, read back and "
                        "compared with the model."));
    banner_->setStyleSheet(QString());
    headline_.clear();
    divergence_->clear();
    divergence_->hide();
    problems_->clear();
    problems_->hide();
    problemNodes_.clear();
    outputs_->setOutputs({});
    variables_->setVariables({});
}

QString ResultsPanel::verdict() const {
    return banner_->text();
}

void ResultsPanel::setVerdict(bool ok, const QString& headline, const QString& advice) {
    headline_ = headline;
    banner_->setText(
        QStringLiteral("<b>%1</b><br>%2").arg(headline.toHtmlEscaped(), advice.toHtmlEscaped()));
    banner_->setStyleSheet(ok ? QStringLiteral("background:#d8f3dc; color:#1b4332;")
                              : QStringLiteral("background:#ffd6d6; color:#7a0012;"));
}

void ResultsPanel::showState(const SessionState& st) {
    clear();
    const CheckReport& check = st.report.check;
    outputs_->setOutputs(check.outputs);
    variables_->setVariables(st.report.variables);
    if (!st.exported) {
        banner_->setText(tr("Not exported yet."));
        return;
    }
    if (!check.ran) {
        setVerdict(true, tr("Written: %1").arg(st.artifactPath),
                   tr("The check was off, so the archive was not compared with the model."));
    } else if (check.passed) {
        setVerdict(true, tr("Valid: the archive computes what the model computes"),
                   tr("%1 output(s) match at tolerance '%2'; %3. Written to %4.")
                       .arg(check.outputs.size())
                       .arg(QString::fromStdString(check.tolerance),
                            QString::fromStdString(check.tract), st.artifactPath));
    } else {
        QString advice = tr("The archive was kept for inspection at %1.").arg(st.artifactPath);
        if (check.diverged)
            advice += QLatin1Char(' ') + tr("Follow the first diverging operation below.");
        else if (!check.structureProblems.empty())
            advice += QLatin1Char(' ') + tr("The archive breaks NNEF rules: see the problems.");
        else
            advice += QLatin1Char(' ') + tr("No single operation differs: try a looser tolerance.");
        setVerdict(false, tr("Not valid: the archive does not compute what the model computes"),
                   advice);
    }
    for (const auto& p : check.structureProblems) {
        problems_->addItem(QString::fromStdString(p));
        problemNodes_.push_back({});
    }
    problems_->setVisible(problems_->count() > 0);
    if (check.diverged) {
        const Divergence& d = check.divergence;
        divergenceNode_ = d.node;
        divergenceIdentifier_ = QString::fromStdString(d.identifier);
        divergence_->setText(tr("First diverging operation: <a href=\"node\">%1 = %2(...)</a> "
                                "(graph.nnef line %3), from %4.<br>%5")
                                 .arg(QString::fromStdString(d.identifier).toHtmlEscaped(),
                                      QString::fromStdString(d.operation).toHtmlEscaped())
                                 .arg(d.nnefLine)
                                 .arg(where(d.node).toHtmlEscaped(),
                                      QString::fromStdString(d.detail).toHtmlEscaped()));
        divergence_->show();
    }
}

void ResultsPanel::showError(const JobError& e) {
    clear();
    if (e.cancelled) {
        setVerdict(false, tr("Cancelled"), tr("Nothing was written."));
        return;
    }
    setVerdict(false, tr("The export stopped at stage %1: %2").arg(e.stage, e.message),
               e.hint.isEmpty() ? tr("Nothing was written.") : e.hint);
    for (const auto& d : e.details) {
        QString text = QString::fromStdString(d.message);
        if (d.hasNode)
            text += QStringLiteral(" — ") + where(d.node);
        problems_->addItem(text);
        problemNodes_.push_back(d);
    }
    problems_->setVisible(problems_->count() > 0);
}

} // namespace t2n::ui
