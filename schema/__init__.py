"""The relational catalogue: SQLAlchemy 2 models, one module per table family.

Importing this package registers every table on `Base.metadata`, which Alembic's
autogenerate compares against the migrations (the no-drift test).
"""

from .base import Base, table_of
from .claims import Claim
from .classes import MailboxClass
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

__all__ = [
    "Base",
    "table_of",
    "BackupStat",
    "Claim",
    "MailboxClass",
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
    "SolutionFact",
    "RunPower",
    "RunScopeLatency",
    "Solution",
    "SolutionDiskCounts",
    "SourceFile",
    "TestConfig",
    "TestIssue",
    "TestLog",
    "TestLogEvent",
    "Trial",
]
