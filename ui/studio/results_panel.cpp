#include "studio/results_panel.h"

#include "session/operator_table_model.h"
#include "session/report_models.h"
#include "studio/frozen_sizes_view.h"
#include "text/highlight_style.h"

#include "t2n/coverage.h"
#include "t2n/error.h"

#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSet>
#include <QUrl>
#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
// check.tract in one sentence a person who never heard of tract can act on.
QString tractSentence(const std::string& summary) {
    const QString s = QString::fromStdString(summary);
    if (s.contains(QStringLiteral("not found")))
        return QObject::tr("t2n's own interpreter ran the archive; tract itself was not run "
                           "because no tract program was found (to add that check, download "
                           "tract from https://github.com/sonos/tract/releases and put it on "
                           "the PATH).");
    return s.isEmpty() || s.endsWith(QLatin1Char('.')) ? s : s + QLatin1Char('.');
}

// The sizes each dynamic axis was checked at, in the engine's words, each
// sentence after a space: an axis checked at one size only says so.
QString sizesSentence(const CheckReport& check) {
    QString out;
    for (const auto& d : check.dynamicSizes)
        out += QLatin1Char(' ') + QString::fromStdString(d.words) + QLatin1Char('.');
    return out;
}

QString where(const NodeRef& n) {
    return QString::fromStdString(n.describe());
}

// The operator kinds that have a lowering (t2n's registry).
const QSet<QString>& translated() {
    static const QSet<QString> kinds = [] {
        QSet<QString> out;
        for (const auto& op : supportedOperators())
            out.insert(QString::fromStdString(op.kind));
        return out;
    }();
    return kinds;
}

QTableView* table(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    // Headers and names whole ("Beyond tolerance" was clipped); Qt measures
    // at most 1,000 rows (resizeContentsPrecision), so large models stay quick.
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
    followApplicationPalette(this, [this] { applyVerdictColors(); });

    divergence_ = new QLabel(this);
    divergence_->setObjectName(QStringLiteral("divergenceLink"));
    divergence_->setWordWrap(true);
    divergence_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(divergence_, &QLabel::linkActivated, this,
            [this] { Q_EMIT nodeRequested(divergenceNode_, divergenceIdentifier_); });
    layout->addWidget(divergence_);

    // What the archive asks of its caller beyond the model's own inputs: the
    // state it carries (fed back each call) and the numbers it holds fixed.
    interface_ = new QLabel(this);
    interface_->setObjectName(QStringLiteral("archiveInterface"));
    interface_->setWordWrap(true);
    interface_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(interface_);

    // Where a size froze: under the verdict, as tall as its rows, since it
    // says in a few lines what the list of details below says at length.
    frozen_ = new FrozenSizesView(this);
    connect(frozen_, &FrozenSizesView::nodeRequested, this, &ResultsPanel::nodeRequested);
    layout->addWidget(frozen_);

    problems_ = new QListWidget(this);
    problems_->setObjectName(QStringLiteral("problemList"));
    problems_->setMaximumHeight(120);
    // Details are sentences with hints: wrapped, not cut at the pane's edge.
    problems_->setWordWrap(true);
    problems_->setResizeMode(QListView::Adjust);
    problems_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // One click selects and centres the node (a double click or Enter too).
    auto requestNode = [this](QListWidgetItem* item) {
        const int i = problems_->row(item);
        if (i >= 0 && i < static_cast<int>(problemNodes_.size()) && problemNodes_[i].hasNode)
            Q_EMIT nodeRequested(problemNodes_[i].node, QString());
    };
    connect(problems_, &QListWidget::itemClicked, this, requestNode);
    connect(problems_, &QListWidget::itemActivated, this, requestNode);
    layout->addWidget(problems_);

    // The next steps: after a success where the archive is, after an
    // unsupported operator what t2n translates.
    auto* actions = new QHBoxLayout;
    openFolder_ = new QPushButton(tr("Open folder"), this);
    openFolder_->setObjectName(QStringLiteral("openFolder"));
    openFolder_->setToolTip(tr("Show the folder that holds the archive in the file manager"));
    copyPath_ = new QPushButton(tr("Copy path"), this);
    copyPath_->setObjectName(QStringLiteral("copyPath"));
    copyPath_->setToolTip(tr("Copy the archive's full path to the clipboard"));
    operators_ = new QPushButton(tr("Supported operators…"), this);
    operators_->setObjectName(QStringLiteral("supportedOperatorsButton"));
    operators_->setToolTip(tr("Every operator t2n translates, searchable (Help > Supported "
                              "operators)"));
    actions->addWidget(openFolder_);
    actions->addWidget(copyPath_);
    actions->addWidget(operators_);
    actions->addStretch(1);
    layout->addLayout(actions);
    connect(openFolder_, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(
            QUrl::fromLocalFile(QFileInfo(artifactPath_).absoluteDir().absolutePath()));
    });
    connect(copyPath_, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(QFileInfo(artifactPath_).absoluteFilePath());
    });
    connect(operators_, &QPushButton::clicked, this, &ResultsPanel::supportedOperatorsRequested);

    auto* split = new QSplitter(Qt::Vertical, this);
    figures_ = split;
    outputsView_ = table(outputs_, QStringLiteral("outputsTable"), split);
    variablesView_ = table(variables_, QStringLiteral("variablesTable"), split);
    split->addWidget(outputsView_);
    split->addWidget(variablesView_);
    layout->addWidget(split, 1);
    clear();
}

