#include "text/code_view.h"

#include "text/highlight_style.h"
#include "text/text_highlighter.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace t2n::ui {

class LineNumberGutter : public QWidget {
public:
    explicit LineNumberGutter(CodeView* view) : QWidget(view), view_(view) {}
    QSize sizeHint() const override { return {view_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { view_->paintGutter(event); }

private:
    CodeView* view_;
};

CodeView::CodeView(QWidget* parent) : QPlainTextEdit(parent), gutter_(new LineNumberGutter(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Undo history is useless in a read-only view and costs memory on large texts.
    document()->setUndoRedoEnabled(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeView::updateGutterGeometry);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0)
            gutter_->scroll(0, dy);
        else
            gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, viewport(),
            qOverload<>(&QWidget::update));
    updateGutterGeometry();
}

void CodeView::setCode(const QString& text, Language language) {
    linked_.clear();
    marks_.clear();
    gutterNumbers_.clear();
    notes_.clear();
    setPlainText(text);
    setLanguage(language);
}

void CodeView::setLanguage(Language language) {
    language_ = language;
    TextHighlighter::attach(document(), language, palette());
}

int CodeView::lineCount() const {
    return document()->blockCount();
}

int CodeView::lineAt(const QPoint& viewportPos) const {
    const QTextBlock block = cursorForPosition(viewportPos).block();
    if (!block.isValid())
        return 0;
    const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    return viewportPos.y() <= r.bottom() ? block.blockNumber() + 1 : 0;
}

QRect CodeView::lineRect(int line) const {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return {};
    return blockBoundingGeometry(block).translated(contentOffset()).toAlignedRect();
}

void CodeView::scrollToLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(qBound(1, line, lineCount()) - 1);
    QTextCursor cursor(block);
    setTextCursor(cursor);
    centerCursor();
}

int CodeView::currentLine() const {
    return textCursor().blockNumber() + 1;
}

void CodeView::setLinkedLines(const QList<LineRange>& ranges) {
    linked_ = ranges;
    viewport()->update();
}

void CodeView::setLineMarks(std::vector<LineMark> marks) {
    marks_ = std::move(marks);
    viewport()->update();
}

LineMark CodeView::lineMark(int line) const {
    return line >= 1 && line <= static_cast<int>(marks_.size()) ? marks_[size_t(line - 1)]
                                                                : LineMark::None;
}

void CodeView::setGutterNumbers(std::vector<int> numbers) {
    gutterNumbers_ = std::move(numbers);
    updateGutterGeometry();
    gutter_->update();
}

void CodeView::setLineNotes(QHash<int, QString> notes) {
    notes_ = std::move(notes);
    viewport()->update();
}

int CodeView::gutterNumber(int line) const {
    if (gutterNumbers_.empty())
        return line;
    return line <= static_cast<int>(gutterNumbers_.size()) ? gutterNumbers_[size_t(line - 1)] : 0;
}

QColor CodeView::lineBackground(int line) const {
    return lineBackground(line, lineColors(palette()));
}

QColor CodeView::lineBackground(int line, const LineColors& colors) const {
    for (const LineRange& r : linked_) {
        if (r.contains(line))
            return colors.linked;
    }
    switch (lineMark(line)) {
    case LineMark::Added:
        return colors.added;
    case LineMark::Removed:
        return colors.removed;
    case LineMark::Changed:
        return colors.changed;
    case LineMark::Filler:
        return colors.filler;
    case LineMark::None:
        break;
    }
    return line == currentLine() ? colors.current : QColor();
}

bool CodeView::findText(const QString& text, bool backward, bool caseSensitive) {
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (caseSensitive)
        flags |= QTextDocument::FindCaseSensitively;
    if (text.isEmpty())
        return false;
    if (find(text, flags))
        return true;
    const QTextCursor keep = textCursor();
    moveCursor(backward ? QTextCursor::End : QTextCursor::Start);
    if (find(text, flags))
        return true;
    setTextCursor(keep);
    return false;
}

void CodeView::paintEvent(QPaintEvent* event) {
    {
        // Painted before the text; the viewport's own base fill has already happened.
        QPainter painter(viewport());
        const LineColors colors = lineColors(palette());
        const int width = viewport()->width();
        for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
            const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
            if (r.top() > event->rect().bottom())
                break;
            const QColor bg = lineBackground(block.blockNumber() + 1, colors);
            if (bg.isValid() && r.bottom() >= event->rect().top())
                painter.fillRect(QRectF(0, r.top(), width, r.height()), bg);
        }
    }
    QPlainTextEdit::paintEvent(event);
    if (!notes_.isEmpty())
        paintLineNotes(event);
}

void CodeView::paintLineNotes(QPaintEvent* event) {
    QPainter painter(viewport());
    QFont italic = font();
    italic.setItalic(true);
    painter.setFont(italic);
    // A remark is advice, not an error: a muted amber that reads on light and dark bases.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    painter.setPen(dark ? QColor(0xe0, 0xb0, 0x60) : QColor(0x9a, 0x5b, 0x00));
    const QFontMetrics textMetrics(font());
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
        if (r.top() > event->rect().bottom())
            break;
        const auto it = notes_.constFind(block.blockNumber() + 1);
        if (it == notes_.constEnd() || r.bottom() < event->rect().top())
            continue;
        const qreal x = contentOffset().x() + document()->documentMargin() +
                        textMetrics.horizontalAdvance(block.text()) +
                        3 * textMetrics.horizontalAdvance(QLatin1Char(' '));
        painter.drawText(QRectF(x, r.top(), qMax<qreal>(0, viewport()->width() - x), r.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("◂ ") + *it);
    }
}

bool CodeView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip && !notes_.isEmpty()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString note = notes_.value(lineAt(help->pos()));
        if (note.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), note, viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

int CodeView::gutterWidth() const {
    int largest = qMax(1, lineCount());
    for (int n : gutterNumbers_)
        largest = qMax(largest, n);
    const int digits = QString::number(largest).size();
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void CodeView::updateGutterGeometry() {
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void CodeView::paintGutter(QPaintEvent* event) {
    QPainter painter(gutter_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setFont(font());
    const int current = currentLine();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
        if (r.top() > event->rect().bottom())
            break;
        const int line = block.blockNumber() + 1;
        const int number = gutterNumber(line);
        if (number <= 0 || r.bottom() < event->rect().top())
            continue;
        painter.setPen(
            palette().color(line == current ? QPalette::Text : QPalette::PlaceholderText));
        painter.drawText(QRectF(0, r.top(), gutter_->width() - 4, r.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(number));
    }
}

void CodeView::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void CodeView::mousePressEvent(QMouseEvent* event) {
    pressPos_ = event->position().toPoint();
    QPlainTextEdit::mousePressEvent(event);
}

void CodeView::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    // A drag is a text selection, not a click on a line.
    const QPoint pos = event->position().toPoint();
    if (event->button() != Qt::LeftButton || (pos - pressPos_).manhattanLength() > 4)
        return;
    if (const int line = lineAt(pos); line > 0)
        Q_EMIT lineClicked(line);
}

void CodeView::changeEvent(QEvent* event) {
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        setLanguage(language_); // the highlighter's colours follow light or dark
    else if (event->type() == QEvent::FontChange)
        updateGutterGeometry();
}

} // namespace t2n::ui
