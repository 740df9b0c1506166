"""Issue 36: a document's drafted systems are planned one by one (every read, every ParseError) and then
written together. A system whose plan fails is skipped whole, with its message, and writes no row of its
own; the document's other systems load as they would alone."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from sqlalchemy import text

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.formats import document as document_format
from esrpdb.ingest.load import SourceInfo, claim_source_file, load_document
from tests.helpers import FIXTURES

DOCUMENT = FIXTURES / "documents" / "000_cfe3f1c33c0344dc.txt"  # two systems, each with table runs


def _load(catalog, drafted, data: bytes) -> tuple[int, list[str]]:
    sha = hashlib.sha256(data).hexdigest()
    with catalog.session() as session, session.begin():
        source_id = claim_source_file(session, SourceInfo(sha, str(DOCUMENT), DOCUMENT.name, "document_text",
                                                          "document_text/1", len(data)))
        assert source_id is not None
        _, messages = load_document(session, source_id, drafted)
    return source_id, messages


def _rows(catalog, sql: str, **params) -> list[tuple]:
    with catalog.engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(sql), params)]


@pytest.mark.db
def test_a_system_that_fails_its_plan_writes_nothing_and_the_others_load(catalog):
    data = DOCUMENT.read_bytes()
    drafted = draft_document(document_format.parse(DOCUMENT.name, data))
    good, bad = drafted.systems
    assert any(run.table is not None for run in bad.runs)
    # The writer loads the draft stage's finished manifests: the bad system's names a column its table lacks.
    good_manifest, bad_manifest = drafted.manifests
    broken = replace(bad_manifest.manifest, runs=tuple(
        replace(run, table=replace(run.table, column="No such column")) if run.table is not None else run
        for run in bad_manifest.manifest.runs))
    source_id, messages = _load(catalog, replace(drafted, manifests=[good_manifest, replace(bad_manifest, manifest=broken)]),
                                data)

    failed = [m for m in messages if m.startswith(f"system {bad.name!r} was not loaded: ")]
    assert len(failed) == 1 and "no column 'No such column'" in failed[0], messages
    systems = _rows(catalog, "SELECT id, label FROM solutions WHERE derived_from_source_file_id = :s "
                             "AND key NOT LIKE 'doc-%'", s=source_id)
    assert len(systems) == 1  # the good system alone
    good_id = systems[0][0]
    for table in ("solution_facts", "disks", "claims", "runs"):
        assert _rows(catalog, f"SELECT count(*) FROM {table} WHERE solution_id = :s", s=good_id)[0][0] > 0, table
    # The failed system left no facts, disks, trials, claims or runs: every such row is the good system's
    # or the document's fallback solution's ("doc-…": the document's own facts, the reports no system took).
    for table in ("solution_facts", "disks", "trials", "claims"):
        owners = _rows(catalog, f"SELECT DISTINCT t.solution_id FROM {table} t JOIN solutions s ON s.id = t.solution_id "
                                "WHERE s.key NOT LIKE 'doc-%'")
        assert owners == [(good_id,)], (table, owners)
    strays = _rows(catalog, "SELECT r.id FROM runs r LEFT JOIN solutions s ON s.id = r.solution_id "
                            "WHERE r.solution_id IS DISTINCT FROM :g AND s.key NOT LIKE 'doc-%'", g=good_id)
    assert strays == []
    table_runs = _rows(catalog, "SELECT count(*) FROM runs WHERE origin = 'document_table'")[0][0]
    assert table_runs == sum(run.table is not None for run in good.runs)


@pytest.mark.db
def test_the_systems_of_a_document_written_together_hold_what_each_drafted(catalog):
    data = DOCUMENT.read_bytes()
    drafted = draft_document(document_format.parse(DOCUMENT.name, data))
    source_id, messages = _load(catalog, drafted, data)
    assert not [m for m in messages if "was not loaded" in m]
    systems = _rows(catalog, "SELECT s.id, count(f.*) FROM solutions s JOIN solution_facts f ON f.solution_id = s.id "
                             "WHERE s.derived_from_source_file_id = :s GROUP BY s.id ORDER BY s.id", s=source_id)
    assert [count for _, count in systems] == [len(system.facts) for system in drafted.systems]
    # Each file's runs beyond its reports count down from -1, in the order the systems drafted them.
    indexes = _rows(catalog, "SELECT report_index FROM runs WHERE source_file_id = :s AND report_index < 0 "
                             "ORDER BY id", s=source_id)
    assert [i for (i,) in indexes] == list(range(-1, -len(indexes) - 1, -1)) and indexes


def test_the_solutions_upsert_names_every_column_a_manifest_gives():
    """batch._UPSERT_SOLUTIONS lists its columns (SOLUTION_COLUMNS): one solution_values gives and the list
    lacked would not be written, silently."""
    from esrpdb.ingest.formats import manifest
    from esrpdb.ingest.load.batch import SOLUTION_COLUMNS, solution_values

    for path in sorted((FIXTURES / "catalog").glob("*.toml")):
        parsed = manifest.parse(str(path), path.read_bytes())
        for provisional_source in (None, 7):
            assert set(solution_values(parsed, provisional_source)) == set(SOLUTION_COLUMNS), path.name
