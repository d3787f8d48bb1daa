// A read-only code view for large texts (50,000 lines and more): line
// numbers in a gutter, current-line and "linked lines" backgrounds (the
// lines the studio's synced selection points at), per-line diff marks,
// scroll-to-line, find next/previous, and a signal when a line is clicked.
// Backgrounds are painted for the visible lines only; nothing is per line
// but one byte of mark.
#pragma once

#include "text/text_language.h"

#include <QHash>
#include <QList>
#include <QPlainTextEdit>

#include <vector>

namespace t2n::ui {

struct LineColors;

/// Lines first..last, 1-based and inclusive.
struct LineRange {
    int first = 0;
    int last = 0;
    bool contains(int line) const { return line >= first && line <= last; }
};

enum class LineMark : unsigned char { None, Added, Removed, Changed, Filler };

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeView(QWidget* parent = nullptr);

    /// Replaces the text, keeps the language's highlighter, clears marks and links.
    void setCode(const QString& text, Language language);
    void setLanguage(Language language);
    Language language() const { return language_; }

    int lineCount() const;
    /// 1-based line under a point of the viewport, 0 when below the text.
    int lineAt(const QPoint& viewportPos) const;
    /// The line's rectangle in viewport coordinates (empty when not laid out).
    QRect lineRect(int line) const;
    void scrollToLine(int line);
    int currentLine() const;

    void setLinkedLines(const QList<LineRange>& ranges);
    const QList<LineRange>& linkedLines() const { return linked_; }
    /// One mark per line (index 0 = line 1); shorter vectors leave the rest unmarked.
    void setLineMarks(std::vector<LineMark> marks);
    LineMark lineMark(int line) const;
    /// The numbers the gutter shows, per line; 0 shows none (filler lines of a diff).
    /// Empty: the line numbers themselves.
    void setGutterNumbers(std::vector<int> numbers);
    /// Background painted behind `line`; invalid when it has none.
    QColor lineBackground(int line) const;

    /// Short notes drawn after the end of their line (and shown as its
    /// tooltip), like a compiler's inline remarks: "missed: ...". Keys are
    /// 1-based lines. setCode() clears them.
    void setLineNotes(QHash<int, QString> notes);
    QString lineNote(int line) const { return notes_.value(line); }
    const QHash<int, QString>& lineNotes() const { return notes_; }

    /// Selects the next (or previous) occurrence after the cursor, wrapping around.
    bool findText(const QString& text, bool backward = false, bool caseSensitive = false);

Q_SIGNALS:
    void lineClicked(int line);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    friend class LineNumberGutter;
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);
    void updateGutterGeometry();
    void paintLineNotes(QPaintEvent* event);
    int gutterNumber(int line) const;
    QColor lineBackground(int line, const LineColors& colors) const;

    QWidget* gutter_;
    Language language_ = Language::Plain;
    QList<LineRange> linked_;
    std::vector<LineMark> marks_;
    std::vector<int> gutterNumbers_;
    QHash<int, QString> notes_;
    QPoint pressPos_;
};

} // namespace t2n::ui
