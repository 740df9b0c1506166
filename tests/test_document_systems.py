"""A document without a manifest: one provisional solution per system, one set of solutions per
document whatever its form, delete + ingest round trips, drafts that confirm what ingest believed."""

from __future__ import annotations

import shutil

from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import delete_source
from tests.document_variants import pdf
from tests.helpers import FIXTURES

DOCUMENTS = FIXTURES / "documents"
SEED_000 = DOCUMENTS / "000_cfe3f1c33c0344dc.txt"
CONTOSO = DOCUMENTS / "synthetic-contoso-whitepaper.md"
runner = CliRunner()


def rows(catalog, sql: str) -> list[tuple]:
    with catalog.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


SOLUTIONS = "select key, provisional, vendor, model from solutions order by key"
RUNS = ("select s.key, r.origin, r.run_label, r.achieved_iops, t.label from runs r join solutions s "
        "on s.id = r.solution_id left join trials t on t.id = r.trial_id order by 1, 2, 3")


def test_a_comparison_becomes_one_solution_per_system(catalog):
    ingest_paths(catalog.engine, [SEED_000])
    solutions = rows(catalog, SOLUTIONS)
    assert len(solutions) == 2 and all(provisional for _, provisional, _, _ in solutions)
    assert not any(key.startswith("doc-") for key, *_ in solutions)
    runs = rows(catalog, RUNS)
    # each system: its embedded report and the two runs Figure 7 prints, one trial of three
    for key, *_ in solutions:
        mine = [r for r in runs if r[0] == key]
        assert sorted((origin, label) for _, origin, label, _, _ in mine) == [
            ("document_table", "Run 1"), ("document_table", "Run 3"), ("report", "Run 2")]
        assert len({trial for *_, trial in mine}) == 1 and mine[0][4] is not None
    medians = rows(catalog, "select solution, run_label from median_runs where is_median_run order by 1")
    assert [label for _, label in medians] == ["Run 2", "Run 2"]


def test_a_document_and_its_pdf_are_one_set_of_solutions(catalog, tmp_path):
    twin = tmp_path / "000-printed.pdf"
    twin.write_bytes(pdf(SEED_000.read_text(encoding="utf-8")))
    ingest_paths(catalog.engine, [SEED_000])
    solutions, runs = rows(catalog, SOLUTIONS), rows(catalog, RUNS)
    outcomes = ingest_paths(catalog.engine, [twin])
    assert outcomes[0].status == "loaded" and any("same document" in m for m in outcomes[0].warnings)
    assert rows(catalog, SOLUTIONS) == solutions and rows(catalog, RUNS) == runs
    assert rows(catalog, "select count(distinct source_file_id) from run_sources") == [(2,)]


def test_delete_then_ingest_gives_back_the_same_catalogue(catalog):
    ingest_paths(catalog.engine, [SEED_000])
    solutions, runs = rows(catalog, SOLUTIONS), rows(catalog, RUNS)
    delete_source(catalog.engine, SEED_000.name)
    assert rows(catalog, "select count(*) from solutions") == [(0,)]
    outcomes = ingest_paths(catalog.engine, [SEED_000])
    assert outcomes[0].status == "loaded", outcomes[0].message
    assert rows(catalog, SOLUTIONS) == solutions and rows(catalog, RUNS) == runs


def test_drafts_loaded_unchanged_confirm_what_ingest_believed(catalog, tmp_path, fresh_database_url):
    shutil.copy(SEED_000, tmp_path / SEED_000.name)
    ingest_paths(catalog.engine, [tmp_path / SEED_000.name])
    believed = [(key, vendor, model) for key, _, vendor, model in rows(catalog, SOLUTIONS)]
    runs = rows(catalog, RUNS)
    drafts = tmp_path / "drafts"
    result = runner.invoke(app, ["draft", str(tmp_path / SEED_000.name), "-o", str(drafts)])
    assert result.exit_code == 0, result.output
    outcomes = ingest_paths(catalog.engine, [drafts])
    assert [o.status for o in outcomes] == ["loaded"] * len(believed), [o.message for o in outcomes]
    confirmed = rows(catalog, SOLUTIONS)
    assert [(key, vendor, model) for key, _, vendor, model in confirmed] == believed
    assert not any(provisional for _, provisional, _, _ in confirmed)
    assert rows(catalog, RUNS) == runs


def test_systems_that_cannot_be_told_apart_are_said_and_kept_together(catalog, tmp_path):
    """A report whose system nothing names (no heading, machine or table figure): one line, one solution."""
    anonymous = tmp_path / "anonymous.md"
    anonymous.write_text(CONTOSO.read_text(encoding="utf-8").replace("| 2,380.5 |", "| 2,391.5 |")
                         .replace("CONTOSO-MBX01", "MBX01"), encoding="utf-8")
    (outcome,) = ingest_paths(catalog.engine, [anonymous])
    assert outcome.status == "loaded"
    said = [m for m in outcome.warnings if "could not be told apart" in m]
    assert len(said) == 1 and "looked at" in said[0]
    (fallback,) = rows(catalog, "select s.key from runs r join solutions s on s.id = r.solution_id "
                                "where r.origin = 'report'")
    assert fallback[0].startswith("doc-")
    assert rows(catalog, "select count(*) from runs where solution_id is null") == [(0,)]


def test_a_report_printed_ten_times_is_one_run_and_a_system_without_disks_still_loads(catalog, tmp_path):
    """Issue 26: the same report printed again and again in one document is one run with every place as a
    source; a system whose document prints no disk media still becomes a solution (with `disks = []`)."""
    ten = tmp_path / "ten.md"
    ten.write_text("\n\n".join([CONTOSO.read_text(encoding="utf-8")] * 10), encoding="utf-8")
    (outcome,) = ingest_paths(catalog.engine, [ten])
    assert outcome.status == "loaded", outcome.message
    assert rows(catalog, "select count(*), (select count(*) from run_sources) from runs where origin = 'report'") \
        == [(1, 10)]
    solutions = rows(catalog, SOLUTIONS)
    assert len(solutions) == 2 and not any(key.startswith("doc-") for key, *_ in solutions)
