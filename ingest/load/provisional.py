"""Every run belongs to a solution: a document ingested without a manifest becomes a provisional one.

The solution is derived from the document itself (`formats.document.facts`): its title, and
for a document that tests one solution, the vendor, model, RAID level, connectivity and disks
its tables print. Every fact is kept in `solution_facts` with its line. A manifest that later
names the document takes over: its runs move to the manifest's solution, and a provisional
solution left with no run is removed (`take_over`), so the catalogue holds one solution, not two.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import cast

from sqlalchemy import CursorResult, delete, exists, insert, select
from sqlalchemy.orm import Session

from ...schema import DiskGroup, Run, Solution, SolutionFact, SourceFile
from ..formats.document.facts import Fact, document_facts
from ..formats.document.records import ReportDocument
from ..formats.manifest.records import size_in_bytes

KEY_PREFIX = "doc-"


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


def provisional_solution(session: Session, source_file_id: int, document: ReportDocument) -> int:
    """Create the document's provisional solution (key "doc-" + the first 12 digits of its SHA-256)."""
    sha256 = session.execute(select(SourceFile.sha256).where(SourceFile.id == source_file_id)).scalar_one()
    facts = document_facts(document)
    single = [f for f in facts if f.column is None]  # a document that tests several solutions names none alone
    values = {"key": f"{KEY_PREFIX}{sha256[:12]}", "provisional": True, "derived_from_source_file_id": source_file_id,
              "label": document.title or document.source_name,
              "notes": "provisional: derived from the document; a manifest naming it takes it over"}
    for column, name in (("vendor", "vendor"), ("model", "model"), ("raid_level", "raid_level"),
                         ("connectivity", "connectivity")):
        fact = _first(single, name)
        if fact is not None:
            values[column] = fact.value
    solution_id = session.execute(insert(Solution).values(**values).returning(Solution.id)).scalar_one()
    if facts:
        session.execute(insert(SolutionFact), [
            {"solution_id": solution_id, "ordinal": n, "fact": f.fact, "value_printed": f.value,
             "value_number": f.number, "unit": f.unit, "source_file_id": source_file_id, "source_line": f.line,
             "quote": f.quote} for n, f in enumerate(facts, 1)])
    group = _disk_group(single)
    if group is not None:
        session.execute(insert(DiskGroup).values(solution_id=solution_id, **group))
    return solution_id


def take_over(session: Session, source_file_ids: Iterable[int]) -> int:
    """Remove the provisional solutions of these documents that no run belongs to any more; how many."""
    ids = list(source_file_ids)
    if not ids:
        return 0
    orphaned = delete(Solution).where(
        Solution.provisional, Solution.derived_from_source_file_id.in_(ids),
        ~exists(select(Run.id).where(Run.solution_id == Solution.id)))
    return cast(CursorResult, session.execute(orphaned)).rowcount or 0
