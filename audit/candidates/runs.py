"""What the stored data says a run's figure is, and how else it could have been computed.

One function per family of metrics turns a run (or a solution) into `Candidate`s in the unit a
claim prints: the primary value from the canned views first, then conventions a writer may
have used instead (per-instance values rounded before they were added up, another prefix base).
Missing data raises `Unverifiable`, whose message names what is missing.
"""

from __future__ import annotations

from statistics import mean

from ...schema.units import SIZE_UNITS, size_factor
from ...schema.vocabulary import counts_on_basis
from ..gather import AuditData, RunInfo, SolutionInfo
from ..terms import CONVENTION, Candidate, decimals_words, fmt, printed_precision, rounded


class Unverifiable(Exception):
    """The data needed to recompute a figure is not in the catalogue; the message says which."""


# metric -> (the run_iops/run_summary/run_throughput figure, the published-table metric, words)
RATE_METRICS = {
    "achieved_iops": ("achieved_iops", "achieved_iops", "achieved IOPS"),
    "log_iops": ("log_iops", "log_iops", "log IOPS"),
    "total_iops": ("total_iops", "total_iops", "total IOPS"),
    "db_reads_per_s": ("db_reads_per_s", "db_reads_per_s", "database reads/s"),
    "db_writes_per_s": ("db_writes_per_s", "db_writes_per_s", "database writes/s"),
    "throughput_mb_per_s": ("transfer_mb_per_s", "throughput_mb_per_s", "throughput MB/s"),
    "read_mb_per_s": ("read_mb_per_s", None, "disk read MB/s"),
    "write_mb_per_s": ("write_mb_per_s", None, "disk write MB/s"),
    "disk_transfers_per_s": ("disk_transfers_per_s", None, "perfmon disk transfers/s"),
}
# Per-instance columns whose sum is the run's figure (the ESRP summary adds instances up).
INSTANCE_SUMS = {
    "achieved_iops": ("db_reads_per_s", "db_writes_per_s"),
    "db_reads_per_s": ("db_reads_per_s",),
    "db_writes_per_s": ("db_writes_per_s",),
    "log_iops": ("log_writes_per_s",),
}
LATENCY_METRICS = {
    "db_read_latency": ("db_read_latency_ms", "database read latency", "database"),
    "db_write_latency": ("db_write_latency_ms", "database write latency", "database"),
    "log_write_latency": ("log_write_latency_ms", "log write latency", "log"),
}


def _n(value: float, decimals: int = 3) -> str:
    return fmt(value, decimals)


def other_base(base: str) -> str:
    return "decimal" if base == "binary" else "binary"


def base_words(base: str, unit: str) -> str:
    """'GB = 2^30 bytes' or 'GB = 10^9 bytes'."""
    power = f"2^{10 * SIZE_UNITS[unit]}" if base == "binary" else f"10^{3 * SIZE_UNITS[unit]}"
    return f"{unit} = {power} bytes"


# Where a run's stored IOPS and rates come from, by runs.origin, in the words a finding prints.
RATE_SOURCES = {"report": "report", "hosts": "its hosts' reports added up", "document_table": "document table"}
# Stored figures only a linked perfmon export gives (transfer_mb_per_s may come from a document table).
PERFMON_ONLY = ("read_mb_per_s", "write_mb_per_s", "disk_transfers_per_s")


def rate_candidates(run: RunInfo, metric: str) -> list[Candidate]:
    """Achieved, log, total IOPS, database reads/writes per second, throughput of one run."""
    figure, published, words = RATE_METRICS[metric]
    value = run.figures.get(figure)
    source = RATE_SOURCES.get(run.origin, "document table")
    if metric in ("db_reads_per_s", "db_writes_per_s") and run.origin == "document_table":
        value = None
    if value is None and published and published in run.published:
        value, source = run.published[published]["value"], "document table"
    if value is None:
        raise Unverifiable(f"no {words} stored for {run.name}")
    if figure == "transfer_mb_per_s" and run.figures.get(figure) is not None:
        source = str(run.figures.get("throughput_source") or source).replace("_", " ")  # perfmon or a table
    elif figure in PERFMON_ONLY and run.figures.get(figure) is not None:
        source = "perfmon"
    if source == "perfmon" and run.figures.get("perfmon_sample_window") in ("export", "mixed"):
        # export: no sample fell in the run's window; mixed: some counters had none in it
        source += ", samples outside the run's window included"
    primary = Candidate(value, f"{run.name} {words} ({source})", {"run": run.name, metric: value})
    return [primary, *_instance_sum_conventions(run, metric)]


