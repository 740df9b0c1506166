"""ESRP/whitepaper text -> embedded Jetstress reports, read from the four seed documents.

Golden values are the numbers the seeds print; the code computes them from the parsed text.
The cross-check reads the same reports from the HTML fixtures rebuilt from the seeds and
requires identical normalised records.
"""

from __future__ import annotations

import re
import statistics
import time

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import document as document_text, jetstress_html
from esrpdb.ingest.formats.document.records import ReportDocument
from esrpdb.ingest.jetstress import normalise
from tests.helpers import FIXTURES, REPO_ROOT, SYNTHETIC, seed, seed_path

HTML = FIXTURES / "jetstress_html"
LINE = re.compile(r"\bline \d+")


def all_warnings(doc: ReportDocument) -> list[str]:
    return [*doc.warnings, *(w for report in doc.reports for w in report.warnings)]


# --- identify ----------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["000", "001", "002", "003"])
def test_identify_claims_every_seed_from_its_head(number):
    path = seed_path(number)
    assert document_text.identify(path.name, path.read_bytes()[:8192])


@pytest.mark.parametrize("path", [REPO_ROOT / "README.md", FIXTURES / "README.md", FIXTURES / "documents" / "README.md",
                                  FIXTURES / "perfmon" / "README.md", REPO_ROOT / "docs" / "manifests.md"])
def test_identify_leaves_prose_that_only_mentions_jetstress(path):
    assert not document_text.identify(path.name, path.read_bytes()[:8192])


def test_identify_leaves_other_formats_alone():
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix in (".html", ".csv", ".tsv", ".xml")):
        assert not document_text.identify(path.name, path.read_bytes()[:8192]), path
    assert document_text.identify("report.pdf", b"%PDF-1.7\n...")
    assert document_text.identify(SYNTHETIC.name, SYNTHETIC.read_bytes()[:8192])
    assert not document_text.identify("notes.txt", b"Test Summary was fine, we think Jetstress passed.\n")
    assert not document_text.identify("seed.docx", seed_path("001").read_bytes()[:8192])
    assert not document_text.identify("dump.txt", b"\x00\x01\x02binary")


# --- the seeds -----------------------------------------------------------------------------


def test_seed000_two_jetstress_2007_reports():
    dell, hp = seed("000").reports
    assert (dell.report_type, dell.overall_result, dell.achieved_iops) == ("Performance", "Pass", 6667.51)
    assert normalise.jetstress_release(dell.jetstress_version) == 2007
    disk = dell.io_tables[0]
    assert (disk.scope, disk.latency_unit) == ("disk_subsystem", "s")
    roles = [row.volume_role for row in disk.rows]
    assert (roles.count("database"), roles.count("log")) == (13, 13)
    db1 = next(row for row in disk.rows if row.instance == "c:\\db1")
    assert db1.db_read_latency == 0.019
    assert normalise.latency_values(disk, db1)["db_read_latency_ms"] == pytest.approx(19.0)
    assert dell.source_line == 800
    assert dell.performance_logs == ["C:\\Program Files\\Exchange Jetstress\\Performance_2008_9_18_12_48_31.blg",
                                     "C:\\Program Files\\Exchange Jetstress\\DBChecksum_2008_9_18_14_55_0.blg"]
    assert (hp.achieved_iops, hp.overall_result) == (2684.535, "Pass")
    hp_roles = [row.volume_role for row in hp.io_tables[0].rows]
    assert (hp_roles.count("database"), hp_roles.count("log")) == (10, 10)
    # The run-together, duplicated HP log reads as one entry per event, its last one intact.
    assert len(hp.log_events) == 68
    assert hp.log_events[-1].message.endswith("Performance_2008_9_18_11_31_40.xml has 479 samples queried.")
    assert hp.thresholds.unit == "s" and hp.thresholds.db_read_avg == 0.02


def test_seed001_four_reports_typed_by_their_appendix():
    stress, performance, backup, recovery = seed("001").reports
    assert [r.report_type for r in seed("001").reports] == ["Stress", "Performance", "DatabaseBackup", "SoftRecovery"]
    assert stress.achieved_iops == 1488.848
    # The appendix says stress test; the report title says "Performance Test Result Report": both are kept.
    assert any("Stress" in w and "Appendix A: Stress Testing" in w and "Performance Test Result Report" in w
               for w in stress.warnings)
    printed = {(k.section, k.label, k.value) for k in stress.key_values}
    assert ("Document", "Appendix", "Appendix A: Stress Testing") in printed

    assert performance.achieved_iops == 1573.982
    assert len(performance.instances) == 8
    transactional = next(t for t in performance.io_tables if t.scope == "transactional")
    first = next(row for row in transactional.rows if row.instance == "Instance2836.1")
    assert (first.db_read_latency, first.db_reads_per_s) == (16.661, 122.475)
    assert performance.test_description == "5000 mailboxes\n.2 IOP\n2048GB mailboxes"

    assert len(backup.backup_rows) == 8
    assert statistics.mean(row.mb_per_s for row in backup.backup_rows) == pytest.approx(60.05, abs=0.005)
    assert backup.backup_rows[0].elapsed_seconds == 5 * 3600 + 51 * 60 + 58
    assert len(recovery.recovery_rows) == 8
    assert {row.instance for row in recovery.recovery_rows} == {f"Instance2836.{n}" for n in range(1, 9)}
    assert recovery.recovery_rows[0].log_files_replayed == 507


