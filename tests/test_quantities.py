"""Facts read by quantity and unit from any wording (ingest/formats/document/quantities.py), and the
document-level rules built on them: disk bases, the messages-per-day profile, legal text never a
name, reports of one test on several hosts. Phrasings are the ones docs/document-families.md lists,
not one document's: the same fact in many vendors' words."""

from __future__ import annotations

import pytest

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.disk_roles import disk_counts
from esrpdb.ingest.draft.host_tests import host_tests
from esrpdb.ingest.draft.quantities import quantity_facts
from esrpdb.ingest.draft.systems import draft_solutions
from esrpdb.ingest.formats import document as document_format


def _read(text: str) -> dict[str, float | str]:
    found: dict[str, float | str] = {}
    for fact in quantity_facts(text, 1):
        found.setdefault(fact.fact, fact.number if fact.number is not None else fact.value)
    return found


@pytest.mark.parametrize("text, expected", [
    ("Total number of disks: 96 x 900GB 10K SAS", {"disk_count": 96, "disk_capacity": 900, "disk_rpm": 10000}),
    ("36 x 2TB 7.2K NL-SAS", {"disk_count": 36, "disk_capacity": 2, "disk_rpm": 7200, "disk_interface": "NL-SAS"}),
    ("(48) 900GB 10K drives", {"disk_count": 48, "disk_capacity": 900, "disk_rpm": 10000}),
    ("4 shelves of 12 disks", {"disk_count": 48}),
    ("60 in use plus 4 global spares", {"active_disk_count": 60, "spare_disk_count": 4}),
    ("Hot spares: 2", {"spare_disk_count": 2}),
    ("70 x 600GB 10K SAS of which 4 are hot spares", {"disk_count": 70, "spare_disk_count": 4}),
    ("(48) 1.2TB 10K SAS drives plus 2 hot spares", {"active_disk_count": 48, "spare_disk_count": 2}),  # on top
    ("24 x 2TB NL-SAS + 1 spare", {"active_disk_count": 24, "spare_disk_count": 1}),
    ("36 x 2TB 7.2K NL-SAS drives, including 2 hot spares", {"disk_count": 36, "spare_disk_count": 2}),
    ("140 1.2TB 10,000 RPM SAS drives (136 active)", {"disk_count": 140, "disk_capacity": 1.2, "disk_rpm": 10000,
                                                      "active_disk_count": 136}),
    ("RAID-DP, 2 aggregates", {"raid_level": "RAID DP"}),
    ("protected with RAID 1/0", {"raid_level": "RAID 10"}),
    ("RAID 5 (4+1)", {"raid_level": "RAID 5"}),
    ("an I/O profile of 0.15 IOPS per user", {"iops_per_mailbox": 0.15}),
    ("0.12 IOPS/mailbox", {"iops_per_mailbox": 0.12}),
    ("200 messages a day (0.14 IOPS)", {"messages_per_day": 200, "iops_per_mailbox": 0.14}),
    ("10,000 users with a 2 GB mailbox quota", {"mailboxes": 10000, "mailbox_size": 2}),
    ("3 databases per server, 2 copies each", {"databases_per_server": 3, "copies": 2}),
    ("4 Exchange mailbox servers", {"servers": 4}),
])
def test_one_fact_in_many_wordings(text, expected):
    found = _read(text)
    assert {k: found.get(k) for k in expected} == expected, found


