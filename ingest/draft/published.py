"""The figures a document publishes, found for a person to confirm: sentences and summary tables.

Sentences: "delivered up to 150 percent higher IOPS", "nearly 40 percent less power", "300 IOPS
per disk", "42.5 IOPS per watt", "IOPS per dollar", "MB per dollar". Tables: each row of a
result or configuration table whose label names a metric of the manifest vocabulary ("Achieved
IOPS - Run 2", "Average disk transfers MB per second", "Idle power (enclosure only)"), one
figure per column. Metrics are found from the words around the number, never from a vendor's
name or a position; every figure keeps its line and its quote, and its value is the text printed
on that line (nothing is computed). Pure: lines and tables in, `DraftClaim`s out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ..formats.document.lines import Line
from .anchored import anchor_starts, matches_at
from .deferred import deferred
from .drafts import DraftClaim as DraftClaim  # the record lives with the others (drafts.py); re-exported
from .iops_words import document_iops, paragraph_iops
from .number_starts import matches_from, number_starts
from .prefilter import lowered, may
from .stated_basis import ITEM_ENDS, OWN_ENDS, active_basis, last_item_end, own_basis, stated_basis

NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_QUALIFIERS = (("up_to", r"up to|as much as"), ("nearly", r"nearly|almost"), ("approximately", r"approximately|about|roughly"),
               ("over", r"over|more than"), ("under", r"under|less than"))
_QUALIFIER = "|".join(f"(?:{p})" for _, p in _QUALIFIERS)
# Each qualifier word's length -> the characters a word of that length starts with, either case (the words hold no
# metacharacter, and re.IGNORECASE matches their first letters in no other character, checked over every one)
_QUALIFIER_WORDS = [word for _, p in _QUALIFIERS for word in p.split("|")]
QUALIFIER_STARTS = {len(word): "".join(other[0] + other[0].upper() for other in _QUALIFIER_WORDS if len(other) == len(word))
                    for word in _QUALIFIER_WORDS}
# The first character of every match of _PERCENT, _PER and _TOTAL: a qualifier's first letter (up to, as much as,
# nearly, almost, approximately, about, roughly, over, more than, under, less than) or NUMBER's digit. Checked
# first, it fails at once where the optional qualifier would try each of its words (half of their time), and,
# being implied by the rest of the pattern, it changes no match.
_STARTS = r"(?=[\dualnrom])"
_PERCENT = deferred(rf"{_STARTS}(?:(?P<q>{_QUALIFIER})\s+)?{NUMBER}\s*(?:percent|%)\s+(?P<dir>higher|more|greater|lower|less|"
                    rf"fewer)\s+(?=(?P<what>[^.;:]{{0,90}}))", re.IGNORECASE)
# the other side's words end at a bullet, "> " and "» " included ("… than the iQ-12 > SB-1600: 923% more …")
_THAN = deferred(r"\bthan\s+(?:(?:in|during|with|for|at|under)\s+)?(?:the\s+)?((?:[^.;,()•▪·>»]|>(?!\s+\D)){1,60})",
                 re.IGNORECASE)
_LAST_UNIT = deferred(r"\d\s+((?:achieved\s+|transactional\s+|total\s+|log\s+)?IOPS|MB/s|MB per second)\b",
                      re.IGNORECASE)
_WHAT_ENDS = deferred(r"\b(?:than|and|while|compared|vs)\b|,|\d")
_PER = deferred(rf"{_STARTS}(?:(?P<q>{_QUALIFIER})\s+)?{NUMBER}\s+"
                rf"(?P<what>(?:achieved\s+|transactional\s+|log\s+|total\s+)?IOPS|"
                rf"(?:use?able\s+)?MB(?: of disk transfers)?|megabytes)\s+"
                rf"(?:per|for\s+(?:each|every)(?:\s+of\s+(?:its|the)\s+(?P<count>\d[\d,]*))?)\s+"
                rf"(?P<per>second\s+per\s+disk|(?:active\s+|physical\s+)?(?:disk|drive|ssd|hdd)|dollar|watt|\$)"
                rf"(?(count)s|)\b", re.IGNORECASE)
_TOTAL = deferred(rf"{_STARTS}(?:(?P<q>{_QUALIFIER})\s+)?{NUMBER}\s+(?P<what>total|achieved)\s+IOPS\b"
                  r"(?!\s+per|\s+for\s+(?:each|every)|\s*$)",
                  re.IGNORECASE)
# What any match of _PER/_TOTAL, and of _PERCENT, must hold: a digit, then the unit. These start with a digit,
# which the regex engine scans for at C speed; the full patterns start with an optional qualifier, which it
# tries at every character (40 ms for a 200-page volume's prose, each), so they run only where a hint is.
_PER_HINT = deferred(r"\d\s+(?:(?:achieved|transactional|log|total|use?able)\s+)?(?:IOPS|MB|megabytes)", re.IGNORECASE)
_PERCENT_HINT = deferred(r"\d\s*(?:percent|%)", re.IGNORECASE)
# Words one of which every match of each hint holds, case aside (prefilter.py): a paragraph holding none (eight
# in nine) is not searched for the hint (40 PDFs' 3,032 paragraphs, both hints: 40 -> 28 ms).
_PER_WORDS, _PERCENT_WORDS = ("iops", "mb", "megabytes"), ("percent", "%")
_DOLLARS = deferred(rf"\$\s?{NUMBER}(?!\s*(?:per|/))")
_WATTS = deferred(rf"{NUMBER}\s+watts\b", re.IGNORECASE)

# Words after "N percent more" -> the metric compared; first match wins.
COMPARED: tuple[tuple[re.Pattern[str], str], ...] = tuple((deferred(p, re.IGNORECASE), m) for p, m in (
    (r"performance per watt|iops per watt", "perf_per_watt"), (r"processors?\b|\bcpu\b", "cpu_percent"),
    (r"(?:use?able )?(?:mb|megabytes) per (?:dollar|\$)", "mb_per_dollar"),
    (r"iops per (?:dollar|\$)", "iops_per_dollar"),
    (r"(?:achieved|transactional) iops per (?:active |physical )?(?:disk|drive)", "achieved_iops_per_disk"),
    (r"^\s*(?:\w+\s+)?(?:drives|disks|spindles)\b", "disk_count"),
    (r"\bcosts?\b(?!\s+per)|\bpriced?\b(?!\s+per)|\bcheaper\b|\bless expensive\b|\bmoney\b", "list_price"),
    (r"use?able capacity per (?:dollar|\$)|capacity per (?:dollar|\$)", "mb_per_dollar"),
    (r"log iops per (?:active |physical )?(?:disk|drive)", "log_iops_per_disk"),
    (r"total iops per (?:active |physical )?(?:disk|drive)", "total_iops_per_disk"),
    (r"iops per (?:active |physical )?(?:disk|drive)", "bare_iops_per_disk"),
    (r"throughput|megabytes per second|mb per second|mb/s", "throughput_mb_per_s"),
    (r"power when idle|while idle|idle", "idle_power"), (r"power", "active_power"),
    (r"\blogs? write latency", "log_write_latency"), (r"read latency", "db_read_latency"),
    (r"write latency", "db_write_latency"),
    (r"achieved iops|transactional iops", "achieved_iops"), (r"log iops", "log_iops"), (r"total iops", "total_iops"),
    (r"iops", "bare_iops"),
))
# "bare_": the words say only "IOPS"; which sum it is, the document says elsewhere (iops_words.py).
_BARE = "bare_"
PER_UNITS = {"disk": "IOPS/disk", "active disk": "IOPS/disk", "physical disk": "IOPS/disk", "drive": "IOPS/disk",
             "active drive": "IOPS/disk", "physical drive": "IOPS/disk",
             "dollar": "IOPS/USD", "$": "IOPS/USD", "watt": "IOPS/W"}
_PERCENT_FOR = deferred(rf"{NUMBER}\s*(?:percent|%)\s+for\s+(?:the\s+)?([A-Za-z][\w-]*)", re.IGNORECASE)


def _qualifier(text: str | None) -> str | None:
    if not text:
        return None
    return next(name for name, pattern in _QUALIFIERS if re.fullmatch(pattern, text, re.IGNORECASE))


def _compared(words: str) -> str | None:
    """The metric the words right after "N percent more" name (up to "than", "and", a comma or a number)."""
    end = _WHAT_ENDS.search(words)
    words = words[: end.start()] if end else words
    return next((metric for pattern, metric in COMPARED if pattern.search(words)), None)


def paragraphs(lines: list[Line]) -> list[tuple[str, list[tuple[int, int]]]]:
    """Prose lines joined into paragraphs (extraction wraps sentences): (text, [(offset, line number)])."""
    found: list[tuple[str, list[tuple[int, int]]]] = []
    # a paragraph's lines gathered and joined once it ends (not its text rebuilt a line at a time: quadratic
    # in a paragraph's length; 40 PDFs: 31 -> 19 ms), `length` that of the text joined so far
    parts, length, starts = list[str](), 0, list[tuple[int, int]]()
    for line in [*lines, Line(0, ())]:
        if line.separated or line.furniture or not line.text or line.heading:
            if parts:
                found.append((" ".join(parts), starts))
            parts, length, starts = [], 0, []
            continue
        offset = length + 1 if parts else 0
        starts.append((offset, line.number))
        parts.append(line.text)
        length = offset + len(line.text)
    return _lists_with_their_lead_in(found)


_BULLET = deferred(r"\s*(?:[-*•·▪o]|\d+[.)])\s+\S")


def _lists_with_their_lead_in(found: list[tuple[str, list[tuple[int, int]]]]) -> list[tuple[str, list[tuple[int, int]]]]:
    """A list of bullets after a sentence ending with a colon ("Compared with B, A delivered:") is that
    sentence's: the words that say whose figures the bullets are stand before them."""
    joined: list[tuple[str, list[tuple[int, int]]]] = []
    for text, starts in found:
        if joined and joined[-1][0].rstrip().endswith(":") and _BULLET.match(text):
            lead, lead_starts = joined[-1]
            joined[-1] = (f"{lead} {text}", lead_starts + [(offset + len(lead) + 1, n) for offset, n in starts])
        else:
            joined.append((text, starts))
    return joined


