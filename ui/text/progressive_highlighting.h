// Highlights a large document a slice at a time from the event loop, so a
// 50,000-line text shows at once and the window never freezes: the first
// screenful is highlighted at once, the rest in time-boxed slices, top to
// bottom (the highlighters carry state from one line to the next).
#pragma once

#include <QObject>
#include <QTimer>

#include <functional>

class QSyntaxHighlighter;

namespace t2n::ui {

class ProgressiveHighlighting : public QObject {
    Q_OBJECT
public:
    /// `setLimit(n)` tells the highlighter to leave blocks n and later unformatted.
    /// `gatedPassDone`: the highlighter already made its whole-document pass with limit 0
    /// (KSyntaxHighlighting does in setDefinition()), so no pass is pending.
    ProgressiveHighlighting(QSyntaxHighlighter* highlighter, std::function<void(int)> setLimit,
                            bool gatedPassDone = false);

    bool isDone() const { return done_; }
    /// Highlights whatever is left, now.
    void finish();

    static constexpr int kFirstSlice = 500; ///< lines highlighted before the text shows
    static constexpr int kSliceMs = 25;     ///< event-loop time spent per later slice

Q_SIGNALS:
    void finished();

private:
    /// Highlights the next `count` blocks (INT_MAX: all the rest).
    void highlightBlocks(int count);

    QSyntaxHighlighter* highlighter_;
    std::function<void(int)> setLimit_;
    int limit_ = 0;
    int slice_ = 500; ///< blocks per slice, adapted to kSliceMs
    bool done_ = false;
    QTimer timer_;
};

} // namespace t2n::ui
