"""The audit an analyst gets from the documents alone (no manifest): claims on the system and basis
their words name, one finding per cause, copies that add nothing.

MISREAD lists the 29 findings that an earlier unattended audit of the seeds judged against the
wrong system or basis, each with why it was wrong (read by hand against the documents; the
project's shared notes, "unattended-audit-misreadings"). Each is a regression: at that printed
figure, no finding may be a mismatch, and every finding there must be on the right system and,
where the words state one, the right basis.
"""

from __future__ import annotations

from collections import Counter

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.pipeline import ingest_paths
from tests.document_variants import VARIANTS
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

SEEDS = sorted((FIXTURES / "documents").glob("0*.txt"))

# (id, seed, line, printed, words of the right system's key, the right metric or None, why the old reading was wrong)
MISREAD = (
    ("U04", "002", 55, "59", "intel", "percent_less:idle_power", "'59 percent less power … while idle': idle, not active"),
    ("U05", "002", 42, "10", "intel", "percent_less:throughput_mb_per_s_per_disk",
     "'each SSD … than all 24 HDDs': one SSD against the whole HDD array"),
    ("U10", "002", 57, "13.7", "seagate", None, "13.7 IOPS/W is the HDDs'"),
    ("U21", "003", 142, "28", "dell", None, "'Number of disks tested 28' is the active count"),
    ("U25", "003", 24, "118", "dell", "percent_more:total_iops_per_disk", "'per active disk', not total IOPS"),
    ("U26", "003", 24, "29", "dell", "percent_more:total_iops_per_disk", "'per active disk', not total IOPS"),
    ("U27", "003", 26, "110", "dell", "percent_more:iops_per_dollar", "'per dollar', not total IOPS"),
    ("U28", "003", 26, "127", "dell", "percent_more:iops_per_dollar", "'per dollar', not total IOPS"),
    ("U29", "003", 98, "3,008", "configuration-1", None, "configuration 1's total (Figure 4)"),
    ("U31", "003", 99, "125", "configuration-1", None, "configuration 1's IOPS per active disk"),
    ("U47", "003", 142, "24", "fc", None, "the FC's 'disks tested' is its active count"),
    ("U52", "003", 46, "25.49", "hp", None, "25.49 MB/$ is HP's"),
    ("U54", "003", 98, "4,310", "configuration-3", None, "configuration 3's total"),
    ("U57", "003", 44, "93", "hp", None, "93 IOPS/disk is HP's"),
    ("U58", "003", 99, "144", "configuration-3", None, "configuration 3's per active disk"),
    ("U66", "003", 99, "24", "fc", None, "Figure 4's FC per-disk row, not HP's"),
    ("U70", "003", 52, "127", "dell", "percent_more:iops_per_dollar", "Dell vs FC, not HP vs FC"),
    ("U71", "003", 46, "69", "dell", "percent_more:mb_per_dollar", "Dell vs FC, not HP vs FC"),
    ("U72", "003", 98, "3,771", "fc", None, "configuration 2's total: the FC SAN itself"),
    ("U74", "003", 44, "202", "dell", None, "202 IOPS/disk is Dell's"),
    ("U75", "003", 99, "157", "fc", None, "configuration 2's: the FC SAN itself"),
    ("U76", "000", 22, "208.4", "dell", None, "208.4 achieved IOPS/disk is Dell's"),
    ("U77", "000", 50, "208.4", "dell", None, "the same 208.4, Dell's"),
    ("U79", "000", 23, "54.1", "dell", None, "54.1 log IOPS/disk is Dell's"),
    ("U80", "000", 24, "1.98", "dell", None, "1.98 MB/s per disk is Dell's"),
    ("U85", "002", 57, "99.1", "intel", None, "99.1 IOPS/W is the SSDs'"),
    ("V32", "003", 44, "118", "dell", "percent_more:total_iops_per_disk", "per ACTIVE disk, as the sentence says"),
    ("V61", "003", 44, "157", "fc", "total_iops_per_disk", "stated per active disk ('using 24 active disks')"),
    ("35", "001", 319, "1.60", "md1220", None, "the soft-recovery statistics are stored; never a mismatch"),
)


def _build(pg_server, paths):
    from esrpdb.db.catalog import open_catalog

    with scratch_database(pg_server, "aud", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, paths)
            assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]
            return audit(catalog.engine)
        finally:
            catalog.close()


@pytest.fixture(scope="module")
def seeds_alone(pg_server, template_url):
    return _build(pg_server, SEEDS)


@pytest.mark.parametrize("misread", MISREAD, ids=[m[0] for m in MISREAD])
def test_no_figure_is_judged_against_the_wrong_system_or_basis(seeds_alone, misread):
    _, seed, line, printed, system, metric, why = misread
    here = [f for f in seeds_alone.findings if (f.file or "").startswith(seed) and f.line == line and f.printed == printed]
    assert here, f"no finding at {seed} line {line} ({printed}): {why}"
    for finding in here:
        assert finding.verdict != "mismatch", (why, finding.explanation)
        assert system in (finding.solution or ""), (why, finding.solution)
        if metric is not None and finding.kind == "claim":
            assert finding.metric == metric, (why, finding.metric)


