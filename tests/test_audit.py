"""The claim audit: pure judging rules, the seed catalogue's findings, a typo'd claim, the CLI.

The seed assertions name what the audit must find in the seeds' own figures; the audit code
itself names no seed, figure or value (checked below).
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.audit import AuditReport, audit
from esrpdb.audit.candidates import runs as audit_values
from esrpdb.audit.findings.table_rows import classify
from esrpdb.audit.judge import judge
from esrpdb.audit.terms import CONVENTION, MATCH, MISMATCH, ROUNDING, SOURCE, Candidate, parse_printed, percent_change
from esrpdb.cli.main import app
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, REPO_ROOT

runner = CliRunner()


# --- pure judging ---------------------------------------------------------------------------


def test_printed_numbers_keep_their_precision():
    assert (parse_printed("8,397.621").value, parse_printed("8,397.621").decimals) == (8397.621, 3)
    assert parse_printed("188.00").trailing_zeros == 2
    assert parse_printed("60%").value == 60
    assert parse_printed("0.000000625").decimals == 9
    assert parse_printed("Run 1").value == 1 and parse_printed("Run") is None


def test_match_is_within_half_a_unit_of_the_last_printed_digit():
    assert judge("208.4", [Candidate(208.3597, "a / b")]).verdict == MATCH
    assert judge("208.4", [Candidate(208.3499, "a / b")]).verdict == MISMATCH
    assert judge("0.071", [Candidate(0.07069, "a / b")]).verdict == MATCH
    miss = judge("586.6", [Candidate(587.653, "sum")])
    assert miss.verdict == MISMATCH and miss.recomputed == 587.653
    assert miss.relative_difference == pytest.approx((586.6 - 587.653) / 587.653)
    assert "-0.18%" in miss.explanation


def test_truncation_and_trailing_zeros_are_rounding():
    truncated = judge("1,264", [Candidate(1264.877, "bytes / 2^30")])
    assert truncated.verdict == ROUNDING and "truncated, not rounded, to 0 decimals" in truncated.explanation
    coarser = judge("202.20", [Candidate(202.2308, "total / 28")])
    assert coarser.verdict == ROUNDING and "rounded to 1 decimal and printed with trailing zeros" in coarser.explanation


def test_already_rounded_inputs_are_rounding_and_say_so():
    candidates = [Candidate(986.329, "sum of instances"),
                  Candidate(986.4, "sum of rounded instances", kind=CONVENTION,
                            note="from per-instance values rounded first")]
    j = judge("986.4", candidates)
    assert j.verdict == ROUNDING and "from per-instance values rounded first" in j.explanation


def test_unit_conventions_are_rounding():
    candidates = audit_values.size_candidates(1_358_151_237_632, "GB", "final size", {}, "binary")
    assert judge("1,265", candidates).verdict == MATCH
    decimal = judge("1,358", candidates)
    assert decimal.verdict == ROUNDING and "GB = 10^9 bytes instead of GB = 2^30 bytes" in decimal.explanation


def test_another_source_is_a_mismatch_that_names_it():
    candidates = [Candidate(5239.764, "Run 2 achieved"), Candidate(5263.308, "Run 3 achieved", kind=SOURCE,
                                                                   note="Run 3's figure, not the median Run 2's")]
    j = judge("5,263.31", candidates)
    assert j.verdict == MISMATCH and "Run 3's figure, not the median Run 2's" in j.explanation
    assert j.recomputed == 5239.764 and j.inputs["reproduced_by"] == {}


def test_qualifiers():
    assert judge("59", [Candidate(59.52, "x")], "approximately").verdict == MATCH
    assert judge("59", [Candidate(59.52, "x")]).verdict == ROUNDING  # plain: only truncated
    assert judge("50", [Candidate(57.4, "x")], "over").verdict == MATCH
    assert judge("50", [Candidate(45.0, "x")], "over").verdict == MISMATCH
    assert judge("40", [Candidate(35.0, "x")], "under").verdict == MATCH
    assert judge("60", [Candidate(59.6, "x")], "nearly").verdict == MATCH
    nearly = judge("60", [Candidate(60.35, "x")], "nearly")
    assert nearly.verdict == ROUNDING and "'nearly' says just below 60" in nearly.explanation
    assert judge("188", [Candidate(187.83, "x")], "up_to").verdict == MATCH
    assert judge("235.0", [Candidate(143.6, "x")], "up_to").verdict == MISMATCH


def test_the_inputs_own_precision_bounds_a_match():
    j = judge("0.004826122", [Candidate(0.005, "mean of 0.005 s", uncertainty=0.0005)])
    assert j.verdict == MATCH and "within the precision of its inputs" in j.explanation
    assert judge("0.000000625", [Candidate(0.004, "mean", uncertainty=0.0005)]).verdict == MISMATCH


def test_percent_change_formulas():
    assert percent_change("percent_more", 3.0, 2.0) == pytest.approx(50.0)
    assert percent_change("percent_less", 1.0, 4.0) == pytest.approx(75.0)


@pytest.mark.parametrize(("label", "expected"), [
    ("VM 1 Achieved IOPS - Run 1", ("achieved_iops", False)),
    ("Total IOPS \u2013 Run 1", ("total_iops", False)),
    ("Log writes/second per disk", ("log_iops", True)),
    ("Database disk reads/second", ("db_reads_per_s", False)),
    ("Database Disks Transfers/sec", ("achieved_iops", False)),
    ("Total IOPS/active disk", ("total_iops", True)),
    ("Average Log Disk Write Latency (ms)", ("log_write_latency", False)),
    ("Average disk transfers MB per second", (None, False)),
    ("Disk transfers/sec from log (higher is better)", (None, False)),
    ("Number of disks tested", (None, False)),
])
def test_row_labels_are_read_by_their_words(label, expected):
    assert classify(label) == expected


def test_the_audit_code_names_no_seed():
    code = "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO_ROOT / "queries").glob("audit*.py")))
    keys = [re.search(r'^key = "([^"]+)"', p.read_text(encoding="utf-8"), re.M).group(1)
            for p in sorted((FIXTURES / "catalog").glob("*.toml"))]
    documents = [p.name for p in (FIXTURES / "documents").glob("*.txt")]
    named = [word for word in keys + documents + ["Savvio", "EqualLogic", "LeftHand", "X25-E", "Figure 5", "208.4"]
             if word in code]
    assert named == []


# --- the seed catalogue ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_audit(seed_catalog) -> AuditReport:
    return audit(seed_catalog.engine)


def one(report: AuditReport, solution, kind, metric, *, line=None, printed=None):
    found = [f for f in report.findings if f.solution == solution and f.kind == kind and f.metric == metric
             and (line is None or f.line == line) and (printed is None or f.printed == printed)]
    assert len(found) == 1, (solution, kind, metric, line, printed, found)
    return found[0]


def test_seed_001_summary_disagrees_with_its_report(seed_audit):
    writes = one(seed_audit, "dell-powervault-md1220", "claim", "db_writes_per_s", line=297)
    assert (writes.verdict, writes.printed, writes.recomputed) == (MISMATCH, "586.6", pytest.approx(587.653))
    reads = one(seed_audit, "dell-powervault-md1220", "claim", "db_reads_per_s", line=296)
    assert reads.verdict == ROUNDING and "per-instance values each rounded to 1 decimal = 986.4" in reads.explanation
    log = one(seed_audit, "dell-powervault-md1220", "claim", "log_iops", line=301)
    assert log.verdict == ROUNDING and log.recomputed == pytest.approx(489.247)
    transfers = one(seed_audit, "dell-powervault-md1220", "claim", "achieved_iops", line=295)
    assert transfers.verdict == ROUNDING and "truncated" in transfers.explanation
    replay = one(seed_audit, "dell-powervault-md1220", "claim", "log_replay_time_per_log", line=319)
    assert replay.verdict == ROUNDING and replay.recomputed == pytest.approx(6566.894 / 4079, rel=1e-5)


def test_seed_001_sizes_and_capacity_percentages(seed_audit):
    for metric, line, printed in (("usable_capacity", 164, "16,752"), ("initial_database_size", 166, "10,035"),
                                  ("formatted_percent_of_raw", 207, "83.26"), ("database_percent_of_raw", 208, "49.87"),
                                  ("database_percent_of_formatted", 167, "59.9")):
        finding = one(seed_audit, "dell-powervault-md1220", "claim", metric, line=line)
        assert (finding.verdict, finding.printed) == (MISMATCH, printed)
    raw = one(seed_audit, "dell-powervault-md1220", "claim", "raw_capacity", line=202)
    assert raw.verdict == ROUNDING and "838 GB" in raw.explanation


def test_seed_003_fc_run_1_total_is_not_its_vm_sum(seed_audit):
    total = one(seed_audit, "fc-san-2009", "table_sum", "total_iops")
    assert (total.verdict, total.printed, total.line) == (MISMATCH, "3,884.172", 160)
    assert total.recomputed == pytest.approx(3863.207)
    assert total.place == "Figure 5, row 'Total IOPS \u2013 Run 1', column 'Fibre Channel SAN'"


def test_seed_003_median_run_figures_are_run_3s(seed_audit):
    for solution in ("dell-eql-2x-ps4000xv", "hp-lefthand-p4500", "fc-san-2009"):
        finding = one(seed_audit, solution, "median_run_figures", "median_run")
        assert finding.verdict == MISMATCH and finding.line == 190
        assert "= Run 3's" in finding.explanation and "median by total IOPS is Run 2" in finding.explanation
        claim = one(seed_audit, solution, "claim", "achieved_iops", line=190)
        assert claim.verdict == MISMATCH and "Run 3's figure (same trial), not the median Run 2's" in claim.explanation
        identity = one(seed_audit, solution, "table_identity", "achieved_iops", line=190)
        assert identity.verdict == MISMATCH and "achieved = reads + writes" in identity.explanation
    for solution in ("dell-eql-2x-ps5000xv", "hp-eva4400"):  # seed 000's median-run rows are the median's
        assert one(seed_audit, solution, "median_run_figures", "median_run").verdict == MATCH


def test_seed_003_fc_per_disk_rows_divide_by_29(seed_audit):
    count = one(seed_audit, "fc-san-2009", "per_disk_count", "disk_count", line=194)
    assert (count.verdict, count.printed, count.recomputed) == (MISMATCH, "24", 29.0)
    assert count.place == "Figure 5, column 'Fibre Channel SAN'"
    assert one(seed_audit, "fc-san-2009", "per_disk_count", "disk_count", line=99).verdict == MATCH  # Figure 4: 24
    assert one(seed_audit, "dell-eql-2x-ps4000xv", "per_disk_count", "disk_count").verdict == MATCH
    stated = one(seed_audit, "fc-san-2009", "claim", "disk_count", line=244, printed="29")
    assert stated.verdict == MISMATCH and stated.recomputed == 24
    per_disk = one(seed_audit, "fc-san-2009", "claim", "total_iops_per_disk", line=198)
    assert per_disk.verdict == MISMATCH and "divided by 29 disks" in per_disk.explanation
    assert "the document prints 29 disks at line 244" in per_disk.explanation
    physical = one(seed_audit, "fc-san-2009", "claim", "disk_count", line=417)
    assert physical.verdict == MISMATCH and "active disk count" in physical.explanation


def test_seed_002_figure_captions_are_swapped(seed_audit):
    hdd = one(seed_audit, "savvio-15k-24-hdd", "caption_vs_table", "caption")
    assert (hdd.verdict, hdd.printed, hdd.other_solution, hdd.line) == (MISMATCH, "Figure 10", "intel-x25e-3-ssd", 364)
    assert "names SSD" in hdd.explanation and "24 Seagate Savvio 15K SAS HDDs" in hdd.explanation
    ssd = one(seed_audit, "intel-x25e-3-ssd", "caption_vs_table", "caption")
    assert (ssd.verdict, ssd.printed, ssd.other_solution) == (MISMATCH, "Figure 11", "savvio-15k-24-hdd")


def test_seed_002_text_against_its_median_reports(seed_audit):
    latency = one(seed_audit, "intel-x25e-3-ssd", "claim", "db_write_latency", line=391)
    assert (latency.verdict, latency.recomputed) == (MISMATCH, pytest.approx(0.004))
    for solution, printed, data in (("intel-x25e-3-ssd", "6.7", 6.637), ("savvio-15k-24-hdd", "2.0", 2.724)):
        cpu = one(seed_audit, solution, "claim", "cpu_percent", line=67)
        assert (cpu.verdict, cpu.printed, cpu.recomputed) == (MISMATCH, printed, data)
    more = one(seed_audit, "intel-x25e-3-ssd", "claim", "percent_more:cpu_percent", line=67)
    assert more.verdict == MISMATCH and "which the data does not bear out" in more.explanation
    per_watt = one(seed_audit, "intel-x25e-3-ssd", "claim", "perf_per_watt", line=57)
    assert per_watt.verdict == ROUNDING and "11,497 / 116" in per_watt.explanation
    for line in (20, 30, 57):
        pct = one(seed_audit, "intel-x25e-3-ssd", "claim", "percent_more:perf_per_watt", line=line)
        assert pct.verdict == ROUNDING and "the printed 99.1 (line 57) and 13.7 (line 57)" in pct.explanation
        assert pct.recomputed == pytest.approx(625.85, abs=0.01)
    nearly = one(seed_audit, "intel-x25e-3-ssd", "claim", "percent_less:active_power", line=20)
    assert nearly.verdict == ROUNDING and "'nearly' says just below 60" in nearly.explanation
    capacity = one(seed_audit, "intel-x25e-3-ssd", "usable_vs_raw_capacity", "usable_capacity")
    assert capacity.verdict == MISMATCH and capacity.file == "intel-x25e-3-ssd.toml"


def test_seed_000_capacity_figures(seed_audit):
    for line in (109, 405):
        usable = one(seed_audit, "hp-eva4400", "claim", "usable_capacity", line=line)
        assert (usable.verdict, usable.printed, usable.recomputed) == (MISMATCH, "1,630", pytest.approx(1637))
    assert one(seed_audit, "hp-eva4400", "claim", "formatted_percent_of_raw", line=406).verdict == MISMATCH
    mixed = one(seed_audit, "hp-eva4400", "claim", "formatted_percent_of_raw", line=158)
    assert mixed.verdict == ROUNDING and "2^30 bytes by raw GB of 10^9 bytes" in mixed.explanation
    final = one(seed_audit, "dell-eql-2x-ps5000xv", "claim", "final_database_size", line=163)
    assert final.verdict == ROUNDING and "truncated" in final.explanation


def test_right_claims_match(seed_audit):
    for line in (22, 50):
        assert one(seed_audit, "dell-eql-2x-ps5000xv", "claim", "achieved_iops_per_disk", line=line).verdict == MATCH
        more = one(seed_audit, "dell-eql-2x-ps5000xv", "claim", "percent_more:achieved_iops_per_disk", line=line)
        assert more.verdict == MATCH and more.recomputed == pytest.approx(86.276, abs=0.001)
    assert one(seed_audit, "dell-eql-2x-ps4000xv", "claim", "iops_per_dollar", line=40).verdict == MATCH
    for line in (18, 24, 28):
        assert one(seed_audit, "intel-x25e-3-ssd", "claim", "percent_more:total_iops", line=line).verdict == MATCH
    assert one(seed_audit, "intel-x25e-3-ssd", "claim", "median_run", line=380).verdict == MATCH
    for f in seed_audit.findings:
        if f.kind == "verdict_vs_thresholds":
            assert f.verdict == MATCH, f


def test_unverifiable_names_what_is_missing(seed_audit):
    reads = one(seed_audit, "fc-san-2009", "claim", "db_reads_per_s", line=191)
    assert reads.verdict == "unverifiable" and "no database reads/s stored for Run 2" in reads.explanation


def test_every_finding_cites_its_file_and_place(seed_audit):
    assert seed_audit.counts()[MISMATCH] >= 5
    for f in seed_audit.findings:
        assert f.file and re.fullmatch(r"[0-9a-f]{64}", f.sha256) and f.place, f
        assert f.sha256_prefix == f.sha256[:12]


# --- a typo in a claim ----------------------------------------------------------------------


def test_a_claim_with_a_typo_becomes_a_mismatch(tmp_path, catalog):
    root = tmp_path / "fixtures"
    for folder in ("documents", "jetstress_html", "perfmon"):
        shutil.copytree(FIXTURES / folder, root / folder)
    manifest = root / "catalog" / "dell-eql-2x-ps5000xv.toml"
    manifest.parent.mkdir()
    text = (FIXTURES / "catalog" / manifest.name).read_text(encoding="utf-8")
    typo = 'value = "209.4"  # source: seed 000 line 22'
    manifest.write_text(text.replace('value = "208.4"  # source: seed 000 line 22', typo, 1), encoding="utf-8")
    assert typo in manifest.read_text(encoding="utf-8")
    assert all(o.status == "loaded" for o in ingest_paths(catalog.engine, [manifest]))
    report = audit(catalog.engine, solution="dell-eql-2x-ps5000xv")
    wrong = one(report, "dell-eql-2x-ps5000xv", "claim", "achieved_iops_per_disk", line=22)
    assert (wrong.verdict, wrong.printed) == (MISMATCH, "209.4")
    assert wrong.recomputed == pytest.approx(6667.51 / 32)
    assert wrong.relative_difference == pytest.approx((209.4 - 6667.51 / 32) / (6667.51 / 32))
    assert wrong.inputs == {"achieved_iops": 6667.51, "disk_basis": "all", "disk_count": 32, "run": "Run 2"}
    assert one(report, "dell-eql-2x-ps5000xv", "claim", "achieved_iops_per_disk", line=50).verdict == MATCH


# --- claim-free checks without any manifest -------------------------------------------------


def test_a_summary_table_is_checked_against_the_report_in_its_document(catalog):
    document = FIXTURES / "documents" / "001_4559286d3491bdeb.txt"
    ingest_paths(catalog.engine, [document])
    report = audit(catalog.engine)
    with catalog.engine.connect() as conn:  # no manifest names it: the system ingest found in it
        (provisional,) = conn.execute(text("select key from solutions where provisional")).scalars()
    # The drafted system claims the summary's figures, so each is judged once, as a claim or by the table check.
    def checked(metric: str):
        found = [f for f in report.findings if f.solution == provisional and f.metric == metric
                 and f.kind in ("summary_vs_report", "claim") and f.line is not None and 290 <= f.line <= 310]
        assert len(found) == 1, (metric, found)
        return found[0]
    writes = checked("db_writes_per_s")
    assert (writes.verdict, writes.printed, writes.line) == (MISMATCH, "586.6", 297)
    assert checked("db_reads_per_s").verdict == ROUNDING
    assert checked("db_read_latency").verdict == MATCH


def test_a_report_verdict_is_recomputed_from_its_thresholds(tmp_path, catalog):
    original = FIXTURES / "jetstress_html" / "synthetic-2013-fail" / "Performance_2015_5_28_11_38_30.html"
    ingest_paths(catalog.engine, [original])
    fail = one(audit(catalog.engine), None, "verdict_vs_thresholds", "verdict")
    assert (fail.verdict, fail.printed) == (MATCH, "Fail")
    assert "Instance2836.4 database read latency 27.226 ms > 20 ms" in fail.explanation
    passed = tmp_path / original.name
    html = original.read_text(encoding="utf-8")
    # Another machine's report: the same report printing another verdict would be one run with a
    # report_seen_twice finding (tests/test_run_identity.py).
    passed.write_text(html.replace('<td class="fail">Fail</td>', '<td class="success">Pass</td>')
                      .replace("<td>WIN-PVCKE1IJFQ1</td>", "<td>WIN-OTHER</td>"), encoding="utf-8")
    ingest_paths(catalog.engine, [passed])
    lying = [f for f in audit(catalog.engine).findings if f.kind == "verdict_vs_thresholds" and f.printed == "Pass"]
    assert len(lying) == 1 and lying[0].verdict == MISMATCH
    assert lying[0].explanation.startswith("The report says Pass; under Jetstress 2013 thresholds")


# --- the command line -----------------------------------------------------------------------


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def test_audit_json_is_stable_and_sorted(seed_catalog_url):
    first = invoke(seed_catalog_url, "audit", "--format", "json")
    second = invoke(seed_catalog_url, "audit", "--format", "json")
    assert first.exit_code == 0 and first.stdout == second.stdout
    findings = json.loads(first.stdout)
    assert all(list(f) == sorted(f) for f in findings)
    severity = {"mismatch": 0, "rounding": 1, "unattributed": 2, "unverifiable": 3, "match": 4}
    keys = [(f["solution"] is None, f["solution"] or "", severity[f["verdict"]]) for f in findings]
    assert keys == sorted(keys)


def test_audit_table_groups_by_solution_worst_first(seed_catalog_url):
    """Causes first; --verbose adds every finding by solution. The raw capacity computed from 24 of
    the 30 disks (20 % off) is a mismatch that names the other count, never a rounding."""
    result = invoke(seed_catalog_url, "audit", "--solution", "fc-san-2009", "--verdict", "mismatch", "--verbose")
    assert result.exit_code == 0
    assert "fc-san-2009: 14 mismatch" in result.stdout
    assert re.fullmatch(r"\d+ causes \(\d+ mismatch, 0 rounding\) in 14 findings: 14 mismatch, 0 rounding, "
                        r"0 doubt, 0 unattributed, 0 unverifiable, 0 match", result.stdout.rstrip().splitlines()[-1])
    assert "hp-eva4400" not in result.stdout
    plain = invoke(seed_catalog_url, "audit", "--solution", "fc-san-2009", "--verdict", "mismatch")
    assert "fc-san-2009: 14 mismatch" not in plain.stdout and "one line per cause" in plain.stdout


def test_audit_unknown_solution_is_a_one_line_error(seed_catalog_url):
    result = invoke(seed_catalog_url, "audit", "--solution", "nope")
    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown solution 'nope'; known: dell-eql-2x-ps4000xv, ")


def test_demo_ends_with_the_audit_summary(fresh_database_url):
    result = invoke(fresh_database_url, "demo")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith("audit: "))
    assert re.fullmatch(r"audit: \d+ causes \(\d+ mismatch, \d+ rounding\) in \d+ findings: \d+ mismatch, \d+ rounding, "
                        r"\d+ doubt, \d+ unattributed, \d+ unverifiable, \d+ match", lines[summary])
    worst = lines[summary + 1 : summary + 6]
    assert all(line.startswith("  mismatch ") and re.search(r"\[\S+ [0-9a-f]{12}, ", line) for line in worst)
    assert summary > max(i for i, line in enumerate(lines) if "Performance per watt" in line)


@pytest.mark.parametrize("window, says_outside", [("run", False), ("export", True), ("mixed", True)])
def test_a_throughput_averaged_beyond_the_run_window_says_so(window, says_outside):
    from esrpdb.audit.gather import RunInfo

    run = RunInfo(id=1, solution_id=1, trial_id=None, label="Run 1", origin="report", report_type="Performance",
                  release=2010, reported_verdict="Pass", machine_name="m", test_start=None, source_file_id=1,
                  source_line=1, row={}, figures={"transfer_mb_per_s": 12.5, "throughput_source": "perfmon",
                                                  "perfmon_sample_window": window})
    (primary,) = audit_values.rate_candidates(run, "throughput_mb_per_s")
    assert primary.value == 12.5 and "(perfmon" in primary.how
    assert ("samples outside the run's window included" in primary.how) is says_outside


def test_perfmon_only_figures_are_labelled_perfmon_when_the_mb_per_s_comes_from_a_table():
    """throughput_source names where transfer_mb_per_s came from; transfers and read/write MB/s are perfmon's."""
    from esrpdb.audit.gather import RunInfo

    run = RunInfo(id=1, solution_id=1, trial_id=None, label="Run 1", origin="report", report_type="Performance",
                  release=2010, reported_verdict="Pass", machine_name="m", test_start=None, source_file_id=1,
                  source_line=1, row={}, figures={"transfer_mb_per_s": 40.0, "disk_transfers_per_s": 900.0,
                                                  "throughput_source": "document_table",
                                                  "perfmon_sample_window": "export"})
    (throughput,) = audit_values.rate_candidates(run, "throughput_mb_per_s")
    (transfers,) = audit_values.rate_candidates(run, "disk_transfers_per_s")
    assert throughput.how.endswith("(document table)")
    assert "(perfmon, samples outside the run's window included)" in transfers.how
