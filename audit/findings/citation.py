"""Where an auditor finds a finding: the page of its line in a PDF, and the printed words it judges.

Every check cites a file and a line of it, but a PDF's line is one of esrpdb's own extracted text,
which no PDF viewer shows: each finding also names its page (`documents.page_start_lines`, revision
0028). A claim quotes its sentence; a check on a table row, a report's verdict or a host counter has
no sentence, so its quote is what the catalogue keeps as printed on that line: the row's label and
cells, the report's field, the counter's row, else a table's caption. Pure.
"""

from __future__ import annotations

from dataclasses import replace

from ..gather import AuditData
from ..terms import fmt
from .finding import Finding

CELL_SEPARATOR = " | "  # between a row's printed cells, as a table shows them


def cited(data: AuditData, findings: list[Finding]) -> list[Finding]:
    """The findings, each with the page of its line (PDFs) and, where a check set none, the words printed there."""
    files = {source.sha256: source for source in data.files.values()}
    printed = printed_lines(data)
    out = []
    for finding in findings:
        source = files.get(finding.sha256 or "")
        page = source.page_of(finding.line) if source else None
        quote = finding.quote or (printed.get((source.id, finding.line)) if source and finding.line else None)
        out.append(finding if (page, quote) == (finding.page, finding.quote) else replace(finding, page=page, quote=quote))
    return out


def printed_lines(data: AuditData) -> dict[tuple[int, int], str]:
    """(file id, line) -> the words the catalogue keeps as printed on that line; a table row before a
    sentence, a sentence before a caption, where two are kept for one line."""
    words: dict[tuple[int, int], str] = {}
    for table in data.tables.values():
        if table.line is not None and table.title:
            words[(table.source_file_id, table.line)] = table.title
    for claim in data.claims:
        if claim.quote and claim.line is not None and claim.source_file_id is not None:
            words[(claim.source_file_id, claim.line)] = claim.quote
    for run in data.runs.values():
        if run.verdict_line is not None and run.reported_verdict:
            words[(run.source_file_id, run.verdict_line)] = f"Overall Test Result{CELL_SEPARATOR}{run.reported_verdict}"
        for name, (average, low, high, line) in run.counter_ranges.items():
            if line is not None:
                words[(run.source_file_id, line)] = CELL_SEPARATOR.join(
                    [name] + [fmt(v) for v in (average, low, high) if v is not None])
    words.update(_table_rows(data))
    return words


def _table_rows(data: AuditData) -> dict[tuple[int, int], str]:
    """Each line a document table prints cells on: its row's label and the cells on that line, in order."""
    rows: dict[tuple[int, int], dict[str, list[str]]] = {}
    for table in data.tables.values():
        for cell in table.cells:
            if cell.line is not None:
                rows.setdefault((table.source_file_id, cell.line), {}).setdefault(cell.row_label, []).append(cell.printed)
    return {key: "; ".join(CELL_SEPARATOR.join([label, *values]) for label, values in labels.items())
            for key, labels in rows.items()}
