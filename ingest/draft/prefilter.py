"""Skipping a search that cannot match: where no word every match of a pattern holds is in a text.

A prefilter, never a rule: each caller names, beside the call, words one of which every match of the
pattern it guards holds (case aside), so where none is in the text the search is skipped and nothing
it would have found is lost. Only ASCII text is lowered for the test: there str.lower() folds exactly
the letters re.IGNORECASE does (elsewhere "ſ" would match "s", "K" (Kelvin) "k"); other text is searched
as before.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate


def lowered(text: str) -> str | None:
    """The text to test words in (None: not ASCII, every search is made)."""
    return text.lower() if text.isascii() else None


def may(low: str | None, *words: str) -> bool:
    """Whether a pattern needing one of `words` (lower case) may match the text `low` was lowered from."""
    if low is None:
        return True
    for word in words:  # a loop, not any(): asked thousands of times a document
        if word in low:
            return True
    return False


def holding(texts: list[str], *words: str) -> list[str]:
    """[text for text in texts if may(lowered(text), *words)]: each word found in the ASCII texts lowered and
    joined, on from a text it is in to the next, not looked for text by text (company_names over 40 PDFs'
    36,000 lines, 13 words: 50 -> 32 ms)."""
    if not texts:
        return []
    lows = [text.lower() if text.isascii() else "" for text in texts]
    joined = "\n".join(lows)
    ends = list(accumulate(len(low) + 1 for low in lows))  # where the text after each starts in `joined`
    held = set()
    for word in words:
        at = joined.find(word)
        while at >= 0:
            index = bisect_right(ends, at)  # the text `at` is in
            held.add(index)
            at = joined.find(word, ends[index])
    return [text for index, text in enumerate(texts) if index in held or not text.isascii()]


# Every match of formats.document.lines.LEGAL holds one of these (case aside) or "©", which no ASCII text holds.
LEGAL_WORDS = ("(c)", "copyright", "all rights reserved", "trademark", "written permission", "strictly", "disclaim",
               "warrant", "without notice", "liabilit")
