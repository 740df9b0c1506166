"""Jetstress report sections -> records: label/value rows, per-instance I/O tables,
host counters, backup/soft-recovery/checksum statistics, database configuration.

Columns are found by header text, resolved once per table; a cell that should be a number
and is not stops the parse with the section, instance, column and line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.jetstress_html_dom import Grid, GridRow, LabelledValue, Section
from esrpdb.ingest.jetstress_vocabulary import (
    AGGREGATE_ROW_LABELS,
    BACKUP_COLUMNS,
    BACKUP_DISPLAY,
    CHECKSUM_INSTANCE_HEADER,
    HOST_COLUMNS,
    HOST_DISPLAY,
    LATENCY_UNIT_BY_SCOPE,
    RECOVERY_COLUMNS,
    RECOVERY_DISPLAY,
    Columns,
    disk_field,
    interpret_label,
    io_scope_for_title,
    normalise_label,
    parse_duration_seconds,
    parse_instance_paths,
    parse_int,
    parse_number,
    parse_volume_label,
    resolve_columns,
    resolve_io_columns,
)
from esrpdb.ingest.records import (
    BackupRow,
    ChecksumRow,
    HostCounter,
    InstanceConfig,
    IoRow,
    IoTable,
    JetstressReport,
    KeyValue,
    RecoveryRow,
)


def apply_key_values(source: str, section: Section, pairs: list[LabelledValue], report: JetstressReport) -> None:
    """Keep every row in `key_values`, and fill the typed field its label names."""
    for pair in pairs:
        report.key_values.append(KeyValue(section.title, pair.label, pair.value, pair.label_line))
        try:
            fields = interpret_label(pair.label, pair.value) or {}
        except ValueError as error:
            raise ParseError(source, f'"{pair.label}": {error}', section=section.title, line=pair.value_line) from None
        for name, value in fields.items():
            setattr(report, name, value)


def instances(section: Section, pairs: list[LabelledValue], warnings: list[str]) -> list[InstanceConfig]:
    """"Database Configuration": instance name, then "Log path: …" and "Database: …" lines."""
    found = []
    for pair in pairs:
        log_path, databases, other = parse_instance_paths(pair.value)
        if other:
            warnings.append(f"{section.title}: {pair.label}: lines not understood: {other}")
        found.append(InstanceConfig(pair.label, databases, log_path))
    return found


class _Table:
    """One grid with its columns resolved: yields each row's cells by field name."""

    def __init__(self, source: str, section: Section, grid: Grid, columns: Columns, warnings: list[str]):
        self.source, self.section, self.grid, self.columns = source, section, grid, columns
        for header in columns.unknown:
            warnings.append(f'{section.title}: column "{header}" not recognised; its values are not kept')
        for header in columns.duplicate:
            warnings.append(f'{section.title}: column "{header}" repeats a column already read; ignored')
        self.extra_cells = False

    def rows(self) -> Iterator[tuple[GridRow, dict[str, tuple[str, str, int | None]]]]:
        """(row, {field: (text, header, line)}); the only place cells are taken by position."""
        width = len(self.grid.headers)
        for row in self.grid.rows:
            if len(row.cells) < width:
                raise ParseError(
                    self.source,
                    f'row "{row.cells[0]}" has {len(row.cells)} cells but the header has {width}; the table looks truncated',
                    section=self.section.title,
                    line=row.line,
                )
            self.extra_cells |= len(row.cells) > width
            cells = zip(self.columns.fields, row.cells, self.grid.headers, row.lines)
            yield row, {field: (text, header, line) for field, text, header, line in cells if field}

    def number(self, row_name: str, cell: tuple[str, str, int | None], parse: Callable[[str], object] = parse_number):
        text, header, line = cell
        try:
            return parse(text)
        except ValueError as error:
            raise ParseError(
                self.source, f'instance "{row_name}", column "{header}": {error}', section=self.section.title, line=line
            ) from None


def _resolve_only(source: str, section: Section, grid: Grid, resolve: Callable[[], Columns]) -> Columns:
    try:
        return resolve()
    except ValueError as error:
        raise ParseError(source, str(error), section=section.title, line=grid.line) from None