@pytest.mark.parametrize("line, printed, metric, report", [
    (312, "60.05", "backup_mb_per_s_per_database", "backup"),
    (313, "480.41", "backup_mb_per_s_per_server", "backup"),
    (319, "1.60", "log_replay_time_per_log", "replay"),
])
def test_seed_001s_backup_and_replay_figures_are_checked_against_their_own_reports(seeds_alone, line, printed,
                                                                                  metric, report):
    """The summary prints them beside the Performance report's figures; the backup and soft-recovery
    reports hold them (not 'unverifiable: not stored for Report 2')."""
    here = [f for f in seeds_alone.findings if (f.file or "").startswith("001") and f.line == line
            and f.printed == printed and f.metric == metric]
    # 1.6099 s per log is printed 1.60: a rounding (to one decimal, a trailing zero added), never unverifiable
    assert len(here) == 1 and here[0].verdict in ("match", "rounding"), [(f.verdict, f.explanation) for f in here]
    assert report in here[0].explanation


def test_seed_002s_power_when_active_is_active_power(seeds_alone):
    """'nearly 60 percent less power when active, … approximately 59 percent less power when idle' (lines
    20, 29): the 60 is the active power's, the 59 the idle power's."""
    for line in (20, 29):
        here = {(f.printed, f.metric) for f in seeds_alone.findings if (f.file or "").startswith("002")
                and f.line == line and f.metric and f.metric.startswith("percent_less:")}
        assert ("60", "percent_less:active_power") in here and ("59", "percent_less:idle_power") in here, here
        assert ("60", "percent_less:idle_power") not in here, here


def test_the_seeds_alone_give_sixteen_causes_and_the_summary_counts_causes(seeds_alone, capsys):
    causes = seeds_alone.causes()
    mismatches = [c for c in causes if c.verdict == "mismatch"]
    with capsys.disabled():
        print(f"\nseeds from documents alone: {seeds_alone.summary()}")
    named = [c for c in mismatches if c.head.kind == "named_differently"]  # read by hand: test_audit_naming.py
    assert len(mismatches) - len(named) == 16 and len(named) == 4  # the 16 real causes the hand-written manifests' audit finds
    assert seeds_alone.summary().startswith(f"{len(causes)} causes ({len(mismatches)} mismatch")
    block = [c for c in causes if any(f.kind == "median_run_figures" for f in c.findings)]
    assert len(block) == 1  # seed 003's "median run" block carries Run 3's figures: one cause, all three systems
    assert len({f.solution for f in block[0].findings}) == 3 and len(block[0].findings) >= 15


def test_the_same_documents_again_in_other_forms_add_no_finding(pg_server, template_url, seeds_alone, tmp_path):
    """The seeds as text, with CRLF line ends and as PDF in one batch: the findings of one copy."""
    paths = []
    for seed in SEEDS:
        text = seed.read_text(encoding="utf-8")
        for suffix, made in ((".txt", text), ("-crlf.txt", VARIANTS["crlf"](text)), (".pdf", VARIANTS["pdf"](text))):
            path = tmp_path / f"{seed.stem}{suffix}"
            path.write_bytes(made if isinstance(made, bytes) else made.encode("utf-8"))
            paths.append(path)
    again = _build(pg_server, paths)
    assert Counter(f.verdict for f in again.findings) == Counter(f.verdict for f in seeds_alone.findings)
    assert [(c.verdict, len(c.findings)) for c in again.causes()] == \
        [(c.verdict, len(c.findings)) for c in seeds_alone.causes()]


SYNTHETIC = FIXTURES / "synthetic_documents"


@pytest.fixture(scope="module")
def reference_architecture(pg_server, template_url):
    """A synthetic vendor reference architecture (fixtures/README.md): three hosts, planted errors."""
    return _build(pg_server, [SYNTHETIC / "synth_vendor-ra_train_002.txt"])


def _at(report, kind: str, line: int):
    return [f for f in report.findings if f.kind == kind and f.line == line and f.verdict == "mismatch"]


def test_an_average_outside_its_own_minimum_and_maximum_is_a_mismatch(reference_architecture):
    found = _at(reference_architecture, "average_outside_range", 822)  # % Processor Time 12.714 > maximum 10.870
    assert found and "above its maximum" in found[0].explanation


def test_a_host_row_is_checked_against_that_hosts_report(reference_architecture):
    found = _at(reference_architecture, "host_row_vs_report", 112)  # MBXSIM2's read latency 6.69; its report 6.150
    assert [f.metric for f in found] == ["db_read_latency"] and found[0].printed == "6.69"


def test_a_total_row_is_checked_against_its_rows(reference_architecture):
    found = _at(reference_architecture, "total_row", 114)  # 1,838.643 printed; the hosts add up to 1,744.728
    assert any(f.printed == "1,838.643" and "the sum of its rows" in f.explanation for f in found)
    assert not _at(reference_architecture, "total_row", 144)  # the rebuild table's total is right


def test_a_figure_no_system_can_be_told_for_is_listed_unattributed_with_why(seeds_alone):
    """Seed 003's "This configuration yielded … 125 IOPS per disk" names a configuration by no name the
    document gives a system: not judged against the array, listed with the reason."""
    found = [f for f in seeds_alone.findings if f.kind == "unattributed"]
    assert found and all(f.verdict == "unattributed" and f.solution is None for f in found)
    assert any(f.printed == "144" and "names no system it can be told for" in f.explanation for f in found)
