"""Jetstress report sections -> records: label/value rows, per-instance I/O tables,
host counters, backup/soft-recovery/checksum statistics, database configuration.

Columns are found by header text, resolved once per table; a cell that should be a number
and is not stops the parse with the section, instance, column and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple, cast

from ...errors import ParseError
from ...jetstress.records import (
    BackupRow,
    ChecksumRow,
    HostCounter,
    InstanceConfig,
    IoRow,
    IoScope,
    IoTable,
    JetstressReport,
    KeyValue,
    LatencyUnit,
    RecoveryRow,
    VolumeRole,
)
from ...jetstress.values import (
    parse_duration_seconds,
    parse_instance_paths,
    parse_int,
    parse_number,
    parse_volume_label,
)
from ...jetstress.vocabulary import (
    AGGREGATE_ROW_LABELS,
    BACKUP_COLUMNS,
    BACKUP_DISPLAY,
    CHECKSUM_INSTANCE_HEADER,
    HOST_COLUMNS,
    HOST_DISPLAY,
    HOST_STATS,
    LATENCY_UNIT_BY_SCOPE,
    RECOVERY_COLUMNS,
    RECOVERY_DISPLAY,
    Columns,
    disk_field,
    interpret_label,
    io_scope_for_title,
    normalise_label,
    resolve_columns,
    resolve_io_columns,
)
from .grid import Grid, GridRow, LabelledValue, Section


def apply_key_values(source: str, section: Section, pairs: list[LabelledValue], report: JetstressReport,
                     *, cite_value: bool = False) -> None:
    """Keep every row in `key_values`, and fill the typed field its label names. `cite_value`: each row is
    cited on its value's line (a document printing "Overall Test Result" above "Pass": the words judged)."""
    for pair in pairs:
        line = pair.value_line if cite_value else pair.label_line
        report.key_values.append(KeyValue(section.title, pair.label, pair.value, line))
        try:
            fields = interpret_label(pair.label, pair.value) or {}
        except ValueError as error:
            raise ParseError(source, f'"{pair.label}": {error}', section=section.title, line=pair.value_line) from None
        for name, value in fields.items():
            setattr(report, name, value)


def instances(section: Section, pairs: list[LabelledValue], warnings: list[str]) -> list[InstanceConfig]:
    """ "Database Configuration": instance name, then "Log path: …" and "Database: …" lines."""
    found = []
    for pair in pairs:
        log_path, databases, other = parse_instance_paths(pair.value)
        if other:
            warnings.append(f"{section.title}: {pair.label}: lines not understood: {other}")
        found.append(InstanceConfig(pair.label, databases, log_path))
    return found


class Cell(NamedTuple):
    text: str
    header: str
    line: int | None


class _Table:
    """One grid with its columns resolved: yields each row's cells by field name."""

    def __init__(self, source: str, section: Section, grid: Grid, columns: Columns, warnings: list[str]):
        self.source, self.section, self.grid, self.columns, self.warnings = source, section, grid, columns, warnings

    def warn_unclaimed(self) -> None:
        for header in self.columns.unknown:
            self.warnings.append(f'{self.section.title}: column "{header}" not recognised; its values are not kept')
        for header in self.columns.duplicate:
            self.warnings.append(f'{self.section.title}: column "{header}" repeats a column already read; ignored')

    def rows(self) -> Iterator[tuple[GridRow, dict[str, Cell], list[Cell]]]:
        """(row, {field: cell}, cells no field claims): the only place cells are taken by position."""
        width, extra = len(self.grid.headers), False
        for row in self.grid.rows:
            if len(row.cells) < width:
                raise ParseError(
                    self.source,
                    f'row "{row.cells[0]}" has {len(row.cells)} cells but the header has {width}; '
                    "the table looks truncated",
                    section=self.section.title,
                    line=row.line,
                )
            extra |= len(row.cells) > width
            claimed, unclaimed = {}, []
            for field, text, header, line in zip(
                self.columns.fields, row.cells, self.grid.headers, row.lines, strict=False
            ):
                if field:
                    claimed[field] = Cell(text, header, line)
                else:
                    unclaimed.append(Cell(text, header, line))
            yield row, claimed, unclaimed
        if extra:
            self.warnings.append(f"{self.section.title}: rows with more cells than headers; extra cells ignored")

    def number(self, row_name: str, cell: Cell, parse: Callable[[str], object] = parse_number):
        try:
            return parse(cell.text)
        except ValueError as error:
            message = f'instance "{row_name}", column "{cell.header}": {error}'
            raise ParseError(self.source, message, section=self.section.title, line=cell.line) from None


def _table(
    source: str, section: Section, grid: Grid, warnings: list[str], resolve: Callable[..., Columns], *args, **kwargs
) -> _Table:
    """Resolve the grid's headers with `resolve(headers, *args, **kwargs)`; a missing column is a ParseError."""
    try:
        columns = resolve(grid.headers, *args, **kwargs)
    except ValueError as error:
        raise ParseError(source, str(error), section=section.title, line=grid.line) from None
    return _Table(source, section, grid, columns, warnings)


