"""The document format's reader: a document's bytes -> its `ReportDocument` (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that detects files or writes documents read elsewhere (an ingest's writer, handed a document
read by its worker) never imports the reader, the PDF engine and the HTML tables it builds on.
"""

from __future__ import annotations

import re
from typing import cast

from ...errors import ParseError
from ...jetstress.records import JetstressReport, KeyValue, ReportType
from ...jetstress.vocabulary import (
    LABEL_FIELDS,
    REQUIRED_SECTION,
    SUMMARY_REQUIRED,
    expected_sections,
    normalise_label,
    release_from_title,
    report_type_from_subtitle,
)
from ...pdf import layout as pdf_layout, text as pdf_text
from ..jetstress_html import tables as html_tables
from . import number_marks
from .bullet_tables import bullet_tables
from .document_bytes import decode
from .fingerprint import content_fingerprint
from .identify import PDF_MAGIC
from .label_lines import paired_lines
from .lines import Line, document_title, split_lines
from .log import read_log
from .program import esrp_program
from .records import ReportDocument
from .reports import RawReport, RawSection, find_reports
from .sections import (
    apply_pairs,
    configuration_pairs,
    key_value_pairs,
    read_table_section,
    repair_line,
    shared_section,
)
from .tables import CAPTION, read_tables

# --- parse ----------------------------------------------------------------------------


def read_lines(name: str, data: bytes, warnings: list[str] | None = None) -> tuple[list[Line], pdf_text.PdfText | None]:
    """The document's numbered lines (a PDF's text extracted first), as `parse` reads them."""
    warnings = warnings if warnings is not None else []
    pdf = None
    if data.startswith(PDF_MAGIC):
        pdf = pdf_layout.extract_layout(name, data)
        text = pdf.text
        warnings.extend(pdf.warnings)
    else:
        text = decode(name, data, warnings)
    return split_lines(text, warnings, pdf.page_starts if pdf is not None else ()), pdf


def parse(name: str, data: bytes) -> ReportDocument:
    """Every report and table the document prints; see the module docstring."""
    warnings: list[str] = []
    lines, pdf = read_lines(name, data, warnings)
    reports, consumed, spans = [], set[int](), []
    for raw in (raw for raw in find_reports(lines) if _kept(raw, warnings)):
        report = build_report(name, raw)
        if _holds_anything(report):
            reports.append(report)
            consumed.update(range(raw.first, raw.last + 1))
            spans.append((raw.first, raw.last))  # these lines are the report's, not document tables
        else:
            warnings.append(f'line {raw.line}: "{raw.sections[0].title}" starts no report: nothing a report holds '
                            "follows it; ignored")
    marks = number_marks.convention(lines, consumed)
    if marks == "comma":
        lines = number_marks.with_decimal_points(lines, consumed)
        warnings.append("line 1: the document writes decimals with a comma (1.234,5); its figures outside the "
                        "Jetstress reports are read that way")
    elif marks == "space":
        lines = number_marks.with_comma_groups(lines, consumed)
        warnings.append("line 1: the document groups thousands with a space (12 000); its figures outside the "
                        "Jetstress reports are read that way")
    lines = paired_lines(lines, consumed, CAPTION)  # one cell a line: the rows a tab-separated table prints
    machines = frozenset(r.machine_name.strip().casefold() for r in reports if r.machine_name and r.machine_name.strip())
    found_tables = read_tables(lines, consumed, warnings, machines)
    found_tables += bullet_tables(lines, consumed, lambda number: _heading_above(lines, number))
    if not reports and not found_tables:
        raise ParseError(name, 'no Jetstress report (no "Test Result Report", "Test Summary" or statistics heading) '
                         "and no table with a label column was found; not an ESRP or whitepaper document")
    title = document_title(lines)
    document = ReportDocument(name, title, reports, found_tables, warnings, title_line=_line_of(lines, title),
                              lines=lines, program=esrp_program(lines), report_spans=spans)
    document.fingerprint = content_fingerprint(document)
    if pdf is not None:
        document.pages = len(pdf.page_starts)
        document.page_starts = tuple(pdf.page_starts)
        document.warnings = [pdf_text.with_pages(w, pdf) for w in document.warnings]
        for report in reports:
            report.warnings = [pdf_text.with_pages(w, pdf) for w in report.warnings]
    return document


def _heading_above(lines: list[Line], number: int) -> str:
    """The title of what starts at line `number`: the nearest heading above it."""
    return next((line.text for line in reversed(lines) if line.number < number and line.heading), "")


def _line_of(lines: list[Line], title: str | None) -> int | None:
    """The number of the line the title starts on."""
    if not title:
        return None
    return next((line.number for line in lines if line.text and title.startswith(line.text)), None)


def _kept(raw: RawReport, warnings: list[str]) -> bool:
    if not raw.sections:
        warnings.append(f'line {raw.line}: report title "{raw.subtitle}" is followed by no report section; ignored')
    return bool(raw.sections)


def _holds_anything(report: JetstressReport) -> bool:
    """A report shows itself by a Jetstress label, table or log entry; other rows under a stray heading do not count."""
    known = any(normalise_label(kv.label) in LABEL_FIELDS for kv in report.key_values if kv.section != "Document")
    return bool(known or report.io_tables or report.host_counters or report.log_events or report.backup_rows
                or report.recovery_rows or report.checksum_rows)


# --- one report -------------------------------------------------------------------------

