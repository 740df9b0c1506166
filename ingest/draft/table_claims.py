"""Figures a document's tables print, one claim per labelled cell: the row's metric, the column's system or
run. Split from published.py (prose); both hand DraftClaims to systems.py. Pure."""

from __future__ import annotations

import functools
import re
from decimal import Decimal

from ..formats.document.records import DocumentTable
from .deferred import deferred
from .published import NUMBER, DraftClaim
from .stated_basis import ACTIVE_BASIS

# Table row labels -> (metric, unit); first match wins. Units as the manifest vocabulary names them.
ROW_METRICS: tuple[tuple[re.Pattern[str], str, str | None], ...] = tuple(
    (deferred(p, re.IGNORECASE), m, u) for p, m, u in (
        (r"^(?:list |total )?price\b|^cost\b", "list_price", "USD"),
        (r"iops per (?:dollar|\$)|iops/\$", "iops_per_dollar", "IOPS/USD"),
        (r"(?:mb|megabytes) per (?:dollar|\$)", "mb_per_dollar", "MB/USD"),
        (r"iops per watt|iops/w\b", "perf_per_watt", "IOPS/W"),
        (r"^achieved (?:transactional )?iops ?(?:/|per) ?(?:active )?(?:disk|drive|spindle|ssd|hdd)", "achieved_iops_per_disk",
         "IOPS/disk"),
        (r"reads/second per disk|reads per second per disk", "db_reads_per_s_per_disk", "IOPS/disk"),
        (r"^log writes/second per disk", "log_iops_per_disk", "IOPS/disk"),
        (r"writes/second per disk|database disk writes per second per disk", "db_writes_per_s_per_disk", "IOPS/disk"),
        (r"iops ?(?:/|per) ?(?:active )?(?:disk|drive|spindle|ssd|hdd)", "total_iops_per_disk", "IOPS/disk"),
        (r"^(?:median )?achieved iops|^database iops|^database disks transfers", "achieved_iops", "IOPS"),
        (r"^average database disks? reads", "db_reads_per_s", "IOPS"),
        (r"^average database disks? writes", "db_writes_per_s", "IOPS"),
        (r"^average database disk read latency|^read latency", "db_read_latency", "ms"),
        (r"^average database disk write latency|^write latency", "db_write_latency", "ms"),
        (r"^average log disk write latency", "log_write_latency", "ms"),
        (r"^log disks writes", "log_iops", "IOPS"),
        (r"^mb read/sec per database", "backup_mb_per_s_per_database", "MB/s"),
        (r"^mb read/sec total per server", "backup_mb_per_s_per_server", "MB/s"),
        (r"time to (?:re)?play one log file", "log_replay_time_per_log", "s"),
        (r"^number of databases/host|^number of databases$", "databases", None),
        (r"^total database size for performance", "initial_database_size", "GB"),
        (r"^% storage capacity used by exchange database", "database_percent_of_formatted", "%"),
        (r"^(?:vm \d+ )?log iops", "log_iops", "IOPS"),
        (r"^(?:median |total )?iops(?: \(|$| -| –)", "total_iops", "IOPS"),
        (r"database disk reads", "db_reads_per_s", "IOPS"), (r"database disk writes", "db_writes_per_s", "IOPS"),
        (r"^(?:transaction(?:al)? )?log (?:disk )?writes", "log_iops", "IOPS"),
        (r"disk transfers(?:/sec| per second) from|average disk transfers per second", "disk_transfers_per_s", "IOPS"),
        (r"average disk read mb", "read_mb_per_s", "MB/s"), (r"average disk write mb", "write_mb_per_s", "MB/s"),
        (r"disk transfers mb", "throughput_mb_per_s", "MB/s"),
        (r"^idle power \(enclosure only\)", "enclosure_idle_power", "W"), (r"^idle power", "idle_power", "W"),
        (r"^active power", "active_power", "W"), (r"^performance per watt", "perf_per_watt", "IOPS/W"),
        (r"^(?:power|watts?)(?: \((?:w|watts)\))?\W+(?:when |while |at |under )?idle\b", "idle_power", "W"),
        (r"^power(?: \((?:w|watts)\))?$", "active_power", "W"),  # a system's one power figure is under load
        (r"^(?:while |when |at )?idle(?: power)?\s*\((?:w|watts)\)$", "idle_power", "W"),
        (r"^(?:when |under )?(?:active|load|loaded|busy)(?: power)?\s*\((?:w|watts)\)$", "active_power", "W"),
        (r"^(?:power|watts?)(?: \((?:w|watts)\))?\W+(?:when |while |at |under )?(?:active|load|loaded|in use|busy)\b",
         "active_power", "W"),
        (r"^db read latency", "db_read_latency", "s"), (r"^db write latency", "db_write_latency", "s"),
        (r"^logs? write latency", "log_write_latency", "s"),
        (r"^number (?:of )?(?:physical )?(?:disks|drives)|^total number of (?:disks|drives)", "disk_count", None),
        (r"^number of (?:exchange )?mailboxes(?!/| per)", "mailboxes", None), (r"^mailbox size \(mb\)", "mailbox_size", "MB"),
        (r"^number of storage groups", "storage_groups", None), (r"^thread count|^number of threads", "thread_count", None),
        (r"^total use?able space|^total formatted capacity|^formatted storage capacity|^use?able(?: \(formatted\))?$|"
         r"^use?able (?:capacity )?\(?gb\)?$",
         "usable_capacity", "GB"),
        (r"^total raw storage capacity", "raw_capacity", "GB"),
        (r"^database capacity utili.*raw|^database capacity utili(?=.*raw capacity)", "database_percent_of_raw", "%"),
        (r"^initial (?:total )?database size", "initial_database_size", "GB"),
        (r"^final database size", "final_database_size", "GB"),
        (r"raw (?:disk )?storage capacity utili|^storage capacity utili", "formatted_percent_of_raw", "%"),
        (r"^percentage formatted capacity used|^initial database percentage|^database capacity utili|"
         r"^initial database storage capacity", "database_percent_of_formatted", "%"),
        (r"^percentage raw storage capacity used", "database_percent_of_raw", "%"),
    ))