_LAST_WATTS = deferred(r"\d\s*(?:W|watts)\b(?!.*\d\s+(?:\w+\s+)?IOPS\b)(?P<after>.*)$", re.IGNORECASE | re.DOTALL)


def _watts_before(sentence: str, at: int) -> str | None:
    """Idle or active power when the last figure before `at` in its sentence is in watts."""
    found = _LAST_WATTS.search(sentence[:at])
    if found is None:
        return None
    return "idle_power" if re.search(r"\bidle\b", found["after"], re.IGNORECASE) else "active_power"


_BREAK = deferred(r"[.!?]\s+(?=[A-Z(])")


def _sentence_start(text: str, position: int) -> int:
    """The end of _BREAK's last match in text[:position], else 0. Its matches never overlap (none starts in
    another's whitespace), so the last is the one starting at the last mark where it matches (endpos: the
    text ends at `position`, as the slice did): tried from `position` back, not found by scanning the
    paragraph from its start for each figure it places (a PDF's paragraph may run to hundreds of lines)."""
    at = position
    while True:
        at = max(text.rfind(".", 0, at), text.rfind("!", 0, at), text.rfind("?", 0, at))
        if at < 0:
            return 0
        found = _BREAK.match(text, at, position)
        if found is not None:
            return found.end()


