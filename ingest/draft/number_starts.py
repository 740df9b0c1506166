"""The matches of a published-figure pattern, tried only where one can start: at a digit, or at a qualifier
word ("up to", "nearly", …) whitespace away from one.

published.py's _PERCENT, _PER and _TOTAL begin with an optional qualifier, then a number. The regex engine
tries such a pattern at every character of a paragraph (the qualifier's words at each letter their first
letters share), a third of drafting's time. Every match starts either at the number's first digit (any
digit: "1,2345 percent" matches from its "2") or at a qualifier of a known length that ends where the
whitespace before such a digit begins, so trying `pattern.match` at those places alone, left to right and
past each match's end, finds exactly what `pattern.finditer` finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_DIGIT = re.compile(r"\d")


def number_starts(text: str, qualifier_lengths: Iterable[int]) -> list[int]:
    """Where a match may start, in order: each digit, and each place a qualifier of one of the lengths would
    start to end at the whitespace before a digit (str.isspace is what the regex engine's \\s is)."""
    lengths = tuple(qualifier_lengths)
    found = set()
    for digit in _DIGIT.finditer(text):
        at = digit.start()
        found.add(at)
        space = at
        while space > 0 and text[space - 1].isspace():
            space -= 1
        if space < at:
            found.update(space - length for length in lengths if space - length >= 0)
    return sorted(found)


def matches_from(pattern: re.Pattern[str], text: str, starts: list[int]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern whose every match starts at one of `starts` and is never empty."""
    end = 0
    for at in starts:
        if at < end:
            continue
        match = pattern.match(text, at)
        if match is not None:
            yield match
            end = match.end()
