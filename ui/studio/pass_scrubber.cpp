#include "studio/pass_scrubber.h"

#include "graph/graph_colors.h"
#include "text/highlight_style.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
QString legendEntry(DiffMark mark, bool dark, const QString& symbol, const QString& text) {
    // One unbreakable entry: a narrow pane wraps between entries only (they
    // are joined by a breaking space).
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
        .arg(diffMarkColor(mark, dark).name(), symbol,
             text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
}
} // namespace

PassScrubber::PassScrubber(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);

    auto* row = new QHBoxLayout;
    previous_ = new QPushButton(tr("\u25c0 Previous"), this);
    previous_->setObjectName(QStringLiteral("scrubPrevious"));
    previous_->setToolTip(tr("The pass before this one (Alt+Up)"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("passScrubber"));
    slider_->setToolTip(tr("Drag through the passes: nodes a pass leaves alone keep their places, "
                           "so what moves is what it changed"));
    slider_->setTickPosition(QSlider::TicksBelow);
    slider_->setPageStep(1);
    next_ = new QPushButton(tr("Next \u25b6"), this);
    next_->setObjectName(QStringLiteral("scrubNext"));
    next_->setToolTip(tr("The pass after this one (Alt+Down)"));
    counter_ = new QLabel(this);
    counter_->setObjectName(QStringLiteral("scrubCounter"));
    row->addWidget(previous_);
    row->addWidget(slider_, 1);
    row->addWidget(next_);
    row->addWidget(counter_);
    layout->addLayout(row);

    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("scrubTitle"));
    title_->setTextFormat(Qt::PlainText);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    description_ = new QLabel(this);
    description_->setObjectName(QStringLiteral("scrubDescription"));
    description_->setTextFormat(Qt::PlainText);
    figures_ = new QLabel(this);
    figures_->setObjectName(QStringLiteral("scrubFigures"));
    figures_->setTextFormat(Qt::RichText);
    figures_->setWordWrap(true); // the Passes tab must fit a 1024-pixel screen
    description_->setWordWrap(true);
    auto* what = new QHBoxLayout;
    what->addWidget(title_);
    what->addWidget(description_, 1);
    layout->addLayout(what);

    // The figures, then what the marks mean and the filters: a person who
    // never used the tool reads the legend before the colours.
    auto* options = new QHBoxLayout;
    figures_->setToolTip(tr("Added: new in this pass. Removed: drawn dashed where it was, until "
                            "the next pass. Modified: other attributes or constant arguments, "
                            "dtype, shape or inputs"));
    hideNoOp_ = new QCheckBox(tr("Skip no-op passes"), this);
    hideNoOp_->setToolTip(tr("Previous, Next and the slider skip the passes that changed nothing"));
    hideNoOp_->setObjectName(QStringLiteral("scrubHideNoOp"));
    onlyChanged_ = new QCheckBox(tr("Only changed nodes"), this);
    onlyChanged_->setObjectName(QStringLiteral("onlyChanged"));
    onlyChanged_->setToolTip(tr("Fades every node the pass left alone"));
    auto* relayout = new QPushButton(tr("Re-lay out"), this);
    relayout->setObjectName(QStringLiteral("scrubRelayout"));
    relayout->setToolTip(tr("Lays this pass's graph out afresh; the other passes are then placed "
                            "from it"));
    options->addWidget(figures_, 1);
    options->addWidget(hideNoOp_);
    options->addWidget(onlyChanged_);
    options->addWidget(relayout);
    layout->addLayout(options);

    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        updateButtons();
        Q_EMIT positionChanged(v);
    });
    connect(previous_, &QPushButton::clicked, this, [this] { slider_->setValue(position() - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { slider_->setValue(position() + 1); });
    connect(relayout, &QPushButton::clicked, this, &PassScrubber::relayoutRequested);
    setRange(0);
}

void PassScrubber::setRange(int count) {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, count - 1));
    slider_->setEnabled(count > 1);
    updateButtons();
}

void PassScrubber::setPosition(int position) {
    const QSignalBlocker block(slider_);
    slider_->setValue(position);
    updateButtons();
}

int PassScrubber::position() const {
    return slider_->value();
}

void PassScrubber::setStep(const QString& title, const QString& description, const QString& figures,
                           const GraphDiff* diff) {
    title_->setText(title);
    description_->setText(description);
    figuresText_ = figures;
    QString html = figures.toHtmlEscaped();
    if (diff) {
        // The counts in the marks' colours: the legend of the graph below.
        const bool dark = isDarkPalette(palette());
        const QString counts[] = {legendEntry(DiffMark::Added, dark, QStringLiteral("\u25a0"),
                                              tr("+%1 added").arg(diff->added.size())),
                                  legendEntry(DiffMark::Removed, dark, QStringLiteral("\u25a1"),
                                              tr("\u2212%1 removed").arg(diff->removed.size())),
                                  legendEntry(DiffMark::Modified, dark, QStringLiteral("\u25a0"),
                                              tr("~%1 modified").arg(diff->modified.size()))};
        html += QStringLiteral(" \u00b7 ") +
                QStringList(std::begin(counts), std::end(counts)).join(QStringLiteral(" &nbsp;"));
        figuresText_ += tr(" \u00b7 +%1 added, \u2212%2 removed, ~%3 modified")
                            .arg(diff->added.size())
                            .arg(diff->removed.size())
                            .arg(diff->modified.size());
    }
    figures_->setText(html);
}

QString PassScrubber::title() const {
    return title_->text();
}
QString PassScrubber::description() const {
    return description_->text();
}
QString PassScrubber::figures() const {
    return figuresText_;
}

void PassScrubber::updateButtons() {
    previous_->setEnabled(slider_->value() > slider_->minimum());
    next_->setEnabled(slider_->value() < slider_->maximum());
    counter_->setText(tr("%1 / %2").arg(slider_->value()).arg(slider_->maximum()));
}

} // namespace t2n::ui
