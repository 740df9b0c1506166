"""What a document says about the solution it tested, fact by fact, each with the line it is printed on.

A document nobody wrote a manifest for still names what was tested: its title, the storage
model, the disks, the RAID level, the simulated mailboxes. The ESRP template prints these in
"Tested Deployment", "Primary Storage Hardware" and "Primary Storage Disk Configuration"
tables, and whitepapers print the same rows in their configuration figures. Rows are matched by
the meaning of their labels (the template's wording and its common variants), never by a
vendor's name or a position; a table with several solution columns gives one fact per column.
Pure: a parsed `ReportDocument` in, `Fact`s out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...jetstress.vocabulary import normalise_label
from .records import DocumentTable, ReportDocument

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?")
_PARENTHESES = re.compile(r"\([^)]*\)")
_UNIT_IN_LABEL = re.compile(r"\((KB|MB|GB|TB)\)", re.IGNORECASE)
_UNIT_AFTER = re.compile(r"\s*(KB|MB|GB|TB)\b", re.IGNORECASE)
_RAID = re.compile(r"\bRAID[\s-]*(\d{1,2}(?:\s*\+\s*\d)?|DP|-?DP|6)\b", re.IGNORECASE)
_SSD = re.compile(r"\bSSDs?\b|solid[\s-]state|\bflash\b", re.IGNORECASE)
_HDD = re.compile(r"\bHDDs?\b|\brpm\b|\b\d{1,2}k\b|\bSAS\b|\bFC\b|\bSATA\b|hard[\s-]dis[kc]", re.IGNORECASE)
_MARKS = re.compile(r"[™®©]")

# (fact, label pattern, what the value is); first pattern that matches a row's label wins.
ROW_FACTS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (fact, re.compile(pattern, re.IGNORECASE), kind) for fact, pattern, kind in (
        ("disk_count", r"^(?!.*\b(?:maximum|max|per|slices?|spindles can)\b)(?:number|total number|total|number of)"
                       r"\b.*\b(?:disks?|drives?)\b.*\b(?:tested|test|solution|system)\b", "count"),
        ("disk_count", r"^number (?:of )?(?:physical )?(?:disks|drives)$", "count"),
        ("disk_capacity", r"^(?:raw )?(?:capacity|size)\b.*\bper (?:disk|drive)|^size \((?:GB|TB)\)$", "size"),
        ("raw_capacity", r"^total raw (?:storage )?capacity", "size"),
        ("usable_capacity", r"^(?:total )?formatted (?:storage )?capacity|^total use?able space", "size"),
        ("media", r"^(?:disk|drive) type\b|^disks$|^type$", "media"),
        ("raid_level", r"^raid (?:level|technology)", "raid"),
        ("mailboxes", r"^number of (?:exchange )?mailboxes(?: simulated| we simulated.*)?$", "count"),
        ("iops_per_mailbox", r"per second per mailbox|iops per mailbox", "number"),
        ("mailbox_size", r"^mailbox size", "size"),
        ("storage_model", r"^storage model|^storage system$|^arrays?$|^vendor and model", "text"),
        ("connectivity", r"^storage connectivity|^connection$", "text"),
    ))


@dataclass(frozen=True)
class Fact:
    """One thing the document prints about what it tested: its value as printed and where."""

    fact: str  # "disk_count", "media", "usable_capacity" ...
    value: str  # as read: "24", "HDD", "RAID 10", the printed text for text facts
    number: float | None
    unit: str | None
    line: int | None
    quote: str  # the row or line as printed
    column: str | None = None  # the solution column of a table with several


def number_in(text: str) -> tuple[float, str] | None:
    """The first number outside parentheses ("(4188.62GB x 4) 16754GB" -> 16754), with its printed form."""
    for candidate in (_PARENTHESES.sub(" ", text), text):
        match = _NUMBER.search(candidate)
        if match:
            printed = match[0]
            return float(printed.replace(",", "")), printed
    return None


def _size(label: str, value: str) -> tuple[float, str, str] | None:
    found = number_in(value)
    if found is None:
        return None
    stripped = _PARENTHESES.sub(" ", value)
    after = _UNIT_AFTER.match(stripped[stripped.find(found[1]) + len(found[1]):]) if found[1] in stripped else None
    in_label = _UNIT_IN_LABEL.search(label)
    unit = (after[1] if after else in_label[1] if in_label else None)
    return (found[0], found[1], unit.upper()) if unit else None


def media_of(text: str) -> str | None:
    if _SSD.search(text):
        return "SSD"
    return "HDD" if _HDD.search(text) else None


def media_of_column(column: str) -> str | None:
    """A column headed "3 SSDs" or "… hard disk drives" names its media more surely than a "Type" cell."""
    if _SSD.search(column):
        return "SSD"
    return "HDD" if re.search(r"\bHDDs?\b|hard[\s-]dis[kc]", column, re.IGNORECASE) else None


def raid_of(text: str) -> str | None:
    match = _RAID.search(text)
    return f"RAID {match[1].replace(' ', '').upper().lstrip('-')}" if match else None


def _fact(fact: str, kind: str, label: str, value: str, line: int | None, column: str | None) -> Fact | None:
    quote = f"{label}: {value}" if column is None else f"{label} [{column}]: {value}"
    if kind == "count" or kind == "number":
        found = number_in(value)
        return Fact(fact, found[1], found[0], None, line, quote, column) if found else None
    if kind == "size":
        size = _size(label, value)
        return Fact(fact, size[1], size[0], size[2], line, quote, column) if size else None
    if kind == "media":
        media = media_of(value)
        return Fact(fact, media, None, None, line, quote, column) if media else None
    if kind == "raid":
        raid = raid_of(value)
        return Fact(fact, raid, None, None, line, quote, column) if raid else None
    text = _MARKS.sub("", value).strip()
    return Fact(fact, text, None, None, line, quote, column) if text and normalise_label(text) != "n/a" else None


NOT_STORAGE_KINDS = frozenset({"server_configuration", "switch_configuration", "disk_layout"})


def table_facts(table: DocumentTable) -> list[Fact]:
    """The facts a configuration table prints, one per row and solution column (not the server's parts)."""
    facts: list[Fact] = []
    if table.kind in NOT_STORAGE_KINDS:
        return facts
    for row in table.rows:
        label = _MARKS.sub("", row.label).strip().rstrip(":*").strip()
        match = next(((fact, kind) for fact, pattern, kind in ROW_FACTS if pattern.search(label)), None)
        if match is None:
            continue
        for index, value in enumerate(row.values):
            column = table.columns[index] if len(table.columns) > 1 and index < len(table.columns) else None
            found = _fact(match[0], match[1], label, value, row.line, column)
            if found is not None and found.fact == "media" and column and media_of_column(column):
                found = Fact("media", media_of_column(column) or "", None, None, row.line, found.quote, column)
            if found is not None and not (found.fact == "media" and "capacity" in label.casefold()):
                facts.append(found)
    return facts


def _vendor_model(model: str) -> tuple[str, str]:
    """"Dell PowerVault MD1220 + PERC H800 Firmware (…)" -> ("Dell", "PowerVault MD1220")."""
    text = re.split(r"\s(?:\+|firmware\b|with\b|os\b)", model, maxsplit=1, flags=re.IGNORECASE)[0].strip(" ,;")
    words = text.split()
    return (words[0], " ".join(words[1:]) or text) if len(words) > 1 else ("", text)


def document_facts(document: ReportDocument) -> list[Fact]:
    """Title, vendor, model, tested date, and every configuration fact the document's tables print."""
    facts: list[Fact] = []
    if document.title:
        facts.append(Fact("title", document.title, None, None, document.title_line, document.title))
    for table in document.tables:
        facts.extend(table_facts(table))
    model = next((f for f in facts if f.fact == "storage_model"), None)
    if model is not None:
        vendor, name = _vendor_model(model.value)
        if vendor:
            facts.append(Fact("vendor", vendor, None, None, model.line, model.quote, model.column))
        facts.append(Fact("model", name, None, None, model.line, model.quote, model.column))
    for report in document.reports:
        start = next((kv for kv in report.key_values if normalise_label(kv.label) == "test start time"), None)
        if start is not None:
            facts.append(Fact("tested_date", start.value.split()[0], None, None, start.line,
                              f"{start.label}: {start.value}"))
            break
    return facts
