"""One system tested in several configurations: each configuration a system of its own.

A whitepaper may test one array in several layouts and print them side by side ("Fibre Channel
SAN configuration 1 | … 2 | … 3": disks tested, total IOPS). A column whose heading is a system's
name plus words of its own, in a table that prints a run figure for it and names no runs, is a
variant of that system. The variant whose figure is one of the system's own runs (the
configuration the document compares) is the system itself; each other becomes a system with that
one run, its own facts (its column's disk count), and the system's hardware facts and price,
which the document prints once for the array (usable capacity is the configuration's own: not
inherited). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..formats.document.records import DocumentTable, ReportDocument
from .deferred import deferred
from .fact import Fact
from .facts import NOT_STORAGE_KINDS
from .run_rows import row_runs, run_columns, run_rows, run_total

_TOKEN = deferred(r"[a-z0-9]+")
_PARENTHESES = deferred(r"\([^)]*\)")
NOT_INHERITED = frozenset({"usable_capacity", "raw_capacity", "model", "title"})
PRICE_AND_POWER = ("list_price", "idle_power", "active_power")


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(_PARENTHESES.sub(" ", text).casefold()))


@dataclass(frozen=True)
class Variant:
    """A configuration of a system, named by its own column of a table."""

    heading: str
    parent: int  # index of the system it is a configuration of
    table: DocumentTable
    column: int
    extra_words: str  # the heading's words that are not the system's: "configuration 1"

    @property
    def label(self) -> str:
        """"Fibre Channel SAN configuration 1" under "Fibre Channel SAN" -> "Configuration 1"."""
        return self.extra_words[:1].upper() + self.extra_words[1:]


def variant_columns(document: ReportDocument, names: list[str]) -> list[Variant]:
    """The columns that are configurations of one of `names` (see the module docstring)."""
    found: list[Variant] = []
    seen: set[str] = set()
    parents = [_tokens(n) for n in names]
    for table in document.tables:
        if table.kind in NOT_STORAGE_KINDS or len(table.columns) < 2 or run_columns(table) or row_runs(table):
            continue
        for column, heading in enumerate(table.columns):
            own = _tokens(heading)
            if heading in names or heading in seen:
                continue
            matching = [i for i, p in enumerate(parents) if p and p < own]
            rows = run_rows(table, column, None)
            if len(matching) != 1 or not ({"total_iops", "achieved_iops"} & rows.keys()):
                continue
            extra = " ".join(w for w in _PARENTHESES.sub(" ", heading).split() if w.casefold() not in parents[matching[0]])
            found.append(Variant(heading, matching[0], table, column, extra))
            seen.add(heading)
    return found


def figure(variant: Variant) -> tuple[dict[str, list[str]], float | None]:
    rows = run_rows(variant.table, variant.column, None)
    return rows, run_total(variant.table, variant.column, rows)


def same_figure(a: float | None, b: float | None) -> bool:
    """Equal within the rounding of a printed whole number (3,771 printed for 3,771.458)."""
    return a is not None and b is not None and abs(a - b) <= 0.5


def inherited(own: list[Fact], parent: list[Fact]) -> list[Fact]:
    """The variant's facts, then the array's it does not print (disk totals always: the hardware is one)."""
    kinds = {f.fact for f in own}
    return own + [f for f in parent if f.fact not in NOT_INHERITED and (f.fact not in kinds or f.fact == "disk_count")]
