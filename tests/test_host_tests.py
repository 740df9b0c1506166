"""One test run on several hosts at once is one test: its figures are its host reports' sums.

The fixture is a synthetic whitepaper printing six Jetstress 2013 reports: three hosts under the
baseline and the same three during a drive rebuild. A manifest groups each three into one test
(`hosts = [...]`); the expected figures are computed here from the parsed reports' own values.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from statistics import mean

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from esrpdb.audit import audit
from esrpdb.audit.terms import MATCH, ROUNDING
from esrpdb.db import migrate
from esrpdb.ingest.formats import document as document_text, manifest
from esrpdb.ingest.formats.manifest import ManifestError
from esrpdb.ingest.load.assign import assign
from esrpdb.ingest.load.manifest import load_manifest
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import delete_source
from tests.helpers import REPO_ROOT, sql_rows as rows
from tests.host_tests_manifest import CLAIM, DOCUMENT, HEAD, TESTS, load, one

BASELINE, DRIVE_FAILURE = (0, 1, 2), (3, 4, 5)
ALL_DISKS, ACTIVE_DISKS = 75, 72


def expected(indexes: tuple[int, ...]) -> dict[str, float]:
    """The test's figures from its hosts' parsed reports: sums, latencies weighted by IOPS."""
    reports = document_text.parse(DOCUMENT.name, DOCUMENT.read_bytes()).reports
    hosts = []
    for index in indexes:
        report = reports[index]
        (table,) = [t for t in report.io_tables if t.scope == "transactional"]
        hosts.append({
            "achieved": report.achieved_iops, "target": report.target_iops, "instances": len(table.rows),
            "log": sum(r.log_writes_per_s for r in table.rows),
            "reads": sum(r.db_reads_per_s for r in table.rows), "writes": sum(r.db_writes_per_s for r in table.rows),
            "read_ms": mean(r.db_read_latency for r in table.rows),
            "write_ms": mean(r.db_write_latency for r in table.rows),
            "log_ms": mean(r.log_write_latency for r in table.rows),
        })
    achieved, log = sum(h["achieved"] for h in hosts), sum(h["log"] for h in hosts)
    return {
        "achieved_iops": achieved, "log_iops": log, "total_iops": achieved + log,
        "target_iops": sum(h["target"] for h in hosts),
        "database_instance_count": sum(h["instances"] for h in hosts),
        "db_reads_per_s": sum(h["reads"] for h in hosts), "db_writes_per_s": sum(h["writes"] for h in hosts),
        "db_read_latency_ms": sum(h["read_ms"] * h["achieved"] for h in hosts) / achieved,
        "db_write_latency_ms": sum(h["write_ms"] * h["achieved"] for h in hosts) / achieved,
        "log_write_latency_ms": sum(h["log_ms"] * h["log"] for h in hosts) / log,
    }


FIGURES = ("achieved_iops", "log_iops", "total_iops", "target_iops", "database_instance_count", "db_reads_per_s",
           "db_writes_per_s", "db_read_latency_ms", "db_write_latency_ms", "log_write_latency_ms")


def figures(engine, label: str) -> dict:
    values = one(engine, f"SELECT {', '.join(FIGURES)} FROM run_figures WHERE run_label = :label", label=label)
    return dict(zip(FIGURES, values))


def test_a_test_over_hosts_has_its_hosts_sums_and_weighted_latencies(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    for label, indexes in (("Baseline", BASELINE), ("Drive failure", DRIVE_FAILURE)):
        assert figures(engine, label) == pytest.approx(expected(indexes), rel=1e-12)
    assert rows(engine, "SELECT run_label, origin, machine_name, reported_verdict, scenario, jetstress_release "
                        "FROM runs WHERE origin = 'hosts' ORDER BY run_label") == [
        ("Baseline", "hosts", None, "Pass", None, 2013), ("Drive failure", "hosts", None, "Fail", "Drive failure", 2013)]
    # each host report points at its test, keeps its own figures, and is not ranked
    hosts = rows(engine, "SELECT r.run_label, t.run_label, f.achieved_iops, r.achieved_iops, f.trial_rank_ordinal, "
                         "f.is_median_run FROM runs r JOIN runs t ON t.id = r.test_run_id "
                         "JOIN run_figures f ON f.run_id = r.id ORDER BY r.report_index")
    assert [(h, t) for h, t, *_ in hosts] == [
        (f"{test} – MBXSIM{n}", test) for test in ("Baseline", "Drive failure") for n in (1, 2, 3)]
    assert all(own == stored and rank is None and median is None for _, _, own, stored, rank, median in hosts)
    assert one(engine, "SELECT count(*) FROM run_disk_figures d JOIN runs r ON r.id = d.run_id "
                       "WHERE r.test_run_id IS NOT NULL") == 0


def test_per_disk_figures_and_the_representative_run_are_the_tests(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    total = expected(BASELINE)["total_iops"]
    per_disk = dict(rows(engine, "SELECT disk_basis, total_iops_per_disk FROM per_disk_iops WHERE run_label = 'Baseline'"))
    assert per_disk == pytest.approx({"all": total / ALL_DISKS, "active": total / ACTIVE_DISKS}, rel=1e-12)
    assert one(engine, "SELECT count(*) FROM per_disk_iops") == 4  # two tests on two bases, no host
    assert one(engine, "SELECT iops_source FROM median_runs WHERE run_label = 'Baseline'") == "report"
    assert one(engine, "SELECT run_label FROM representative_runs") == "Baseline"
    # a normal test stands for the solution before a higher one under an abnormal condition
    with engine.begin() as conn:
        conn.execute(text("UPDATE runs SET scenario = CASE WHEN run_label = 'Baseline' THEN 'Rebuild' END "
                          "WHERE origin = 'hosts'"))
    assert one(engine, "SELECT run_label FROM representative_runs") == "Drive failure"


def test_the_median_of_a_trial_is_taken_across_its_tests_never_its_hosts(tmp_path, catalog):
    engine = catalog.engine
    trial = '\n[[trials]]\nkey = "repeated"\n'
    toml = HEAD + trial + TESTS.replace('hosts = [0, 1, 2]', 'hosts = [0, 1, 2]\ntrial = "repeated"').replace(
        'hosts = [3, 4, 5]', 'hosts = [3, 4, 5]\ntrial = "repeated"')
    assert load(engine, tmp_path, toml).status == "loaded"
    ranked = rows(engine, "SELECT run_label, rank_in_trial, runs_in_trial, is_median_run, spread_percent "
                          "FROM median_runs ORDER BY rank_in_trial")
    low, high = expected(DRIVE_FAILURE)["total_iops"], expected(BASELINE)["total_iops"]
    assert [r[:4] for r in ranked] == [("Drive failure", 1, 2, True), ("Baseline", 2, 2, False)]
    assert ranked[0][4] == pytest.approx((high - low) / low * 100, rel=1e-12)
    assert one(engine, "SELECT count(*) FROM runs WHERE trial_id IS NOT NULL AND test_run_id IS NOT NULL") == 0


def test_loading_again_keeps_one_test_and_claims_name_it(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS + CLAIM).status == "loaded"
    changed = (HEAD + TESTS + CLAIM).replace("All drives healthy", "All 75 drives healthy")
    assert load(engine, tmp_path, changed).status == "loaded"  # another manifest file: loaded again
    tests = rows(engine, "SELECT id, run_label, test_description FROM runs WHERE origin = 'hosts' ORDER BY run_label")
    assert [(label, description) for _, label, description in tests] == [
        ("Baseline", "All 75 drives healthy"), ("Drive failure", None)]
    assert one(engine, "SELECT count(DISTINCT test_run_id) FROM runs WHERE test_run_id IS NOT NULL") == 2
    assert one(engine, "SELECT run_id FROM claims WHERE metric = 'total_iops'") == tests[0][0]
    assert figures(engine, "Baseline") == pytest.approx(expected(BASELINE), rel=1e-12)


def test_a_manifest_takes_over_the_tests_drafted_from_the_document(tmp_path, catalog):
    engine = catalog.engine
    shutil.copy(DOCUMENT, tmp_path / DOCUMENT.name)
    assert ingest_paths(engine, [tmp_path / DOCUMENT.name])[0].status == "loaded"
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    assert rows(engine, "SELECT key, provisional FROM solutions") == [("huawei-5300-v3", False)]
    assert one(engine, "SELECT count(*) FROM runs WHERE origin = 'hosts'") == 2


def test_the_audit_judges_a_claim_on_the_test_by_its_sums(tmp_path, catalog):
    latency = CLAIM.replace('metric = "total_iops"\nvalue = "1,887"\nunit = "IOPS"',
                            'metric = "db_read_latency"\nvalue = "6.16"\nunit = "ms"')
    assert load(catalog.engine, tmp_path, HEAD + TESTS + CLAIM + latency).status == "loaded"
    found = {f.metric: f for f in audit(catalog.engine, solution="huawei-5300-v3").findings if f.kind == "claim"}
    assert found["total_iops"].recomputed == pytest.approx(expected(BASELINE)["total_iops"], rel=1e-12)
    assert found["db_read_latency"].recomputed == pytest.approx(expected(BASELINE)["db_read_latency_ms"], rel=1e-12)
    assert {f.verdict for f in found.values()} <= {MATCH, ROUNDING}, [f.explanation for f in found.values()]


def test_a_hosts_own_figure_is_judged_on_its_own_report_never_on_the_tests_sum(tmp_path, catalog):
    """`host = "MBXSIM2"` with run "Baseline": the claim's run is that host's report (its run in the catalogue),
    so 584.560 achieved IOPS is MBXSIM2's, not the three hosts' sum; a machine the test has not leaves it
    with no run rather than the sum."""
    own = CLAIM.replace('metric = "total_iops"\nvalue = "1,887"', 'metric = "achieved_iops"\nvalue = "584.560"')
    own = own.replace('run = "Baseline"', 'run = "Baseline"\nhost = "MBXSIM2"')
    stranger = own.replace('host = "MBXSIM2"', 'host = "NOT-A-HOST"').replace('"584.560"', '"584.561"')
    assert load(catalog.engine, tmp_path, HEAD + TESTS + own + stranger).status == "loaded"
    placed = rows(catalog.engine, "SELECT c.value_printed, r.machine_name, r.test_run_id IS NOT NULL FROM claims c "
                                  "LEFT JOIN runs r ON r.id = c.run_id ORDER BY c.value_printed")
    assert placed == [("584.560", "MBXSIM2", True), ("584.561", None, False)]
    found = [f for f in audit(catalog.engine, solution="huawei-5300-v3").findings if f.printed == "584.560"]
    assert [f.verdict for f in found] == [MATCH], [f.explanation for f in found]


def test_a_drafted_test_leaves_hosts_a_confirmed_solution_holds(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    before = rows(engine, "SELECT id, solution_id, test_run_id, run_label FROM runs ORDER BY id")
    drafted = manifest.parse("draft.toml", HEAD.replace("huawei-5300-v3", "drafted").encode() + TESTS.encode())
    shas = {DOCUMENT.name: hashlib.sha256(DOCUMENT.read_bytes()).hexdigest()}
    document_id = one(engine, "SELECT id FROM source_files WHERE file_name = :n", n=DOCUMENT.name)
    with Session(engine) as session, session.begin():
        load_manifest(session, document_id, drafted, tmp_path, lambda path: shas[path.name],
                      provisional_source=document_id)
    assert rows(engine, "SELECT id, solution_id, test_run_id, run_label FROM runs ORDER BY id") == before


def test_a_host_report_assigned_elsewhere_takes_its_test_along(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    host = one(engine, "SELECT id FROM runs WHERE run_label = 'Baseline – MBXSIM2'")
    moved = assign(engine, str(host), "other-array", new_solution=True)
    assert len(moved.run_ids) == 4  # the test and its three hosts
    assert rows(engine, "SELECT s.key, count(*) FROM runs r JOIN solutions s ON s.id = r.solution_id "
                        "GROUP BY s.key ORDER BY s.key") == [("huawei-5300-v3", 4), ("other-array", 4)]
    assert figures(engine, "Baseline") == pytest.approx(expected(BASELINE), rel=1e-12)


def test_deleting_the_document_removes_its_tests(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    delete_source(engine, hashlib.sha256(DOCUMENT.read_bytes()).hexdigest())
    assert one(engine, "SELECT count(*) FROM runs") == 0
    assert one(engine, "SELECT count(*) FROM run_figures") == 0


def test_migration_0019_down_and_up_keeps_the_tests(tmp_path, fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        assert load(engine, tmp_path, HEAD + TESTS + CLAIM).status == "loaded"
        state = ("SELECT r.id, r.origin, r.run_label, r.test_run_id, r.scenario, f.total_iops, f.is_median_run, "
                 "c.id FROM runs r LEFT JOIN run_figures f ON f.run_id = r.id LEFT JOIN claims c ON c.run_id = r.id "
                 "ORDER BY r.id")
        before = rows(engine, state)
        engine.dispose()
        migrate.downgrade(fresh_database_url, "0018")
        assert one(engine, "SELECT count(*) FROM runs WHERE origin = 'hosts'") == 0
        assert one(engine, "SELECT count(*) FROM median_runs WHERE is_median_run") == 6  # hosts ranked alone
        assert one(engine, "SELECT count(*) FROM claims WHERE run_id IS NULL") == 1
        engine.dispose()
        migrate.upgrade(fresh_database_url)
        assert rows(engine, state) == before
        assert one(engine, "SELECT to_regclass('esrpdb_downgrade_archive')") is None
    finally:
        engine.dispose()


# --- manifests that do not make a test -----------------------------------------------------------


def problems(toml: str) -> tuple[str, ...]:
    with pytest.raises(ManifestError) as caught:
        manifest.parse("hosts.toml", toml.encode())
    return caught.value.problems


@pytest.mark.parametrize("old, new, expected", [
    ("hosts = [0, 1, 2]", "hosts = [0]", "runs[0].hosts: expected two or more report indexes"),
    ("hosts = [0, 1, 2]", "hosts = [0, 1, 1]", "runs[0].hosts: report 1 is listed more than once"),
    ("hosts = [0, 1, 2]", "hosts = [0, -1]", "runs[0].hosts: -1 is out of range; must be at least 0"),
    ("hosts = [0, 1, 2]", 'hosts = "0, 1"', "runs[0].hosts: expected two or more report indexes"),
    ('document = "synthetic-three-hosts.txt"\nhosts = [0, 1, 2]', 'report = "a.html"\nhosts = [0, 1, 2]',
     "runs[0].hosts: only with document = …"),
    ("hosts = [0, 1, 2]", "hosts = [0, 1, 2]\nmatch = { report_index = 0 }",
     "runs[0].hosts: give match (one report) or hosts"),
    ('scenario = "Drive failure"', "scenario = 1", "runs[1].scenario: expected a string"),
])
def test_a_bad_hosts_list_is_named_with_its_field(old, new, expected):
    toml = HEAD + TESTS
    assert old in toml
    found = problems(toml.replace(old, new, 1))
    assert any(p.startswith(expected) for p in found), found


def test_the_hosts_and_scenario_parse():
    parsed = manifest.parse("hosts.toml", (HEAD + TESTS).encode())
    assert [(r.hosts, r.scenario, r.document) for r in parsed.runs] == [
        (BASELINE, None, DOCUMENT.name), (DRIVE_FAILURE, "Drive failure", DOCUMENT.name)]


def test_the_documented_tests_on_several_hosts_parse():
    page = (REPO_ROOT / "docs" / "manifests.md").read_text(encoding="utf-8")
    block = page.split("## A test on several hosts", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    parsed = manifest.parse("docs.toml", (HEAD + '\n[[trials]]\nkey = "repeated"\n' + block).encode())
    assert [(r.label, r.hosts, r.scenario) for r in parsed.runs] == [
        ("Baseline", BASELINE, None), ("Drive failure", DRIVE_FAILURE, "Drive failure")]


def _failure(engine, folder: Path, toml: str, document: str | None = None) -> str:
    outcome = load(engine, folder, toml, document)
    assert outcome.status == "failed"
    return outcome.message


def test_a_report_index_the_document_does_not_print_fails_the_manifest(tmp_path, catalog):
    message = _failure(catalog.engine, tmp_path, HEAD + TESTS.replace("hosts = [3, 4, 5]", "hosts = [4, 9]"))
    assert "runs[1].hosts" in message and "no report 9" in message and "indexes 0–5" in message
    assert one(catalog.engine, "SELECT count(*) FROM solutions WHERE key = 'huawei-5300-v3'") == 0  # nothing written


def test_reports_of_different_types_are_not_one_test(tmp_path, catalog):
    text_ = DOCUMENT.read_text(encoding="utf-8")
    title = "#### Performance Test Result Report"
    third = [i for i in range(len(text_)) if text_.startswith(title, i)][2]
    stress = text_[:third] + "#### Stress Test Result Report" + text_[third + len(title):]
    message = _failure(catalog.engine, tmp_path, HEAD + TESTS, stress)
    assert "runs[0].hosts" in message and "different types (0: Performance, 1: Performance, 2: Stress)" in message


def test_a_report_is_not_both_a_run_and_a_host(tmp_path, catalog):
    twice = '\n[[runs]]\nlabel = "MBXSIM1"\ndocument = "synthetic-three-hosts.txt"\nmatch = { report_index = 0 }\n'
    message = _failure(catalog.engine, tmp_path, HEAD + TESTS + twice)
    assert "runs[2]" in message and "already named by runs[0].hosts" in message