def _resolve(source: str, section: Section, grid: Grid, resolve: Callable[[], Columns], warnings: list[str]) -> _Table:
    return _Table(source, section, grid, _resolve_only(source, section, grid, resolve), warnings)


def io_table(source: str, section: Section, grid: Grid, warnings: list[str]) -> IoTable:
    """A per-instance I/O table; 2007 LogicalDisk rows map onto db_*/log_* by volume role."""
    scope = io_scope_for_title(section.title)
    table = _resolve(source, section, grid, lambda: resolve_io_columns(grid.headers, scope), warnings)
    rows = []
    for row, cells in table.rows():
        name = cells.pop("instance")[0]
        role = None
        if scope == "disk_subsystem":
            try:
                role, name = parse_volume_label(name)
            except ValueError as error:
                warnings.append(f"{section.title}: line {row.line}: row skipped: {error}")
                continue
        values = {field: table.number(name, cell) for field, cell in cells.items()}
        if role is not None:
            values = {disk_field(role, suffix): value for suffix, value in values.items()}
        rows.append(IoRow(instance=name, volume_role=role, line=row.line, **values))
    _warn_extra(table, warnings)
    unit = LATENCY_UNIT_BY_SCOPE.get(scope, "ms")
    return IoTable(scope=scope, latency_unit=unit, headers=grid.headers, rows=tuple(rows), line=section.line)


def host_counters(source: str, section: Section, grid: Grid, warnings: list[str]) -> list[HostCounter]:
    resolve = lambda: resolve_columns(grid.headers, HOST_COLUMNS, ("name", "average"), display=HOST_DISPLAY, instance_pattern=None)  # noqa: E731
    table = _resolve(source, section, grid, resolve, warnings)
    counters = []
    for _row, cells in table.rows():
        name = cells["name"][0]
        stats = {stat: table.number(name, cells[stat]) if stat in cells else None for stat in ("average", "minimum", "maximum")}
        counters.append(HostCounter(name=name, **stats))
    _warn_extra(table, warnings)
    return counters


def _statistics(
    source: str, section: Section, grid: Grid, columns: dict[str, str], display: dict[str, str], report: JetstressReport
) -> Iterator[tuple[str, _Table, dict[str, tuple[str, str, int | None]]]]:
    """Rows of a backup/recovery statistics table; "Avg"/"Sum" rows go to key_values instead."""
    resolve = lambda: resolve_columns(grid.headers, columns, tuple(display), display=display, instance_pattern=None)  # noqa: E731
    table = _resolve(source, section, grid, resolve, report.warnings)
    for _row, cells in table.rows():
        name = cells.pop("instance")[0]
        if normalise_label(name) in AGGREGATE_ROW_LABELS:
            for text, header, line in cells.values():
                report.key_values.append(KeyValue(section.title, f"{name}: {header}", text, line))
            continue
        yield name, table, cells
    _warn_extra(table, report.warnings)


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
    resolve = lambda: resolve_columns(grid.headers, {}, ("instance",), instance_pattern=CHECKSUM_INSTANCE_HEADER)  # noqa: E731
    table = _Table(source, section, grid, _resolve_only(source, section, grid, resolve), warnings=[])
    rows = []
    for row, _cells in table.rows():
        cells = list(zip(table.columns.fields, grid.headers, row.cells))
        name = next(text for field, _header, text in cells if field == "instance")
        values = []
        for field, header, text in cells:
            if field == "instance":
                continue
            try:
                values.append((header, parse_duration_seconds(text)))
            except ValueError:
                warnings.append(f'{section.title}: line {row.line}: "{header}" value {text!r} is not a number; kept as None')
                values.append((header, None))
        rows.append(ChecksumRow(instance=name, values=tuple(values)))
    return rows


def _warn_extra(table: _Table, warnings: list[str]) -> None:
    if table.extra_cells:
        warnings.append(f"{table.section.title}: some rows have more cells than headers; the extra cells are ignored")