def _sentence(text: str, position: int) -> tuple[str, int]:
    """The sentence around `position` and the position within it."""
    start = _sentence_start(text, position)
    end = next((m.start() + 1 for m in re.finditer(r"[.!?]\s+(?=[A-Z(])|[.!?]$", text[position:])), None)
    return text[start : position + end if end else len(text)], position - start


def placed(claim: DraftClaim, text: str, starts: list[tuple[int, int]], position: int) -> DraftClaim:
    line = max((number for offset, number in starts if offset <= position), default=starts[0][1])
    quote, offset = _sentence(text, position)
    return replace(claim, line=line, quote=quote, offset=offset, position=position, paragraph=text)


# A document's prose, joined into paragraphs once (`paragraphs`) and read by every rule that reads prose.
Paragraphs = list[tuple[str, list[tuple[int, int]]]]


def sentence_claims(prose: Paragraphs) -> list[DraftClaim]:
    """Claims in prose: percent comparisons and per-disk, per-dollar and per-watt figures."""
    found: list[DraftClaim] = []
    bare = document_iops([text for text, _ in prose])
    for text, starts in prose:
        found.extend(_paragraph_claims(text, starts, bare))
    return found


# "… 38% more IOPS per SSD than our 2015 design (390.4 IOPS per SSD)": the figure in brackets after "than"
# is the other side's, a system the document may not test at all.
_OTHER_SIDE = deferred(r"\bthan\b[^.;()]*\(\s*$", re.IGNORECASE)
_OTHER_SIDE_STARTS = deferred(r"t(?=han)")  # where its matches start, in the text lowered (anchored.py)


def _other_sides(text: str) -> Callable[[int], bool]:
    """Whether _OTHER_SIDE matches in text[:end], asked for each figure: tried at each "than" before `end`, not
    searched from the paragraph's start for each (40 PDFs' 184 figures: 13 -> 2 ms)."""
    starts = anchor_starts(_OTHER_SIDE_STARTS, text)
    if starts is None:
        return lambda end: _OTHER_SIDE.search(text, 0, end) is not None
    return lambda end: any(_OTHER_SIDE.match(text, at, end) is not None for at in starts if at < end)


