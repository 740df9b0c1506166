"""Every run belongs to a solution, and one report is one run however often it is seen.

A document ingested without a manifest gives a provisional solution derived from it (facts with
their lines); a manifest naming the document later takes it over. A report seen twice (its HTML
file and the same report inside its document, or two encodings of one file) is one run with two
sources; values the sources print differently are warnings the audit reports.
"""

from __future__ import annotations

import json
import shutil

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.formats import document as document_text
from tests.document_variants import crlf, pages, spaces
from tests.helpers import DOCUMENTS, FIXTURES

runner = CliRunner()
SEEDS = sorted(DOCUMENTS.glob("0*.txt"))
MD1220 = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"


def ingest(url: str, *paths) -> list[dict]:
    result = runner.invoke(app, ["--database-url", url, "ingest", *map(str, paths), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def scalar(catalog, sql: str):
    with catalog.engine.connect() as conn:
        return conn.execute(text(sql)).scalar_one()


def rows(catalog, sql: str) -> list[tuple]:
    with catalog.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


@pytest.mark.parametrize("path", SEEDS, ids=[p.name[:3] for p in SEEDS])
def test_a_seed_alone_gives_runs_that_all_belong_to_its_provisional_solution(path, tmp_path, fresh_database_url,
                                                                             catalog):
    target = tmp_path / path.name
    shutil.copy(path, target)
    (outcome,) = ingest(fresh_database_url, target)
    assert outcome["status"] == "loaded"
    parsed = document_text.parse(path.name, path.read_bytes())
    stored = rows(catalog, "select r.achieved_iops, s.key, s.provisional from runs r join solutions s "
                           "on s.id = r.solution_id where r.origin = 'report' order by r.report_index")
    assert [a for a, _, _ in stored] == [r.achieved_iops for r in parsed.reports]
    assert scalar(catalog, "select count(*) from runs where solution_id is null") == 0
    solutions = rows(catalog, "select key, provisional, derived_from_source_file_id is not null from solutions")
    assert solutions and all(provisional and derived for _, provisional, derived in solutions)
    assert not any(key.startswith("doc-") for key, _, _ in solutions)  # every report found its system
    if len(solutions) == len(parsed.reports) > 1:  # a comparison with one report per system: one each
        assert len({key for _, key, _ in stored}) == len(parsed.reports)
    facts = rows(catalog, "select fact, value_printed, source_line from solution_facts")
    assert ("title", parsed.title, parsed.title_line) in facts
    assert all(line is not None for _, _, line in facts)


def test_the_esrp_template_tables_give_the_solutions_facts(tmp_path, fresh_database_url, catalog):
    target = tmp_path / SEEDS[1].name
    shutil.copy(SEEDS[1], target)
    ingest(fresh_database_url, target)
    solution = rows(catalog, "select vendor, model, raid_level, connectivity from solutions")[0]
    assert solution == ("Dell", "PowerVault MD1220", "RAID 5", "SAS")
    facts = {(fact, value) for fact, value in rows(catalog, "select fact, value_printed from solution_facts")}
    assert {("disk_count", "24"), ("media", "HDD"), ("disk_capacity", "838"), ("mailboxes", "5000"),
            ("iops_per_mailbox", "0.2"), ("usable_capacity", "16754"), ("tested_date", "5/31/2011")} <= facts
    # The drives are 900 GB as their vendor counts (10^9 bytes), as the seed's configuration prints them
    # ("24 Seagate 900GB 10K RPM SAS Drives") and the hand-written manifest says; the template's "838" is
    # the same drive in GB of 2^30 bytes, kept as a fact with its line.
    assert rows(catalog, "select disk_count, media, raw_capacity_bytes from disks") == [(24, "HDD", 900 * 10**9)]


@pytest.mark.parametrize("path", SEEDS[:3], ids=[p.name[:3] for p in SEEDS[:3]])
def test_a_reflowed_copy_of_a_seed_is_the_same_runs_seen_again(path, tmp_path, fresh_database_url, catalog):
    """Identical records: the reflowed copy adds sources to the same runs and disagrees on no value."""
    shutil.copy(path, tmp_path / path.name)
    (tmp_path / f"reflowed-{path.name}").write_text(crlf(pages(spaces(path.read_text(encoding="utf-8")))),
                                                     encoding="utf-8", newline="")
    ingest(fresh_database_url, tmp_path / path.name)
    before = rows(catalog, "select id from runs order by id")
    solutions = rows(catalog, "select key from solutions order by key")
    ingest(fresh_database_url, tmp_path / f"reflowed-{path.name}")
    assert rows(catalog, "select id from runs order by id") == before  # table runs too: one document, one set
    assert rows(catalog, "select key from solutions order by key") == solutions
    reports = scalar(catalog, "select count(*) from runs where origin = 'report'")
    assert scalar(catalog, "select count(*) from run_sources") == 2 * reports
    assert rows(catalog, "select message from ingest_warnings where check_name = 'report_seen_twice'") == []


def test_catalogue_and_documents_no_run_without_solution_no_report_twice(fresh_database_url, catalog):
    outcomes = ingest(fresh_database_url, FIXTURES / "catalog", DOCUMENTS)
    assert not [o for o in outcomes if o["status"] == "failed"]
    assert scalar(catalog, "select count(*) from runs where solution_id is null") == 0
    assert scalar(catalog, "select count(*) from (select identity_key from runs where identity_key is not null "
                           "group by identity_key having count(*) > 1) twice") == 0
    seen_twice = scalar(catalog, "select count(*) from (select run_id from run_sources group by run_id "
                                 "having count(*) > 1) r")
    assert seen_twice == 8  # the seeds' eight embedded reports, each also an HTML fixture
    # the synthetic whitepaper's two arrays (no manifest names it); every seed system is confirmed
    assert rows(catalog, "select key from solutions where provisional order by key") == [
        ("contoso-stormax-9000",), ("fabrikam-fx-200",)]
    conflict = rows(catalog, "select message from ingest_warnings where check_name = 'report_seen_twice'")
    assert conflict == [(
        "the report is also printed in Performance_2011_5_31_14_17_59.html (run "
        + str(scalar(catalog, "select run_id from ingest_warnings where check_name = 'report_seen_twice'"))
        + "); report_type differs: 'Performance' there, 'Stress' in 001_4559286d3491bdeb.txt",)]


def test_a_manifest_naming_the_document_takes_its_solution_over(tmp_path, fresh_database_url, catalog):
    ingest(fresh_database_url, DOCUMENTS / SEEDS[1].name)
    assert rows(catalog, "select provisional from solutions") == [(True,)]
    ingest(fresh_database_url, FIXTURES / "catalog" / "dell-powervault-md1220.toml")
    assert rows(catalog, "select key, provisional from solutions") == [("dell-powervault-md1220", False)]
    assert scalar(catalog, "select count(*) from runs where origin = 'report'") == 4
    assert scalar(catalog, "select count(*) from runs where solution_id is null") == 0
    assert scalar(catalog, "select count(*) from solution_facts") == 0


def test_solution_assigns_explicitly(tmp_path, fresh_database_url, catalog):
    result = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(SEEDS[2]), "--solution", "mine", "--new-solution"])
    assert result.exit_code == 0, result.output
    assert rows(catalog, "select key, provisional from solutions") == [("mine", False)]


