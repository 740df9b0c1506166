"""What a document's words say a figure is, read by the audit with no manifest:

- which IOPS a bare "IOPS" means (iops_words.py): the paragraph's own word, the document's
  definition, the kind it names more often, else Jetstress's achieved IOPS;
- a percentage between two tests of one system ("10% less than in the baseline", run_versus.py),
  judged the way `compare` computes it, from the two tests' own figures;
- a bulleted list of hosts with their figures (bullet_tables.py), read as the table it is, so each
  figure meets its host's report, and a figure printed under another metric's label is named.

The document checks run on copies of the synthetic vendor reference architecture (SYNTHETIC, see
fixtures/README.md), changed here to show each rule: hosts renamed, bullets of another shape, CRLF,
and the planted errors corrected (then nothing may be flagged at those lines).
"""

from __future__ import annotations

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.draft.iops_words import document_iops, paragraph_iops
from esrpdb.ingest.draft.published import paragraphs, sentence_claims
from esrpdb.ingest.draft.run_versus import versus_tests
from esrpdb.ingest.formats.document import parse
from esrpdb.ingest.formats.document.lines import split_lines
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

RA = FIXTURES / "synthetic_documents" / "synth_vendor-ra_train_002.txt"


# --- which IOPS ------------------------------------------------------------------------------------

@pytest.mark.parametrize("texts, expected", [
    (["The array delivered 3,210 transactional IOPS."], "achieved"),
    (["These results are the sum of the database reads and writes and log writes.", "It gave 120 IOPS."], "total"),
    (["We report 4,000 total IOPS.", "and 5,000 total IOPS", "against 3,000 achieved IOPS"], "total"),
    (["Achieved IOPS includes only database disk I/O, not log writes."], "achieved"),
    (["Nothing here says which."], "achieved"),
])
def test_a_bare_iops_means_what_the_document_says(texts, expected):
    assert document_iops(texts) == expected


def test_the_paragraph_s_own_word_comes_first():
    text = "The array achieved 5,000 total IOPS using 25 active disks, for 200 IOPS per disk."
    assert paragraph_iops(text, text.index("200"), "achieved") == "total"
    assert paragraph_iops("It gave 200 IOPS per disk.", 8, "achieved") == "achieved"


def _claims(text: str):
    return sentence_claims(paragraphs(split_lines(text, [])))


def test_a_per_disk_figure_takes_the_document_s_iops():
    said = "The hosts together delivered 1,234 transactional IOPS.\n\nThat is 17.1 IOPS per active disk.\n"
    assert [c.metric for c in _claims(said)] == ["achieved_iops_per_disk"]
    defined = ("Our IOPS figures are the sum of the database reads, writes and log writes.\n\n"
               "That is 17.1 IOPS per active disk.\n")
    assert [c.metric for c in _claims(defined)] == ["total_iops_per_disk"]


# --- two tests of one system ---------------------------------------------------------------------------

TESTS = [("Baseline", None), ("Drive failure", "Drive failure")]


@pytest.mark.parametrize("than, sentence, tests, expected", [
    ("the baseline", "During the rebuild the hosts delivered 1,000 IOPS, ", TESTS, ("Drive failure", "Baseline")),
    ("in normal operation", "With a failed disk it gave 1,000 IOPS, ", TESTS, ("Drive failure", "Baseline")),
    ("the degraded test", "The baseline gave 1,000 IOPS, ", TESTS, ("Baseline", "Drive failure")),
    ("Run 1", "Run 3 gave 1,000 IOPS, ", [("Run 1", None), ("Run 2", None), ("Run 3", None)], ("Run 3", "Run 1")),
    ("Run 1", "It gave 1,000 IOPS, ", [("Run 1", None), ("Run 2", None), ("Run 3", None)], None),  # which of 2 and 3?
    ("the 1,000 IOPS target", "It gave 1,100 IOPS, ", [("Run 1", None), ("Run 2", None)], None),  # a number, no run
    ("the other array", "It gave 1,100 IOPS, ", TESTS, None),
    ("the baseline", "It gave 1,100 IOPS, ", [("Baseline", None)], None),  # one test: nothing to compare
])
def test_the_two_tests_a_percentage_compares(than, sentence, tests, expected):
    assert versus_tests(than, sentence, tests) == expected


