"""Tables of ESRP submissions and whitepapers outside the Jetstress reports.

Golden values are printed in the seeds; sums and per-run structure are computed from the parsed cells.
"""

from __future__ import annotations

import re

import pytest

from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.formats.document.records import DocumentTable
from esrpdb.ingest.jetstress.vocabulary import parse_number
from tests.helpers import SYNTHETIC, seed

KINDS = {
    "results_by_run", "results", "power", "pricing", "storage_systems", "server_configuration", "switch_configuration",
    "disk_layout", "simulated_exchange_configuration", "simulated_exchange_parameters", "storage_hardware",
    "storage_software", "disk_configuration", "replication_configuration", "storage_performance_results",
    "backup_performance", "log_replay_performance", "esrp_simulated_exchange_configuration",
    "esrp_primary_storage_hardware", "esrp_primary_storage_software", "esrp_primary_storage_disk_configuration",
    "esrp_replication_configuration", "esrp_storage_performance_results", "esrp_database_read_only_performance",
    "esrp_transaction_log_replay_performance", "other",
}


def table(number: str, title_start: str) -> DocumentTable:
    found = [t for t in seed(number).tables if t.title.startswith(title_start)]
    assert len(found) == 1, [t.title for t in seed(number).tables]
    return found[0]


def numbers(tbl: DocumentTable, label: str) -> list[float]:
    row = next(r for r in tbl.rows if r.label == label)
    return [parse_number(value) for value in row.values]


@pytest.mark.parametrize("number", ["000", "001", "002", "003"])
def test_every_table_has_a_known_kind_a_title_and_rows(number):
    for tbl in seed(number).tables:
        assert tbl.kind in KINDS and tbl.kind != "other", (tbl.kind, tbl.title)
        assert tbl.title and tbl.rows and tbl.line
        for row in tbl.rows:
            assert row.line and row.line >= tbl.line


# --- seed 000: Figure 7 and Figures 13-16 -------------------------------------------------------


def test_seed000_figure7_results_by_run():
    fig7 = table("000", "Figure 7: Results for the storage arrays.")
    assert fig7.kind == "results_by_run"
    assert fig7.columns == ("Dell EqualLogic SAN (iSCSI)", "HP StorageWorks SAN (Fibre Channel)")
    dell = [numbers(fig7, f"IOPS - Run {run}")[0] for run in (1, 2, 3)]
    assert dell == [8595.428, 8397.621, 8368.439]
    achieved = [numbers(fig7, f"Achieved IOPS - Run {run}") for run in (1, 2, 3)]
    assert achieved[1] == [6667.51, 2684.535]  # the median run is the run the appendix report prints
    median = sorted(dell)[1]
    assert round(median) == numbers(fig7, "Median IOPS")[0] == 8398
    assert numbers(fig7, "Average disk transfers MB per second") == [63.4, 26.8]
    assert numbers(fig7, "Number disks tested") == [32, 24]
    # Section headings whose words the PDF spilled into the value cells get them back, and empty cells.
    heading = next(r for r in fig7.rows if r.label.startswith("IOPS (higher is better)"))
    assert heading.values == ("", "") and "log write IOPS." in heading.label


def test_seed000_figures_13_to_16_by_kind():
    kinds = {t.kind: t for t in seed("000").tables}
    config = kinds["simulated_exchange_configuration"]
    assert config.title == "Figure 13: Simulated Exchange configuration."
    assert numbers(config, "Number of storage groups") == [13, 10]
    assert kinds["storage_hardware"].title == "Figure 14: Primary storage hardware."
    assert numbers(kinds["storage_hardware"], "Total number of disks tested in solution") == [32, 24]
    assert kinds["storage_software"].title == "Figure 15: Primary storage software."
    disks = kinds["disk_configuration"]
    assert disks.title.startswith("Figure 16: Primary storage disk configuration")
    assert numbers(disks, "Total raw storage capacity (GB)") == [4672, 3504]
    assert kinds["simulated_exchange_parameters"].title == "Figure 12: Simulated exchange configurations calculations."
    assert table("000", "Figure 6:").kind == "storage_systems"


# --- seed 001: the ESRP tables ---------------------------------------------------------------


