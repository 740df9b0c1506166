"""Telling a document's systems apart by the words that name each of them and no other. Pure."""

from __future__ import annotations

import re

WORD = re.compile(r"[a-z0-9][a-z0-9-]+", re.IGNORECASE)
# Words every storage system's name may carry: they tell none apart.
STOP = frozenset({"the", "and", "for", "with", "san", "drives", "disks", "disk", "drive", "storage", "array", "arrays",
                  "total", "two", "three", "system", "solution", "channel"})
MEDIA_WORDS = {"SSD": ("ssd", "ssds", "solid-state"), "HDD": ("hdd", "hdds", "hard")}


def words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)} - STOP


def best(text: str, distinct: list[set[str]], near: int | None = None) -> int | None:
    """The system whose own words the text names (nearest to `near`, when given); None when unclear."""
    scores = []
    for index, own in enumerate(distinct):
        places = [m.start() for m in WORD.finditer(text) if m[0].casefold() in own]
        if places:
            scores.append((min(abs(p - near) for p in places) if near is not None else -len(places), index))
    scores.sort()
    if not scores or (len(scores) > 1 and scores[0][0] == scores[1][0]):
        return None
    return scores[0][1]