_APPENDIX_TYPES = (
    (re.compile(r"soft[\s-]*recovery", re.IGNORECASE), "SoftRecovery"),
    (re.compile(r"backup", re.IGNORECASE), "DatabaseBackup"),
    (re.compile(r"checksum", re.IGNORECASE), "DBChecksum"),
    (re.compile(r"\bstress\b", re.IGNORECASE), "Stress"),
    (re.compile(r"\bperformance\b", re.IGNORECASE), "Performance"),
)
_TYPE_BY_SECTION = {"backup": "DatabaseBackup", "recovery": "SoftRecovery", "checksum": "DBChecksum"}


def _appendix_type(appendix: Line | None) -> str | None:
    text = appendix.text if appendix else ""
    return next((kind for pattern, kind in _APPENDIX_TYPES if pattern.search(text)), None)


def _report_type(raw: RawReport, warnings: list[str]) -> str:
    """The appendix heading says what test the document ran; the report title what Jetstress printed."""
    by_appendix, by_title = _appendix_type(raw.appendix), report_type_from_subtitle(raw.subtitle)
    if by_appendix and by_title and by_appendix != by_title:
        warnings.append(f'line {raw.line}: report type {by_appendix} taken from the appendix heading '
                        f'"{raw.appendix.text}" (line {raw.appendix.number}); the report title says "{raw.subtitle}"')
    if by_appendix or by_title:
        return by_appendix or by_title
    by_section = next((_TYPE_BY_SECTION[s.kind] for s in raw.sections if s.kind in _TYPE_BY_SECTION), "Performance")
    warnings.append(f"line {raw.line}: the report prints no recognised title (\"… Test Result Report\"); "
                    f"taken as {by_section} from its sections")
    return by_section


def _product_title(raw: RawReport) -> str | None:
    if raw.product is None:
        return None
    return re.sub(r"\bjetstress\b", "Jetstress", raw.product.text, flags=re.IGNORECASE)


def build_report(source: str, raw: RawReport) -> JetstressReport:
    """The report's sections -> a record filled field by field as the HTML parser fills it."""
    warnings: list[str] = []
    report = JetstressReport(source_name=source, report_type=cast(ReportType, _report_type(raw, warnings)),
                             product_title=_product_title(raw), source_line=raw.line, warnings=warnings)
    if raw.appendix is not None:
        report.key_values.append(KeyValue("Document", "Appendix", raw.appendix.text, raw.appendix.number))
    for section in raw.sections:
        section = RawSection(section.title, section.kind, section.line, [repair_line(line) for line in section.lines])
        if section.kind == "log":
            events, thresholds = read_log(section, report.warnings)
            report.log_events.extend(events)
            report.thresholds = report.thresholds or thresholds
        elif section.kind == "configuration":
            pairs = configuration_pairs(section, report.warnings)
            apply_pairs(source, section, pairs, report)
            found: list[str] = []
            report.instances.extend(html_tables.instances(shared_section(section), pairs, found))
            report.warnings.extend(f"line {section.line}: {w}" for w in found)
        elif section.kind in ("summary", "sizing", "parameters"):
            apply_pairs(source, section, key_value_pairs(section, report.warnings), report)
        else:
            read_table_section(source, section, report)
    _fill_version(report)
    if not any(section.kind == "sizing" for section in raw.sections):
        _achieved_from_instances(report)
    _check(report, raw)
    return report


def _achieved_from_instances(report: JetstressReport) -> None:
    """A report printed without its sizing section (cut to its summary and instance table) still gives its
    achieved IOPS as Jetstress computes it: the instances' database reads and writes per second, added up."""
    if report.achieved_iops is not None or report.report_type not in ("Performance", "Stress"):
        return
    table = next((t for scope in ("transactional", "disk_subsystem") for t in report.io_tables if t.scope == scope), None)
    rows = [r for r in table.rows if r.volume_role in (None, "database")] if table else []
    if rows and all(r.db_reads_per_s is not None and r.db_writes_per_s is not None for r in rows):
        report.achieved_iops = round(sum((r.db_reads_per_s or 0.0) + (r.db_writes_per_s or 0.0) for r in rows), 3)
        report.warnings.append(f"line {table.line if table else report.source_line}: the report prints no achieved "
                               "IOPS; its instances' database reads and writes per second are added up instead")


def _fill_version(report: JetstressReport) -> None:
    """As the HTML parser: the version stays a printed build number; the title's year is only noted."""
    if report.jetstress_version is None:
        year = release_from_title(report.product_title)
        known = f"only the title's release ({year}) is known" if year else "the release is unknown"
        report.warnings.append(f'line {report.source_line}: no "Jetstress Version" row; {known}')


def _check(report: JetstressReport, raw: RawReport) -> None:
    """What the HTML parser refuses or warns about, as warnings: the document still loads."""
    sections = {section.kind: section for section in raw.sections}
    kind, title = REQUIRED_SECTION.get(report.report_type, (None, None))
    if kind and kind not in sections:
        report.warnings.append(f'line {raw.line}: section "{title}" is missing; a {report.report_type} report has one')
    summary = sections.get("summary")
    if summary is not None:
        printed = {normalise_label(kv.label) for kv in report.key_values if kv.section == summary.title}
        missing = [label for label in SUMMARY_REQUIRED if normalise_label(label) not in printed]
        if missing:
            report.warnings.append(f"line {summary.line}: Test Summary is incomplete: no {', '.join(missing)} row; "
                                   "the report may be cut short")
    scopes = {table.scope for table in report.io_tables}
    expected = expected_sections(report.report_type, report.jetstress_version, scopes,
                                 report.background_maintenance, report.copies_per_database)
    for key, name in expected.items():
        if key not in sections and key not in scopes:
            report.warnings.append(f'line {raw.line}: optional section "{name}" is missing')
