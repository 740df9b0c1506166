"""Issue 25: the test design as data. Every seed solution whose document prints a mailbox count has
it stored with its file and line (the line shows the number), from the manifests' catalogue and
from the documents alone; classes and ranks follow from the stored counts."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.schema.classes import DEFAULT_MAILBOX_CLASSES
from tests.conftest import FIXTURES
from tests.test_catalog_golden import rows

DOCUMENTS = FIXTURES / "documents"


def _printed_on_its_line(design: dict) -> bool:
    file_name, _, line = design["mailbox_count_source"].rpartition(" line ")
    printed = (DOCUMENTS / file_name).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    return any(int(n.replace(",", "")) == design["mailbox_count"] for n in re.findall(r"\d[\d,]*", printed))


def _class_of(count: int) -> str:
    return next(label for _, label, low, high in DEFAULT_MAILBOX_CLASSES if count >= low and (high is None or count <= high))


def test_every_printed_mailbox_count_is_stored_with_its_line(seed_catalog):
    with seed_catalog.engine.connect() as conn:
        printing = set(conn.execute(text(
            "select s.key from claims c join solutions s on s.id = c.solution_id where c.metric = 'mailboxes'")).scalars())
    designs = {d["solution"]: d for d in rows(seed_catalog, "test-designs")}
    assert len(printing) >= 8
    for key in printing:
        design = designs[key]
        assert design["mailbox_count"] and _printed_on_its_line(design), design
        assert design["mailbox_class"] == _class_of(design["mailbox_count"])
    assert {d["mailbox_count"] for d in designs.values() if d["solution"].startswith("intel-x25e")} == {200}


def test_ranks_within_a_class_follow_total_iops_and_read_latency(seed_catalog):
    ranked = rows(seed_catalog, "mailbox-class-ranks")
    assert len({r["mailbox_class"] for r in ranked}) >= 3
    for label in {r["mailbox_class"] for r in ranked}:
        members = [r for r in ranked if r["mailbox_class"] == label and r["total_iops"] is not None]
        by_iops = sorted(members, key=lambda r: -r["total_iops"])
        assert [r["total_iops_rank"] for r in by_iops] == list(range(1, len(by_iops) + 1))
        timed = sorted((r for r in members if r["db_read_latency_ms"] is not None), key=lambda r: r["db_read_latency_ms"])
        assert [r["db_read_latency_rank"] for r in timed] == list(range(1, len(timed) + 1))


def test_changed_class_bounds_move_the_solutions(catalog):
    (outcome,) = ingest_paths(catalog.engine, [DOCUMENTS / "002_2e1b37b2175e5892.txt"])
    assert outcome.status == "loaded", outcome.message
    before = {d["solution"]: d["mailbox_class"] for d in rows(catalog, "test-designs") if d["mailbox_count"]}
    assert before and set(before.values()) == {"up to 1,000 mailboxes"}
    with catalog.engine.begin() as conn:
        conn.execute(text("update mailbox_classes set max_mailbox_count = 100 where class_ordinal = 1"))
        conn.execute(text("update mailbox_classes set min_mailbox_count = 101 where class_ordinal = 2"))
    after = {d["solution"]: d["mailbox_class"] for d in rows(catalog, "test-designs") if d["mailbox_count"]}
    assert set(after.values()) == {"1,001–5,000 mailboxes"} and after.keys() == before.keys()


@pytest.mark.parametrize("document", sorted(p.name for p in DOCUMENTS.glob("00*.txt")))
def test_documents_alone_store_the_mailbox_count_with_its_line(catalog, document):
    (outcome,) = ingest_paths(catalog.engine, [DOCUMENTS / document])
    assert outcome.status == "loaded", outcome.message
    designs = [d for d in rows(catalog, "test-designs") if d["mailbox_count"] is not None]
    assert designs, "no mailbox count from the document alone"
    for design in designs:
        assert _printed_on_its_line(design), design
