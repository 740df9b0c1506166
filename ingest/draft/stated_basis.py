"""What the words around a published comparison say its figure is per: idle or active power, one disk of
one side against the other whole, active disks. Pure."""

from __future__ import annotations

import functools
import re

from .deferred import deferred
from .prefilter import lowered, may

_EACH = deferred(r"\beach\s+(?:ssd|hdd|disk|drive)\b[^.;]*\bthan\s+(?:all|the)\b", re.IGNORECASE)
ACTIVE_BASIS = deferred(r"(?:\bper|/)\s*active\s+(?:disk|drive)|\bactive\s+(?:disks|drives)\b", re.IGNORECASE)
_IDLE = deferred(r"\b(?:while|when)\s+idle\b|\bidle\s+power\b", re.IGNORECASE)


OWN_ENDS = deferred(r"\bthan\b|\band\b|[,;]", re.IGNORECASE)
_ACTIVE_POWER = deferred(r"\b(?:when|while)\s+(?:active|busy|under\s+load)\b|\bactive\s+power\b", re.IGNORECASE)


_ACTIVE_WORD = deferred(r"\bactive\s+(?:disk|drive|spindle)s?\b", re.IGNORECASE)
_ALL_WORDS = deferred(r"\ball\s+(?:\d+\s+)?(?:(?:and\s+)?\d+\s+)?(?:installed\s+|physical\s+)?(?:disks|drives|spindles)\b|"
                      r"\b(?:all|every)\s+(?:disks?|drives?)\s+counted\b|"
                      r"including\s+(?:the\s+)?(?:hot\s+)?spares|\bspares\s+included\b|"
                      r"\b(?:counting|over)\s+(?:all|every)\s+(?:installed\s+)?(?:disk|drive|spindle)s?\b", re.IGNORECASE)
# One item of a list or clause: the figure's own words, up to the next bullet or sentence.
ITEM_ENDS = deferred(r"\s[-*•·▪]\s|\s[>»]\s(?=\D)|\.\s|;")
_IN_ITEM_ENDS = "-*•·▪>».;"  # the characters a match of ITEM_ENDS holds, with whitespace


def last_item_end(text: str, end: int) -> int:
    """`max((m.end() for m in ITEM_ENDS.finditer(text, 0, end)), default=0)`, found from the last 200 characters
    before `end` on, not from the paragraph's start (40 PDFs' 226 figures: 13 -> 2.6 ms). Exact: the scan starts
    after a character no match holds, where no match of the whole scan spans (none has a lookbehind), so from
    there it finds what the whole scan does; where it finds none, the text before is scanned."""
    at = max(0, end - 200)
    while at > 0 and (text[at - 1] in _IN_ITEM_ENDS or text[at - 1].isspace()):  # (isspace: the engine's \s)
        at -= 1
    ends = [match.end() for match in ITEM_ENDS.finditer(text, at, end)]
    return ends[-1] if ends else max((match.end() for match in ITEM_ENDS.finditer(text, 0, at)), default=0)


@functools.lru_cache(maxsize=64)  # pure, and asked of one paragraph for each figure it prints
def active_basis(text: str) -> bool:
    """Whether ACTIVE_BASIS matches; every match holds "active" (case aside: prefilter.py), which most texts asked
    do not (40 PDFs' 356 searches, most of whole paragraphs: 17 -> 0.2 ms)."""
    return may(lowered(text), "active") and ACTIVE_BASIS.search(text) is not None


def own_basis(words: str) -> str | None:
    """The basis the words right after a per-disk figure state, up to a bracket ("102.4 IOPS per disk over all
    48 installed drives (106.8 per active drive)": all), else None."""
    lead = re.match(r"\s*\(([^()]{1,40})\)", words)  # "per disk (all disks) than …": the bracket is the basis
    own = lead[1] if lead and (active_basis(lead[1]) or _ACTIVE_WORD.search(lead[1]) or _ALL_WORDS.search(lead[1])) \
        else re.split(r"[(;]|\.\s", words, maxsplit=1)[0]
    if active_basis(own) or _ACTIVE_WORD.search(own):
        return "active"
    return "all" if _ALL_WORDS.search(own) else None


def stated_basis(metric: str, sentence: str, paragraph: str, own: str | None = None,
                 item: str | None = None) -> tuple[str, str | None, str | None]:
    """What the words around "N percent more" say the figure is per: idle power ("… while idle"), one
    disk of one side against the other whole ("each SSD … than all 24 HDDs"), active disks. `own`: the
    words right after the figure, which say its basis before the rest of the sentence does; `item`: the
    figure's list item or clause, whose basis ("per active drive", "all drives counted") is its own."""
    if metric == "active_power" and not _ACTIVE_POWER.search(own or "") and (_IDLE.search(own or "") or _IDLE.search(sentence)):
        return "idle_power", None, None  # "59 percent less power while idle"; never "60 … when active, 59 … when idle"
    if _EACH.search(sentence) and metric in ("throughput_mb_per_s", "total_iops", "achieved_iops", "log_iops"):
        return f"{metric}_per_disk", metric, "all"
    if metric.endswith("_per_disk"):
        if item and (active_basis(item) or _ACTIVE_WORD.search(item)):
            return metric, None, "active"
        if item and _ALL_WORDS.search(item):  # "(all drives counted)", "counting all 48 … including spares"
            return metric, None, "all"
        return metric, None, "active" if active_basis(paragraph) else None
    return metric, None, None