_BRACKETED = deferred(rf"\s*\(\s*{NUMBER}\s+([^()]{{1,40}}?)\s*\)")


def _printed_other_side(text: str, at: int, metric: str, bare: str) -> str | None:
    """The figure in brackets right after the "than" words ending at `at`, when its words name the compared
    metric: "… than our 2013 design (0.0142 IOPS per dollar)" gives "0.0142"."""
    found = _BRACKETED.match(text, at)
    if found is None:
        return None
    named = _compared(found[2])
    if named and named.startswith(_BARE):
        named = f"{paragraph_iops(text, at, bare)}_{named[len(_BARE):]}"
    if named and re.search(r"\bper\s+(?:active\s+|physical\s+)?(?:disk|drive|ssd|hdd|spindle)", found[2], re.IGNORECASE):
        named = named if named.endswith("_per_disk") else f"{named}_per_disk"  # "(390.4 IOPS per SSD)"
    return found[1] if named == metric else None


def _paragraph_claims(text: str, starts: list[tuple[int, int]], bare: str = "achieved") -> list[DraftClaim]:
    found: list[DraftClaim] = []
    low = lowered(text)
    per_unit = list(_per_unit(0, text, bare) if may(low, *_PER_WORDS) else ())
    other_side = _other_sides(text) if per_unit else None  # (most paragraphs print no figure)
    figures = [(m, c) for m, c in per_unit if other_side is None or not other_side(m.start())]
    hinted = number_starts(text, _PERCENT_HINT, QUALIFIER_STARTS) if may(low, *_PERCENT_WORDS) else []
    for match in matches_from(_PERCENT, text, hinted):
        metric = _compared(match["what"])
        before = [(m.start(), c.metric) for m, c in figures if m.start() < match.start()]
        after = [(m.start(), c.metric) for m, c in figures if m.start() > match.start()]
        if metric is None:  # "drove the processors up to 235.0 percent more than …": the words before it
            sentence, at = _sentence(text, match.start())
            metric = _compared(re.split(r"[,;•▪·*]|\s[-o]\s|\d[\d.,]*", sentence[max(0, at - 40):at])[-1])
        if metric is None:  # "… drew 380 W while idle, 25% less than …": watts printed last in its sentence
            metric = _watts_before(*_sentence(text, match.start()))
        if metric is None and (before or after):  # "… 12.34 MB per dollar. This is 75 percent more than …"
            metric = max(before)[1] if before else min(after)[1]
        if metric is None:  # "… delivered 1,234.5 IOPS, 10% less than …": the unit of the figure before it
            sentence, at = _sentence(text, match.start())
            unit = _LAST_UNIT.findall(sentence[:at])
            metric = _compared(unit[-1]) if unit else None
        if metric and metric.startswith(_BARE):
            metric = f"{paragraph_iops(text, match.start(), bare)}_{metric[len(_BARE):]}"
        per_disk = next((c.metric for _, c in figures if metric and c.metric.startswith(metric)
                         and c.metric.endswith("_per_disk")), None)
        if metric:
            direction = "percent_more" if match["dir"].lower() in ("higher", "more", "greater") else "percent_less"
            sentence = _sentence(text, match.start())[0]
            own = OWN_ENDS.split(match["what"], maxsplit=1)[0]  # "power when active" of "…, 59 … when idle"
            rest = text[match.end():]
            begins = last_item_end(text, match.start())  # its own item's
            item = text[begins: match.end() + (m.start() if (m := ITEM_ENDS.search(rest)) else len(rest))]  # words
            metric, versus_metric, basis = stated_basis(per_disk or metric, sentence, text, own, item)
            than = _THAN.search(match["what"])
            printed = _printed_other_side(text, match.end() + than.end(1), versus_metric or metric, bare) \
                if than else None
            claim = DraftClaim(f"{direction}:{metric}", match[2], "%", 0, text, _qualifier(match["q"]), comparison=True,
                               versus_metric=versus_metric, disk_basis=basis, than=than[1] if than else None,
                               versus_value=printed)
            found.append(placed(claim, text, starts, match.start(2)))
            if metric == "cpu_percent":  # "…; 6.7 percent for the SSDs and 2.0 percent for the HDDs."
                rest = text[match.end() : match.end() + 200].split(". ")[0]
                for each in _PERCENT_FOR.finditer(rest):
                    figure = DraftClaim(metric, each[1], "%", 0, text, named=each[2])
                    found.append(placed(figure, text, starts, match.end() + each.start(1)))
    found.extend(placed(claim, text, starts, m.start(2)) for m, claim in figures)
    return found


