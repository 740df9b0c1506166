"""The draft stage hands the writer finished manifests (issue 48): `DraftedDocument.manifests` and its
facts are drafted outside any transaction, and the writer only maps a key the catalogue already holds
(`manifests.rekeyed`), which gives exactly what drafting afresh under the free keys would."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.facts import document_facts
from esrpdb.ingest.draft.manifests import drafted_manifests, rekeyed
from esrpdb.ingest.formats import document as document_format
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.schema import Solution
from tests.helpers import FIXTURES

COMPARES = FIXTURES / "documents" / "003_d69a140947d8d140.txt"  # five systems, comparisons between them


def _drafted(path: Path):
    return draft_document(document_format.parse(str(path), path.read_bytes()))


def test_the_drafted_document_carries_its_finished_manifests_and_facts():
    drafted = _drafted(COMPARES)
    name = COMPARES.name
    again = drafted_manifests(drafted.systems, name, name, report_types=[r.report_type for r in drafted.document.reports])
    assert drafted.manifests == again and len(again) == 5
    assert drafted.facts == document_facts(drafted.document)
    assert any(c.versus for m in drafted.manifests for c in m.manifest.claims)


def test_a_key_the_catalogue_holds_is_mapped_as_drafting_afresh_would_give_it():
    drafted = _drafted(COMPARES)
    keys = [f"{m.manifest.key[:50]}-{n}" for n, m in enumerate(drafted.manifests, 2)]
    name = COMPARES.name
    fresh = drafted_manifests(drafted.systems, name, name, keys=keys,
                              report_types=[r.report_type for r in drafted.document.reports])
    assert rekeyed(drafted.manifests, keys) == fresh
    same = [m.manifest.key for m in drafted.manifests]
    assert rekeyed(drafted.manifests, same) is drafted.manifests  # nothing held: the manifests as drafted


@pytest.mark.db
def test_a_document_whose_keys_the_catalogue_holds_takes_free_ones(catalog):
    drafted = [m.manifest.key for m in _drafted(COMPARES).manifests]
    with catalog.session() as session, session.begin():
        session.add_all(Solution(key=key) for key in drafted)  # held already (another document's systems)
    ingest_paths(catalog.engine, [COMPARES])
    with catalog.engine.connect() as conn:
        keys = set(conn.execute(text("select key from solutions where provisional")).scalars())
        versus = set(conn.execute(text(
            "select s.key from claims c join solutions s on s.id = c.other_solution_id")).scalars())
        sources = set(conn.execute(text("select key from solutions s where provisional and exists "
                                        "(select 1 from runs r where r.solution_id = s.id)")).scalars())
    assert {f"{k}-2" for k in drafted} <= keys and not set(drafted) & keys
    assert versus and versus <= keys and sources <= keys