def _instance_sum_conventions(run: RunInfo, metric: str) -> list[Candidate]:
    """The run's figure as the sum of per-instance values each rounded first (ESRP summaries do)."""
    columns = INSTANCE_SUMS.get(metric)
    if not columns or not run.instances:
        return []
    role = "log" if metric == "log_iops" else "database"
    values = [i.values.get(c) for i in run.instances if i.volume_role in (None, role) for c in columns]
    values = [v for v in values if v is not None]
    if not values:
        return []
    out = []
    for places in (0, 1, 2):
        total = sum(rounded(v, places) for v in values)
        how = f"the sum of {len(values)} per-instance values each rounded to {decimals_words(places)}"
        out.append(Candidate(total, how,
                             {"run": run.name, "instance_values": len(values), "rounded_to_decimals": places},
                             CONVENTION, "from per-instance values rounded before they were added up"))
    return out


def latency_candidates(run: RunInfo, metric: str, unit: str) -> list[Candidate]:
    """Average latency over the run's database (or log) instances, in ms or s."""
    column, words, role = LATENCY_METRICS[metric]
    scale = 1000.0 if unit == "s" else 1.0
    if run.origin == "hosts":  # one test on several hosts: its hosts' latencies weighted by their IOPS, or
        weighted = _only(None if run.figures.get(column) is None else run.figures[column] / scale,  # plainly
                         f"{words} (its hosts' reports, weighted by IOPS)", run, f"{metric}_{unit}")
        plain = run.figures.get(f"{column}_plain_mean")  # averaged, as ESRP's aggregate table defines it
        return weighted + ([] if plain is None else [Candidate(
            plain / scale, f"{run.name} {words} (the plain average of its hosts' reports)",
            {"run": run.name, f"{metric}_{unit}": plain / scale})])
    if run.origin != "report" or not run.instances:
        published = run.published.get(column)
        if published is None:
            raise Unverifiable(f"no {words} stored for {run.name}")
        value = published["value"] / scale
        return [Candidate(value, f"{run.name} {words} (document table)", {"run": run.name, f"{metric}_{unit}": value})]
    values = [i.values[column] for i in run.instances
              if i.volume_role in (None, role) and i.values.get(column) is not None]
    if not values:
        raise Unverifiable(f"no {words} in the report of {run.name}")
    # The report's own printed precision (2007 prints seconds to 3 decimals) bounds what it can confirm.
    source_scale = 1000.0 if run.latency_unit == "s" else 1.0
    half_unit_ms = 0.5 * 10.0 ** -printed_precision([v / source_scale for v in values]) * source_scale
    value = mean(values) / scale
    over = f"{len(values)} instance{'s' if len(values) != 1 else ''}"
    out = [Candidate(value, f"{run.name} mean {words} over {over}", {
        "run": run.name, f"{metric}_{unit}": value, "instances": len(values)}, uncertainty=half_unit_ms / scale)]
    for places in (0, 1):
        how = f"the mean of {len(values)} per-instance latencies each rounded to {decimals_words(places)} (ms)"
        out.append(Candidate(mean(rounded(v, places) for v in values) / scale, how,
                             {"run": run.name, "rounded_to_decimals": places}, CONVENTION,
                             "from per-instance latencies rounded before they were averaged"))
    return out


def _only(value, words: str, run: RunInfo, key: str) -> list[Candidate]:
    if value is None:
        raise Unverifiable(f"no {words} stored for {run.name}")
    return [Candidate(float(value), f"{run.name} {words}", {"run": run.name, key: value})]


def counter_candidates(run: RunInfo) -> list[Candidate]:
    value = next((v for k, v in run.counters.items() if "processor time" in k), None)
    return _only(value, "average % Processor Time (host counters)", run, "cpu_percent")


def power_candidates(run: RunInfo, solution: SolutionInfo | None, which: str, is_headline: bool) -> list[Candidate]:
    """A run's idle or active power: its power log, else its table row, else the manifest's figure."""
    column = f"{which}_power_w"
    if run.power.get(column) is not None:
        return _only(run.power[column], f"{which} power from its power log (W)", run, column)
    if column in run.published:
        return _only(run.published[column]["value"], f"{which} power (document table, W)", run, column)
    if is_headline and solution is not None and getattr(solution, column) is not None:
        value = getattr(solution, column)
        return [Candidate(value, f"{solution.key} {which} power (manifest, W)", {column: value})]
    raise Unverifiable(f"no {which} power measured for {run.name}")


def run_scalar_candidates(run: RunInfo, metric: str) -> list[Candidate]:
    """Counts and settings a report states: target IOPS, threads, databases, mailboxes."""
    if metric == "target_iops":
        return _only(run.row.get("target_iops"), "target IOPS", run, metric)
    if metric == "thread_count":
        return _only(run.row.get("thread_count"), "thread count", run, metric)
    if metric in ("storage_groups", "databases"):
        count = run.figures.get("database_instances") or run.row.get("database_file_count")
        return _only(count, "database instances (storage groups / databases)", run, metric)
    if metric == "mailboxes":
        return _only(run.config.get("mailbox_count"), "mailbox count (test configuration)", run, metric)
    raise KeyError(metric)


