"""Two columns of prose on one page: where the gutter is, which lines cross it, which runs are prose.

A page set in two columns prints two lines side by side on most baselines; a table with a label
column and a value column does too. What tells them apart is here, over a page's lines of words
(pdf_words.py's `Word`: text, x0, x1, baseline); pure, no PDFium.
"""

from __future__ import annotations

from itertools import accumulate
from math import trunc

from .words import Word

GUTTER_STEP = 2.0  # points between the gutter positions tried
_INF = float("inf")
_SANE_WIDTH = 1e6  # points: a page this wide or wider is laid out without gutter_at's shortcut (see there)


def gutter_at(lines: list[list[Word]], width: float) -> float | None:
    """The x of an empty vertical strip near the middle of the page that all but a few lines (a full-width
    caption, a path too long for its column) leave empty: two columns of prose, else None. A page of a
    report set in two columns holds mostly ruled rows, so a dozen words may be all it shows of its columns;
    `prose_band` decides whether they are prose."""
    if sum(len(line) for line in lines) < 12:
        return None
    low, steps = width * 0.4, int(width * 0.2 / GUTTER_STEP) + 1
    starts = [0] * (steps + 1)  # lines whose covered stretch starts (+1) or ends (-1) at each candidate x
    # Two words in three end left of the candidates or start right of them (first > last below): told so by
    # two comparisons with a point to spare, on finite coordinates only (trunc raises for the others, and must).
    before, after = (low - 6, low + 4 + 2 * steps) if 0 < width < _SANE_WIDTH else (-_INF, _INF)
    for line in lines:  # a line's words left to right; overlapping ones merged into stretches
        stretch_first, stretch_last = -1, -2
        for word in line:  # (conditional expressions, not min and max: this runs for every word of a page;
            x0, x1 = word.x0, word.x1
            if -_INF < x0 <= x1 < before or after <= x0 <= x1 < _INF:
                continue  # (0.075 -> 0.056 s for the 40 PDFs)
            first = trunc((x0 - 3 - low) / GUTTER_STEP) + 1  # trunc is int() of a float without int's
            first = first if first > 0 else 0  # constructor call: 17 ns, not 57; 0.02 s of 198,000 words)
            last = trunc((x1 + 3 - low) / GUTTER_STEP)
            last = last if last < steps - 1 else steps - 1
            if first > last:
                continue
            if first <= stretch_last + 1:
                stretch_last = last if last > stretch_last else stretch_last
                continue
            if stretch_last >= stretch_first >= 0:
                starts[stretch_first] += 1
                starts[stretch_last + 1] -= 1
            stretch_first, stretch_last = first, last
        if stretch_last >= stretch_first >= 0:
            starts[stretch_first] += 1
            starts[stretch_last + 1] -= 1
    crossing = list(accumulate(starts[:steps]))  # lines that cross each candidate x
    fewest = crossing.index(min(crossing))  # the first of the fewest, as min(range, key=) found it without a call a step
    return low + fewest * GUTTER_STEP if crossing[fewest] * 7 <= len(lines) else None


COLUMN_WORDS = 2  # words on each side of the gutter that make a line two columns of prose, not a table row


FILLED = 0.2  # a left-column line ending this near the gutter (share of the column's width) was filled


def sides(lines: list[list[Word]], gutter: float) -> tuple[list[list[Word]], list[list[Word]]]:
    """The lines' words left of the gutter and right of it (a line with none on a side is not in it)."""
    return ([part for line in lines if (part := [w for w in line if w.x0 < gutter])],
            [part for line in lines if (part := [w for w in line if w.x0 > gutter])])


def crosses(line: list[Word], gutter: float) -> bool:
    """A line set across the gutter (a caption, a heading), not two columns' lines side by side. A long
    unbreakable word (a path) that overflows its column into the next, under that column's own words,
    does not make its line cross: the two columns' words overlap, which one line's words never do."""
    spanning = [w for w in line if w.x0 - 1 <= gutter <= w.x1 + 1 and not _ends_at(w, line, gutter)]
    return bool(spanning) and not any(gutter < o.x0 < w.x1 for w in spanning for o in line)


COLUMN_GAP = 6.0  # points between a left column's last word and the right column's first, at the least


def _ends_at(word: Word, line: list[Word], gutter: float) -> bool:
    """A left column's word that runs to or into the gutter (a long path filling its column) with the right
    column's words a column gap after it: two columns side by side, not one line across them."""
    following = [o.x0 for o in line if o.x0 > word.x1]
    return bool(following) and min(following) > gutter and min(following) - word.x1 >= COLUMN_GAP


def prose_band(lines: list[list[Word]], gutter: float, margin: float) -> bool:
    """Two columns of prose, not a table's label and value columns: most lines print words on both
    sides, or both sides print lines and most left-hand ones run on to the gutter, as text filling a
    column does (labels end where they end; the columns' baselines need not line up)."""
    if len(lines) < 2:
        return False
    prose = sum(1 for line in lines if sum(w.x0 > gutter for w in line) >= COLUMN_WORDS
                and sum(w.x1 < gutter for w in line) >= COLUMN_WORDS)
    if len(lines) == 2:  # a short band between two full-width blocks: both lines must be two columns of words
        return prose == 2
    if prose * 2 >= len(lines):
        return True
    # (the right-hand count before the left-hand one, and each measure only while the answer needs it: most runs
    # of a page with a gutter are a table's, whose label lines fail them; 0.035 -> 0.026 s for the 40 PDFs)
    if sum(1 for line in lines if line[-1].x0 > gutter) < 3:
        return False
    left_ends = [max(w.x1 for w in left) for line in lines if (left := [w for w in line if w.x1 < gutter])]
    filled = sum(1 for end in left_ends if gutter - end <= FILLED * (gutter - margin))
    return filled * 2 >= len(left_ends) >= 3
