"""The documents alone, with no manifest, against the hand-written catalogue (tests/unattended.py)."""

from __future__ import annotations

from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.pipeline import ingest_paths

from .conftest import FIXTURES
from .unattended import score

SEEDS = sorted((FIXTURES / "documents").glob("0*.txt"))


def test_unattended_catalogue_reproduces_the_hand_written_one(seed_catalog, catalog, capsys):
    outcomes = ingest_paths(catalog.engine, SEEDS)
    assert [o.status for o in outcomes] == ["loaded"] * len(SEEDS), [o.message for o in outcomes]
    result = score(seed_catalog.engine, catalog.engine)
    with capsys.disabled():
        print("\n" + result.table())