def mailbox_size_candidates(run: RunInfo, unit: str) -> list[Candidate]:
    quota = run.config.get("mailbox_quota_mb")
    if quota is None:
        raise Unverifiable(f"no mailbox quota stored for {run.name} (no test configuration linked)")
    factor = size_factor(unit, "binary") / size_factor("MB", "binary")  # Jetstress's MB and GB are binary
    return [Candidate(quota / factor, f"{run.name} mailbox quota", {"run": run.name, "mailbox_quota_mb": quota})]


def database_size_candidates(run: RunInfo, metric: str, unit: str) -> list[Candidate]:
    column = "initial_database_bytes" if metric == "initial_database_size" else "final_database_bytes"
    size = run.row.get(column)
    words = column.split("_")[0] + " database size"
    if size is None:
        raise Unverifiable(f"no {words} stored for {run.name}")
    return size_candidates(size, unit, f"{run.name} {words} {size:,} bytes", {"run": run.name, column: size}, "binary")


def size_candidates(size_bytes: float, unit: str, how: str, inputs: dict, base: str) -> list[Candidate]:
    """A size in the claim's unit: in `base` first, then in the other prefix base."""
    other = other_base(base)
    return [
        Candidate(size_bytes / size_factor(unit, base), f"{how} in {base_words(base, unit)}", inputs),
        Candidate(size_bytes / size_factor(unit, other), f"{how} in {base_words(other, unit)}", inputs, CONVENTION,
                  f"with {base_words(other, unit)} instead of {base_words(base, unit)}"),
    ]


def backup_candidates(run: RunInfo, metric: str) -> list[Candidate]:
    if not run.backup_mb_per_s:
        raise Unverifiable(f"no backup statistics stored for {run.name}")
    per_server = metric.endswith("per_server")
    value = sum(run.backup_mb_per_s) if per_server else mean(run.backup_mb_per_s)
    words = "sum" if per_server else "mean"
    return [Candidate(value, f"{run.name} {words} of {len(run.backup_mb_per_s)} databases' backup MB/s",
                      {"run": run.name, "databases": len(run.backup_mb_per_s), metric: value})]


def replay_candidates(run: RunInfo) -> list[Candidate]:
    if not run.recovery:
        raise Unverifiable(f"no soft-recovery statistics stored for {run.name}")
    elapsed = mean(e for e, _ in run.recovery)
    logs = mean(n for _, n in run.recovery)
    return [Candidate(elapsed / logs, f"{run.name} mean replay time {_n(elapsed)} s / mean {_n(logs)} logs replayed",
                      {"run": run.name, "mean_elapsed_s": elapsed, "mean_logs_replayed": logs})]


def run_metric_candidates(run: RunInfo, metric: str, unit: str | None, solution: SolutionInfo | None,
                          is_headline: bool) -> list[Candidate]:
    """Every metric that is a property of one run."""
    if metric in RATE_METRICS:
        return rate_candidates(run, metric)
    if metric in LATENCY_METRICS:
        return latency_candidates(run, metric, unit or "ms")
    if metric == "cpu_percent":
        return counter_candidates(run)
    if metric in ("active_power", "idle_power"):
        return power_candidates(run, solution, metric.split("_")[0], is_headline)
    if metric in ("target_iops", "thread_count", "storage_groups", "databases", "mailboxes"):
        return run_scalar_candidates(run, metric)
    if metric == "mailbox_size":
        return mailbox_size_candidates(run, unit or "MB")
    if metric in ("initial_database_size", "final_database_size"):
        return database_size_candidates(run, metric, unit or "GB")
    if metric.startswith("backup_mb_per_s"):
        return backup_candidates(run, metric)
    if metric == "log_replay_time_per_log":
        return replay_candidates(run)
    raise KeyError(metric)


RUN_LEVEL = set(RATE_METRICS) | set(LATENCY_METRICS) | {
    "cpu_percent", "active_power", "idle_power", "target_iops", "thread_count", "storage_groups", "databases",
    "mailboxes", "mailbox_size", "initial_database_size", "final_database_size", "backup_mb_per_s_per_database",
    "backup_mb_per_s_per_server", "log_replay_time_per_log"}


def raw_capacity_bytes(solution: SolutionInfo, basis: str = "all") -> int:
    groups = [d for d in solution.disks if counts_on_basis(d.role, basis)]
    if not groups or any(d.raw_capacity_bytes is None for d in groups):
        raise Unverifiable(f"no per-disk capacity for every disk group of {solution.key}")
    return sum(d.count * d.raw_capacity_bytes for d in groups)


def usable_bytes(solution: SolutionInfo) -> int:
    if solution.usable_capacity_bytes is None:
        raise Unverifiable(f"no usable capacity for {solution.key}")
    return solution.usable_capacity_bytes


def price(solution: SolutionInfo) -> float:
    if not solution.list_price:
        raise Unverifiable(f"no list price for {solution.key}")
    return solution.list_price


def headline(data: AuditData, solution: SolutionInfo) -> RunInfo:
    run = data.headline_run(solution.id)
    if run is None:
        raise Unverifiable(f"no median run with total IOPS for {solution.key}")
    return run
