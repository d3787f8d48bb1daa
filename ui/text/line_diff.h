// A line diff of two texts (dtl, Wu-Manber-Myers O(NP)), with no widget in
// sight: hunks, the side-by-side alignment of both texts and the unified
// listing, so that the diff views and their tests share one computation.
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace t2n::ui {

/// left[leftStart, leftStart + leftCount) became right[rightStart, rightStart + rightCount);
/// 0-based line indexes. A pure insertion has leftCount 0, a pure removal rightCount 0.
struct DiffHunk {
    int leftStart = 0;
    int leftCount = 0;
    int rightStart = 0;
    int rightCount = 0;
    bool operator==(const DiffHunk&) const = default;
};

enum class DiffRowKind : unsigned char { Same, Changed, Removed, Added };

/// One display row: an index into each text, or -1 where that side shows a blank filler line.
struct DiffRow {
    DiffRowKind kind = DiffRowKind::Same;
    int left = -1;
    int right = -1;
};

struct DiffLimits {
    /// Lines left to compare once the common head and tail are set aside. Within it, dtl's
    /// own bound (2 million path points) turns the rest of a pathological diff into plain
    /// edits: still a correct diff, not always a minimal one.
    int maxLines = 200000;
    /// Compare TorchScript lines with value numbers and name mangling masked (%12 -> %#,
    /// %x.3 -> %x.#, ___torch_mangle_7.): a pass that renumbers every value then shows only
    /// the lines it really changed (LLVM's -print-changed has the same problem).
    bool ignoreValueNumbers = false;
};

struct LineDiff {
    std::vector<DiffHunk> hunks;
    /// Side by side: a removed line faces an added one as "Changed" while both sides have
    /// lines left in a hunk, the rest faces a filler. Both sides get rows.size() lines.
    std::vector<DiffRow> rows;
    int added = 0;   ///< lines only in the right text
    int removed = 0; ///< lines only in the left text
    /// Set when the texts were too large for a line-by-line comparison: the differing
    /// middle is then reported as one hunk, and `note` says why.
    bool approximate = false;
    QString note;

    /// "+12 −30 lines", or "no changes".
    QString summary() const;
    /// Unified listing: common lines, then per hunk its removed lines and its added lines.
    std::vector<DiffRow> unifiedRows() const;
    /// Index into `rows` of each hunk's first row.
    std::vector<int> hunkRowStarts() const;
};

/// The text a line is compared by under `ignoreValueNumbers`.
QString canonicalValueNumbers(const QString& line);

/// Index of the first row of each run of non-Same rows.
std::vector<int> changeStarts(const std::vector<DiffRow>& rows);

/// Split as the views show a text: on '\n', without a trailing empty line for a final '\n'.
QStringList splitLines(const QString& text);

LineDiff diffLines(const QStringList& left, const QStringList& right,
                   const DiffLimits& limits = {});
inline LineDiff diffTexts(const QString& left, const QString& right,
                          const DiffLimits& limits = {}) {
    return diffLines(splitLines(left), splitLines(right), limits);
}

} // namespace t2n::ui
