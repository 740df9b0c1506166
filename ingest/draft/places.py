"""Which line of a paragraph an offset in its joined text falls on, by bisection: a paragraph is
asked this once per sentence and per fact, and a long PDF's paragraphs run to hundreds of lines."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate


class Places:
    """A paragraph's (offset, line number) starts, as published.paragraphs joins them (offsets ascending)."""

    def __init__(self, starts: list[tuple[int, int]]) -> None:
        self.starts = starts
        self.offsets = [offset for offset, _ in starts]
        self.numbers = [number for _, number in starts]
        self.highest = list(accumulate(self.numbers, max))  # the highest line number up to each start
        # bisection needs offsets in order; any other list is read one start at a time, as before
        self.ordered = all(a < b for a, b in zip(self.offsets, self.offsets[1:]))

    def line_at(self, offset: int, default: int) -> int:
        """max(n for start, n in starts if start <= offset), `default` when no start is."""
        if not self.ordered:
            return max((n for start, n in self.starts if start <= offset), default=default)
        k = bisect_right(self.offsets, offset)
        return self.highest[k - 1] if k else default

    def lines_within(self, low: int, high: int) -> list[int]:
        """[n for start, n in starts if low < start < high], in order."""
        if not self.ordered:
            return [n for start, n in self.starts if low < start < high]
        return self.numbers[bisect_right(self.offsets, low):bisect_left(self.offsets, high)]


class Spans:
    """Whether a line lies in one of the document's reports (inclusive spans): the spans merged once into
    disjoint ones in order, then one bisection a line (not a test of every span: 27,000 lines of 40 PDFs
    asked, from two callers; naming._prose_lines over 40 PDFs: 22 -> 12 ms)."""

    def __init__(self, spans: list) -> None:
        merged: list[list[int]] = []
        for first, last in sorted((first, last) for first, last in spans if first <= last):
            if merged and first <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self.firsts = [first for first, _ in merged]
        self.lasts = [last for _, last in merged]

    def __contains__(self, number: int) -> bool:
        """any(first <= number <= last for first, last in spans)"""
        k = bisect_right(self.firsts, number)
        return k > 0 and number <= self.lasts[k - 1]
