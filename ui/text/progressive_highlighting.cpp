#include "text/progressive_highlighting.h"

#include <QElapsedTimer>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextDocument>

#include <algorithm>
#include <climits>

namespace t2n::ui {

ProgressiveHighlighting::ProgressiveHighlighting(QSyntaxHighlighter* highlighter,
                                                 std::function<void(int)> setLimit,
                                                 bool gatedPassDone)
    : QObject(highlighter), highlighter_(highlighter), setLimit_(std::move(setLimit)) {
    const int blocks = highlighter->document()->blockCount();
    if (blocks > kFirstSlice && gatedPassDone) {
        // Nothing is pending in the highlighter: the first slice goes straight to the range.
        highlightBlocks(kFirstSlice);
    } else {
        // One pass now: all of a small document, the first slice of a large one (the blocks
        // past the limit cost next to nothing). It also cancels the pass QSyntaxHighlighter
        // queued, which would otherwise block ranged slices.
        limit_ = blocks <= kFirstSlice ? INT_MAX : kFirstSlice;
        setLimit_(limit_);
        highlighter->rehighlight();
        done_ = limit_ == INT_MAX;
    }
    if (done_)
        return;
    timer_.setInterval(0);
    connect(&timer_, &QTimer::timeout, this, [this] {
        QElapsedTimer clock;
        clock.start();
        highlightBlocks(slice_);
        // Aim the next slice at the time budget.
        const qint64 spent = qMax<qint64>(1, clock.elapsed());
        slice_ = int(std::clamp<qint64>(qint64(slice_) * kSliceMs / spent, 64, 20000));
    });
    timer_.start();
}

void ProgressiveHighlighting::finish() {
    highlightBlocks(INT_MAX);
}

void ProgressiveHighlighting::highlightBlocks(int count) {
    QTextDocument* doc = highlighter_->document();
    if (!doc || done_) {
        timer_.stop();
        return;
    }
    const QTextBlock first = doc->findBlockByNumber(limit_);
    const int end = count >= doc->blockCount() - limit_ ? doc->blockCount() : limit_ + count;
    const QTextBlock stop = doc->findBlockByNumber(end);
    const int from = first.position();
    const int to = stop.isValid() ? stop.position() : doc->characterCount();
    limit_ = end;
    setLimit_(limit_);
    // QSyntaxHighlighter has no public "highlight this range": rehighlightBlock() lays out each
    // block it touches (three times the cost of the highlighting itself), while the private
    // slot the document's contentsChange drives reformats a range without layout.
    const bool ranged =
        QMetaObject::invokeMethod(highlighter_, "_q_reformatBlocks", Qt::DirectConnection,
                                  Q_ARG(int, from), Q_ARG(int, 0), Q_ARG(int, to - from));
    if (!ranged) {
        for (QTextBlock b = first; b.isValid() && b != stop; b = b.next())
            highlighter_->rehighlightBlock(b);
    }
    if (limit_ >= doc->blockCount()) {
        limit_ = INT_MAX;
        setLimit_(limit_);
        timer_.stop();
        done_ = true;
        Q_EMIT finished();
    }
}

} // namespace t2n::ui
