"""Every run belongs to a solution: a document ingested without a manifest yields one provisional
solution per system it tests.

The systems, their facts, runs, trials and claims are the drafted manifests (`esrpdb.ingest.draft`):
the very records `esrpdb draft` prints as TOML, loaded by the manifest writer (load/manifest.py),
marked provisional, so a draft loaded later unchanged confirms what ingest believed. Each system's
facts are kept in `solution_facts` with their lines. Reports that no system claims go to one
fallback solution named after the document, with a warning saying where ingest looked. A second
copy of a document (same content fingerprint) adds sources only. A manifest that later names the
document takes over: its runs move to the manifest's solution, and a provisional solution left with
no run is removed (`manifest.take_over`).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from ...db.sessions import as_writer
from ...db.statements import Sql
from ...schema.units import size_in_bytes
from ...schema.vocabulary import NAMED_DIFFERENTLY, UNATTRIBUTED_CLAIM
from ..draft import DraftedDocument
from ..draft.drafts import DraftSolution
from ..draft.fact import Fact
from ..draft.manifests import DraftedManifest, key_patterns, rekeyed, system_keys
from ..errors import ParseError
from ..formats.document.records import ReportDocument
from .batch import write_plans
from .plan import plan_manifest
from .readback import ReadBack
from .rows import copy_dicts

if TYPE_CHECKING:
    from ...db.sessions import WriterSession

KEY_PREFIX = "doc-"
# Fixed statements of every document's write as text: SQLAlchemy compiled each once in the command's new
# process (~1 ms apiece, load/__init__.py). Another copy of the document, and the file's own hash, in one round trip.
_TWIN_AND_HASH = Sql(
    "SELECT (SELECT file_name FROM source_files WHERE content_fingerprint = CAST(:fingerprint AS varchar) "
    "AND id != CAST(:source_file_id AS integer) LIMIT 1), "
    "(SELECT sha256 FROM source_files WHERE id = CAST(:source_file_id AS integer))")
_UNASSIGNED_RUNS = Sql(
    "SELECT runs.id FROM runs JOIN run_sources ON run_sources.run_id = runs.id "
    "WHERE run_sources.source_file_id = CAST(:source_file_id AS integer) AND runs.solution_id IS NULL")
# The bases as an array: one statement for any number of them (an IN list compiled per length).
_TAKEN_KEYS = Sql(
    "SELECT key FROM solutions WHERE (key = ANY(CAST(:keys AS varchar[])) OR key LIKE ANY (CAST(:patterns AS varchar[]))) "
    "AND NOT (provisional AND derived_from_source_file_id IS NULL)")
# The fallback solution of the reports no system claims: its runs, its row, its disks.
_TO_FALLBACK = Sql("UPDATE runs SET solution_id = CAST(:solution_id AS integer) WHERE runs.id = ANY(CAST(:ids AS integer[]))")
_SOLUTION_OF_KEY = Sql("SELECT solutions.id FROM solutions WHERE solutions.key = CAST(:key AS varchar)")
FALLBACK_COLUMNS = {"key": "varchar", "provisional": "boolean", "derived_from_source_file_id": "integer", "label": "text",
                    "notes": "text", "vendor": "text", "model": "text", "raid_level": "text", "connectivity": "text"}
_ADD_FALLBACK = Sql(f"INSERT INTO solutions ({', '.join(FALLBACK_COLUMNS)}) VALUES "
                    f"({', '.join(f'CAST(:{c} AS {t})' for c, t in FALLBACK_COLUMNS.items())}) RETURNING id")
_ADD_DISKS = Sql("INSERT INTO disks (solution_id, disk_count, media, raw_capacity_bytes, role) VALUES "
                 "(CAST(:solution_id AS integer), CAST(:disk_count AS integer), CAST(:media AS text), "
                 "CAST(:raw_capacity_bytes AS bigint), CAST(:role AS text))")
WHERE_SYSTEMS_ARE_LOOKED_FOR = ("the columns of its configuration and results tables, its report appendix headings "
                                "and machine names, and the captions of its run tables")


def _first(facts: list[Fact], name: str) -> Fact | None:
    return next((f for f in facts if f.fact == name), None)


def _disk_group(facts: list[Fact]) -> dict | None:
    count, media = _first(facts, "disk_count"), _first(facts, "media")
    if count is None or count.number is None or count.number < 1 or media is None:
        return None
    capacity = _first(facts, "disk_capacity")
    raw = (size_in_bytes(Decimal(capacity.value.replace(",", "")), capacity.unit, "decimal")
           if capacity and capacity.unit else None)  # disk vendors' GB are 10^9 bytes
    return {"disk_count": int(count.number), "media": media.value, "raw_capacity_bytes": raw, "role": "active"}


def _store_facts(session: WriterSession, solution_id: int, source_file_id: int, facts: list[Fact]) -> None:
    copy_dicts(session, "solution_facts", [  # COPY: a system holds dozens of facts, one statement each was a tenth of its write
        {"solution_id": solution_id, "ordinal": n, "fact": f.fact, "value_printed": f.value,
         "value_number": f.number, "unit": f.unit, "source_file_id": source_file_id, "source_line": f.line,
         "quote": f.quote} for n, f in enumerate(facts, 1)])


def document_systems(session: WriterSession, source_file_id: int, drafted: DraftedDocument, fingerprint: str,
                     read_back: ReadBack, warnings: list[dict]) -> list[str]:
    """Make the document's systems (see the module docstring); returns messages for the ingest line and
    adds the warnings to store to `warnings`. The caller holds the document's lock (`document_lock`):
    two copies of one document ingested at once, the second waits, then finds the first as its twin.
    `read_back` holds the document's tables as just written."""
    session = as_writer(session)
    document = drafted.document
    twin, sha256 = session.execute(_TWIN_AND_HASH, {"fingerprint": fingerprint, "source_file_id": source_file_id}).one()
    if twin is not None:
        return [f"the same document as {twin} (same reports and tables): added as another source of its runs"]
    drafts = drafted.systems
    messages: list[str] = []
    # Said once per document, not again for its other forms (the twin returned above).
    warnings += [{"source_file_id": source_file_id, "run_id": None, "check_name": check, "message": w}
                 for check, found in ((UNATTRIBUTED_CLAIM, drafted.unattributed), (NAMED_DIFFERENTLY, drafted.named_differently))
                 for w in found]
    # A lone system without reports (a paper printing its results in tables and prose) is loaded when
    # the document says anything of it: a fact, a claim, a run from a table.
    if len(drafts) > 1 or document.reports or any(d.facts or d.claims or d.runs for d in drafts):
        messages += _load_systems(session, source_file_id, sha256, drafts, drafted.manifests, read_back)
    elif document.tables:
        messages.append(f"no system found (looked at {WHERE_SYSTEMS_ARE_LOOKED_FOR}, its facts and sentences): "
                        "its tables are kept, no solution made")
    unassigned = _unassigned_runs(session, source_file_id)
    if unassigned:
        fallback = provisional_solution(session, source_file_id, sha256, document, drafted.facts)
        session.execute(_TO_FALLBACK, {"solution_id": fallback, "ids": unassigned})
        if len(drafts) > 1:
            messages.append(f"{len(unassigned)} report(s) could not be told apart between the document's "
                            f"{len(drafts)} systems (looked at {WHERE_SYSTEMS_ARE_LOOKED_FOR}); "
                            "kept under one provisional solution for the document")
    return messages