def io_table(source: str, section: Section, grid: Grid, warnings: list[str]) -> IoTable:
    """A per-instance I/O table; 2007 LogicalDisk rows map onto db_*/log_* by volume role."""
    scope = io_scope_for_title(section.title)
    table = _table(source, section, grid, warnings, resolve_io_columns, scope)
    table.warn_unclaimed()
    rows = []
    for row, cells, _ in table.rows():
        name, role = cells.pop("instance").text, None
        values = {field: table.number(name, cell) for field, cell in cells.items()}
        if scope == "disk_subsystem":
            try:
                role, name = parse_volume_label(name)
            except ValueError as error:
                role = _role_by_reads(name, values)
                if role is None:
                    warnings.append(f"{section.title}: line {row.line}: row skipped: {error}")
                    continue
                warnings.append(f"{section.title}: line {row.line}: volume {name!r} names no role; taken as a {role} "
                                f"volume by its reads ({values.get('reads_per_s')}/s): a test only writes its logs")
        if role is not None:
            values = {disk_field(role, suffix): value for suffix, value in values.items()}
        rows.append(IoRow(instance=name, volume_role=cast(VolumeRole, role), line=row.line, **values))
    unit = LATENCY_UNIT_BY_SCOPE.get(scope, "ms")
    return IoTable(scope=cast(IoScope, scope), latency_unit=cast(LatencyUnit, unit), headers=grid.headers, rows=tuple(rows),
                   line=section.line)


_BARE_VOLUME = re.compile(r"[A-Za-z]:\\?")


def _role_by_reads(name: str, values: dict) -> str | None:
    """A volume printed as its drive letter alone ("E:"): Jetstress reads its databases and only writes
    its logs, so a volume read from is a database volume and one written but never read a log volume."""
    reads, writes = values.get("reads_per_s"), values.get("writes_per_s")
    if not _BARE_VOLUME.fullmatch(name.strip()) or reads is None or writes is None:
        return None
    return "database" if reads > 0 else "log" if writes > 0 else None


def host_counters(source: str, section: Section, grid: Grid, warnings: list[str]) -> list[HostCounter]:
    """ "Host System Performance": Counter / Average / Minimum / Maximum."""
    table = _table(
        source,
        section,
        grid,
        warnings,
        resolve_columns,
        HOST_COLUMNS,
        ("name", "average"),
        display=HOST_DISPLAY,
        instance_pattern=None,
    )
    table.warn_unclaimed()
    counters = []
    for row, cells, _ in table.rows():
        name = cells["name"].text
        stats = {stat: table.number(name, cells[stat]) if stat in cells else None for stat in HOST_STATS}
        counters.append(HostCounter(name=name, **stats, line=row.line))
    return counters


_ESE_INSTANCE = re.compile(r"\s*instance\s*\d+(\.\d+)?\s*$", re.IGNORECASE)


def _statistics(
    source: str, section: Section, grid: Grid, columns: dict[str, str], display: dict[str, str], report: JetstressReport
) -> Iterator[tuple[str, _Table, dict[str, Cell]]]:
    """Rows of a backup/recovery statistics table; "Avg"/"Sum" rows go to key_values instead."""
    table = _table(
        source,
        section,
        grid,
        report.warnings,
        resolve_columns,
        columns,
        tuple(display),
        display=display,
        instance_pattern=None,
    )
    table.warn_unclaimed()
    rows = [(cells.pop("instance").text, cells) for _, cells, _ in table.rows()]
    # Jetstress names ESE instances "Instance<pid>.<n>"; when the table's rows do, a row that does
    # not (real 2013 reports end with summary rows under other labels) is no instance.
    named = any(_ESE_INSTANCE.match(name) for name, _ in rows)
    for name, cells in rows:
        aggregate = normalise_label(name) in AGGREGATE_ROW_LABELS
        if aggregate or (named and not _ESE_INSTANCE.match(name)):
            if not aggregate:
                line = next(iter(cells.values())).line if cells else section.line
                report.warnings.append(f"{section.title}: line {line}: row {name!r} names no database instance; "
                                       "kept as a summary value, not an instance")
            for cell in cells.values():
                report.key_values.append(KeyValue(section.title, f"{name}: {cell.header}", cell.text, cell.line))
            continue
        yield name, table, cells


def backup_rows(source: str, section: Section, grid: Grid, report: JetstressReport) -> list[BackupRow]:
    return [
        BackupRow(
            instance=name,
            database_size_mb=table.number(name, cells["database_size_mb"]),
            elapsed_seconds=table.number(name, cells["elapsed_seconds"], parse_duration_seconds),
            mb_per_s=table.number(name, cells["mb_per_s"]),
        )
        for name, table, cells in _statistics(source, section, grid, BACKUP_COLUMNS, BACKUP_DISPLAY, report)
    ]


def recovery_rows(source: str, section: Section, grid: Grid, report: JetstressReport) -> list[RecoveryRow]:
    return [
        RecoveryRow(
            instance=name,
            log_files_replayed=table.number(name, cells["log_files_replayed"], parse_int),
            elapsed_seconds=table.number(name, cells["elapsed_seconds"], parse_duration_seconds),
        )
        for name, table, cells in _statistics(source, section, grid, RECOVERY_COLUMNS, RECOVERY_DISPLAY, report)
    ]


def checksum_rows(source: str, section: Section, grid: Grid, warnings: list[str]) -> list[ChecksumRow]:
    """DBChecksum statistics: the layout is not known, so every column but the instance is
    kept by its header; a value that is neither a number nor a duration becomes None."""
    table = _table(
        source, section, grid, warnings, resolve_columns, {}, ("instance",), instance_pattern=CHECKSUM_INSTANCE_HEADER
    )
    rows = []
    for _row, cells, others in table.rows():
        values = []
        for cell in others:
            try:
                values.append((cell.header, parse_duration_seconds(cell.text)))
            except ValueError:
                where = f"{section.title}: line {cell.line}"
                warnings.append(f'{where}: "{cell.header}" value {cell.text!r} is not a number; kept as None')
                values.append((cell.header, None))
        rows.append(ChecksumRow(instance=cells["instance"].text, values=tuple(values)))
    return rows
