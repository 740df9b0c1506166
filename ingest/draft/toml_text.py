"""A drafted manifest as the TOML text `esrpdb draft` prints (docs/manifests.md), each drafted value
with its note ("# source: line 62"), for a person to confirm and load. Reading the text back
(`formats.manifest.parse`) gives the very records ingest loads (tests/test_draft_records.py)."""

from __future__ import annotations

import json
from decimal import Decimal

from ..formats.manifest.records import TABLE_ROW_FIELDS, ClaimSpec, RunSpec, TableRef
from .manifests import DraftedManifest

HEADER = ("# DRAFT of a solution manifest, read from {source} by `esrpdb draft`.\n"
          "# Every value cites the line it is printed on; confirm each before relying on it.\n")


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)  # a TOML basic string is a JSON string


class _Lines:
    def __init__(self, notes: dict[str, str]) -> None:
        self.out: list[str] = []
        self.notes = notes

    def put(self, path: str, name: str, value) -> None:
        if value is None or value == ():
            return
        note = self.notes.get(f"{path}.{name}")
        self.out.append(f"{name} = {_value(value)}" + (f"  # {note}" if note else ""))

    def table(self, header: str) -> None:
        self.out += ["", header]


def _table_ref(ref: TableRef) -> str:
    fields = [f"document = {_value(ref.document)}", f"title = {_value(ref.title)}",
              f"columns = {_value(ref.columns)}" if ref.columns else f"column = {_value(ref.column)}"]
    for name in TABLE_ROW_FIELDS:
        labels = getattr(ref, name)
        if labels:
            fields.append(f"{name} = {_value(labels[0]) if len(labels) == 1 else _value(labels)}")
    if ref.latency_unit:
        fields.append(f"latency_unit = {_value(ref.latency_unit)}")
    return "{ " + ", ".join(fields) + " }"


def _run(lines: _Lines, path: str, run: RunSpec) -> None:
    lines.table("[[runs]]")
    for name in ("label", "trial", "scenario", "document"):
        lines.put(path, name, getattr(run, name))
    lines.put(path, "hosts", run.hosts)
    if run.match is not None:
        note = lines.notes.get(f"{path}.match")
        lines.out.append(f"match = {{ report_index = {run.match.report_index} }}" + (f"  # {note}" if note else ""))
    for name in ("figures", "table"):
        ref = getattr(run, name)
        if ref is not None:
            note = lines.notes.get(f"{path}.{name}")
            lines.out.append(f"{name} = {_table_ref(ref)}" + (f"  # {note}" if note else ""))
    lines.put(path, "description", run.description)


def _claim(lines: _Lines, path: str, claim: ClaimSpec) -> None:
    lines.table("[[claims]]")
    for name in ("metric", "value", "unit", "subject", "versus", "versus_run", "versus_metric", "versus_value", "run",
                 "host", "disk_basis", "qualifier", "document", "location", "line", "quote"):
        lines.put(path, name, getattr(claim, name))


def render(drafted: DraftedManifest, source: str) -> str:
    """The manifest's TOML text; `source` is the document's file name, for the header."""
    manifest, lines = drafted.manifest, _Lines(drafted.notes)
    lines.out += [HEADER.format(source=source).rstrip("\n"), "", "schema = 1"]
    if not manifest.disks:
        lines.out.append(f"disks = []  # {drafted.notes.get('disks', 'no disk group drafted')}")
    lines.table("[solution]")
    for name in ("key", "vendor", "model", "label", "connectivity", "raid_level", "notes"):
        lines.put("solution", name, getattr(manifest, name))
    if manifest.capacity is not None:
        lines.table("[capacity]")
        for name in ("usable", "unit", "base", "source"):
            lines.put("capacity", name, getattr(manifest.capacity, name))
    for index, group in enumerate(manifest.disks):
        lines.table("[[disks]]")
        for name in ("count", "media", "capacity", "capacity_unit", "capacity_base", "rpm", "interface", "role"):
            lines.put(f"disks[{index}]", name, getattr(group, name))
    if manifest.price is not None:
        lines.table("[price]")
        lines.put("price", "amount", format(manifest.price.amount, "f"))  # a string keeps the printed cents
        for name in ("currency", "type", "source"):
            lines.put("price", name, getattr(manifest.price, name))
    if manifest.power is not None:
        lines.table("[power]")
        for name in ("idle_w", "active_w", "boundary"):
            lines.put("power", name, getattr(manifest.power, name))
    for trial in manifest.trials:
        lines.table("[[trials]]")
        lines.put("trials", "key", trial.key)
        lines.put("trials", "description", trial.description)
    for index, run in enumerate(manifest.runs):
        _run(lines, f"runs[{index}]", run)
    for index, claim in enumerate(manifest.claims):
        _claim(lines, f"claims[{index}]", claim)
    return "\n".join(lines.out) + "\n"
