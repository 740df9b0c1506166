"""Issue 36: a drafted system's key is unique among the catalogue's, found by asking only for the keys it
could collide with (not every key of a catalogue of thousands of solutions, read once per document)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from esrpdb.ingest.draft.drafts import DraftSolution
from esrpdb.ingest.draft.fact import Fact
from esrpdb.ingest.draft.manifests import key_patterns, system_keys
from esrpdb.ingest.load.provisional import _taken_keys
from esrpdb.schema import Solution


def _system(name: str, vendor: str | None = None, model: str | None = None) -> DraftSolution:
    facts = [Fact("vendor", vendor, None, None, 1, vendor)] if vendor else []
    facts += [Fact("model", model, None, None, 1, model)] if model else []
    return DraftSolution(name, facts)


SYSTEMS = [_system("Array A", "Acme", "Store 9000"), _system("B", model="Acme Store 9000"), _system("!!!"),
           _system("x" * 80), _system("Unit 2", "Zeta", "Z-2")]


def _like(pattern: str, key: str) -> bool:
    return re.fullmatch(re.escape(pattern).replace("%", ".*"), key) is not None


def test_every_key_the_drafting_could_give_matches_the_patterns():
    taken: set[str] = set()
    keys, patterns = key_patterns(SYSTEMS)
    for _ in range(12):  # each round takes the keys the last one gave: "-2", "-3", … follow
        for key in system_keys(SYSTEMS, taken):
            assert key in keys or any(_like(p, key) for p in patterns), key


@pytest.mark.db
def test_a_document_s_systems_take_keys_the_catalogue_does_not_hold(catalog):
    with catalog.session() as session, session.begin():
        for key in ("acme-store-9000", "acme-store-9000-2", "solution", "x" * 50 + "-7", "zeta-z-2-9", "other"):
            session.add(Solution(key=key))
        session.flush()
        taken = _taken_keys(session, SYSTEMS)
        assert taken == {"acme-store-9000", "acme-store-9000-2", "solution", "x" * 50 + "-7", "zeta-z-2-9"}
        keys = system_keys(SYSTEMS, taken)
        held = set(session.execute(text("select key from solutions")).scalars())
    assert keys == ["acme-store-9000-3", "acme-store-9000-4", "solution-2", "x" * 56, "zeta-z-2"]
    assert not set(keys) & held
