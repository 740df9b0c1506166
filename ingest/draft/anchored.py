"""A pattern's search over a long text, tried only at the places a match can start.

A case-insensitive pattern is tried by the engine at every character of the text: over a document's whole
prose (~30,000 characters) that is ~0.75 ms a pattern, though its matches can only start where one of a few
words stands ("divid…", "per disk", "hot spare"). `anchors`, a case-sensitive pattern over the text lowered,
finds those places at C speed (it starts with a letter: the engine skips to it), and the pattern is tried
at each (its lookbehinds and `\\b` see the text before the place, as in a search). Exact where lowering
keeps every character in its place and folds every letter as re.IGNORECASE does: everywhere but "İ"
(lowered to two characters), "ı" and "ſ" (which match "i" and "s" though they lower to themselves); a text
holding one is searched whole.
"""

from __future__ import annotations

import re


def anchor_starts(anchors: re.Pattern[str], text: str) -> list[int] | None:
    """Where `anchors` matches in the text lowered, in order; None where lowering is not exact (see above)."""
    low = text.lower()
    if len(low) != len(text) or "ı" in text or "ſ" in text:
        return None
    return [at.start() for at in anchors.finditer(low)]


def matches_somewhere(pattern: re.Pattern[str], anchors: re.Pattern[str], text: str) -> bool:
    """Whether `pattern.search(text)` finds a match, where every match starts at a match of `anchors` in
    the text lowered (one character long each, so that no place is skipped)."""
    return matches_at(pattern, text, anchor_starts(anchors, text))


def matches_at(pattern: re.Pattern[str], text: str, starts: list[int] | None) -> bool:
    """Whether `pattern.search(text)` finds a match, where `starts` (anchor_starts) holds every place a match
    starts, and maybe others (a match at one is still a match); None: the text is searched whole."""
    if starts is None:
        return pattern.search(text) is not None
    match = pattern.match
    return any(match(text, at) is not None for at in starts)
