"""What drafting makes of a document: its solutions with their runs, facts and claims, before any
manifest is written. Records only, shared by the rules that fill them (systems.py, verdicts.py) and
the writers that read them (manifests.py, ingest.load.provisional)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..formats.document.records import DocumentTable
from .fact import Fact
from .published import DraftClaim


@dataclass
class DraftRun:
    label: str
    report_index: int | None = None  # an embedded report, by its index in the document
    line: int | None = None
    table: DocumentTable | None = None  # else a run only a table prints
    column: str | None = None
    columns: tuple[str, ...] = ()  # else the hosts' columns of one test, added up (host_columns.py)
    rows: dict[str, list[str]] = field(default_factory=dict)  # metric -> the row labels it adds up
    description: str = ""
    figure_table: DocumentTable | None = None  # a report run's figures no report holds (MB/s, power)
    figure_column: str | None = None
    figure_rows: dict[str, list[str]] = field(default_factory=dict)
    hosts: tuple[int, ...] = ()  # one test over several hosts: its reports, by index (host_tests.py)
    scenario: str | None = None  # "Drive failure": a test under an abnormal condition, as the document names it


@dataclass
class DraftSolution:
    name: str  # as the document's columns name it
    facts: list[Fact] = field(default_factory=list)
    runs: list[DraftRun] = field(default_factory=list)
    claims: list[tuple[DraftClaim, str, int | None]] = field(default_factory=list)  # (claim, where, versus solution)