def document_lock(fingerprint: str) -> str:
    """The advisory lock key that makes two copies of one document load one after the other."""
    return f"esrpdb document {fingerprint}"


def _load_systems(session: WriterSession, source_file_id: int, sha256: str, drafts: list[DraftSolution],
                  drafted_manifests: list[DraftedManifest], read_back: ReadBack) -> list[str]:
    """The draft stage's finished manifests written; a key the catalogue already holds is mapped to a free
    one first (nothing is drafted here). A provisional solution whose document was deleted (kept for a
    run another file prints) lends its key back: the document ingested again is the same systems."""
    manifests = rekeyed(drafted_manifests, system_keys(drafts, _taken_keys(session, drafts)))
    messages = []
    plans = []
    for drafted, draft in zip(manifests, drafts):
        try:  # every read and every ParseError is here: a system that fails is skipped, having written nothing
            plan = plan_manifest(session, source_file_id, drafted.manifest, Path("."), lambda _path: sha256,
                                 provisional_source=source_file_id, known_sources={sha256: source_file_id},
                                 read_back=read_back)
        except ParseError as error:
            messages.append(f"system {draft.name!r} was not loaded: {error}")
            continue
        plan.facts = draft.facts
        plans.append(plan)
    write_plans(session, plans, fresh_sources={source_file_id})
    return messages


def _taken_keys(session: WriterSession, drafts: list[DraftSolution]) -> set[str]:
    """The catalogue's keys these systems' keys could collide with (manifests.key_patterns)."""
    bases, patterns = key_patterns(drafts)
    return set(as_writer(session).execute(_TAKEN_KEYS, {"keys": bases, "patterns": patterns}).scalars())


def _unassigned_runs(session: WriterSession, source_file_id: int) -> list[int]:
    return list(as_writer(session).execute(_UNASSIGNED_RUNS, {"source_file_id": source_file_id}).scalars())


def provisional_solution(session: WriterSession, source_file_id: int, sha256: str, document: ReportDocument,
                         facts: list[Fact]) -> int:
    """One solution for the whole document (key "doc-" + the first 12 digits of its SHA-256): the
    fallback for reports no system claims; `facts` are the document's own (drafted: DraftedDocument.facts)."""
    single = [f for f in facts if f.column is None]  # a document that tests several solutions names none alone
    values = {"key": f"{KEY_PREFIX}{sha256[:12]}", "provisional": True, "derived_from_source_file_id": source_file_id,
              "label": document.title or document.source_name,
              "notes": "provisional: derived from the document; a manifest naming it takes it over"}
    for column, name in (("vendor", "vendor"), ("model", "model"), ("raid_level", "raid_level"),
                         ("connectivity", "connectivity")):
        fact = _first(single, name)
        if fact is not None:
            values[column] = fact.value
    session = as_writer(session)
    assert values.keys() <= FALLBACK_COLUMNS.keys(), "a column _ADD_FALLBACK does not write"
    existing = session.execute(_SOLUTION_OF_KEY, {"key": values["key"]}).scalar()
    if existing is not None:
        return existing
    solution_id = session.execute(_ADD_FALLBACK, {column: values.get(column) for column in FALLBACK_COLUMNS}).scalar_one()
    _store_facts(session, solution_id, source_file_id, facts)
    group = _disk_group(single)
    if group is not None:
        session.execute(_ADD_DISKS, {"solution_id": solution_id, **group})
    return solution_id
