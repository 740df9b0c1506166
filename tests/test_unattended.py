"""The documents alone, with no manifest, against the hand-written catalogue (tests/unattended.py).

The same score must come out of renamed systems, swapped columns and every extraction variant
the project tests (tests/document_variants.py): no rule may read a vendor's name or a position.
"""

from __future__ import annotations

import pytest

from esrpdb.ingest.pipeline import ingest_paths
from tests.document_variants import VARIANTS, renamed, swapped
from tests.helpers import FIXTURES
from tests.unattended import Score, score

SEEDS = sorted((FIXTURES / "documents").glob("0*.txt"))



def build(engine, paths) -> None:
    outcomes = ingest_paths(engine, paths)
    assert [o.status for o in outcomes] == ["loaded"] * len(paths), [o.message for o in outcomes]


@pytest.fixture(scope="module")
def original_score(pg_server, template_url, seed_catalog) -> Score:
    from esrpdb.db.catalog import open_catalog
    from tests.helpers import TEMPLATE, scratch_database

    with scratch_database(pg_server, "una", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            build(catalog.engine, SEEDS)
            return score(seed_catalog.engine, catalog.engine)
        finally:
            catalog.close()


def test_unattended_catalogue_reproduces_the_hand_written_one(original_score, capsys):
    with capsys.disabled():
        print("\n" + original_score.table())
    found, total = original_score.figures
    assert original_score.systems_found == len(original_score.systems) == 10  # fixtures/catalog's ten manifests
    assert found == total  # every figure the hand-written catalogue gives


TRANSFORMS = {"renamed": renamed, "swapped": swapped, **{k: v for k, v in VARIANTS.items() if k in (
    "spaces", "markdown", "html_bold", "pages", "crlf", "pdf", "typeset")}}


@pytest.mark.parametrize("variant", sorted(TRANSFORMS))
def test_the_same_score_from_every_variant(variant, original_score, seed_catalog, catalog, tmp_path):
    paths = []
    for seed in SEEDS:
        made = TRANSFORMS[variant](seed.read_text(encoding="utf-8"))
        target = tmp_path / (seed.stem + (".pdf" if isinstance(made, bytes) else seed.suffix))
        target.write_bytes(made if isinstance(made, bytes) else made.encode("utf-8"))
        paths.append(target)
    build(catalog.engine, paths)
    result = score(seed_catalog.engine, catalog.engine)
    assert result.line() == original_score.line(), result.table()