def test_seed001_esrp_tables():
    by_kind = {t.kind: t for t in seed("001").tables}
    assert {
        "esrp_simulated_exchange_configuration": "Simulated Exchange Configuration",
        "esrp_primary_storage_hardware": "Primary Storage Hardware",
        "esrp_primary_storage_software": "Storage Software",
        "esrp_primary_storage_disk_configuration": "Primary Storage Disk Configuration (Mailbox Store Disks)",
        "esrp_replication_configuration": "Replication Configuration",
        "esrp_storage_performance_results": "Storage Performance Results",
        "esrp_database_read_only_performance": "Database Read- only Performance",
        "esrp_transaction_log_replay_performance": "Transaction Log Recovery/Replay Performance",
    }.items() <= {kind: t.title for kind, t in by_kind.items()}.items()
    simulated = by_kind["esrp_simulated_exchange_configuration"]
    assert simulated.columns == ()
    assert numbers(simulated, "Number of Exchange mailboxes simulated") == [5000]
    assert numbers(simulated, "Number of databases/host") == [8]
    assert numbers(by_kind["esrp_primary_storage_hardware"], "Total number of disks tested in solution") == [24]
    results = by_kind["esrp_storage_performance_results"]
    assert numbers(results, "Database Disks Transfers/sec") == [1573]
    assert numbers(results, "Average Database Disk Read Latency (ms)") == [16.1]
    assert (results.rows[0].label, results.rows[0].values) == ("Database I/O", ("",))  # a heading row, kept in place
    read_only = by_kind["esrp_database_read_only_performance"]
    assert [r.values for r in read_only.rows] == [("60.05(Average)",), ("480.41 (Sum)",)]
    replay = by_kind["esrp_transaction_log_replay_performance"]
    assert replay.rows[0].values[0].startswith("1.60 ")


# --- seed 002: Appendix A per-run tables and the power figures ---------------------------------


def test_seed002_appendix_a_results_by_run():
    # The seed's captions are swapped: Figure 10 says "SSD results" above the 24 HDDs' numbers.
    hdd = table("002", "Figure 10:")
    ssd = table("002", "Figure 11:")
    assert hdd.kind == ssd.kind == "results_by_run"
    assert hdd.columns == ("Run 1", "Run 2 (median run)", "Run 3")
    assert numbers(hdd, "Achieved IOPS (higher is better)") == [3949.031, 3834.843, 3696.209]
    assert numbers(ssd, "Achieved IOPS (higher is better)") == [10650.201, 10542.585, 10858.920]
    median = hdd.columns.index("Run 2 (median run)")
    assert numbers(hdd, "Achieved IOPS (higher is better)")[median] == seed("002").reports[0].achieved_iops
    assert numbers(hdd, "Active power (lower is better)") == [293.4, 292.1, 292.2]
    iops = numbers(ssd, "IOPS (higher is better)")
    assert sorted(iops)[1] == iops[0] == 11497.37  # Run 1 is the median run


def test_seed002_power_table():
    fig7 = table("002", "Figure 7: Test results.")
    assert fig7.kind == "power"
    assert numbers(fig7, "Active power (enclosure and drives)") == [292, 116]
    assert numbers(fig7, "Idle power (enclosure only)") == [108.2, 108.2]
    watt = numbers(fig7, "IOPS")[1] / numbers(fig7, "Active power (enclosure and drives)")[1]
    assert round(watt) == numbers(fig7, "Performance per watt")[1] == 99


# --- seed 003: Figure 5, three arrays x three runs x four VMs ----------------------------------


