#include "text/line_diff.h"

#include "t2n/ir_text.h"

#include <dtl/dtl.hpp>

#include <QHash>

#include <algorithm>

namespace t2n::ui {

namespace {

/// Lines become integer ids so dtl compares ints, not strings.
struct InternedLines {
    std::vector<int> left, right;
};

InternedLines intern(const QStringList& left, const QStringList& right, int head, int tailCount,
                     bool canonical) {
    QHash<QString, int> ids;
    InternedLines out;
    auto idOf = [&](const QString& text) {
        const QString line = canonical ? canonicalValueNumbers(text) : text;
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

/// Indexes of the lines whose text also occurs on the other side. The others can never be
/// common, so leaving them out of the LCS search loses nothing (GNU diff does the same) and
/// makes texts with few shared lines, such as renumbered graphs, cheap to compare.
std::vector<int> matchable(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<int> sorted(b);
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> kept;
    for (int i = 0; i < static_cast<int>(a.size()); ++i) {
        if (std::binary_search(sorted.begin(), sorted.end(), a[size_t(i)]))
            kept.push_back(i);
    }
    return kept;
}

std::vector<int> pick(const std::vector<int>& ids, const std::vector<int>& indexes) {
    std::vector<int> out;
    out.reserve(indexes.size());
    for (int i : indexes)
        out.push_back(ids[size_t(i)]);
    return out;
}

/// Pairs (left index, right index) of a longest common subsequence of `a` and `b`.
std::vector<std::pair<int, int>> commonPairs(const std::vector<int>& a, const std::vector<int>& b) {
    const std::vector<int> keptA = matchable(a, b), keptB = matchable(b, a);
    dtl::Diff<int, std::vector<int>> diff(pick(a, keptA), pick(b, keptB));
    diff.onHuge();      // bounded path memory ...
    diff.onUnserious(); // ... and past that bound the rest is reported as plain edits
    diff.compose();
    std::vector<std::pair<int, int>> pairs;
    size_t i = 0, j = 0;
    for (const auto& [elem, info] : diff.getSes().getSequence()) {
        (void)elem;
        if (info.type == dtl::SES_COMMON)
            pairs.emplace_back(keptA[i], keptB[j]);
        if (info.type != dtl::SES_ADD)
            ++i;
        if (info.type != dtl::SES_DELETE)
            ++j;
    }
    return pairs;
}

/// Everything between two consecutive common pairs is one hunk (indexes offset by `head`).
std::vector<DiffHunk> hunksBetween(const std::vector<std::pair<int, int>>& pairs, int m, int n,
                                   int head) {
    std::vector<DiffHunk> hunks;
    int i = 0, j = 0;
    auto closeAt = [&](int nextI, int nextJ) {
        if (nextI > i || nextJ > j)
            hunks.push_back({head + i, nextI - i, head + j, nextJ - j});
        i = nextI + 1;
        j = nextJ + 1;
    };
    for (const auto& [pi, pj] : pairs)
        closeAt(pi, pj);
    closeAt(m, n);
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

QString canonicalValueNumbers(const QString& line) {
    return QString::fromStdString(t2n::canonicalValueNumbers(line.toStdString()));
}

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
    if (midLeft + midRight > limits.maxLines) {
        d.hunks.push_back({head, midLeft, head, midRight});
        d.approximate = true;
        d.note = QStringLiteral("The texts differ in %1 + %2 lines, more than the %3 compared "
                                "line by line; the differing middle is shown as one change.")
                     .arg(midLeft)
                     .arg(midRight)
                     .arg(limits.maxLines);
    } else if (midLeft > 0 || midRight > 0) {
        const InternedLines lines = intern(left, right, head, tail, limits.ignoreValueNumbers);
        d.hunks = hunksBetween(commonPairs(lines.left, lines.right), midLeft, midRight, head);
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
