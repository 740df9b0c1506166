"""The audit's shared terms: printed figures, candidate values, verdicts, and numbers in sentences.

Every stage speaks these: the candidate rules build `Candidate`s, the judge returns a
`Judgement` with a verdict, findings sort by `SEVERITY`. Kept apart from the judging rules so
the candidate rules need not import the judge that weighs them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Sequence

MATCH, ROUNDING, MISMATCH, UNVERIFIABLE = "match", "rounding", "mismatch", "unverifiable"
UNATTRIBUTED = "unattributed"  # a printed figure whose words name no system (or basis) it can be judged against
DOUBT = "doubt"  # the reader's doubt: the figure is what the catalogue holds elsewhere (doubts.py), not the vendor's error
VERDICTS = (MISMATCH, ROUNDING, DOUBT, UNATTRIBUTED, UNVERIFIABLE, MATCH)  # worst first
SEVERITY = {verdict: rank for rank, verdict in enumerate(VERDICTS)}

PRIMARY, CONVENTION, SOURCE = "primary", "convention", "source"
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")


@dataclass(frozen=True)
class Printed:
    """A number exactly as printed: its value, and the digits that fix its precision."""

    text: str
    value: float
    decimals: int
    trailing_zeros: int  # zeros at the end of the decimals ("188.00" -> 2)

    @property
    def half_unit(self) -> float:
        return 0.5 * 10.0 ** -self.decimals


_SPACE_GROUPED = re.compile(r"\s*([+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?)(?![\d.])(\s*[^\d\s][^\d]*)?\s*")


def parse_printed(text: str) -> Printed | None:
    """The first number in `text`: '8,397.621' -> 8397.621 with 3 decimals; '60%' -> 60; '' -> None; a cell
    that is one number grouped by spaces, '2 317 IOPS', -> 2317."""
    grouped = _SPACE_GROUPED.fullmatch(text)
    read = re.sub(r"[ \u00a0\u202f]", ",", grouped[1]) + (grouped[2] or "") if grouped else text
    for match in _NUMBER.finditer(read.strip()):
        token = match.group(0)
        if not any(ch.isdigit() for ch in token):
            continue
        try:
            number = Decimal(token.replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern only admits numbers
            return None
        decimals = len(token.partition(".")[2])
        digits = token.partition(".")[2]
        return Printed(text, float(number), decimals, len(digits) - len(digits.rstrip("0")))
    return None


@dataclass(frozen=True)
class Candidate:
    """One way of computing the figure from stored data, in the claim's unit."""

    value: float
    how: str  # "Run 2 achieved IOPS 6,667.51 / 32 disks"
    inputs: dict[str, Any] = field(default_factory=dict)
    kind: str = PRIMARY  # primary | convention | source
    note: str = ""  # for convention/source: what differs from the primary computation
    uncertainty: float = 0.0  # how far the inputs' own printed precision can move the value
    rank: float = 0.0  # preference among alternatives of one tier, lower first (e.g. distance in lines)


@dataclass(frozen=True)
class Judgement:
    verdict: str
    recomputed: float | None
    relative_difference: float | None
    explanation: str
    inputs: dict[str, Any]


def fmt(value: float, decimals: int = 3) -> str:
    """A recomputed number for a sentence: thousands separators, a few more digits than printed."""
    if value == 0:
        return "0"
    places = max(decimals + 2, 3)
    if abs(value) < 1:
        places = max(places, -int(math.floor(math.log10(abs(value)))) + 3)
    text = f"{value:,.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def decimals_words(places: int) -> str:
    return f"{places} decimal{'s' if places != 1 else ''}"


def rounded(value: float, decimals: int) -> float:
    """Round half away from zero, as people and spreadsheets do (not Python's half-even)."""
    scale = 10.0 ** decimals
    return math.copysign(math.floor(abs(value) * scale + 0.5 + 1e-9), value) / scale


def printed_precision(values: Sequence[float], cap: int = 9) -> int:
    """The most decimals any of `values` carries: the precision its source printed them with."""
    best = 0
    for value in values:
        for places in range(cap + 1):
            if abs(round(value, places) - value) <= 1e-12 * max(1.0, abs(value)):
                best = max(best, places)
                break
        else:
            best = cap
    return best


def percent_change(kind: str, a: float, b: float) -> float:
    """percent_more: (a / b - 1) x 100; percent_less: (1 - a / b) x 100 (DESIGN: the numbers)."""
    ratio = a / b
    return (ratio - 1) * 100 if kind == "percent_more" else (1 - ratio) * 100