void ResultsPanel::clear() {
    problems_->setMaximumHeight(120);
    banner_->setText(tr("Open a model and press Export: the archive is written, read back and "
                        "compared with the model."));
    verdictKind_ = Verdict::None;
    applyVerdictColors();
    headline_.clear();
    divergence_->clear();
    divergence_->hide();
    interface_->clear();
    interface_->hide();
    problems_->clear();
    problems_->hide();
    problemNodes_.clear();
    outputs_->setOutputs({});
    variables_->setVariables({});
    artifactPath_.clear();
    figures_->show();
    static_cast<QVBoxLayout*>(layout())->setStretchFactor(problems_, 0);
    openFolder_->hide();
    copyPath_->hide();
    operators_->hide();
}

QString ResultsPanel::verdict() const {
    return banner_->text();
}

void ResultsPanel::setVerdict(bool ok, const QString& headline, const QString& advice) {
    headline_ = headline;
    banner_->setText(
        QStringLiteral("<b>%1</b><br>%2").arg(headline.toHtmlEscaped(), advice.toHtmlEscaped()));
    verdictKind_ = ok ? Verdict::Valid : Verdict::NotValid;
    applyVerdictColors();
}

// Green or red over the palette's own window colour (tintedBannerSheet), so
// that the verdict reads in a dark theme too, and again when the theme changes.
void ResultsPanel::applyVerdictColors() {
    const QString sheet =
        verdictKind_ == Verdict::None
            ? QString()
            : tintedBannerSheet(QStringLiteral("QLabel#verdictBanner"),
                                verdictKind_ == Verdict::Valid ? QColor(0x2e, 0x9e, 0x4f)
                                                               : QColor(0xd0, 0x30, 0x30));
    if (sheet != banner_->styleSheet())
        banner_->setStyleSheet(sheet);
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
    QStringList said;
    for (const auto& c : st.report.state)
        said << tr("State carried: %1.").arg(carriedStateText(c).toHtmlEscaped());
    if (const QString s = specialisedText(st.report.specialisedFor); !s.isEmpty())
        said << tr("Specialised for %1.").arg(s.toHtmlEscaped());
    if (!said.isEmpty()) {
        interface_->setText(said.join(QStringLiteral("<br>")));
        interface_->show();
    }
    if (st.report.written || st.checkOnly) {
        artifactPath_ = st.artifactPath;
        openFolder_->show();
        copyPath_->show();
    }
    if (!check.ran) {
        setVerdict(true, tr("Written: %1").arg(st.artifactPath),
                   tr("The check was off, so the archive was not compared with the model."));
    } else if (check.passed) {
        setVerdict(true, tr("Valid: the archive computes what the model computes"),
                   tr("%1 output(s) match at tolerance '%2'. %3 Written to %4.%5")
                       .arg(check.outputs.size())
                       .arg(QString::fromStdString(check.tolerance), tractSentence(check.tract),
                            st.artifactPath, sizesSentence(check)));
    } else {
        const bool tractFailed = check.tract.rfind("tract: failed", 0) == 0;
        QString advice =
            st.checkOnly ? tr("The archive %1 was checked as it is.").arg(st.artifactPath)
            : st.report.written
                ? tr("Written to %1.").arg(st.artifactPath)
                : tr("Nothing was written: %1 was left as it was.").arg(st.artifactPath);
        if (!st.checkOnly && !check.debugBundle.empty())
            advice += QLatin1Char(' ') + tr("The debug bundle %1 holds the archive.")
                                             .arg(QString::fromStdString(check.debugBundle));
        // A failure at the second size of a dynamic axis puts its message
        // among the structure problems; the table above says what it is.
        if (!st.report.frozenSizes.empty())
            advice += QLatin1Char(' ') +
                      tr("It fails at other sizes of the dynamic axes: see where a size froze.");
        else if (check.diverged)
            advice += QLatin1Char(' ') + tr("Follow the first diverging operation below.");
        else if (std::any_of(check.outputs.begin(), check.outputs.end(), [](const auto& o) {
                     return !o.ok && o.name.find(" @ ") != std::string::npos;
                 }))
            // "output_0 @ T=7": the check names what changed there (an If
            // taking another branch) among the problems.
            advice += QLatin1Char(' ') +
                      tr("It fails at other sizes of the dynamic axes: see the problems.");
        else if (!check.structureProblems.empty())
            advice += QLatin1Char(' ') + tr("The archive breaks NNEF rules: see the problems.");
        else if (tractFailed)
            // t2n's own reading matched: what failed is tract, in its own words.
            advice += QLatin1Char(' ') + tractSentence(check.tract);
        else
            advice += QLatin1Char(' ') + tr("No single operation differs: try a looser tolerance.");
        advice += sizesSentence(check);
        setVerdict(false,
                   tractFailed && !check.diverged && check.structureProblems.empty()
                       ? tr("Not valid: tract does not run the archive as the model computes")
                       : tr("Not valid: the archive does not compute what the model computes"),
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

void ResultsPanel::showFrozenSizes(const SessionState& state) {
    frozen_->showState(state);
}

void ResultsPanel::showError(const JobError& e) {
    clear();
    // Under the write protocol a failed or cancelled job leaves every
    // destination as it was: "nothing was written" is what happened.
    if (e.cancelled) {
        setVerdict(false, tr("Cancelled"), tr("Nothing was written."));
        return;
    }
    // The engine's hints name command lines; here the same lists are a click away.
    QString hint = e.hint;
    hint.replace(QStringLiteral("see `t2n ops` for the supported list"),
                 tr("Help > Supported operators lists what t2n translates"));
    setVerdict(false, tr("Stopped at stage %1: %2").arg(e.stage, e.message),
               hint.isEmpty() ? tr("Nothing was written.") : hint);
    // No archive was compared: no output or variable tables, room for the list.
    figures_->hide();
    static_cast<QVBoxLayout*>(layout())->setStretchFactor(problems_, 1);
    const bool unsupported = e.code == static_cast<int>(ErrorCode::Unsupported);
    QSet<QString> kinds;
    for (const auto& d : e.details) {
        QString text = QString::fromStdString(d.message);
        if (d.hasNode)
            text += QStringLiteral(" — ") + where(d.node);
        // Once per operator t2n has no lowering for: what it does translate
        // that is near it. A supported operator refused for another reason
        // (a size that follows a dynamic axis) gets no such line.
        const QString kind = QString::fromStdString(d.node.kind);
        if (unsupported && d.hasNode && !kind.isEmpty() && !translated().contains(kind) &&
            !kinds.contains(kind)) {
            kinds.insert(kind);
            text += QStringLiteral("\n    ") + nearestOperatorsText(kind);
        }
        problems_->addItem(text);
        problemNodes_.push_back(d);
    }
    problems_->setVisible(problems_->count() > 0);
    problems_->setMaximumHeight(QWIDGETSIZE_MAX);
    // The list of what t2n translates helps only when an operator has no lowering.
    operators_->setVisible(unsupported && !kinds.isEmpty());
}

} // namespace t2n::ui