def test_a_percentage_between_tests_names_both():
    text = "During the rebuild the hosts together delivered 1,111.1 IOPS, 10% less than in the baseline.\n"
    (claim,) = [c for c in _claims(text) if c.comparison]
    assert claim.metric == "percent_less:achieved_iops" and claim.than.startswith("baseline")


# --- a bulleted list of hosts --------------------------------------------------------------------------

LIST = ["### Analysis", "", "- NODE-A", "  - DB Reads/sec = 400.10", "  - Log writes/sec = 40.20", "- NODE-B",
        "  - DB Reads/sec = 401.30", "  - Log writes/sec = 41.40", "", "Some prose after it."]


@pytest.mark.parametrize("shape", ["nested", "flat", "bullets", "colons", "crlf", "named-with-colon"])
def test_a_bulleted_list_of_hosts_is_a_table(shape):
    from esrpdb.ingest.formats.document.bullet_tables import bullet_tables

    lines = list(LIST)
    if shape == "flat":  # the extractor lost the indentation
        lines = [line.strip() for line in lines]
    elif shape == "bullets":
        lines = [line.replace("  - ", "\u25e6 ").replace("- ", "\u2022 ") for line in lines]
    elif shape == "colons":
        lines = [line.replace(" = ", ": ") for line in lines]
    elif shape == "named-with-colon":  # "- NODE-A:" heading its figures
        lines = [f"{line}:" if line.startswith("- NODE") else line for line in lines]
    text = ("\r\n" if shape == "crlf" else "\n").join(lines)
    read = split_lines(text, [])
    (table,) = bullet_tables(read, set(), lambda _: "Analysis")
    assert table.columns == ("DB Reads/sec", "Log writes/sec")
    assert [(r.label, r.values, r.line) for r in table.rows] == [
        ("NODE-A", ("400.10", "40.20"), 4), ("NODE-B", ("401.30", "41.40"), 7)]


@pytest.mark.parametrize("lines", [
    ["- NODE-A", "  - DB Reads/sec = 400.10", "  - Log writes/sec = 40.20"],  # one item: no table
    ["- Plan the layout", "- Run the test for 2 hours", "- Report the median"],  # a list of prose
    ["- NODE-A", "  - Reads = 1", "- NODE-B", "  - Writes = 2"],  # one figure each, none shared
])
def test_other_lists_are_not_tables(lines):
    from esrpdb.ingest.formats.document.bullet_tables import bullet_tables

    assert bullet_tables(split_lines("\n".join(lines), []), set(), lambda _: "") == []


# --- the audit of the reference architecture, changed ---------------------------------------------------

MISLABELLED = "  - DB Reads/sec = 579.22"  # the first host's achieved IOPS, printed as its reads (planted)
PERCENT = "10% less than in the baseline"  # the two totals give 16.4% (planted)


def _variant(tmp_path, name: str, *, fix: bool, rename: bool, crlf: bool):
    text = RA.read_text(encoding="utf-8")
    assert MISLABELLED in text and PERCENT in text
    if fix:
        text = text.replace(MISLABELLED, "  - DB Reads/sec = 408.89").replace(PERCENT, "16% less than in the baseline")
    if rename:
        text = text.replace("MBXSIM", "EXCHVM-")
        text = text.replace("\n- EXCHVM-", "\n\u2022 EXCHVM-").replace("\n  - DB Reads", "\n\u25e6 DB Reads")
    path = tmp_path / f"{name}.txt"
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode())
    return path


def _audited(pg_server, path):
    from esrpdb.db.catalog import open_catalog

    with scratch_database(pg_server, "words", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, [path])
            assert [o.status for o in outcomes] == ["loaded"], [o.message for o in outcomes]
            return audit(catalog.engine)
        finally:
            catalog.close()