_RUN = deferred(r"\brun\s*(\d+)\b", re.IGNORECASE)
_FOR_EACH = deferred(rf"{NUMBER}\s+for\s+(?:the\s+)?([A-Za-z][\w-]*)")
_PERCENT_CELL = deferred(rf"{NUMBER}\s*%")
_LEADING_NUMBER = deferred(rf"^\s*(?:\([^)]*\)\s*)?{NUMBER}(?!\d|\.\d|/\d)")  # "117.2/s" is 117.2; "1/2" none
_CELL_NUMBER = deferred(rf"^\s*(?:US\s?\$|USD|\$)?\s?{NUMBER}\s*(?:%|percent|GB|MB|watts?)?\s*$", re.IGNORECASE)


_COUNTS_ALL = deferred(r"\btotal\b|\bphysical\b|\bin (?:the )?(?:system|solution)\b", re.IGNORECASE)
_COUNTS_ACTIVE = deferred(r"\bactive\b|\btested\b", re.IGNORECASE)


_PLUS_SPARES = deferred(r"\s*\d+\s*\+\s*\d+\s*(?:global\s+|hot\s+|dedicated\s+)*spares?\b", re.IGNORECASE)  # "44 + 4 spares"


_LABEL_UNIT = deferred(r"\((W|watts?|ms|msec|USD|\$|GB|TB|MB|%)\)", re.IGNORECASE)


def _other_unit(label: str, unit: str | None) -> bool:
    """A row whose label prints a unit of another kind than its IOPS metric's ("Total IOPS (W) per W", where a
    layout set a heading's "(W)" under the wrong column): no figure of that metric. "IOPS per $ (USD)" keeps it."""
    if unit is None or not unit.startswith("IOPS"):
        return False
    family = {"w": "W", "watt": "W", "watts": "W", "usd": "USD", "$": "USD", "ms": "ms", "msec": "ms",
              "gb": "size", "tb": "size", "mb": "size"}
    printed = {family[m[1].casefold()] for m in _LABEL_UNIT.finditer(label) if m[1].casefold() in family}
    return bool(printed - {unit.partition("/")[2]})


def _count_basis(label: str) -> str:
    """"Number of disks tested" counts the disks under load (the count the document divides by);
    "Total number …", "… physical disks …", "… in solution" count every disk (disk_roles.py reads the same)."""
    return "all" if _COUNTS_ALL.search(label) or not _COUNTS_ACTIVE.search(label) else "active"


