"""The Jetstress HTML format's reader: a report's bytes -> its `JetstressReport` (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files, or writes reports read elsewhere, never imports lxml and the DOM code.
"""

from __future__ import annotations

import codecs
import re
from typing import cast

from lxml import etree

from ....schema.vocabulary import REPORT_TYPES
from ...decoding import wide_encoding
from ...errors import ParseError
from ...jetstress.log_events import parse_test_log_lines
from ...jetstress.records import JetstressReport, ReportType
from ...jetstress.vocabulary import (
    REQUIRED_SECTION,
    SUMMARY_REQUIRED,
    expected_sections,
    normalise_label,
    release_from_title,
    report_type_from_filename,
    report_type_from_subtitle,
)
from . import tables
from .dom import (
    HtmlElement,
    Section,
    class_index,
    find_sections,
    find_text,
    first_inside,
    heading_texts,
    read_grid,
    read_key_values,
    section_before,
    text_lines,
)
from .identify import SNIFF_BYTES

_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffd]")


# --- decode and load ----------------------------------------------------------------


def _decode(name: str, data: bytes, max_bytes: int) -> bytes:
    """The document as UTF-8 bytes for lxml; refuses empty, oversized and binary input.

    Encodings tried in order: BOM or UTF-16 NUL pattern; the declared meta charset;
    UTF-8; Windows-1252; Latin-1 (which always succeeds, so only binary data is refused).
    """
    if len(data) > max_bytes:
        raise ParseError(name, f"file is {len(data):,} bytes; reports larger than {max_bytes:,} bytes are refused")
    if not data or data.isspace():  # no .strip(): it would copy the whole file
        raise ParseError(name, "file is empty")
    wide = wide_encoding(data)
    if wide:
        try:
            text = data.decode(wide)
        except UnicodeDecodeError as error:
            raise ParseError(name, f"cannot be decoded as {wide}: {error.reason} at byte {error.start}") from None
        if _looks_binary(text):
            raise ParseError(name, "binary data (control characters), not an HTML report")
        return text.encode("utf-8")
    if b"\x00" in data:
        raise ParseError(name, f"binary data (NUL byte at offset {data.index(0)}), not an HTML report")
    body = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    from bs4.dammit import EncodingDetector  # here, not at import: bs4 brings soupsieve (~0.1 s)

    declared = EncodingDetector.find_declared_encoding(body[:SNIFF_BYTES], is_html=True)
    for encoding in (declared, "utf-8", "windows-1252", "latin-1"):
        if not encoding or encoding.lower().replace("_", "-") in ("utf-16", "utf-32"):
            continue  # a UTF-16 meta charset on single-byte data is a lie
        try:
            text = body.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        if _looks_binary(text):
            raise ParseError(name, "binary data (control characters), not an HTML report")
        return body if codecs.lookup(encoding).name == "utf-8" else text.encode("utf-8")
    raise AssertionError("latin-1 decodes any bytes")


