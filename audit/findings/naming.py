"""The same hardware or software named two ways in one document, as a finding an auditor can act on.

Drafting reads which statements name one attribute of one system and which of them disagree
(ingest/draft/naming.py); ingest keeps each disagreement as an `ingest_warnings` row, once per
document. Here each becomes one `mismatch` finding naming the attribute, every spelling and the lines
each is printed on. Nothing is recomputed: the document contradicts itself, and only the tested
system can say which spelling is right.
"""

from __future__ import annotations

import re

from ...schema.vocabulary import NAMED_DIFFERENTLY  # written by ingest.load.provisional
from ..gather import AuditData
from ..terms import MISMATCH
from .finding import Finding, evidence

_HEAD = re.compile(r'^(?P<attribute>[^:"]+?)(?: of "(?P<system>[^"]*)")?: (?P<rest>.*)$')
_SPELLING = re.compile(r'"([^"]*)" \(lines? ([\d, ?]+)\)')
_WHY = re.compile(r'\): ([^")]+)$')


def naming_findings(data: AuditData) -> list[Finding]:
    """One finding per disagreement (see the module docstring), at the first line any spelling is on."""
    out = []
    for warning in data.warnings:
        if warning["check_name"] != NAMED_DIFFERENTLY:
            continue
        message = warning["message"]
        head = _HEAD.match(message)
        attribute = head["attribute"] if head else "name"
        spellings = {printed: [int(n) for n in re.findall(r"\d+", lines)] for printed, lines in
                     _SPELLING.findall(message)}
        why = _WHY.search(message)
        lines = sorted(n for found in spellings.values() for n in found)
        whose = f' of {head["system"]}' if head and head["system"] else ""
        said = "; ".join(f'"{p}" on line{"s" if len(n) > 1 else ""} {", ".join(map(str, n))}'
                         for p, n in spellings.items())
        explanation = (f"The document names the {attribute}{whose} {len(spellings)} ways that cannot all be right "
                       f"({why.group(1) if why else 'they disagree'}): {said}. Check which one was tested and "
                       f"correct the other place(s); a figure that depends on it (per disk, per dollar) may rest "
                       f"on the wrong one.")
        solution = _system_of(data, warning["source_file_id"], head["system"] if head else None)
        out.append(Finding(solution=solution, other_solution=None, kind=NAMED_DIFFERENTLY,
                           metric=attribute.replace(" ", "_").replace("/", "_").lower(), verdict=MISMATCH,
                           printed=" vs ".join(spellings), recomputed=None, relative_difference=None,
                           explanation=explanation,
                           inputs={"attribute": attribute, "system": head["system"] if head else None,
                                   "spellings": spellings},
                           place="text", line=lines[0] if lines else None, quote=message,
                           **evidence(data, warning["source_file_id"])))
    return out


def _system_of(data: AuditData, file_id: int, named: str | None) -> str | None:
    """The catalogued system the disagreement is about: the document's only one, or the one whose label
    holds the words the message names it by; None when that cannot be told (listed apart, as unattributed)."""
    ids = {data.twin_solution(r) for r in data.runs.values() if r.source_file_id == file_id}
    ids.discard(None)
    systems = [data.solutions[i] for i in sorted(i for i in ids if i in data.solutions)]
    if named:
        words = set(re.findall(r"[a-z0-9]+", named.casefold()))
        systems = [s for s in systems if words <= set(re.findall(r"[a-z0-9]+", f"{s.label or ''} {s.key}".casefold()))]
    return systems[0].key if len(systems) == 1 else None
