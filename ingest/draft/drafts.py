"""What drafting makes of a document: its solutions with their runs, facts and claims, before any
manifest is written. Records only, shared by the rules that fill them (systems.py, verdicts.py) and
the writers that read them (manifests.py, ingest.load.provisional)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..formats.document.records import DocumentTable
from .fact import Fact


@dataclass(frozen=True)
class DraftClaim:
    """A figure the document prints, as a `[[claims]]` entry would hold it."""

    metric: str
    value: str  # exactly as printed on `line`
    unit: str | None
    line: int
    quote: str
    qualifier: str | None = None
    column: int | None = None  # the table column (solution or run) it belongs to
    run: str | None = None  # "Run 2" when the row or column names a run
    comparison: bool = False  # a "N percent more/less" between two solutions
    offset: int | None = None  # where the value sits in `quote`, for prose
    named: str | None = None  # "17 for SSDs": the words naming whose figure it is
    position: int = 0  # where the value sits in its paragraph, to read figures in order
    paragraph: str = ""  # the whole paragraph, for whose figure it is ("It delivered …" speaks of the last subject)
    versus_metric: str | None = None  # "each SSD … than all 24 HDDs": the other side's metric
    disk_basis: str | None = None  # "per active disk": the basis the words state
    than: str | None = None  # "… 10% less than in the baseline": the words naming the other side
    versus_value: str | None = None  # "… than our 2013 design (0.0142 IOPS per dollar)": the other side as printed
    versus_run: str | None = None  # the other side when it is another run of the same system
    host: str | None = None  # with `run` a test over several hosts: the machine whose own figure it is


@dataclass
class DraftRun:
    """A test of a drafted system: an embedded report, or the figures a table prints for it."""

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
    """One system the document tests, with what drafting read of it: facts, runs, claims."""

    name: str  # as the document's columns name it
    facts: list[Fact] = field(default_factory=list)
    runs: list[DraftRun] = field(default_factory=list)
    claims: list[tuple[DraftClaim, str, int | None]] = field(default_factory=list)  # (claim, where, versus solution)