def test_seed002_two_reports_from_markdown_and_tags():
    hdd, ssd = seed("002").reports
    assert (hdd.achieved_iops, ssd.achieved_iops) == (3834.843, 10650.201)
    assert hdd.test_description is None and hdd.machine_name == "SERVER"
    assert ssd.host_counters[0].name == "% Processor Time"
    assert [row.instance for row in ssd.io_tables[0].rows] == ["E:", "F:"]
    assert hdd.performance_logs[1] == "C:\\Program Files\\Exchange Jetstress\\DBChecksum_2008_10_21_18_49_53.blg"


def test_seed003_holds_no_jetstress_report():
    assert seed("003").reports == []
    assert seed("003").tables


@pytest.mark.parametrize("number", ["000", "001", "002", "003"])
def test_every_warning_names_its_line(number):
    for warning in all_warnings(seed(number)):
        assert LINE.search(warning), warning


# --- the same report from HTML and from text ---------------------------------------------------

CROSS = [
    ("000", 0, "seed000-dell-equallogic/Performance_2008_9_18_12_48_31.html"),
    ("000", 1, "seed000-hp-eva4400/Performance_2008_9_18_11_31_40.html"),
    ("001", 0, "seed001-md1220/Performance_2011_5_31_14_17_59.html"),
    ("001", 1, "seed001-md1220/Performance_2011_5_28_11_38_30.html"),
    ("001", 2, "seed001-md1220/DatabaseBackup_2011_6_3_10_55_33.html"),
    ("001", 3, "seed001-md1220/SoftRecovery_2011_6_4_10_48_19.html"),
    ("002", 0, "seed002-savvio-hdd/Performance_2008_10_21_16_24_35.html"),
    ("002", 1, "seed002-x25e-ssd/Performance_2008_10_5_21_32_32.html"),
]
# Where the printed report and the document legitimately differ.
NOT_COMPARED = ("source_line", "product_title", "report_type")


def _run(report) -> dict:
    return {k: v for k, v in normalise.run_values(report).items() if k not in NOT_COMPARED}


def _latencies(report) -> list[dict]:
    rows = []
    for table in report.io_tables:
        for row in table.rows:
            values = normalise.latency_values(table, row)
            values.pop("source_line")
            rows.append({"instance": row.instance, "role": row.volume_role, **values})
    return rows


@pytest.mark.parametrize(("number", "index", "html"), CROSS, ids=[c[2].split("/")[0] + f"-{c[1]}" for c in CROSS])
def test_text_and_html_give_identical_records(number, index, html):
    text = seed(number).reports[index]
    path = HTML / html
    parsed = jetstress_html.parse(path.name, path.read_bytes())
    assert _run(text) == _run(parsed)
    assert _latencies(text) == _latencies(parsed)
    assert [t.headers for t in text.io_tables] == [t.headers for t in parsed.io_tables]
    assert text.host_counters == parsed.host_counters
    assert text.instances == parsed.instances
    assert (text.backup_rows, text.recovery_rows) == (parsed.backup_rows, parsed.recovery_rows)
    printed = [(k.section, k.label, k.value) for k in text.key_values if k.section != "Document"]
    assert printed == [(k.section, k.label, k.value) for k in parsed.key_values]
    events = [(e.logged_at, e.message) for e in text.log_events]
    expected = [(e.logged_at, e.message) for e in parsed.log_events]
    if html.startswith("seed001-md1220/SoftRecovery") and len(events) == len(expected) + 1:
        # The seed's last line (no newline at the end of the file) is missing from the HTML fixture.
        assert events[-1][1] == "Creating test report ..."
        events = events[:-1]
    assert events == expected


# --- a document written here: other separators, page breaks, vendor, names ----------------------


