"""Three document layouts the synthetic set does not hold, each alone, scored against its answer key.

fixtures/unseen_families/ (SYNTHETIC, see fixtures/README.md): an ESRP submission that tests one
array from four servers of one DAG (per-server and aggregate tables, one Performance report per
server in the same test window), a vendor reference architecture whose configuration and results
tables have the servers as columns, and a best-practice paper that prints no report at all, its one
test only as a table with a column per host. A correct catalogue holds ONE solution for each, and
one test over the hosts whose achieved IOPS is their sum. Each is read as text, renamed, and (where
Chromium is installed) printed to PDF as tests/pdf_renderings.py prints the others; the recall lines
are printed as tests/test_synthetic_documents.py prints them.
"""

from __future__ import annotations

import functools
import tomllib

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.draft import draft_manifests
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, chromium, scratch_database
from tests.pdf_renderings import print_pdf, seed_html
from tests.synthetic_keys import Score, load_key, rename_key, rename_text, score, totals_line

FOLDER = FIXTURES / "unseen_families"
NAMES = ["unseen_esrp_four_servers", "unseen_vendor_ra_servers_as_columns", "unseen_tables_only_best_practices"]
RENAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "unseen_esrp_four_servers": (("Corvane", "Pellmark"), ("Tessaline", "Oristan"), ("TX840", "QV2210")),
    "unseen_vendor_ra_servers_as_columns": (("Halvorsen", "Drummock"), ("Brightwater", "Ferncastle"),
                                            ("BW7200", "FC9050")),
    "unseen_tables_only_best_practices": (("Quillon", "Marrowby"), ("Stratus", "Keelform"), ("QS500", "KF380")),
}
VARIANTS = ("text", "renamed", "one-column")
# What each document's catalogue finds today (>=); raise them as the reader improves.
MINIMUM: dict[str, dict[str, int]] = {
    "unseen_esrp_four_servers": {"systems": 1, "facts": 15, "runs": 4, "figures": 6},
    "unseen_vendor_ra_servers_as_columns": {"systems": 1, "facts": 17, "runs": 4, "figures": 6},
    "unseen_tables_only_best_practices": {"systems": 1, "facts": 16, "runs": 1, "figures": 6},
}
NO_REPORT = {"unseen_tables_only_best_practices"}  # prints no Jetstress report: its test is a table's columns
HOSTS = {"unseen_esrp_four_servers": 4, "unseen_vendor_ra_servers_as_columns": 4, "unseen_tables_only_best_practices": 3}
# Facts the catalogue does not hold as these keys do, and why (xfail, not strict: a change shows as XPASS).
# None now: the keys' "Corvane" and the reader's "Corvane Systems" are one company (synthetic_keys.company).
KNOWN_MISSES: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def scored(pg_server, template_url, tmp_path_factory):
    """(variant, document) -> (statuses, messages, Score, solutions ingest made), built once each."""
    from esrpdb.db.catalog import open_catalog

    folder = tmp_path_factory.mktemp("unseen")

    def source(variant: str, name: str):
        path, key = FOLDER / f"{name}.txt", load_key(FOLDER / f"{name}.key.json")
        if variant == "text":
            return path, key
        target = folder / variant
        target.mkdir(exist_ok=True)
        if variant == "renamed":
            renamed = target / path.name
            renamed.write_text(rename_text(path.read_text(encoding="utf-8"), RENAMES[name]), encoding="utf-8")
            return renamed, rename_key(key, RENAMES[name])
        if chromium() is None:
            pytest.skip("Chromium prints the renderings (apt-get install chromium)")
        printed = target / f"{name}.pdf"
        print_pdf(seed_html(path.read_text(encoding="utf-8"), title=name, two_columns=False), printed)
        return printed, key

    @functools.cache
    def build(variant: str, name: str) -> tuple[list[str], list[str], Score]:
        path, key = source(variant, name)
        with scratch_database(pg_server, "unseen", TEMPLATE) as url:
            catalog = open_catalog(url)
            try:
                outcomes = ingest_paths(catalog.engine, [path])
                audits[variant, name] = audit(catalog.engine)
                return [o.status for o in outcomes], [o.message for o in outcomes], score(catalog.engine, key, name)
            finally:
                catalog.close()

    audits: dict[tuple[str, str], object] = {}
    build.audits = audits  # type: ignore[attr-defined]
    return build


def _drafted(name: str) -> list[dict]:
    path = FOLDER / f"{name}.txt"
    return [tomllib.loads(toml) for _, toml in draft_manifests(path.name, path.read_bytes(), path.name)]


