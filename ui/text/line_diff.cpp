#include "text/line_diff.h"

#include <dtl/dtl.hpp>

#include <QHash>

#include <algorithm>

namespace t2n::ui {

namespace {

/// Lines become integer ids so dtl compares ints, not strings.
struct InternedLines {
    std::vector<int> left, right;
};

InternedLines intern(const QStringList& left, const QStringList& right, int head, int tailCount) {
    QHash<QString, int> ids;
    InternedLines out;
    auto idOf = [&](const QString& line) {
        auto it = ids.find(line);
        if (it == ids.end())
            it = ids.insert(line, static_cast<int>(ids.size()));
        return it.value();
    };
    for (int i = head; i < left.size() - tailCount; ++i)
        out.left.push_back(idOf(left[i]));
    for (int i = head; i < right.size() - tailCount; ++i)
        out.right.push_back(idOf(right[i]));
    return out;
}

/// Lines of one side whose text never occurs on the other side must be edited: their count
/// bounds the edit distance from below, which bounds dtl's work (about lines x distance).
int unmatchableLines(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<int> sorted(b);
    std::sort(sorted.begin(), sorted.end());
    return static_cast<int>(std::count_if(a.begin(), a.end(), [&](int id) {
        return !std::binary_search(sorted.begin(), sorted.end(), id);
    }));
}

/// Walks dtl's edit script and groups consecutive edits into hunks (indexes offset by `head`).
std::vector<DiffHunk> hunksFromSes(const std::vector<int>& a, const std::vector<int>& b, int head) {
    dtl::Diff<int, std::vector<int>> diff(a, b);
    diff.onHuge();      // bounded path memory ...
    diff.onUnserious(); // ... and past that bound, the rest is reported as plain edits
    diff.compose();
    std::vector<DiffHunk> hunks;
    int i = 0, j = 0;
    bool open = false;
    for (const auto& [elem, info] : diff.getSes().getSequence()) {
        (void)elem;
        if (info.type == dtl::SES_COMMON) {
            ++i, ++j;
            open = false;
            continue;
        }
        if (!open) {
            hunks.push_back({head + i, 0, head + j, 0});
            open = true;
        }
        if (info.type == dtl::SES_DELETE) {
            ++hunks.back().leftCount;
            ++i;
        } else {
            ++hunks.back().rightCount;
            ++j;
        }
    }
    return hunks;
}

void alignRows(LineDiff& d, int leftSize, int rightSize) {
    int i = 0, j = 0;
    auto same = [&](int untilLeft) {
        for (; i < untilLeft; ++i, ++j)
            d.rows.push_back({DiffRowKind::Same, i, j});
    };
    for (const DiffHunk& h : d.hunks) {
        same(h.leftStart);
        const int paired = std::min(h.leftCount, h.rightCount);
        for (int k = 0; k < paired; ++k)
            d.rows.push_back({DiffRowKind::Changed, i++, j++});
        for (int k = paired; k < h.leftCount; ++k)
            d.rows.push_back({DiffRowKind::Removed, i++, -1});
        for (int k = paired; k < h.rightCount; ++k)
            d.rows.push_back({DiffRowKind::Added, -1, j++});
        d.removed += h.leftCount;
        d.added += h.rightCount;
    }
    same(leftSize);
    Q_ASSERT(j == rightSize);
    (void)rightSize;
}

} // namespace

QStringList splitLines(const QString& text) {
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

LineDiff diffLines(const QStringList& left, const QStringList& right, const DiffLimits& limits) {
    const int m = static_cast<int>(left.size()), n = static_cast<int>(right.size());
    int head = 0;
    while (head < m && head < n && left[head] == right[head])
        ++head;
    int tail = 0;
    while (tail < m - head && tail < n - head && left[m - 1 - tail] == right[n - 1 - tail])
        ++tail;

    LineDiff d;
    const int midLeft = m - head - tail, midRight = n - head - tail;
    if (midLeft > 0 || midRight > 0) {
        bool exact = midLeft + midRight <= limits.maxLines;
        InternedLines lines;
        if (exact) {
            lines = intern(left, right, head, tail);
            const double lowerDistance = unmatchableLines(lines.left, lines.right) +
                                         unmatchableLines(lines.right, lines.left);
            exact = double(midLeft + midRight) * (lowerDistance / 2 + 1) <= limits.maxWork;
        }
        if (exact) {
            d.hunks = hunksFromSes(lines.left, lines.right, head);
        } else {
            d.hunks.push_back({head, midLeft, head, midRight});
            d.approximate = true;
            d.note =
                QStringLiteral("The texts differ in %1 + %2 lines, too many for a line-by-line "
                               "comparison; the differing middle is shown as one change.")
                    .arg(midLeft)
                    .arg(midRight);
        }
    }
    alignRows(d, m, n);
    return d;
}

QString LineDiff::summary() const {
    if (added == 0 && removed == 0)
        return QStringLiteral("no changes");
    return QStringLiteral("+%1 \u2212%2 lines").arg(added).arg(removed);
}

std::vector<DiffRow> LineDiff::unifiedRows() const {
    std::vector<DiffRow> out;
    out.reserve(rows.size() + hunks.size());
    std::vector<DiffRow> pendingAdded;
    for (const DiffRow& r : rows) {
        if (r.kind == DiffRowKind::Same) {
            out.insert(out.end(), pendingAdded.begin(), pendingAdded.end());
            pendingAdded.clear();
            out.push_back(r);
            continue;
        }
        if (r.left >= 0)
            out.push_back({DiffRowKind::Removed, r.left, -1});
        if (r.right >= 0)
            pendingAdded.push_back({DiffRowKind::Added, -1, r.right});
    }
    out.insert(out.end(), pendingAdded.begin(), pendingAdded.end());
    return out;
}

std::vector<int> changeStarts(const std::vector<DiffRow>& rows) {
    std::vector<int> starts;
    for (size_t r = 0; r < rows.size(); ++r) {
        const bool edit = rows[r].kind != DiffRowKind::Same;
        if (edit && (r == 0 || rows[r - 1].kind == DiffRowKind::Same))
            starts.push_back(static_cast<int>(r));
    }
    return starts;
}

std::vector<int> LineDiff::hunkRowStarts() const {
    return changeStarts(rows);
}

} // namespace t2n::ui