def _reflowed_seed001_performance() -> str:
    """Appendix B of seed 001 as another vendor might print it: pipe tables, wide spaces, bold labels,
    thousands separators, running headers between rows, a header split from its rows and over two
    lines, a row split over two lines, the test log run into one paragraph, other machine and instance names."""
    lines = seed_path("001").read_text(encoding="utf-8").splitlines()
    body = lines[lines.index("Appendix B: Performance Testing") : lines.index("Appendix C Backup Testing")]
    labels = sorted((label for label in (
        "Overall Test Result", "Machine Name", "Test Description", "Test Start Time", "Test End Time",
        "Collection Start Time", "Collection End Time", "Jetstress Version", "ESE Version", "Operating System",
        "Performance Log", "Achieved Transactional I/O per Second", "Target Transactional I/O per Second",
        "Initial Database Size (bytes)", "Final Database Size (bytes)", "Database Files (Count)", "Thread Count",
        "Minimum Database Cache", "Maximum Database Cache", "Insert Operations", "Delete Operations",
        "Replace Operations", "Read Operations", "Lazy Commits", "Run Background Database Maintenance",
        "Number of Copies per Database")), key=len, reverse=True)
    out: list[str] = ["Contoso StorMax 9000 Mailbox Resiliency Exchange 2010 Storage Solution", ""]
    section, header_done, rows = "", False, 0
    log: list[str] = []
    for raw in body:
        line = raw.replace("WIN-PVCKE1IJFQ1", "CONTOSO-MBX01").replace("Instance2836.", "Instance7711.")
        if log or line.startswith("Test Log"):
            log.append(line.strip())
            continue
        if "\t" not in line:
            header_done, rows = False, 0
            if line.strip() and not any(line.startswith(label) for label in labels):
                section = line.strip()
            if line == "Database Sizing and Throughput":
                line = "Database Sizing and T\throughput"  # a heading split inside a word
            label = next((label for label in labels if line.startswith(label + " ")), None)
            if label:
                value = line[len(label) + 1 :]
                if label.startswith("Initial Database Size"):
                    value = f"{int(value):,}"
                line = f"**{label}**    {value}"
            out.append(line)
            continue
        cells = line.split("\t")
        if not header_done:
            header_done = True
            if section == "Transactional I/O Performance":  # header cells printed over two lines
                top = [c.split(" Average Latency")[0] for c in cells]
                bottom = ["Average Latency" + c.split(" Average Latency", 1)[1] if " Average Latency" in c else ""
                          for c in cells]
                out += ["| " + " | ".join(top) + " |", "|" + "---|" * len(cells), "| " + " | ".join(bottom) + " |"]
            else:
                out += ["| " + " | ".join(cells) + " |", "|" + "---|" * len(cells)]
            if section == "Total I/O Performance":  # the header on one page, its rows on the next
                out += ["", "", "Contoso Storage – Confidential – Page 8", ""]
            continue
        rows += 1
        if section == "Transactional I/O Performance" and rows == 3:  # a row split over two lines
            out += ["| " + " | ".join(cells[:6]) + " |", "| | " + " | ".join(cells[6:]) + " |"]
            continue
        out.append("| " + " | ".join(cells) + " |")
        if section == "Transactional I/O Performance" and rows == 4:
            out += ["", "Contoso Storage – Confidential – Page 7", ""]
    out.append(" ".join(part for part in log if part))  # the whole log as one paragraph
    return "\n".join(out) + "\n"


def test_a_reflowed_report_reads_the_same_numbers():
    text = _reflowed_seed001_performance()
    assert "\t" not in text.replace("T\throughput", "")
    assert document_text.identify("contoso.md", text.encode()[:8192])
    doc = document_text.parse("contoso.md", text.encode("utf-8"))
    (report,) = doc.reports
    original = seed("001").reports[1]
    assert report.machine_name == "CONTOSO-MBX01"
    expected = {**_run(original), "machine_name": "CONTOSO-MBX01"}
    assert _run(report) == expected
    renamed = [{**row, "instance": row["instance"].replace("Instance2836.", "Instance7711.")}
               for row in _latencies(original)]
    assert _latencies(report) == renamed
    assert [t.headers for t in report.io_tables] == [t.headers for t in original.io_tables]
    assert report.host_counters == original.host_counters
    assert [e.message.replace("2836", "7711") for e in original.log_events] == [e.message for e in report.log_events]
    assert report.thresholds == original.thresholds
    assert doc.warnings == [] and report.warnings == []


def test_synthetic_markdown_whitepaper_report():
    doc = document_text.parse(SYNTHETIC.name, SYNTHETIC.read_bytes())
    (report,) = doc.reports
    assert (report.report_type, report.overall_result, report.achieved_iops) == ("Performance", "Pass", 2380.5)
    assert report.initial_database_bytes == 4_398_046_511_104
    transactional = report.io_tables[0]
    reads = sum(row.db_reads_per_s + row.db_writes_per_s for row in transactional.rows)
    assert reads == pytest.approx(report.achieved_iops)  # the invented numbers add up like real ones
    assert report.thresholds.db_read_avg == 20
    assert report.product_title == "Microsoft Exchange Jetstress 2010"


