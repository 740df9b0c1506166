"""The relational catalogue: SQLAlchemy 2 models, one module per table family.

Taking any model (or `Base`) from this package loads every table family, so `Base.metadata`
holds every table, which Alembic's autogenerate compares against the migrations (the no-drift
test). The package itself loads lazily: `schema.units` and `schema.vocabulary` (the closed
vocabularies stored as text) import without SQLAlchemy, so parsers check values against them at
no cost, and `schema.keys` stays light for the CLI's fast paths.

The table families do without `from __future__ import annotations`: their `Mapped[...]` annotations
are then objects, not strings SQLAlchemy parses and evaluates one by one when the class is made (a
fifth of the families' import time, which every ingest pays; the tables and mappers are the same).
A model named before its class is made is quoted (`Mapped[list["Instance"]]`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Base, table_of
    from .claims import Claim
    from .class_ranks import MailboxClassRankRow, MailboxClassRanksFreshness
    from .classes import MailboxClass
    from .designs import SolutionDesign, SolutionDesignsStale
    from .documents import Document, DocumentCell, DocumentTable
    from .evidence import ConfigInstance, ConfigThreshold, PerfFile, PowerFile, TestConfig, TestLog, TestLogEvent
    from .figures import (
        PerfCounterMean,
        RunDiskFigures,
        RunFigures,
        RunFiguresStale,
        RunScopeLatency,
        SolutionDiskCounts,
    )
    from .provenance import RunSource, SolutionFact
    from .runs import (
        BackupStat,
        HostCounter,
        IngestWarning,
        Instance,
        Latency,
        LogEvent,
        PublishedValue,
        RecoveryStat,
        ReportField,
        Run,
        TestIssue,
    )
    from .samples import PerfCounter, PerfSample, PowerSample, RunPower
    from .solutions import DiskGroup, RunAssignment, Solution, Trial
    from .sources import SourceFile
    from .values import RunValueFigures

# Every module that declares tables; importing them all registers every table on Base.metadata.
TABLE_FAMILIES = ("base", "claims", "class_ranks", "classes", "designs", "documents", "evidence", "figures",
                  "provenance", "runs", "samples", "solutions", "sources", "values")


def __getattr__(name: str) -> Any:
    """A model or `Base` on first use: every table family is imported, then the name is looked up."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    families = [importlib.import_module(f"{__name__}.{family}") for family in TABLE_FAMILIES]
    value = next(getattr(module, name) for module in families if hasattr(module, name))
    globals()[name] = value
    return value


__all__ = [
    "Base",
    "table_of",
    "BackupStat",
    "Claim",
    "MailboxClass",
    "MailboxClassRankRow",
    "MailboxClassRanksFreshness",
    "ConfigInstance",
    "ConfigThreshold",
    "DiskGroup",
    "Document",
    "DocumentCell",
    "DocumentTable",
    "HostCounter",
    "IngestWarning",
    "Instance",
    "Latency",
    "LogEvent",
    "PerfCounter",
    "PerfCounterMean",
    "PerfFile",
    "PerfSample",
    "PowerFile",
    "PowerSample",
    "PublishedValue",
    "RecoveryStat",
    "ReportField",
    "Run",
    "RunAssignment",
    "RunDiskFigures",
    "RunFigures",
    "RunFiguresStale",
    "RunSource",
    "SolutionDesign",
    "SolutionDesignsStale",
    "SolutionFact",
    "RunPower",
    "RunScopeLatency",
    "RunValueFigures",
    "Solution",
    "SolutionDiskCounts",
    "SourceFile",
    "TestConfig",
    "TestIssue",
    "TestLog",
    "TestLogEvent",
    "Trial",
]