def test_seed003_figure5_every_vm_every_run():
    fig5 = table("003", "Figure 5:")
    assert fig5.kind == "results_by_run"
    assert fig5.columns == ("Dell EqualLogic SAN", "HP LeftHand SAN", "Fibre Channel SAN")
    labels = {row.label for row in fig5.rows}
    for run in (1, 2, 3):
        for vm in (1, 2, 3, 4):
            achieved = numbers(fig5, f"VM {vm} Achieved IOPS - Run {run}")
            log = numbers(fig5, f"VM {vm} Log IOPS - Run {run}")
            total = numbers(fig5, f"VM {vm} Total IOPS - Run {run}")
            assert len(achieved) == len(log) == len(total) == 3
            assert all(abs(a + b - t) < 0.0015 for a, b, t in zip(achieved, log, total))
        run_total = numbers(fig5, f"Total IOPS – Run {run}")
        vms = [[numbers(fig5, f"VM {vm} Total IOPS - Run {run}")[array] for vm in (1, 2, 3, 4)] for array in range(3)]
        mismatched = [array for array, (v, t) in enumerate(zip(vms, run_total)) if abs(sum(v) - t) >= 0.005]
        # As printed, one run total does not add up: Fibre Channel SAN, Run 1 prints 3,884.172 where
        # its four VMs sum to 3,863.207 (a finding for the claim audit, not a reading error).
        assert mismatched == ([2] if run == 1 else []), run
    assert sum(numbers(fig5, f"VM {vm} Total IOPS - Run 1")[2] for vm in (1, 2, 3, 4)) == pytest.approx(3863.207)
    assert numbers(fig5, "Total IOPS – Run 2") == [5662.461, 3333.521, 3771.458]
    assert sum(1 for label in labels if re.fullmatch(r"VM \d (Achieved|Log|Total) IOPS - Run \d", label)) == 36
    # the additional results from the median run follow the runs, after a header repeated on the next page
    assert numbers(fig5, "Total IOPS per disk") == [202.2, 92.6, 130.1]
    assert numbers(fig5, "Log writes/second") == [430.37, 414.41, 513.54]
    assert not any(row.label == "" for row in fig5.rows)


def test_seed003_configuration_tables():
    kinds = [t.kind for t in seed("003").tables]
    for kind in ("simulated_exchange_configuration", "storage_hardware", "storage_software", "disk_configuration",
                 "storage_systems", "simulated_exchange_parameters"):
        assert kind in kinds
    hardware = next(t for t in seed("003").tables if t.kind == "storage_hardware")
    assert hardware.rows[0].values == ("32 (28 active)", "36", hardware.rows[0].values[2])


# --- a synthetic whitepaper: pricing, power, a running footer between rows ----------------------


def test_synthetic_whitepaper_tables():
    doc = document_text.parse(SYNTHETIC.name, SYNTHETIC.read_bytes())
    by_kind = {t.kind: t for t in doc.tables}
    runs = by_kind["results_by_run"]
    assert len(runs.rows) == 10  # the page footer between "Log IOPS - Run 2" and "Total IOPS - Run 2" is dropped
    assert numbers(runs, "Total IOPS - Run 2") == [2588.625, 1737.75]
    for run in (1, 2, 3):
        achieved, log, total = (numbers(runs, f"{what} IOPS - Run {run}") for what in ("Achieved", "Log", "Total"))
        assert [a + b for a, b in zip(achieved, log)] == pytest.approx(total)
    pricing = by_kind["pricing"]
    assert pricing.title == "Figure 2: List prices of the tested configurations."
    assert [r.values for r in pricing.rows][0] == ("$80,098", "$98,120")
    megabytes = numbers(pricing, "Useable capacity (GB)")[0] * 1024
    assert megabytes / parse_number("80,098") == pytest.approx(numbers(pricing, "Useable MB per dollar")[0], abs=0.01)
    power = by_kind["power"]
    assert numbers(power, "Active power (W)") == [292.1, 318.4]


def test_table_split_over_two_pages_with_repeated_header_and_split_row():
    text = "\n".join([
        "Exchange 2010 Jetstress results",
        "",
        "\tArray A\tArray B",
        "Total IOPS - Run 1\t1,000.5\t900.25",
        "",
        "Fabrikam Labs report, page 4 of 9",
        "",
        "\tArray A\tArray B",
        "Total IOPS - Run 2 (median",
        "\t1,010.5\t910.25",
        "Total IOPS - Run 3\t990.5\t890.25",
        "",
        "Figure 9: IOPS by run.",
        "",
    ])
    doc = document_text.parse("fabrikam.txt", text.encode())
    (runs,) = doc.tables
    assert (runs.kind, runs.title, runs.columns) == ("results_by_run", "Figure 9: IOPS by run.", ("Array A", "Array B"))
    assert [(r.label, r.values) for r in runs.rows] == [
        ("Total IOPS - Run 1", ("1,000.5", "900.25")),
        ("Total IOPS - Run 2 (median", ("1,010.5", "910.25")),
        ("Total IOPS - Run 3", ("990.5", "890.25")),
    ]
    assert [r.line for r in runs.rows] == [4, 9, 11]
