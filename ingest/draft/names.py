"""Telling a document's systems apart by the words that name each of them and no other. Pure."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left

from .anchored import anchor_starts
from .deferred import deferred

# A word, never a part of a printed number ("0.20", "1,800": no "20", no "800").
WORD = deferred(r"(?<!\d[.,])[a-z0-9][a-z0-9-]+(?![.,]\d)", re.IGNORECASE)
# Words every storage system's name may carry: they tell none apart.
STOP = frozenset({"the", "and", "for", "with", "san", "drives", "disks", "disk", "drive", "storage", "array", "arrays",
                  "total", "two", "three", "system", "solution", "channel"})
MEDIA_WORDS = {"SSD": ("ssd", "ssds", "solid-state"), "HDD": ("hdd", "hdds", "hard")}


# A one-character designator after a word names a system of its own ("Vendor A array", "Configuration 2"):
# the pair is one word ("vendor-a"). A capital letter only: the article "a" designates nothing.
_DESIGNATED = deferred(r"\b([A-Za-z][A-Za-z0-9-]+)\s+([A-Z]|\d)\b(?![.,:/]?\d)")


_SHORT = {"config": "configuration", "conf": "configuration", "cfg": "configuration"}  # "config 1" is "configuration 1"


def tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, casefolded word) of each word of `text`, a designated pair also as one word."""
    found = [(m.start(), m.end(), m[0].casefold()) for m in WORD.finditer(text)]
    found += [(m.start(), m.end(), f"{_SHORT.get(m[1].casefold(), m[1].casefold())}-{m[2].casefold()}")
              for m in _DESIGNATED.finditer(text)]
    return sorted(found)


def words(text: str) -> set[str]:
    return {w for _, _, w in tokens(text)} - STOP


def best(text: str, distinct: list[set[str]], near: int | None = None) -> int | None:
    """The system whose own words the text names (nearest to `near`, when given); None when unclear."""
    scores = []
    read = tokens(text)  # once, not once per system: the same words whichever system is looked for
    for index, own in enumerate(distinct):
        places = [p for p, _, w in read if w in own]
        if places:
            scores.append((min(abs(p - near) for p in places) if near is not None else -len(places), index))
    scores.sort()
    if not scores or (len(scores) > 1 and scores[0][0] == scores[1][0]):
        return None
    return scores[0][1]


_PUNCTUATION = deferred(r"[^\w\s-]")

# Words that turn the system named next into the other side of a comparison, or start a contrast.
_HARD = deferred(r"\b(?:compared\s+(?:to|with)|than|versus|vs\.?|whereas|against|as\s+opposed\s+to)\b", re.IGNORECASE)
_OBJECT = deferred(r"\b(?:than|compared\s+(?:to|with)|versus|vs\.?|against)\s+(?:the\s+|all\s+|an?\s+|\d+\s+){0,2}$",
                   re.IGNORECASE)
_FOR_NAMED = deferred(r"[\d.,]*[^.;:,]{0,40}?\b(?:for|of|from)\s+(?:the\s+|each\s+|all\s+|\d+\s+)?",
                      re.IGNORECASE)  # "42.5 IOPS per watt for the SSDs"


def mentions(text: str, distinct: list[set[str]]) -> list[tuple[int, int]]:
    """(position, system) of every name of one system and no other, in order: the words of one name
    ("the HP LeftHand SAN") are one mention, at its first word."""
    return list(_mentions(text, tuple(frozenset(own) for own in distinct)))


@functools.lru_cache(maxsize=256)  # pure; a paragraph is asked once for each figure it prints
def _mentions(text: str, distinct: tuple[frozenset[str], ...]) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, int]] = []
    last_end = -1
    owners = {word: i for i in reversed(range(len(distinct))) for word in distinct[i]}  # the first system's word wins
    previous = None
    for start, end, word in tokens(text):
        index, before = owners.get(word), previous
        previous = (end, index)
        if index is None:
            continue
        if len(word) < 3 and word.isdigit() and (before is None or before[1] != index or start - before[0] > 1):
            continue  # "20" alone is a quantity; "Aurex 20" names the system
        same_name = found and found[-1][1] == index and (start <= last_end or (
            not _PUNCTUATION.search(text, last_end, start) and len(text[last_end:start].split()) <= 2))
        if not same_name:
            found.append((start, index))
        last_end = max(last_end, end)
    return tuple(found)


# Where a match of _HARD may start, in the text lowered (anchored.py).
_HARD_STARTS = deferred(r"c(?=ompared)|t(?=han)|v(?=ersus|s)|w(?=hereas)|a(?=gainst|s)")


@functools.lru_cache(maxsize=256)  # pure; a paragraph is asked once for each figure it prints
def _hard_starts(text: str) -> tuple[int, ...] | None:
    starts = anchor_starts(_HARD_STARTS, text)
    return None if starts is None else tuple(starts)


def _last_barrier(text: str, position: int) -> int:
    """The end of _HARD's last match before `position` (its matches in text[:position]), else 0. No two of its
    matches overlap (no word inside one starts another), so the last is the one starting last: tried at its
    anchors from `position` back, not searched from the paragraph's start for each of its figures."""
    starts = _hard_starts(text)
    if starts is None:
        return max((m.end() for m in _HARD.finditer(text, 0, position)), default=0)
    for at in reversed(starts[:bisect_left(starts, position)]):
        found = _HARD.match(text, at, position)
        if found is not None:
            return found.end()
    return 0


_AND = deferred(r"\band\b", re.IGNORECASE)
_AT = deferred(r"\b(?:at|with|of|had|has|gave|delivered|reached)\b", re.IGNORECASE)


def owner_at(text: str, position: int, distinct: list[set[str]], *, comparison: bool = False) -> int | None:
    """Whose figure the value at `position` of a paragraph is, by the grammar of a comparison, never by
    distance: "… for the SSDs" right after it; else the last system named before it in its clause ("A
    delivered 310.5 … compared to B at 120.7": 310.5 is A's, 120.7 B's); a "N percent more"
    belongs to the last system named as a subject, never the other side of an earlier "than"."""
    found = mentions(text, distinct)
    if not comparison:
        after_unit = _FOR_NAMED.match(text, position)
        if after_unit is not None:
            named = [i for p, i in found if p == after_unit.end()]
            if named:
                return named[0]
    before = [(p, i) for p, i in found if p < position]
    if comparison:
        subjects = [i for p, i in before if not _OBJECT.search(text[max(0, p - 40):p])]
        return subjects[-1] if subjects else None
    last_barrier = _last_barrier(text, position)
    clause = [(p, i) for p, i in before if p >= last_barrier]
    if clause:
        between = text[clause[-1][0]:position]
        subject = [i for p, i in before if p < last_barrier]
        if last_barrier and subject and _AND.search(between) and not _AT.search(between):
            return subject[-1]  # "A delivers 11% more … than B and 32.4 IOPS per disk": A's, the "and" goes on with A
        return clause[-1][1]
    following = _HARD.search(text, position)
    after = [i for p, i in found if position < p < (following.start() if following else len(text))]
    return after[0] if after else None
