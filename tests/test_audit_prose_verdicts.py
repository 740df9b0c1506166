"""A verdict stated in a document's prose, judged against the tests it speaks of (finding kind
`verdict_in_prose`): the reports' printed verdicts, their numbers under Jetstress's thresholds, and the
document's own stated rule; a sentence whose test cannot be told is unattributed, never judged.

The documents are SYNTHETIC (fixtures/audit_documents/, written by its build_documents.py): each
is read with no manifest, as an analyst would, as printed, renamed (system and hosts named
otherwise) and with CRLF line ends; every form must give the same verdicts on the same lines.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.manifests import drafted_manifests
from esrpdb.ingest.draft.published import paragraphs
from esrpdb.ingest.draft.toml_text import render
from esrpdb.ingest.draft.verdicts import statements
from esrpdb.ingest.formats import document as document_format, manifest as manifest_format
from esrpdb.ingest.formats.document.lines import split_lines
from esrpdb.ingest.pipeline import ingest_paths
from tests.document_variants import VARIANTS
from tests.helpers import FIXTURES, TEMPLATE, scratch_database
from tests.synthetic_keys import rename_text

FOLDER = FIXTURES / "audit_documents"
DOCUMENTS = [FOLDER / name for name in ("acceptable-names-no-test.txt", "adequate-breaks-own-rule.txt",
                                         "every-host-passed-one-fails.txt", "solution-passed-all-agree.txt")]
RENAMES = (("Quillon", "Tarrowby"), ("QS-700", "TRX-88"), ("HOSTA", "MAILSRV-EAST"), ("HOSTB", "MAILSRV-WEST"),
           ("HOSTC", "MAILSRV-NORTH"), ("NODE1", "EXMBX-A"), ("NODE2", "EXMBX-B"), ("EXCH-01", "JS-ALPHA"),
           ("EXCH-02", "JS-BETA"), ("MBXHOST1", "LONEHOST"))
FORMS = {"text": lambda text: text, "renamed": lambda text: rename_text(text, RENAMES), "crlf": VARIANTS["crlf"]}
KIND = "verdict_in_prose"


# --- what drafting finds in sentences (pure) -------------------------------------------------------


def _statements(*sentences: str):
    text = "\n\n".join(sentences) + "\n"
    return statements(paragraphs(split_lines(text, [])))


def test_conditions_negations_and_other_subjects_state_no_verdict():
    found = _statements(
        "If the system passed the initial performance test, we raised the thread count.",
        "We followed a different process based on whether the first run passed or failed.",
        "One storage group was adequate for the 200 mailboxes in our test.",
        "The test has not passed on the second host, and its results were not adequate.",
        "Each run should pass Jetstress before it is reported.",
        "Verifying log checksums: F:\\Log1 (2 logs passed)")
    assert [s for s in found if s.is_verdict] == []


def test_verdicts_keep_their_words_line_and_scope():
    found = [s for s in _statements(
        "Under the baseline workload the hosts delivered 1,234 IOPS, and every host passed.",
        "The average read latency across all hosts was about 7 ms, comfortably inside the 20 ms that Exchange "
        "requires.",
        "The test results were adequate.", "The solution met the Exchange requirements.") if s.is_verdict]
    assert [(s.words, s.line, s.every) for s in found] == [
        ("passed", 1, True), ("inside the 20 ms", 3, False), ("were adequate", 5, False),
        ("met the Exchange requirements", 7, False)]
    assert [(limit.bounds, limit.value, limit.strict) for limit in found[1].limits] == [("db_read_latency", "20", False)]


def test_a_stated_rule_gives_each_limit_it_names():
    rule, = _statements("A test passes when the average database read latency stays under 15 ms, log writes "
                        "below 4.5 ms, and achieved IOPS is within 5% of its target.")
    assert not rule.is_verdict
    assert [(x.bounds, x.value, x.unit, x.strict) for x in rule.limits] == [
        ("db_read_latency", "15", "ms", True), ("log_write_latency", "4.5", "ms", True), ("iops_margin", "5", "%", False)]
    advice, = _statements("We required latency below 0.015 seconds.")[0].limits
    assert (advice.bounds, advice.value, advice.unit) == ("db_read_latency", "0.015", "s")
    assert _statements("Watch the read latency in Performance Monitor; it should stay below 20 ms.") == []


def test_each_server_beating_its_target_is_a_verdict_with_its_own_yardstick():
    verdict, = _statements("Each of the 3 servers exceeded its Jetstress target of 720 transactional IOPS, so the "
                           "storage meets the 0.30 IOPS per mailbox requirement.")
    assert (verdict.words, verdict.every) == ("exceeded its Jetstress target of 720 transactional IOPS", True)
    assert [(x.bounds, x.value) for x in verdict.limits] == [("iops_minimum", "720")]
    assert _statements("If every server exceeded its target of 720 IOPS, the design would hold.") == []


def test_a_server_short_of_the_target_every_server_is_said_to_beat_is_a_mismatch(pg_server, template_url):
    """oh_esrp_a2_05 (SYNTHETIC, by other hands; planted): MAIL-03 achieved 695.784 IOPS (line 152), the text
    says each of the 3 servers exceeded its target of 720 (line 176)."""
    from tests.helpers import FIXTURES, audited

    findings = [f for f in audited(pg_server, "beat", [FIXTURES / "other_hands" / "oh_esrp_a2_05.txt"])
                if f.line == 176 and f.kind == "verdict_in_prose"]
    wrong = [f for f in findings if f.verdict == "mismatch"]
    assert len(wrong) == 1 and "695.784" in wrong[0].explanation, [(f.verdict, f.explanation) for f in findings]


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.stem for p in DOCUMENTS])
def test_the_drafted_verdicts_read_back_from_the_printed_draft(path):
    """`esrpdb draft` prints the verdict and rule claims; the TOML reads back to the records ingest loads."""
    document = document_format.parse(path.name, path.read_bytes())
    manifests = drafted_manifests(draft_document(document).systems, path.name, path.name,
                                  report_types=[r.report_type for r in document.reports])
    claims = [c for m in manifests for c in m.manifest.claims if c.metric == "stated_verdict"]
    assert claims
    for made in manifests:
        text = render(made, path.name)
        assert manifest_format.parse(made.manifest.source_name, text.encode()) == made.manifest, text


def test_the_documents_are_what_their_generator_writes():
    done = subprocess.run([sys.executable, str(FOLDER / "build_documents.py"), "--check"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


# --- the audit, from the documents alone ---------------------------------------------------------


@pytest.fixture(scope="module")
def audited(pg_server, template_url, tmp_path_factory):
    """form -> the audit of the four documents in that form, each ingested with no manifest."""
    from esrpdb.db.catalog import open_catalog

    reports = {}
    for form, change in FORMS.items():
        folder = tmp_path_factory.mktemp(form)
        paths = []
        for path in DOCUMENTS:
            made = change(path.read_text(encoding="utf-8"))
            (folder / path.name).write_bytes(made if isinstance(made, bytes) else made.encode("utf-8"))
            paths.append(folder / path.name)
        with scratch_database(pg_server, "pv", TEMPLATE) as url:
            catalog = open_catalog(url)
            try:
                outcomes = ingest_paths(catalog.engine, paths)
                assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]
                reports[form] = audit(catalog.engine)
            finally:
                catalog.close()
    return reports


def _verdicts(report, name: str) -> dict[int | None, list]:
    found: dict[int | None, list] = {}
    for finding in report.findings:
        if finding.kind == KIND and finding.file == name:
            found.setdefault(finding.line, []).append(finding)
    return found


@pytest.mark.parametrize("form", FORMS)
def test_every_host_passed_while_one_report_prints_fail_is_a_mismatch(audited, form):
    found = _verdicts(audited[form], "every-host-passed-one-fails.txt")
    assert list(found) == [10]
    finding, = found[10]
    assert finding.verdict == "mismatch" and finding.printed == "passed"
    assert "said of Baseline" in finding.explanation
    assert "report prints Fail (report at line 82" in finding.explanation and "23.416 ms > 20 ms" in finding.explanation
    assert "every host passed" in finding.quote


@pytest.mark.parametrize("form", FORMS)
def test_adequate_against_the_documents_own_rule_is_a_mismatch(audited, form):
    """The report passes Jetstress's 20 ms; the document's own 15 ms rule (line 21) is what it breaks."""
    found = _verdicts(audited[form], "adequate-breaks-own-rule.txt")
    assert list(found) == [25]
    finding, = found[25]
    assert finding.verdict == "mismatch" and finding.printed == "were adequate"
    assert "the document rule (line 21: database read latency under 15 ms) is broken: Instance100.1 17.212 ms " \
           "(report at line 33)" in finding.explanation
    jetstress = [f for f in audited[form].findings if f.kind == "verdict_vs_thresholds"
                 and f.file == "adequate-breaks-own-rule.txt"]
    assert [f.verdict for f in jetstress] == ["match"]


@pytest.mark.parametrize("form", FORMS)
def test_verdicts_the_reports_and_the_rule_bear_out_are_matches(audited, form):
    found = _verdicts(audited[form], "solution-passed-all-agree.txt")
    assert sorted((f.printed, f.verdict) for f in found[25]) == [("inside the 20 ms", "match"),
                                                                  ("passed Jetstress", "match")]
    passed = next(f for f in found[25] if f.printed == "passed Jetstress")
    assert "line 21: database read latency under 15 ms" in passed.explanation  # judged by the rule too
    assert "line 21: log write latency under 5 ms" in passed.explanation


@pytest.mark.parametrize("form", FORMS)
def test_a_verdict_naming_no_test_among_tests_that_differ_is_unattributed(audited, form):
    found = _verdicts(audited[form], "acceptable-names-no-test.txt")
    assert sorted(found) == [25, 29]
    named, = found[25]  # "Under the baseline workload every host passed": the baseline, which passed
    assert named.verdict == "match" and "said of Baseline" in named.explanation
    unnamed, = found[29]  # "the results were acceptable": the baseline passed, the rebuild did not
    assert unnamed.verdict == "unattributed"
    assert unnamed.explanation.startswith("Unattributed: 'were acceptable' names no test")
    assert "Baseline passes" in unnamed.explanation and "Drive rebuild fails" in unnamed.explanation


def test_every_form_gives_the_same_verdicts_on_the_same_lines(audited):
    def shape(report):
        return sorted((f.file, f.line, f.printed, f.verdict) for f in report.findings if f.kind == KIND)

    assert shape(audited["renamed"]) == shape(audited["text"]) == shape(audited["crlf"])
    assert len(shape(audited["text"])) == 6


def test_a_prose_mismatch_is_a_cause_the_audit_prints(audited):
    causes = [c for c in audited["text"].causes() if c.head.kind == KIND]
    assert sorted((c.head.file, c.head.line) for c in causes) == [("adequate-breaks-own-rule.txt", 25),
                                                                   ("every-host-passed-one-fails.txt", 10)]