@pytest.mark.parametrize("rename, crlf", [(False, False), (True, True)], ids=["as-written", "renamed-crlf"])
def test_the_mislabelled_figure_and_the_false_percentage_are_found(pg_server, template_url, tmp_path, rename, crlf):
    report = _audited(pg_server, _variant(tmp_path, "ra", fix=False, rename=rename, crlf=crlf))
    (mislabel,) = [f for f in report.findings if f.line == 123]
    assert (mislabel.kind, mislabel.verdict, mislabel.metric) == ("mislabelled_metric", "mismatch", "db_reads_per_s")
    assert "achieved IOPS (579.218)" in mislabel.explanation
    (percent,) = [f for f in report.findings if f.line == 146 and f.metric.startswith("percent_")]
    assert percent.verdict == "mismatch" and percent.metric == "percent_less:achieved_iops"
    assert percent.recomputed == pytest.approx(100 * (1 - 1458.216 / 1744.728), abs=1e-3)
    (per_disk,) = [f for f in report.findings if f.line == 118]
    assert per_disk.metric == "achieved_iops_per_disk" and per_disk.verdict == "mismatch"
    assert "divided by all 75 disks instead of the 72 active disks" in per_disk.explanation


def test_corrected_they_are_not(pg_server, template_url, tmp_path):
    report = _audited(pg_server, _variant(tmp_path, "ra-fixed", fix=True, rename=False, crlf=False))
    (percent,) = [f for f in report.findings if f.line == 146 and f.metric.startswith("percent_")]
    assert percent.verdict == "match", percent.explanation  # still judged, no longer wrong
    assert not [f for f in report.findings if f.line in (123, 124) and f.verdict != "match"]  # cells that agree pass


def test_the_document_reads_the_same_table_from_its_pdf_extractor_spacing():
    """pdftotext-style: the list's items at one indentation, a figure line wrapped after its label."""
    text = RA.read_text(encoding="utf-8").replace("\n  - ", "\n- ")
    document = parse("ra.txt", text.encode())
    (table,) = [t for t in document.tables if t.kind == "bulleted_figures"]
    assert [r.label for r in table.rows] == ["MBXSIM1", "MBXSIM2", "MBXSIM3"]


# --- the stated profile against the tests' targets -----------------------------------------------------

ESRP = FIXTURES / "synthetic_documents" / "synth_esrp_train_001.txt"


def _changed(tmp_path, source, name: str, *pairs: tuple[str, str]):
    text = source.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _profile(report):
    return [f for f in report.findings if f.kind == "profile_vs_target"]


def test_a_stated_profile_the_hosts_targets_contradict_is_one_finding(pg_server, template_url, tmp_path):
    """The reference architecture states 0.134 IOPS per mailbox; said as 0.15, its three hosts' targets
    (536 each, for both tests) no longer add up to it: one finding, on the profile's line, naming both tests."""
    report = _audited(pg_server, _changed(tmp_path, RA, "ra-profile", ("0.134 IOPS per", "0.15 IOPS per")))
    (finding,) = _profile(report)
    assert finding.verdict == "mismatch" and finding.line == 33
    assert finding.recomputed == pytest.approx(12000 * 0.15) and finding.printed == "1,608"
    assert "Baseline" in finding.explanation and "Drive failure" in finding.explanation
    assert len([c for c in report.causes() if any(f.kind == "profile_vs_target" for f in c.findings)]) == 1


def test_profiles_that_agree_are_not_findings(pg_server, template_url, tmp_path):
    assert _profile(_audited(pg_server, RA)) == []
    # one report of a design on two servers: its target is half the design's, which is no disagreement
    two = _changed(tmp_path, ESRP, "esrp-two-servers", ("This paper documents a validated iSCSI storage design for 6,000",
                                                        "This paper documents a validated iSCSI storage design for 12,000"),
                   ("- 6,000 mailboxes", "- 12,000 mailboxes"), ("simulated\t6,000", "simulated\t12,000"))
    assert _profile(_audited(pg_server, two)) == []


def test_a_single_server_profile_its_report_contradicts(pg_server, template_url, tmp_path):
    wrong = _changed(tmp_path, ESRP, "esrp-profile", ("assumes 0.3 IOPS/mailbox", "assumes 0.35 IOPS/mailbox"),
                     ("an I/O profile of 0.3 IOPS per user", "an I/O profile of 0.35 IOPS per user"),
                     ("headroom)\t0.3", "headroom)\t0.35"))
    (finding,) = _profile(_audited(pg_server, wrong))
    assert finding.recomputed == pytest.approx(6000 * 0.35) and finding.printed == "1,800"
