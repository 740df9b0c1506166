"""The reader's doubt before the vendor's error (audit/doubts.py), on documents by other hands.

Each kind is read from a bench document (fixtures/other_hands/, SYNTHETIC) ingested alone: an ESRP
submission's disk tables, one per group of disks, whose figures add up to the system's (a match, not
a mismatch per table); a log group's capacity the catalogue cannot hold apart (a doubt); a lab
comparison's summary column printing another system's run (a doubt naming that run; a document
written for it, fixtures/audit_documents/); and a latency printed in
the other unit (a doubt, from the judgement alone).
"""

from __future__ import annotations

import functools

import pytest

from esrpdb.audit import audit
from esrpdb.audit.doubts import _other_unit, is_disk_group
from esrpdb.audit.gather import ClaimRow
from esrpdb.audit.terms import DOUBT, MATCH, MISMATCH, Judgement, parse_printed
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

FOLDER = FIXTURES / "other_hands"
AUDIT_DOCUMENTS = FIXTURES / "audit_documents"


@pytest.fixture(scope="module")
def findings(pg_server, template_url):
    from esrpdb.db.catalog import open_catalog

    @functools.cache
    def of(name: str, folder=FOLDER):
        with scratch_database(pg_server, "doubt", TEMPLATE) as url:
            catalog = open_catalog(url)
            try:
                ingest_paths(catalog.engine, [folder / f"{name}.txt"])
                return audit(catalog.engine).findings
            finally:
                catalog.close()

    return of


def _at(findings, line: int, metric: str):
    found = [f for f in findings if f.line == line and f.metric == metric]
    assert len(found) == 1, [(f.line, f.metric, f.verdict) for f in findings if f.line == line]
    return found[0]


def test_disk_groups_that_add_up_to_the_system_are_a_match(findings):
    """Mailbox store disks 40 and log disks 8 of a system of 48 active disks and 2 spares (lines 119, 135)."""
    for line in (119, 135):
        found = _at(findings("oh_esrp_a1_03"), line, "disk_count")
        assert found.verdict == MATCH and "groups add up" in found.explanation, found.explanation


def test_a_groups_capacity_that_adds_up_to_the_systems_is_a_match(findings):
    """The log disks' formatted capacity (line 132) is not the system's, but with the mailbox disks' (line 123)
    it makes the total presented to the hosts (line 135), which the catalogue holds: never a mismatch."""
    found = _at(findings("oh_esrp_a2_02"), 132, "usable_capacity")
    assert found.verdict == MATCH and "groups add up" in found.explanation, found.explanation
    assert not [f for f in findings("oh_esrp_a2_02") if f.verdict == MISMATCH and f.line in (120, 121, 129, 130, 132)]


def test_a_figure_that_is_another_systems_run_is_a_doubt_naming_it(findings):
    """A summary column printing the other array's median (fixtures/audit_documents, SYNTHETIC, line 38):
    the figure is Beta's run, under Alpha's heading; the reader cannot tell whose slip it is."""
    at_line = [f for f in findings("summary_column_of_another_system", AUDIT_DOCUMENTS)
               if f.line == 38 and f.metric == "achieved_iops"]
    doubt = next(f for f in at_line if f.verdict == DOUBT)
    assert "beta-array-y2" in doubt.explanation and doubt.inputs["doubt"]["elsewhere"]
    assert not [f for f in at_line if f.verdict == MISMATCH]
    assert [f.verdict for f in at_line if f is not doubt] == [MATCH]  # Beta's own column: its own median


def test_no_document_read_here_has_a_doubt_counted_as_a_mismatch(findings):
    for name in ("oh_esrp_a1_03", "oh_esrp_a2_02", "oh_third-party_a5_04"):
        assert not [f for f in findings(name) if f.verdict == MISMATCH and f.explanation.startswith("Reader's doubt")]


def test_a_latency_in_the_other_unit_is_a_doubt():
    claim = ClaimRow(id=1, metric="db_read_latency", value_printed="16", unit="s", subject="solution", solution_id=1,
                     run_id=None, other_solution_id=None, other_run_id=None, other_metric=None, disk_basis=None,
                     qualifier=None, location="Table 3", line=50, quote=None, source_file_id=1, manifest_file_id=None)
    judgement = Judgement(MISMATCH, 0.01621, 986.0, "Report 1 mean database read latency = 0.01621", {})
    doubt = _other_unit(claim, judgement, parse_printed("16"))
    assert doubt is not None and doubt.verdict == DOUBT and "milliseconds" in doubt.explanation
    assert _other_unit(claim, Judgement(MISMATCH, 12.0, 0.3, "", {}), parse_printed("16")) is None


@pytest.mark.parametrize("title, group", [
    ("Table 4 – Primary Storage Disk Configuration (Mailbox Store Disks)", True),
    ("Table 5 – Storage Disk Configuration (Transactional Log Disks)", True),
    ("Figure 16: Primary storage disk configuration (Mailbox Store and transactional log disks).", False),
    ("Table 1 - Storage configuration", False), (None, False),
])
def test_a_disk_group_is_told_by_its_title(title, group):
    assert is_disk_group(title) is group


@pytest.mark.browser(driver=False)
def test_a_database_utilization_the_template_reads_over_raw_is_a_doubt_where_nothing_bears_that_out(
        pg_server, template_url, tmp_path):
    """oh_esrp_a1_02 (SYNTHETIC) as a word processor prints it: "Database capacity utilization 61.9%" is
    1186/1916 (its own line 93: database over formatted capacity), not database over raw capacity as ESRP's
    template defines it; its label names no basis, so the template's reading makes a doubt, never a mismatch."""
    from tests.pdf_renderings import print_pdf, seed_html

    source = FIXTURES / "other_hands" / "oh_esrp_a1_02.txt"
    pdf = tmp_path / "oh_esrp_a1_02.pdf"
    print_pdf(seed_html(source.read_text(encoding="utf-8"), title=source.stem, plain_tables=True), pdf)
    from tests.helpers import audited

    findings = audited(pg_server, "utilization", [pdf])
    found = [f for f in findings if f.metric == "database_percent_of_raw" and f.printed == "61.9"]
    assert [f.verdict for f in found] == [DOUBT] and "another share" in found[0].explanation
