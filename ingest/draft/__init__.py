"""The draft stage: which systems a read document tests, and what a manifest of each would say.

A document is *read* first (`esrpdb.ingest.formats.document`: its reports and tables as printed);
drafting answers what no single line says: the systems it compares, each one's facts (by quantity
and unit, from any family's wording: facts.py, quantities.py), which report, results-table run and
published figure is whose, which reports are one test on several hosts (host_tests.py), and the
manifest records a person would write (manifests.py; toml_text.py prints them). Pure: a read
document in, records out. The *write* stage (`esrpdb.ingest.load`) loads those records as they are.

The package itself is light: the records (drafts.py, fact.py, manifests.py) import without the rules,
which are imported by the functions below when a document is drafted. The writer needs the records
alone (a drafted document comes to it pickled from the process that read it), and the rules' hundreds
of patterns, compiled as their modules are imported, were a tenth of a second of `esrpdb ingest FILE`
in a process that drafts nothing (ingest/reading.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..formats.document.records import ReportDocument
from .drafts import DraftSolution
from .fact import Fact
from .manifests import DraftedManifest, drafted_manifests


@dataclass
class DraftedDocument:
    """A read document with the systems drafted from it: what the write stage loads for a document."""

    document: ReportDocument
    systems: list[DraftSolution] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # facts a row names that no rule could read
    unattributed: list[str] = field(default_factory=list)  # published figures no system can be told for, why
    named_differently: list[str] = field(default_factory=list)  # one thing spelled two ways, with the lines (naming.py)
    # The finished records the writer loads: each system's manifest, keyed as if the catalogue held no key
    # (the writer maps one it already holds: manifests.rekeyed), and the document's own facts (those of
    # the one solution that takes the reports no system claims).
    manifests: list[DraftedManifest] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


def draft_document(document: ReportDocument) -> DraftedDocument:
    """The document's systems with their facts, runs and claims, and what could not be read."""
    from .facts import document_facts
    from .naming import named_differently
    from .systems import draft_solutions

    unread: list[str] = []
    unattributed: list[str] = []
    facts = document_facts(document, unread)  # once: the systems' facts and the document's are the same reading
    systems = draft_solutions(document, document.lines, unread, unattributed, facts)
    name = Path(document.source_name).name
    manifests = drafted_manifests(systems, name, name, report_types=[r.report_type for r in document.reports])
    return DraftedDocument(document, systems, list(dict.fromkeys(unread)),  # a row's warning once, whatever its columns
                           list(dict.fromkeys(unattributed)), named_differently(document, systems), manifests,
                           list(facts))


def draft_manifests(name: str, data: bytes, document: PurePosixPath | str) -> list[tuple[str, str]]:
    """A document's bytes -> (key, TOML) per system it tests, as `esrpdb draft` prints them; ParseError
    for a document with no report and no table. `document` is its path as the manifests will name it."""
    from ..formats import document as document_format
    from .systems import draft_solutions
    from .toml_text import render

    parsed = document_format.parse(name, data)
    source = PurePosixPath(name).name
    drafted = drafted_manifests(draft_solutions(parsed, parsed.lines), str(document), source,
                                report_types=[r.report_type for r in parsed.reports])
    return [(d.manifest.key, render(d, source)) for d in drafted]