def _looks_binary(text: str) -> bool:
    """More than 1% control or replacement characters in the first 64 KiB: not a text document."""
    sample = text[:65536]
    return len(_CONTROL.findall(sample)) > max(8, len(sample) // 100)


def _load(name: str, html: bytes) -> HtmlElement:
    """Parse without network access, entity expansion or unbounded text nodes.

    Plain lxml elements, not `lxml.html`'s: those look up a Python class for every element
    the parser hands back, a fifth of the parse.
    """
    parser = etree.HTMLParser(encoding="utf-8", no_network=True, huge_tree=False, remove_comments=True,
                              remove_pis=True)
    try:
        doc = etree.fromstring(html, parser=parser)
    except etree.XMLSyntaxError as error:
        raise ParseError(name, f"no HTML content ({error})") from None
    if doc is None:
        raise ParseError(name, "no HTML content (Document is empty)")
    fatal = next((entry for entry in parser.error_log if entry.level == etree.ErrorLevels.FATAL), None)
    if fatal is not None:
        reason = fatal.message.strip()
        if "limit" in reason.lower():
            reason = f"a text run or tag is larger than any report holds ({reason.split(',', 1)[0]})"
        where = section_before(doc, fatal.line)
        raise ParseError(name, f"the HTML parser gave up: {reason}", section=where, line=fatal.line)
    return doc


# --- parse --------------------------------------------------------------------------


def parse(name: str, data: bytes, *, max_bytes: int) -> JetstressReport:
    """The report one Jetstress HTML file holds; `ParseError` names file, section and line."""
    html = _decode(name, data, max_bytes)
    doc = _load(name, html)
    sections = find_sections(doc)
    if not any(section.kind for section in sections):
        found = ", ".join(f'"{s.title}"' for s in sections) or "no <fieldset> sections"
        raise ParseError(name, f"not a Jetstress report: no section with a known title; found: {found}")
    classes = class_index(doc)
    title, subtitle = _titles(doc, classes)
    warnings: list[str] = []
    report = JetstressReport(
        source_name=name,
        report_type=cast(ReportType, _report_type(name, subtitle, warnings)),
        product_title=title,
        source_line=doc.sourceline or 1,  # one report per HTML file
        warnings=warnings,
    )
    _require_sections(name, report.report_type, sections)
    for section in sections:
        _read_section(name, section, report, classes)
    closed = html[-4096:].rstrip().lower().endswith(b"</html>")
    _check_summary(name, closed, sections, report)
    missing = _missing_sections(report, sections)
    if not closed:
        _check_truncation(name, sections, missing, report, inside_section=_ends_inside_a_section(html))
    report.warnings.extend(f'optional section "{title}" is missing' for title in missing)
    _fill_version(report)
    return report


def _titles(doc: HtmlElement, classes: dict[str, list[HtmlElement]]) -> tuple[str | None, str | None]:
    """Product title ("Microsoft Exchange Jetstress 2010") and subtitle ("Performance Test Result Report")."""
    title, subtitle = find_text(classes, "title"), find_text(classes, "subtitle")
    headings = heading_texts(doc)
    product = title or next((h for h in headings if "jetstress" in h.casefold()), None)
    kind = subtitle or next((h for h in headings if report_type_from_subtitle(h)), None)
    return product, kind


def _report_type(name: str, subtitle: str | None, warnings: list[str]) -> str:
    by_name, by_subtitle = report_type_from_filename(name), report_type_from_subtitle(subtitle)
    if by_name and by_subtitle and by_name != by_subtitle:
        warnings.append(f'file name says {by_name} but the subtitle says "{subtitle}"; using {by_name}')
    if by_name or by_subtitle:
        return by_name or by_subtitle
    raise ParseError(
        name,
        f"cannot tell the report type: the file name has no {'/'.join(f'{t}_' for t in REPORT_TYPES)} prefix and the "
        f'subtitle is {subtitle!r} (expected e.g. "Performance Test Result Report")',
    )


def _require_sections(name: str, report_type: str, sections: list[Section]) -> None:
    kind, title = REQUIRED_SECTION.get(report_type, (None, None))
    if kind and not any(section.kind == kind for section in sections):
        found = ", ".join(f'"{s.title}"' for s in sections)
        raise ParseError(name, f"section missing; a {report_type} report needs it; found: {found}", section=title)


def _read_section(name: str, section: Section, report: JetstressReport,
                  classes: dict[str, list[HtmlElement]]) -> None:
    """Route a section by its kind: label/value rows, a grid, or the test log."""
    kind, warnings = section.kind, report.warnings
    if kind == "log":
        _read_test_log(section, report, first_inside(classes.get("test_log", []), section.element))
        return
    if kind in (None, "summary", "sizing", "parameters", "configuration"):
        pairs = read_key_values(section)
        tables.apply_key_values(name, section, pairs, report)
        if kind == "configuration":
            report.instances.extend(tables.instances(section, pairs, warnings))
        if kind is None:
            warnings.append(f'section "{section.title}" (line {section.line}) not recognised; label/value rows kept')
        return
    grid = read_grid(section)
    if grid is None:
        warnings.append(f"{section.title}: section has no table rows")
    elif kind == "io":
        report.io_tables.append(tables.io_table(name, section, grid, warnings))
    elif kind == "host":
        report.host_counters.extend(tables.host_counters(name, section, grid, warnings))
    elif kind == "backup":
        report.backup_rows.extend(tables.backup_rows(name, section, grid, report))
    elif kind == "recovery":
        report.recovery_rows.extend(tables.recovery_rows(name, section, grid, report))
    elif kind == "checksum":
        report.checksum_rows.extend(tables.checksum_rows(name, section, grid, warnings))


def _read_test_log(section: Section, report: JetstressReport, container: HtmlElement | None) -> None:
    """Events from ``<div class="test_log">`` (or the bare fieldset), numbered by source line."""
    legend = next(section.element.iter("legend"), None)
    lines = text_lines(container) if container is not None else text_lines(section.element, skip=legend)
    events, thresholds = parse_test_log_lines(lines)
    report.log_events.extend(events)
    report.thresholds = report.thresholds or thresholds


def _check_summary(name: str, closed: bool, sections: list[Section], report: JetstressReport) -> None:
    """A Test Summary lacking its standard rows means the file was cut short (or is no report)."""
    summary = next((section for section in sections if section.kind == "summary"), None)
    if summary is None:
        return
    printed = {normalise_label(kv.label) for kv in report.key_values if kv.section == summary.title}
    missing = [label for label in SUMMARY_REQUIRED if normalise_label(label) not in printed]
    if missing:
        hint = "; the file looks truncated" if not closed else ""
        message = f"Test Summary is incomplete: no {', '.join(missing)} row{hint}"
        raise ParseError(name, message, section=summary.title, line=summary.line)


def _ends_inside_a_section(html: bytes) -> bool:
    """The last <fieldset> is never closed: the file stops in the middle of a section's rows."""
    tail = html[-65536:].lower()
    return tail.rfind(b"<fieldset") > tail.rfind(b"</fieldset>")


def _check_truncation(name: str, sections: list[Section], missing: list[str], report: JetstressReport, *,
                      inside_section: bool) -> None:
    """No closing </html>: an error when the file stops inside a section or sections are missing
    (it was cut short), only a warning when every section is there and closed."""
    if not missing and not inside_section:
        report.warnings.append("the document does not end with </html>; it may be truncated")
        return
    last = sections[-1]
    lost = f"missing: {', '.join(missing)}" if missing else "its last rows are lost"
    message = f"the file ends inside this section without </html>; it looks truncated ({lost})"
    raise ParseError(name, message, section=last.title, line=last.line)


def _fill_version(report: JetstressReport) -> None:
    """`jetstress_version` stays a printed build number; without the row only the title's year is known."""
    if report.jetstress_version is None:
        year = release_from_title(report.product_title)
        known = f"only the title's release ({year}) is known" if year else "the release is unknown"
        report.warnings.append(f'no "Jetstress Version" row; {known}')


def _missing_sections(report: JetstressReport, sections: list[Section]) -> list[str]:
    """Titles of the optional sections this kind of report normally has but this file lacks."""
    kinds = {section.kind for section in sections}
    scopes = {table.scope for table in report.io_tables}
    expected = expected_sections(report.report_type, report.jetstress_version, scopes,
                                 report.background_maintenance, report.copies_per_database)
    return [title for key, title in expected.items() if key not in kinds and key not in scopes]
