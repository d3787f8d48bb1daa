// A line diff of two texts, side by side (two CodeViews scrolled together,
// blank filler lines keeping both sides aligned) or unified (one view with
// -/+ lines), with next/previous change and a "+12 −30 lines" summary.
// The computation lives in LineDiff; this widget only shows it.
#pragma once

#include "text/code_view.h"
#include "text/line_diff.h"

#include <QWidget>

class QLabel;
class QStackedWidget;
class QToolButton;

namespace t2n::ui {

class DiffView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { SideBySide, Unified };

    explicit DiffView(QWidget* parent = nullptr);

    void setTexts(const QString& left, const QString& right, Language language);
    /// Compare with value numbers masked (see DiffLimits::ignoreValueNumbers); recomputes.
    void setIgnoreValueNumbers(bool ignore);
    void setMode(Mode mode);
    Mode mode() const { return mode_; }

    const LineDiff& diff() const { return diff_; }
    QString summary() const;
    CodeView* leftView() const { return left_; }
    CodeView* rightView() const { return right_; }
    CodeView* unifiedView() const { return unified_; }

    /// Index of the change shown last by next/previousChange (-1 before any).
    int currentChange() const { return currentChange_; }
    int changeCount() const { return static_cast<int>(diff_.hunks.size()); }

public Q_SLOTS:
    void nextChange();
    void previousChange();

Q_SIGNALS:
    /// A click on a line of either text: which side (0 left, 1 right) and its 1-based line.
    void sourceLineClicked(int side, int line);

private:
    void showChange(int index);
    void fillSideBySide(const QStringList& left, const QStringList& right, Language language);
    void fillUnified(const QStringList& left, const QStringList& right, Language language);
    void onViewLineClicked(CodeView* view, int line);

    void recompute();

    Mode mode_ = Mode::SideBySide;
    QString leftText_, rightText_;
    Language language_ = Language::Plain;
    DiffLimits options_;
    LineDiff diff_;
    std::vector<DiffRow> unifiedRows_;
    std::vector<int> sideStarts_, unifiedStarts_;
    int currentChange_ = -1;
    CodeView* left_;
    CodeView* right_;
    CodeView* unified_;
    QStackedWidget* stack_;
    QLabel* summary_;
    QToolButton* modeButton_;
    QToolButton* renumberButton_;
};

} // namespace t2n::ui