def _per_unit(number: int, text: str, bare: str = "achieved") -> list[tuple[re.Match[str], DraftClaim]]:
    """"300 IOPS per disk", "42.5 IOPS per watt", "12.34 useable MB per dollar", "4,321 total IOPS" on one line."""
    found: list[tuple[re.Match[str], DraftClaim]] = []
    starts = number_starts(text, _PER_HINT, QUALIFIER_STARTS)  # where _TOTAL's and _PER's matches may start
    if not starts:  # (no hint: none; the hint's search is number_starts' own, not made twice)
        return found
    active_paragraph: bool | None = None  # ACTIVE_BASIS in the paragraph, searched once a paragraph
    for match in matches_from(_TOTAL, text, starts):
        metric = "achieved_iops" if match["what"].lower() == "achieved" else "total_iops"
        found.append((match, DraftClaim(metric, match[2], "IOPS", number, text, _qualifier(match["q"]))))
    for match in matches_from(_PER, text, starts):
        what, per = match["what"].lower(), re.sub(r"\s+", " ", match["per"].lower()).replace("ssd", "disk").replace("hdd", "disk")
        if per == "second per disk":
            metric, unit = "throughput_mb_per_s_per_disk", "MB/s/disk"
        elif re.match(r"(?:use?able )?(?:mb|megabytes)", what):
            if per not in ("dollar", "$"):
                continue
            metric, unit = "mb_per_dollar", "MB/USD"
        else:
            kind = {"dollar": "iops_per_dollar", "$": "iops_per_dollar", "watt": "perf_per_watt"}.get(per)
            prefix = "achieved" if what.startswith(("achieved", "transactional")) else "log" if what.startswith("log") else \
                "total" if what.startswith("total") else paragraph_iops(text, match.start(), bare)
            metric, unit = kind or f"{prefix}_iops_per_disk", PER_UNITS[per]
        basis = None
        if metric.endswith("_per_disk"):
            basis = "active" if per.startswith("active") else own_basis(text[match.start():match.end() + 60])
            if basis is None:
                if active_paragraph is None:
                    active_paragraph = active_basis(text)
                basis = "active" if active_paragraph else None
        if match["count"] and metric.endswith("_per_disk") and not per.startswith("active"):
            basis = "all"  # "for each of its 48 drives": every drive it has
        found.append((match, DraftClaim(metric, match[2], unit, number, text, _qualifier(match["q"]), disk_basis=basis)))
    return found


def price_and_power(prose: Paragraphs) -> list[DraftClaim]:
    """Printed prices ("$80,098") and watts in prose, for the solution's price and power."""
    found = []
    for text, starts in prose:
        for match in _DOLLARS.finditer(text):
            claim = placed(DraftClaim("list_price", match[1], "USD", 0, text), text, starts, match.start(1))
            if re.search(r"\bpric|\bcost", claim.quote, re.IGNORECASE):
                found.append(claim)
    return found


# A document that says once what its per-disk figures divide by: "we divided each system's achieved
# IOPS by its active disks", "hot spares carry no load and are left out", "per active disk".
_DIVIDES_BY_ACTIVE = deferred(r"\b(?:divid\w*|per[\s-]disk)\b[^.]{0,120}\bactive\s+(?:disks|drives)\b|"
                              r"\bhot\s+spares?\b[^.]{0,60}\b(?:left\s+out|excluded|not\s+counted)\b", re.IGNORECASE)
_DIVIDES_BY_ALL = deferred(r"\b(?:divid\w*|per[\s-]disk)\b[^.]{0,120}\b(?:all|every)\s+(?:the\s+)?(?:physical\s+)?"
                           r"(?:disks|drives)\b", re.IGNORECASE)


# Where each match of those starts (anchored.py): "divid", "per disk", "hot spare" (case aside). Found once for
# both: _DIVIDES_BY_ALL's are these but "hot spare"'s, where it cannot match (the document's whole prose
# lowered and scanned once, not twice: 40 PDFs, 10 ms).
_ACTIVE_STARTS = deferred(r"d(?=ivid)|p(?=er[\s-]disk)|h(?=ot\s+spare)")


def document_disk_basis(prose: Paragraphs) -> str | None:
    """The basis the document's own words give its per-disk figures, when they give one and only one."""
    text = " ".join(text for text, _ in prose)
    starts = anchor_starts(_ACTIVE_STARTS, text)
    active, every = matches_at(_DIVIDES_BY_ACTIVE, text, starts), matches_at(_DIVIDES_BY_ALL, text, starts)
    return "active" if active and not every else "all" if every and not active else None
