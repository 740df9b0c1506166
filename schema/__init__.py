"""The relational catalogue: SQLAlchemy 2 models, one module per table family.

Importing this package registers every table on `Base.metadata`, which Alembic's
autogenerate compares against the migrations (the no-drift test).
"""

from esrpdb.schema.base import Base
from esrpdb.schema.claims import Claim
from esrpdb.schema.documents import DocumentCell, DocumentTable
from esrpdb.schema.evidence import (
    ConfigInstance,
    ConfigThreshold,
    PerfFile,
    PowerFile,
    TestConfig,
    TestLog,
    TestLogEvent,
)
from esrpdb.schema.figures import (
    PerfCounterMean,
    RunDiskFigures,
    RunFigures,
    RunFiguresStale,
    RunScopeLatency,
    SolutionDiskCounts,
)
from esrpdb.schema.runs import (
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
from esrpdb.schema.samples import PerfCounter, PerfSample, PowerSample, RunPower
from esrpdb.schema.solutions import DiskGroup, Solution, Trial
from esrpdb.schema.sources import SourceFile

__all__ = [
    "Base",
    "BackupStat",
    "Claim",
    "ConfigInstance",
    "ConfigThreshold",
    "DiskGroup",
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
    "RunDiskFigures",
    "RunFigures",
    "RunFiguresStale",
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