# --- bad input ------------------------------------------------------------------------------


def test_empty_and_blank_documents_are_refused():
    for data in (b"", b"  \n\t\n", "\ufeff \n".encode("utf-8")):
        with pytest.raises(ParseError, match=r"^empty\.txt: file is empty$"):
            document_text.parse("empty.txt", data)


def test_binary_is_refused_with_the_line():
    with pytest.raises(ParseError) as error:
        document_text.parse("image.txt", b"Test Summary\nabc\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert error.value.file == "image.txt" and error.value.line == 5  # the NUL byte sits on line 5
    assert "binary data" in str(error.value) and "line 5" in str(error.value)


def test_a_few_stray_nul_bytes_are_dropped_with_a_warning():
    data = seed_path("002").read_bytes().replace(b"**Machine Name**", b"**Machine\x00 Name**", 1)
    doc = document_text.parse("nul.txt", data)
    assert doc.reports[0].machine_name == "SERVER"
    assert doc.warnings == ["line 539: 1 stray NUL byte(s) removed"]


def test_latin1_is_refused_with_the_line():
    data = "Test Summary\nOverall Test Result\tPass\nMachine Name\tCAFÉ-01\n".encode("latin-1")
    with pytest.raises(ParseError) as error:
        document_text.parse("latin1.txt", data)
    assert str(error.value).startswith("latin1.txt › line 3: not UTF-8 text: byte 0xc9")


def test_utf16_with_bom_and_utf8_with_bom_read_like_utf8():
    text = seed_path("002").read_text(encoding="utf-8")
    for data in (text.encode("utf-16"), b"\xef\xbb\xbf" + text.encode("utf-8")):
        doc = document_text.parse("seed.txt", data)
        assert [r.achieved_iops for r in doc.reports] == [3834.843, 10650.201]


def test_a_report_heading_with_nothing_after_it_is_not_a_report():
    text = "Results\n\nTest Summary\n\nThe test summary follows in the next chapter.\n\nItem\tValue\nIOPS\t1,000\n"
    doc = document_text.parse("summary.txt", text.encode())
    assert doc.reports == [] and [t.rows[0].values for t in doc.tables] == [("1,000",)]
    assert doc.warnings == ['line 3: "Test Summary" starts no report: nothing a report holds follows it; ignored']


def test_prose_without_report_or_table_is_not_a_document():
    with pytest.raises(ParseError, match=r"^notes\.txt: no Jetstress report"):
        document_text.parse("notes.txt", b"We ran Jetstress and it passed.\nNothing else to say.\n")


def test_a_report_cut_inside_its_io_table_loads_what_it_can():
    lines = seed_path("001").read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.startswith("Instance2836.3\t16.724\t10.736"))
    data = "".join(lines[:row]) + lines[row][:40]  # the file ends in the middle of a row
    doc = document_text.parse("cut.txt", data.encode())
    report = doc.reports[-1]
    assert report.report_type == "Performance" and report.achieved_iops == 1573.982
    (table,) = report.io_tables
    assert [r.instance for r in table.rows] == ["Instance2836.1", "Instance2836.2"]
    where = f'line {row + 1}: Transactional I/O Performance: row "Instance2836.3"'
    assert any(w.startswith(where) and "truncated" in w for w in report.warnings)
    assert any('"Test Log" is missing' in w for w in report.warnings)


def test_a_20_mb_line_is_read_up_to_a_bound():
    text = seed_path("001").read_text(encoding="utf-8")
    data = (text + "\n" + "x" * 20_000_000 + "\nthe end\n").encode()
    started = time.perf_counter()
    doc = document_text.parse("huge.txt", data)
    assert time.perf_counter() - started < 5
    number = text.count("\n") + 2
    assert f"line {number}: line is 20,000,000 characters long; only the first 100,000 were read" in doc.warnings
    assert [r.achieved_iops for r in doc.reports][:2] == [1488.848, 1573.982]
    with pytest.raises(ParseError, match=r"^huge2\.txt: no Jetstress report"):
        document_text.parse("huge2.txt", b"A" * 20_000_000)


def test_a_value_that_is_not_a_number_is_a_warning_not_a_failure():
    text = seed_path("002").read_text(encoding="utf-8").replace("Achieved I/O per Second</b>\t10650.201",
                                                                 "Achieved I/O per Second</b>\tten thousand")
    doc = document_text.parse("bad.txt", text.encode())
    ssd = doc.reports[1]
    assert ssd.achieved_iops is None and ssd.overall_result == "Pass"
    assert any(w.startswith("line 667: Database Sizing and Throughput") and "ten thousand" in w for w in ssd.warnings)
