"""The closed vocabularies the catalogue stores as text, and the rules that come with them, once.

The tables check them (`one_of` CHECK constraints in the table families), parsers check what they
read against them, and the audit, the queries and the CLI speak them: so every module imports a
vocabulary from here instead of spelling the list again, and this module imports nothing heavy
(no SQLAlchemy), so a parser checks a value against it at no cost. Jetstress's own words (report
types, I/O scopes, verdicts) are stored as Jetstress prints them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from .units import LATENCY_UNITS, SIZE_UNITS

# --- runs: what Jetstress prints ------------------------------------------------------------

ReportType = Literal["Performance", "Stress", "DatabaseBackup", "SoftRecovery", "DBChecksum"]
REPORT_TYPES: tuple[str, ...] = get_args(ReportType)
# The tests that load the databases for a set duration, judged by Jetstress's latency thresholds.
TRANSACTIONAL_REPORT_TYPES = ("Performance", "Stress")

# Which per-instance table a row comes from.
IoScope = Literal[
    "transactional",  # "Transactional I/O Performance"
    "background_maintenance",  # "Background Database Maintenance I/O Performance"
    "log_replication",  # "Log Replication I/O Performance"
    "total",  # "Total I/O Performance"
    "disk_subsystem",  # Jetstress 2007 "Disk Subsystem Performance" (LogicalDisk volumes)
]
IO_SCOPES: tuple[str, ...] = get_args(IoScope)
# The scopes Jetstress sums a report's achieved IOPS over: transactional (2010 on), else the 2007
# disk subsystem; a run's instances are read in one of them.
ACHIEVED_SCOPES = ("transactional", "disk_subsystem")

VolumeRole = Literal["database", "log"]
VOLUME_ROLES: tuple[str, ...] = get_args(VolumeRole)
ThreadScope = Literal["per_storage_group", "per_database", "global"]
THREAD_SCOPES: tuple[str, ...] = get_args(ThreadScope)
Verdict = Literal["Pass", "Fail"]
VERDICTS: tuple[str, ...] = get_args(Verdict)

# --- solutions: disks, power ----------------------------------------------------------------

DISK_MEDIA = ("HDD", "SSD")
DISK_ROLES = ("active", "hot_spare", "system")
POWER_BOUNDARIES = ("enclosure_and_drives", "drives_only", "system")

# The disk counts a per-disk figure may divide by: every disk, or the active ones only (hot spares
# and system disks hold no data). The stored counts follow the same rule (solution_disk_counts,
# queries/run_figures.sql).
DiskBasis = Literal["all", "active"]
DISK_BASES: tuple[str, ...] = get_args(DiskBasis)


def counts_on_basis(role: str, basis: str) -> bool:
    """Does a disk group in `role` count on `basis`? Every group on 'all'; active ones on 'active'."""
    return basis == "all" or role == "active"


def other_basis(basis: str) -> str:
    return "active" if basis == "all" else "all"


# --- ingest warnings: the checks the ingest writes (ingest_warnings.check_name) and the audit reads --

IngestCheck = Literal[
    "parser",  # what a format's reader could not read in a report (the report still loads)
    "document_reader",  # the same for a document (a table row, a section)
    "achieved_iops_vs_instances",  # a report's achieved IOPS against its instances' sum (ingest.jetstress.rules)
    "instance_count_vs_database_files",  # the database files it names against the instances it lists
    "verdict_vs_thresholds",  # its printed verdict against its own latencies and thresholds
    "report_seen_twice",  # one report in two files that print a value differently (ingest.load.identity)
    "unattributed_claim",  # a published figure no system could be told for (ingest.load.provisional)
    "named_differently",  # one thing a document spells two ways (ingest.draft.naming)
]
INGEST_CHECKS: tuple[str, ...] = get_args(IngestCheck)
PARSER_WARNING: IngestCheck = "parser"
DOCUMENT_READER: IngestCheck = "document_reader"
ACHIEVED_IOPS_VS_INSTANCES: IngestCheck = "achieved_iops_vs_instances"
INSTANCE_COUNT_VS_DATABASE_FILES: IngestCheck = "instance_count_vs_database_files"
VERDICT_VS_THRESHOLDS: IngestCheck = "verdict_vs_thresholds"
REPORT_SEEN_TWICE: IngestCheck = "report_seen_twice"
UNATTRIBUTED_CLAIM: IngestCheck = "unattributed_claim"
NAMED_DIFFERENTLY: IngestCheck = "named_differently"
# The checks of a report against itself, run as it is written (ingest.jetstress.rules.CHECKS, in order).
REPORT_CHECKS: tuple[IngestCheck, ...] = (ACHIEVED_IOPS_VS_INSTANCES, INSTANCE_COUNT_VS_DATABASE_FILES,
                                          VERDICT_VS_THRESHOLDS)

# --- claims: what vendors publish -----------------------------------------------------------

CLAIM_SUBJECTS = ("solution", "run", "comparison")
QUALIFIERS = ("approximately", "nearly", "up_to", "over", "under")
COMPARISONS = ("percent_more", "percent_less")
CURRENCY_SLOT = "{currency}"  # in a unit: any ISO 4217 code, e.g. "IOPS/USD"
SIZES = tuple(SIZE_UNITS)


@dataclass(frozen=True)
class Metric:
    """One entry of the closed claim vocabulary.

    `units` lists the units a claim of this metric may give; an empty tuple means the claim gives
    none (a count, or a run label). `per_disk` metrics must say which disks they divide by.
    """

    name: str
    units: tuple[str, ...]
    description: str
    per_disk: bool = False
    numeric: bool = True
    words: bool = False  # the value is words as printed ("every host passed"), neither a number nor a run label


_METRIC_LIST = (
    # Jetstress rates (DESIGN.md "The numbers")
    Metric("achieved_iops", ("IOPS",), "database reads/s + database writes/s (Jetstress Achieved I/O per Second)"),
    Metric("log_iops", ("IOPS",), "log writes/s"),
    Metric("total_iops", ("IOPS",), "achieved IOPS + log IOPS (the whitepapers' 'IOPS')"),
    Metric("target_iops", ("IOPS",), "mailboxes x IOPS per mailbox (Jetstress Target I/O per Second)"),
    Metric("db_reads_per_s", ("IOPS",), "database reads per second"),
    Metric("db_writes_per_s", ("IOPS",), "database writes per second"),
    Metric("disk_transfers_per_s", ("IOPS",), "average disk transfers per second from the performance log"),
    Metric("throughput_mb_per_s", ("MB/s",), "average disk transfer bytes per second / 2^20"),
    Metric("read_mb_per_s", ("MB/s",), "average disk read bytes per second / 2^20"),
    Metric("write_mb_per_s", ("MB/s",), "average disk write bytes per second / 2^20"),
    Metric("db_read_latency", LATENCY_UNITS, "average database read latency"),
    Metric("db_write_latency", LATENCY_UNITS, "average database write latency"),
    Metric("log_write_latency", LATENCY_UNITS, "average log write latency"),
    Metric("cpu_percent", ("%",), "host % Processor Time"),
    # per disk: the disk count's basis must be explicit (disk_basis = all | active)
    Metric("achieved_iops_per_disk", ("IOPS/disk",), "achieved IOPS / disk count", per_disk=True),
    Metric("log_iops_per_disk", ("IOPS/disk",), "log IOPS / disk count", per_disk=True),
    Metric("total_iops_per_disk", ("IOPS/disk",), "total IOPS / disk count", per_disk=True),
    Metric("db_reads_per_s_per_disk", ("IOPS/disk",), "database reads/s / disk count", per_disk=True),
    Metric("db_writes_per_s_per_disk", ("IOPS/disk",), "database writes/s / disk count", per_disk=True),
    Metric("throughput_mb_per_s_per_disk", ("MB/s/disk",), "throughput MB/s / disk count", per_disk=True),
    Metric("disk_count", (), "number of disks", per_disk=True),
    # money and power
    Metric("list_price", (CURRENCY_SLOT,), "the solution's price; the unit is its ISO 4217 currency"),
    Metric("iops_per_dollar", ("IOPS/" + CURRENCY_SLOT,), "total IOPS / price"),
    Metric("mb_per_dollar", ("MB/" + CURRENCY_SLOT,), "usable capacity in MB (2^20 bytes) / price"),
    Metric("perf_per_watt", ("IOPS/W",), "total IOPS / average active power (enclosure and drives)"),
    Metric("active_power", ("W",), "average power during the run, enclosure and drives"),
    Metric("idle_power", ("W",), "average power while idle before the run, enclosure and drives"),
    Metric("drives_active_power", ("W",), "active power minus the empty enclosure's idle power"),
    Metric("enclosure_idle_power", ("W",), "idle power of the empty enclosure"),
    # backup and recovery (ESRP Test Result Summary)
    Metric("backup_mb_per_s_per_database", ("MB/s",), "database read-only (backup) MB read/s, average per database"),
    Metric("backup_mb_per_s_per_server", ("MB/s",), "database read-only (backup) MB read/s, sum per server"),
    Metric("log_replay_time_per_log", ("s",), "average time to replay one log file"),
    # test design and capacity rows of the summary tables
    Metric("median_run", (), "which run is the median run; the value is a [[runs]] label", numeric=False),
    # verdicts stated in prose, and the pass rule the document states (ingest/draft/verdicts.py)
    Metric("stated_verdict", (), "a test said to pass ('every host passed', 'adequate'); the value is the words",
           numeric=False, words=True),
    Metric("pass_limit_db_read_latency", LATENCY_UNITS, "the document's rule: highest average database read latency"),
    Metric("pass_limit_db_write_latency", LATENCY_UNITS, "the document's rule: highest average database write latency"),
    Metric("pass_limit_log_write_latency", LATENCY_UNITS, "the document's rule: highest average log write latency"),
    Metric("pass_limit_iops_margin", ("%",), "the document's rule: how far achieved IOPS may fall below the target"),
    Metric("pass_limit_iops_minimum", ("IOPS",), "the document's rule: the achieved IOPS each test must reach"),
    Metric("mailboxes", (), "number of mailboxes simulated"),
    Metric("mailbox_size", ("MB", "GB"), "mailbox size (quota)"),
    Metric("storage_groups", (), "number of storage groups (Exchange 2007)"),
    Metric("databases", (), "number of databases"),
    Metric("thread_count", (), "Jetstress thread count"),
    Metric("initial_database_size", SIZES, "initial total database size"),
    Metric("final_database_size", SIZES, "final total database size"),
    Metric("usable_capacity", SIZES, "usable (formatted) capacity"),
    Metric("raw_capacity", SIZES, "total raw capacity of the disks"),
    Metric("formatted_percent_of_raw", ("%",), "formatted capacity / raw capacity x 100"),
    Metric("database_percent_of_formatted", ("%",), "initial database size / formatted capacity x 100"),
    Metric("database_percent_of_raw", ("%",), "initial database size / raw capacity x 100"),
)
METRICS: dict[str, Metric] = {metric.name: metric for metric in _METRIC_LIST}


def split_metric(name: str) -> tuple[str | None, str]:
    """``percent_more:total_iops`` -> (``percent_more``, ``total_iops``); ``total_iops`` -> (None, ``total_iops``)."""
    kind, sep, base = name.partition(":")
    return (kind, base) if sep else (None, name)


# A per-disk metric -> the run figure it divides (`disk_count` is a count, not a figure per disk).
PER_DISK_BASE = {m.name: m.name.removesuffix("_per_disk") for m in _METRIC_LIST if m.per_disk and m.name != "disk_count"}
