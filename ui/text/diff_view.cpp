#include "text/diff_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {

void syncScrollBars(QScrollBar* a, QScrollBar* b) {
    QObject::connect(a, &QScrollBar::valueChanged, b, &QScrollBar::setValue);
    QObject::connect(b, &QScrollBar::valueChanged, a, &QScrollBar::setValue);
}

QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), left_(new CodeView), right_(new CodeView), unified_(new CodeView),
      stack_(new QStackedWidget), summary_(new QLabel),
      modeButton_(toolButton(this, tr("Unified"), tr("Switch between side by side and unified"))),
      renumberButton_(toolButton(this, tr("Ignore renumbering"),
                                 tr("Compare lines with value numbers (%12, %x.3) masked"))) {
    auto* previous = toolButton(this, tr("Previous"), tr("Previous change (Shift+F7)"));
    auto* next = toolButton(this, tr("Next"), tr("Next change (F7)"));
    previous->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    next->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7));
    next->setShortcut(QKeySequence(Qt::Key_F7));
    modeButton_->setCheckable(true);
    renumberButton_->setCheckable(true);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(summary_, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(renumberButton_);
    bar->addWidget(modeButton_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left_);
    split->addWidget(right_);
    stack_->addWidget(split);
    stack_->addWidget(unified_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(stack_, 1);

    syncScrollBars(left_->verticalScrollBar(), right_->verticalScrollBar());
    syncScrollBars(left_->horizontalScrollBar(), right_->horizontalScrollBar());
    connect(previous, &QToolButton::clicked, this, &DiffView::previousChange);
    connect(next, &QToolButton::clicked, this, &DiffView::nextChange);
    connect(modeButton_, &QToolButton::toggled, this,
            [this](bool unified) { setMode(unified ? Mode::Unified : Mode::SideBySide); });
    connect(renumberButton_, &QToolButton::toggled, this, &DiffView::setIgnoreValueNumbers);
    for (CodeView* v : {left_, right_, unified_})
        connect(v, &CodeView::lineClicked, this,
                [this, v](int line) { onViewLineClicked(v, line); });
}

void DiffView::setTexts(const QString& left, const QString& right, Language language) {
    leftText_ = left;
    rightText_ = right;
    language_ = language;
    recompute();
}

void DiffView::setIgnoreValueNumbers(bool ignore) {
    options_.ignoreValueNumbers = ignore;
    const QSignalBlocker block(renumberButton_);
    renumberButton_->setChecked(ignore);
    recompute();
}

void DiffView::recompute() {
    const Language language = language_;
    const QStringList a = splitLines(leftText_), b = splitLines(rightText_);
    diff_ = diffLines(a, b, options_);
    unifiedRows_ = diff_.unifiedRows();
    sideStarts_ = diff_.hunkRowStarts();
    unifiedStarts_ = changeStarts(unifiedRows_);
    currentChange_ = -1;
    fillSideBySide(a, b, language);
    fillUnified(a, b, language);
    summary_->setText(summary());
    summary_->setToolTip(diff_.note);
}

QString DiffView::summary() const {
    return diff_.approximate ? diff_.summary() + tr(" (approximate)") : diff_.summary();
}

void DiffView::fillSideBySide(const QStringList& a, const QStringList& b, Language language) {
    QStringList leftText, rightText;
    std::vector<LineMark> leftMarks, rightMarks;
    std::vector<int> leftNumbers, rightNumbers;
    for (const DiffRow& row : diff_.rows) {
        leftText << (row.left >= 0 ? a[row.left] : QString());
        rightText << (row.right >= 0 ? b[row.right] : QString());
        leftNumbers.push_back(row.left + 1);
        rightNumbers.push_back(row.right + 1);
        switch (row.kind) {
        case DiffRowKind::Same:
            leftMarks.push_back(LineMark::None);
            rightMarks.push_back(LineMark::None);
            break;
        case DiffRowKind::Changed:
            leftMarks.push_back(LineMark::Changed);
            rightMarks.push_back(LineMark::Changed);
            break;
        case DiffRowKind::Removed:
            leftMarks.push_back(LineMark::Removed);
            rightMarks.push_back(LineMark::Filler);
            break;
        case DiffRowKind::Added:
            leftMarks.push_back(LineMark::Filler);
            rightMarks.push_back(LineMark::Added);
            break;
        }
    }
    left_->setCode(leftText.join(QLatin1Char('\n')), language);
    right_->setCode(rightText.join(QLatin1Char('\n')), language);
    left_->setLineMarks(std::move(leftMarks));
    right_->setLineMarks(std::move(rightMarks));
    left_->setGutterNumbers(std::move(leftNumbers));
    right_->setGutterNumbers(std::move(rightNumbers));
}

void DiffView::fillUnified(const QStringList& a, const QStringList& b, Language language) {
    QStringList text;
    std::vector<LineMark> marks;
    std::vector<int> numbers;
    for (const DiffRow& row : unifiedRows_) {
        if (row.kind == DiffRowKind::Removed) {
            text << QStringLiteral("- ") + a[row.left];
            marks.push_back(LineMark::Removed);
            numbers.push_back(row.left + 1);
        } else if (row.kind == DiffRowKind::Added) {
            text << QStringLiteral("+ ") + b[row.right];
            marks.push_back(LineMark::Added);
            numbers.push_back(row.right + 1);
        } else {
            text << QStringLiteral("  ") + b[row.right];
            marks.push_back(LineMark::None);
            numbers.push_back(row.right + 1);
        }
    }
    unified_->setCode(text.join(QLatin1Char('\n')), language);
    unified_->setLineMarks(std::move(marks));
    unified_->setGutterNumbers(std::move(numbers));
}

void DiffView::setMode(Mode mode) {
    mode_ = mode;
    stack_->setCurrentIndex(mode == Mode::SideBySide ? 0 : 1);
    const QSignalBlocker block(modeButton_);
    modeButton_->setChecked(mode == Mode::Unified);
    if (currentChange_ >= 0)
        showChange(currentChange_);
}

void DiffView::nextChange() {
    if (changeCount() > 0)
        showChange(currentChange_ + 1 < changeCount() ? currentChange_ + 1 : 0);
}

void DiffView::previousChange() {
    if (changeCount() > 0)
        showChange(currentChange_ > 0 ? currentChange_ - 1 : changeCount() - 1);
}

void DiffView::showChange(int index) {
    currentChange_ = index;
    if (mode_ == Mode::Unified) {
        unified_->scrollToLine(unifiedStarts_[size_t(index)] + 1);
        return;
    }
    const int line = sideStarts_[size_t(index)] + 1;
    left_->scrollToLine(line);
    right_->scrollToLine(line);
}

void DiffView::onViewLineClicked(CodeView* view, int line) {
    if (view == unified_) {
        const DiffRow& row = unifiedRows_[size_t(line - 1)];
        if (row.kind == DiffRowKind::Removed)
            Q_EMIT sourceLineClicked(0, row.left + 1);
        else
            Q_EMIT sourceLineClicked(1, row.right + 1);
        return;
    }
    const DiffRow& row = diff_.rows[size_t(line - 1)];
    const int index = view == left_ ? row.left : row.right;
    if (index >= 0)
        Q_EMIT sourceLineClicked(view == left_ ? 0 : 1, index + 1);
}

} // namespace t2n::ui