@functools.lru_cache(maxsize=4096)  # pure, and asked of the same row labels for every table column
def _row_metric(label: str) -> tuple[str, str | None] | None:
    return next(((m, u) for pattern, m, u in ROW_METRICS if pattern.search(label)), None)


_MS = deferred(r"\bms\b|\bmsec\b|millisecond", re.IGNORECASE)
_SECONDS = deferred(r"\(s(?:ec)?\)|\bseconds?\b|\bsec\b(?!/)", re.IGNORECASE)
SECONDS_BELOW = 0.1  # a latency printed without a unit under this is in seconds (0.012), over it in ms (0.96, 12.3)


def latency_unit(label: str, cell: str, printed: str) -> str:
    """The unit a latency is printed in: the cell's or the label's word, else its size (a latency of 0.012
    is seconds, as Jetstress 2007 prints them; 0.96 or 12.3 are milliseconds)."""
    for text in (cell, label):
        if _MS.search(text):
            return "ms"
        if _SECONDS.search(text):
            return "s"
    try:
        return "s" if float(printed.replace(",", "")) < SECONDS_BELOW else "ms"
    except ValueError:
        return "ms"


_THOUSANDS = deferred(r"(?:US)?\$\s?(\d+(?:\.\d+)?)\s*([KM])", re.IGNORECASE)


def _scaled(match: re.Match[str]) -> str:
    """ "$61.5K" -> "61500": an amount written with a thousands or millions letter."""
    amount = Decimal(match[1]) * (1000 if match[2].upper() == "K" else 1_000_000)
    return format(amount.quantize(Decimal(1)) if amount == amount.to_integral() else amount.normalize(), "f")


def table_claims(table: DocumentTable) -> list[DraftClaim]:
    """One claim per labelled figure of a table: the row's metric, the column's solution or run."""
    found: list[DraftClaim] = []
    column_runs = [_RUN.search(c) for c in table.columns]
    for index, (column, named) in enumerate(zip(table.columns, column_runs)):
        if named and "median" in column.casefold() and table.line is not None:
            found.append(DraftClaim("median_run", f"Run {named[1]}", None, table.line,
                                    " ".join([table.stub or "", *table.columns]).strip(), column=index))
    for row in table.rows:
        label = row.label.strip()
        metric = _row_metric(label)
        if metric is None or row.line is None or re.match(r"^vm \d", label, re.IGNORECASE) \
                or _other_unit(label, metric[1]):
            continue
        row_run = _RUN.search(label)
        quote = " ".join([label, *row.values]).strip()
        for index, cell in enumerate(row.values):
            split = list(_FOR_EACH.finditer(cell))
            if len(split) > 1:  # "73 for HDDs 17 for SSDs": one figure per solution, named
                found.extend(DraftClaim(metric[0], m[1], metric[1], row.line, quote, named=m[2]) for m in split)
                continue
            scaled = _THOUSANDS.fullmatch(cell.strip()) if metric[1] == "USD" else None
            if scaled:  # "$98K", "$61.5K": the amount the document states, its printed form in the quote
                found.append(DraftClaim(metric[0], _scaled(scaled), "USD", row.line_of(index), quote, column=index))
                continue
            match = _CELL_NUMBER.match(cell) or (_PERCENT_CELL.search(cell) if metric[1] == "%" else None) \
                or _LEADING_NUMBER.match(cell)
            if not match:
                continue
            run = (f"Run {row_run[1]}" if row_run else
                   f"Run {column_runs[index][1]}" if index < len(column_runs) and column_runs[index] else None)
            name = metric[0]
            if name == "database_percent_of_formatted" and (
                    re.search(r"raw capacity", cell, re.IGNORECASE)  # the cell says what it is a percentage of
                    or (table.kind.startswith("esrp_") and re.match(r"database capacity utili", label, re.IGNORECASE))):
                name = "database_percent_of_raw"  # ESRP's template defines it as database size / total raw capacity
            basis = ("active" if _PLUS_SPARES.match(cell) else _count_basis(label)) if name == "disk_count" else \
                ("active" if ACTIVE_BASIS.search(label) else None) if name.endswith("_per_disk") else None
            unit = latency_unit(label, cell, match[1]) if name.endswith("_latency") else metric[1]
            found.append(DraftClaim(name, match[1], unit, row.line_of(index), quote, column=index, run=run,
                                    disk_basis=basis))
    return found