@pytest.mark.parametrize("text, absent", [
    ("150 messages per day", "iops_per_mailbox"),  # a profile of messages is never IOPS
    ("Room for up to 384 drives", "disk_count"),  # what the array could hold, not what was tested
    ("Dual controllers with 2 x 4 GB of cache", "disk_count"),
    ("8 active database copies and 8 passive copies", "active_disk_count"),
    ("Number of storage ports: 4 (2 active)", "active_disk_count"),
    ("Exchange 2010 Database Availability Group", "databases"),
    ("Mailboxes per database: 2,000", "mailboxes"),
])
def test_a_number_whose_unit_says_otherwise_is_not_the_fact(text, absent):
    assert absent not in _read(text)


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01\x02", "x" * 100_000, "1" * 5000 + " disks", "(((((((" * 500,
                                  "RAID " * 2000, "9" * 400 + " x " + "9" * 400 + "GB 15K SAS"])
def test_hostile_text_reads_quickly_to_no_or_bounded_facts(text):
    assert len(list(quantity_facts(text, 1))) < 20


def _document(body: str) -> document_format.ReportDocument:
    return document_format.parse("synthetic.txt", body.encode())


def _system(body: str):
    document = _document(body)
    solutions = draft_solutions(document, document.lines)
    assert len(solutions) == 1
    return solutions[0]


CONFIGURATION = """Contoso StoreMax 7100 for Exchange 2016

Solution components

Component\tDetails
Storage\tContoso StoreMax 7100, two controllers, 4 shelves of 12 disks; 48 x 1.8TB 10K SAS, 2 hot spares
Protection\tRAID 10
Mailbox profile\t150 messages per day per user
Mailboxes\t5,000 mailboxes of 2 GB

Copyright 2016 Contoso Ltd. Reproduction without written permission of Contoso is strictly forbidden.
"""


def test_disks_on_every_basis_from_free_text_cells():
    groups = disk_counts(_system(CONFIGURATION).facts)
    assert [(g.count, g.role) for g in groups] == [(46, "active"), (2, "hot_spare")]


def test_messages_per_day_never_stored_as_iops_per_mailbox():
    facts = _system(CONFIGURATION).facts
    assert not [f for f in facts if f.fact == "iops_per_mailbox"]
    assert [f.number for f in facts if f.fact == "messages_per_day"] == [150]


def test_a_copyright_sentence_naming_the_vendor_is_never_the_name():
    body = ("Copyright 2016 Contoso Ltd. All rights reserved. Reproduction without written permission of Contoso "
            "is strictly forbidden.\n\nContoso StoreMax 7100 for Exchange 2016\n\n" + CONFIGURATION.split("\n", 2)[2])
    document = _document(body)
    assert document.title is not None and "permission" not in document.title
    facts = {f.fact: f.value for f in _system(body).facts if f.fact in ("vendor", "model")}
    assert facts == {"vendor": "Contoso", "model": "StoreMax 7100"}


def test_a_title_block_run_on_into_its_copyright_line_still_names_the_system():
    """A PDF may print the title, its byline and the copyright line with no blank line between them, and
    the next heading right after: the title is the block's heading, the legal line left out."""
    body = ("## Contoso StoreMax 7100 for Exchange 2016\nContoso Engineering\nMarch 2016\n"
            "Copyright 2016 Contoso Ltd. All rights reserved.\n## Executive summary\nThe array was tested.\n\n"
            + CONFIGURATION.split("\n", 2)[2])
    assert _document(body).title == "Contoso StoreMax 7100 for Exchange 2016"


REPORT = """## {caption} - {machine}

Microsoft Exchange Jetstress 2013

Performance Test Result Report

Test Summary

Overall Test Result\tPass
Machine Name\t{machine}
Test Description\t{description}
Test Start Time\t{start}
Test End Time\t{end}
Jetstress Version\t15.00.0995.000
ESE Version\t15.00.0995.021

Database Sizing and Throughput

Achieved Transactional I/O per Second\t{achieved}
Target Transactional I/O per Second\t500

"""


def _hosts_document(windows: list[tuple[str, str, str, str]]) -> str:
    body = "Contoso StoreMax 7100 for Exchange 2016\n\nStorage\tContoso StoreMax 7100, 24 x 900GB 10K SAS\n\n"
    for n, (caption, machine, start, end) in enumerate(windows):
        body += REPORT.format(caption=caption, machine=machine, description=f"{caption} test",
                              start=start, end=end, achieved=500 + n)
    return body


def test_two_hosts_of_one_test_are_one_run_and_a_later_test_another():
    body = _hosts_document([
        ("Baseline", "HOSTA", "3/1/2016 9:00:00 AM", "3/1/2016 11:00:00 AM"),
        ("Baseline", "HOSTB", "3/1/2016 9:00:05 AM", "3/1/2016 11:00:07 AM"),
        ("Controller failed", "HOSTA", "3/2/2016 9:00:00 AM", "3/2/2016 11:00:00 AM"),
        ("Controller failed", "HOSTB", "3/2/2016 9:00:02 AM", "3/2/2016 11:00:01 AM"),
    ])
    document = _document(body)
    tests = host_tests(document.reports, list(range(len(document.reports))), document.lines)
    assert [(t.label, t.report_indexes, t.scenario) for t in tests] == [
        ("Baseline", (0, 1), None), ("Controller failed", (2, 3), "Controller failed")]
    runs = _system(body).runs
    assert [(r.label, r.hosts, r.scenario) for r in runs] == [
        ("Baseline", (0, 1), None), ("Controller failed", (2, 3), "Controller failed")]


def test_repeated_runs_on_one_host_are_not_hosts_of_one_test():
    body = _hosts_document([
        ("Run 1", "HOSTA", "3/1/2016 9:00:00 AM", "3/1/2016 11:00:00 AM"),
        ("Run 2", "HOSTA", "3/1/2016 11:30:00 AM", "3/1/2016 1:30:00 PM"),
    ])
    document = _document(body)
    assert host_tests(document.reports, [0, 1], document.lines) == []


def test_a_fact_in_a_form_no_rule_knows_stays_empty_with_a_warning_naming_its_line():
    document = _document(CONFIGURATION.replace("Protection\tRAID 10", "Protection\tdouble parity, vendor-specific"))
    facts = _system(CONFIGURATION.replace("Protection\tRAID 10", "Protection\tdouble parity, vendor-specific")).facts
    assert not [f for f in facts if f.fact == "raid_level"]  # nothing invented
    warnings = [w for w in draft_document(document).warnings if "left empty" in w]
    line = next(n for n, text in enumerate(CONFIGURATION.splitlines(), 1) if text.startswith("Protection"))
    assert any(w.startswith(f'line {line}: "Protection"') and "no raid level read" in w for w in warnings), warnings
    profile = next(n for n, text in enumerate(CONFIGURATION.splitlines(), 1) if text.startswith("Mailbox profile"))
    assert any(w.startswith(f'line {profile}: "Mailbox profile"') and "messages per day are not IOPS" in w
               for w in warnings), warnings


def test_a_header_printed_over_two_rows_labels_every_column_and_is_no_data():
    body = ("Contoso StoreMax 7100 for Exchange 2016\n\nTable 4 Results per host\n\n"
            "Host\tAchieved\tTarget\tDB read\tResult\n\tIOPS\tIOPS\tlatency (ms)\t\n"
            "HOSTA\t579.218\t536\t6.17\tPass\nHOSTB\t584.560\t536\t6.69\tPass\n\nProse after the table.\n")
    table = next(t for t in _document(body).tables if t.title.startswith("Table 4"))
    assert table.columns == ("Achieved IOPS", "Target IOPS", "DB read latency (ms)", "Result")
    assert [row.label for row in table.rows] == ["HOSTA", "HOSTB"]
