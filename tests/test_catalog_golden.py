"""The seeds' published figures, reproduced by the canned queries from parsed data.

Every expected number below is printed in a seed document; the code computes it from the
reports, tables and manifests in fixtures/. `printed(x, "208.4")` checks x within the rounding
of the printed digits.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import text

from esrpdb.queries import canned, compare
from tests.helpers import canned_rows as rows


def printed(value: float, shown: str) -> bool:
    """True when `value` rounds to `shown` (as printed, thousands separators allowed)."""
    shown = shown.replace(",", "")
    decimals = len(shown.partition(".")[2])
    half = Decimal(1).scaleb(-decimals) / 2
    return abs(Decimal(repr(value)) - Decimal(shown)) <= half + Decimal("1e-9")


def median(catalog, name: str, solution: str, **params) -> dict:
    found = [r for r in rows(catalog, name, solution=solution, **params) if r.get("is_median_run", True)]
    assert len(found) == 1, found
    return found[0]


def test_seed_000_per_disk_figures(seed_catalog):
    dell = median(seed_catalog, "per-disk-iops", "dell-eql-2x-ps5000xv", disk_basis="all")
    hp = median(seed_catalog, "per-disk-iops", "hp-eva4400", disk_basis="all")
    assert (dell["disk_count"], hp["disk_count"]) == (32, 24)
    assert printed(dell["achieved_iops_per_disk"], "208.4") and printed(hp["achieved_iops_per_disk"], "111.9")
    assert printed(dell["log_iops_per_disk"], "54.1") and printed(hp["log_iops_per_disk"], "37.2")
    assert printed(compare.percent_more(dell["achieved_iops_per_disk"], hp["achieved_iops_per_disk"]), "86")


def test_seed_000_throughput_per_disk_from_perfmon(seed_catalog):
    dell = median(seed_catalog, "throughput-per-disk", "dell-eql-2x-ps5000xv", disk_basis="all")
    hp = median(seed_catalog, "throughput-per-disk", "hp-eva4400", disk_basis="all")
    assert dell["throughput_source"] == hp["throughput_source"] == "perfmon"
    assert printed(dell["transfer_mb_per_s_per_disk"], "1.98") and printed(hp["transfer_mb_per_s_per_disk"], "1.12")


def test_seed_000_median_run_is_the_report(seed_catalog):
    for solution in ("dell-eql-2x-ps5000xv", "hp-eva4400"):
        run = median(seed_catalog, "median-runs", solution)
        assert run["run_label"] == "Run 2" and run["iops_source"] == "report"


def test_seed_001_esrp_summary_figures(seed_catalog):
    (run,) = [r for r in rows(seed_catalog, "run-summary", solution="dell-powervault-md1220")
              if r["run_label"].startswith("Performance")]
    assert run["achieved_iops"] == 1573.982
    assert printed(run["db_read_latency_ms"], "16.1") and printed(run["db_write_latency_ms"], "6.3")
    assert printed(run["log_write_latency_ms"], "1.4")
    # Printed 986.4 and 489.3 are sums of the per-instance values after rounding each to 0.1;
    # the unrounded sums are 986.329 and 489.247 (the audit reports this as "rounding").
    assert printed(run["db_reads_per_s"], "986.3") and printed(run["log_writes_per_s"], "489.2")
    with seed_catalog.engine.connect() as conn:
        backup = conn.execute(text(
            "select avg(b.transfer_mb_per_s), sum(b.transfer_mb_per_s) from backup_stats b "
            "join runs r on r.id = b.run_id join solutions s on s.id = r.solution_id "
            "where s.key = 'dell-powervault-md1220'")).one()
    assert printed(backup[0], "60.05") and printed(backup[1], "480.41")


def test_seed_002_median_totals_power_and_comparisons(seed_catalog):
    hdd = median(seed_catalog, "perf-per-watt", "savvio-15k-24-hdd")
    ssd = median(seed_catalog, "perf-per-watt", "intel-x25e-3-ssd")
    assert printed(hdd["total_iops"], "3,994") and printed(ssd["total_iops"], "11,497")
    assert hdd["power_source"] == ssd["power_source"] == "power_log"
    assert printed(hdd["total_iops_per_w"], "13.7") and printed(ssd["total_iops_per_w"], "99")
    assert printed(compare.percent_more(ssd["total_iops"], hdd["total_iops"]), "188")
    assert printed(-compare.percent_more(ssd["active_power_w"], hdd["active_power_w"]), "60")
    hdd_mb = median(seed_catalog, "throughput-per-disk", "savvio-15k-24-hdd", disk_basis="all")
    ssd_mb = median(seed_catalog, "throughput-per-disk", "intel-x25e-3-ssd", disk_basis="all")
    assert printed(compare.percent_more(ssd_mb["transfer_mb_per_s"], hdd_mb["transfer_mb_per_s"]), "172")


@pytest.mark.parametrize("solution, per_disk, mb_per_dollar, iops_per_dollar", [
    ("dell-eql-2x-ps4000xv", "202", "71.69", "0.071"),
    ("hp-lefthand-p4500", "93", "25.49", "0.034"),
    ("fc-san-2009", "157", "42.43", "0.031"),
])
def test_seed_003_value_figures(seed_catalog, solution, per_disk, mb_per_dollar, iops_per_dollar):
    run = median(seed_catalog, "per-disk-iops", solution, disk_basis="active")
    assert run["run_label"] == "Run 2"
    assert printed(run["total_iops_per_disk"], per_disk)
    assert printed(rows(seed_catalog, "mb-per-dollar", solution=solution)[0]["usable_mb_per_price_unit"], mb_per_dollar)
    assert printed(median(seed_catalog, "iops-per-dollar", solution)["total_iops_per_price_unit"], iops_per_dollar)


def test_compare_sentence_from_unrounded_values(seed_catalog):
    (row,) = compare.compare(seed_catalog.engine, "dell-eql-2x-ps5000xv", "hp-eva4400", ("achieved_iops_per_disk",),
                             disk_basis="all").rows
    assert row.sentence.startswith(
        "dell-eql-2x-ps5000xv delivered 86% more achieved IOPS per disk (all disks) than hp-eva4400 (")
    assert row.sentence.endswith("% across the runs)")
    assert row.percent_more_min <= row.percent_more <= row.percent_more_max
    (power,) = compare.compare(seed_catalog.engine, "intel-x25e-3-ssd", "savvio-15k-24-hdd", ("active_power_w",)).rows
    # Each run's own power as Appendix A prints it (revision 0016): 114.56-115.83 W against 292.1-293.4 W.
    assert power.sentence == ("intel-x25e-3-ssd delivered 60% less active power than savvio-15k-24-hdd "
                              "(60–61% across the runs)")


def test_every_canned_query_runs_in_every_format(seed_catalog_url):
    import json

    from typer.testing import CliRunner

    from esrpdb.cli.main import app

    runner = CliRunner()
    for name in canned.all_queries():
        for fmt in ("table", "csv", "json"):
            result = runner.invoke(app, ["--database-url", seed_catalog_url, "query", name, "--format", fmt])
            assert result.exit_code == 0, (name, fmt, result.output)
        assert json.loads(runner.invoke(app, ["--database-url", seed_catalog_url, "query", name, "-f", "json"]).stdout)


def test_seed_001_backup_and_log_replay_from_canned_queries(seed_catalog):
    """ESRP's other tests as canned queries: the submission prints 60.05 MB/s per database and 480.41 per
    server (lines 312-313); its Appendix D replays the logs the per-database rows add up to."""
    (backup,) = rows(seed_catalog, "backup-throughput", solution="dell-powervault-md1220")
    assert backup["report_type"] == "DatabaseBackup" and backup["database_count"] == 8
    assert printed(backup["mb_per_s_per_database"], "60.05") and printed(backup["mb_per_s_per_server"], "480.41")
    (replay,) = rows(seed_catalog, "log-replay", solution="dell-powervault-md1220")
    with seed_catalog.engine.connect() as conn:
        logs, seconds = conn.execute(text(
            "select sum(c.log_files_replayed), sum(c.elapsed_s) from recovery_stats c join runs r on r.id = c.run_id "
            "join solutions s on s.id = r.solution_id where s.key = 'dell-powervault-md1220'")).one()
    assert replay["database_count"] == 8 and replay["logs_replayed"] == logs
    assert abs(replay["seconds_per_log"] - seconds / logs) < 1e-9