@pytest.mark.parametrize("name", NAMES)
def test_each_document_scores_against_its_key(scored, name, capsys):
    statuses, messages, result = scored("text", name)
    with capsys.disabled():
        print("\n" + result.table())
    assert statuses == ["loaded"], messages
    found = result.counts()
    for kind, floor in MINIMUM[name].items():
        assert found[kind][0] >= floor, (kind, found[kind], result.table())
    known = {fact for document, fact in KNOWN_MISSES if document == name}
    assert not [m for m in result.misses() if m.name not in known], result.table()


@pytest.mark.parametrize("document, fact", [pytest.param(*k, marks=pytest.mark.xfail(strict=False, reason=why))
                                            for k, why in KNOWN_MISSES.items()] or [pytest.param(None, None, marks=pytest.mark.skip(reason="no known misses"))])
def test_the_known_misses(scored, document, fact):
    _, _, result = scored("text", document)
    assert not [m for m in result.misses() if m.name == fact], result.table()


def _audit(scored, name: str):
    scored("text", name)
    return scored.audits["text", name]


@pytest.mark.parametrize("name", NAMES)
def test_the_aggregate_figures_are_judged_against_the_test(scored, name, capsys):
    """The figures for all servers together agree with the test over the hosts (their sum); a column of
    one host's figures and a count printed per host are not judged as the system's."""
    report = _audit(scored, name)
    key = load_key(FOLDER / f"{name}.key.json")
    with capsys.disabled():
        print(f"\n{name}: audit causes {len(report.causes())}, findings " +
              ", ".join(f"{v} {sum(1 for f in report.findings if f.verdict == v)}"
                        for v in sorted({f.verdict for f in report.findings})))
    for claim in key["claims"]:
        judged = [f.verdict for f in report.findings if f.line == claim["line"] and
                  not (name in NO_REPORT and f.kind == "verdict_in_prose")]
        assert judged and all(v in ("match", "rounding") for v in judged), (claim["text"], judged)
    if name in NO_REPORT:  # "each host passed": the document's own table says so, no Jetstress report does
        verdicts = [f for f in report.findings if f.kind == "verdict_in_prose"]
        assert verdicts and all(f.verdict == "unverifiable" and "no Jetstress report" in f.explanation
                                for f in verdicts), [(f.verdict, f.explanation) for f in verdicts]
    wrong = [f for f in report.findings if f.verdict == "mismatch" and f.metric in ("achieved_iops", "log_iops",
                                                                                   "databases", "total_iops")
             and f.kind == "claim"]
    assert not wrong, [(f.line, f.metric) for f in wrong]


@pytest.mark.parametrize("name", NAMES)
def test_the_audit_finds_nothing_wrong(scored, name):
    """Nothing is planted in these documents: every cause the audit raises is a false alarm. (Two were:
    the ESRP aggregate table's latencies are the servers' plain average, as its template defines them,
    which the audit judged against the IOPS-weighted one alone; a "Target IOPS" row was read as the
    measured total in "total = achieved + log".)"""
    report = _audit(scored, name)
    assert not report.causes(), [str(c)[:300] for c in report.causes()]


def test_the_recall_lines(scored, capsys):
    results = [scored("text", name)[2] for name in NAMES]
    with capsys.disabled():
        print("\n" + "\n".join(r.line() for r in results) + "\n" + totals_line(results, "unseen families"))
    assert all(r.count("systems") == (1, 1) for r in results)


@pytest.mark.parametrize("name", NAMES)
def test_one_solution_for_the_one_system(name):
    """Several servers are not several systems: the draft writes one manifest, with one test over the hosts
    (their reports, or, where the document prints none, the columns of its results table)."""
    drafts = _drafted(name)
    assert len(drafts) == 1, [d.get("solution", {}).get("key") for d in drafts]
    runs = drafts[0].get("runs", [])
    assert [len(r.get("hosts", r.get("table", {}).get("columns", []))) for r in runs] == [HOSTS[name]], runs


# Variants whose score is not yet the text's (xfail, not strict: a fix shows as XPASS).
# (Printed to PDF, the reference architecture's title block ran on into its copyright line with no blank
# line between: the title is now found, a heading opening a block and legal lines left out of it.)
DIFFERS: dict[tuple[str, str], str] = {}


def _variant_cases():
    for variant in VARIANTS[1:]:
        for name in NAMES:
            marks = [pytest.mark.browser(driver=False)] if variant == "one-column" else []
            if (variant, name) in DIFFERS:
                marks.append(pytest.mark.xfail(strict=False, reason=DIFFERS[variant, name]))
            yield pytest.param(variant, name, marks=marks, id=f"{variant}-{name}")


@pytest.mark.parametrize("variant, name", list(_variant_cases()))
def test_each_variant_scores_as_its_text(scored, variant, name):
    _, _, text = scored("text", name)
    _, _, result = scored(variant, name)
    assert result.counts() == text.counts(), f"text:\n{text.table()}\n{variant}:\n{result.table()}"