def test_two_encodings_of_one_html_report_are_one_run(tmp_path, fresh_database_url, catalog):
    html = MD1220.read_text(encoding="utf-8")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / MD1220.name).write_text(html, encoding="utf-8")
    (tmp_path / "b" / MD1220.name).write_bytes(html.replace("\n", "\r\n").encode("utf-16"))
    ingest(fresh_database_url, tmp_path / "a", tmp_path / "b")
    assert scalar(catalog, "select count(*) from runs") == 1
    assert scalar(catalog, "select count(*) from run_sources") == 2


def test_values_the_sources_print_differently_are_audit_findings(tmp_path, fresh_database_url, catalog):
    changed = MD1220.read_text(encoding="utf-8").replace("<td>7 (per database)</td>", "<td>8 (per database)</td>")
    (tmp_path / MD1220.name).write_text(changed, encoding="utf-8")
    ingest(fresh_database_url, MD1220, tmp_path / MD1220.name)
    assert scalar(catalog, "select count(*) from runs") == 1
    (message,) = rows(catalog, "select message from ingest_warnings where check_name = 'report_seen_twice'")[0]
    assert "thread_count differs: 7 there, 8 in" in message
    audit = runner.invoke(app, ["--database-url", fresh_database_url, "audit", "--format", "json"])
    assert audit.exit_code == 0, audit.output
    assert "thread_count differs" in audit.stdout


def test_the_migration_gives_runs_already_stored_their_identity(empty_database_url):
    """A catalogue from before revision 0009: its runs get the identity the loader would write."""
    from sqlalchemy import create_engine

    from esrpdb.db import migrate
    from esrpdb.ingest.formats import jetstress_html
    from esrpdb.ingest.load.identity import identity_key

    migrate.upgrade(empty_database_url, "0006")
    engine = create_engine(empty_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("insert into source_files (sha256, path, file_name, format, parser_version, size_bytes) "
                              "values (repeat('a', 64), 'x.html', 'x.html', 'jetstress_html', '1', 1)"))
            conn.execute(text(
                "insert into runs (source_file_id, report_index, report_type, machine_name, test_start, "
                "jetstress_version, achieved_iops) select id, 0, 'Performance', 'WIN-PVCKE1IJFQ1', "
                "'2011-05-28 11:38:14', '14.01.0225.017', 1573.982 from source_files"))
        migrate.upgrade(empty_database_url)
        with engine.connect() as conn:
            stored = conn.execute(text("select identity_key from runs")).scalar_one()
            sources = conn.execute(text("select count(*) from run_sources")).scalar_one()
    finally:
        engine.dispose()
    report = jetstress_html.parse(MD1220.name, MD1220.read_bytes())
    assert (report.jetstress_version, report.achieved_iops) == ("14.01.0225.017", 1573.982)
    assert stored == identity_key(report) and sources == 1
