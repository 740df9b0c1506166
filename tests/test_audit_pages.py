"""Issue 47: a finding an auditor can find. A PDF's findings name the page their line is printed on
(documents.page_start_lines, revision 0028) and quote the printed words they judge, in the library,
the terminal, JSON, CSV and the site.

The PDFs are seeds printed by Chromium (tests/pdf_renderings.py); each page is checked with pypdf, a
reader esrpdb does not use, so a page number that is off by one, or counted from the wrong line,
fails: the figure a finding judges must be in the text pypdf reads from that page.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.audit import audit
from esrpdb.cli.main import app
from tests.helpers import FIXTURES, TEMPLATE, chromium, scratch_database

SOURCES = [next((FIXTURES / "documents").glob("003_*.txt")), FIXTURES / "synthetic_documents" / "synth_esrp_train_001.txt"]
_FIGURE = re.compile(r"\d[\d,.]*|Pass|Fail")


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> list[Path]:
    if chromium() is None:
        pytest.skip("Chromium prints the PDFs (apt-get install chromium)")
    from tests.pdf_renderings import print_pdf, seed_html

    folder = tmp_path_factory.mktemp("pages")
    out = []
    for source in SOURCES:
        pdf = folder / f"{source.stem}.pdf"
        print_pdf(seed_html(source.read_text(encoding="utf-8"), title=source.stem), pdf)
        out.append(pdf)
    return out


@pytest.fixture(scope="module")
def catalogue(pg_server, template_url, pdfs):
    """(owner URL, reader engine's audit) of a catalogue of the two PDFs."""
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths

    with scratch_database(pg_server, "pages", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, pdfs)
            assert [o.status for o in outcomes] == ["loaded", "loaded"], [o.message for o in outcomes]
            yield url, audit(catalog.reader())
        finally:
            catalog.close()


def _pages(pdf: Path) -> list[str]:
    from pypdf import PdfReader

    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(pdf).pages]


def test_every_finding_of_a_pdf_names_the_page_its_figure_is_printed_on(catalogue, pdfs):
    _, report = catalogue
    pages = {pdf.name: _pages(pdf) for pdf in pdfs}
    assert len(report.findings) > 100 and {f.file for f in report.findings} == set(pages)
    checked = 0
    for f in report.findings:
        assert f.page is not None and 1 <= f.page <= len(pages[f.file]), f
        printed = f.quote if f.kind in ("per_disk_count", "caption_vs_table") else f.printed
        figure = _FIGURE.search(printed or "")
        if figure is None or f.kind == "caption_vs_table":  # a caption below its table: cited at the table's head
            continue
        on = [n for n, page in enumerate(pages[f.file], 1) if figure[0] in page]
        assert f.page in on, (f.kind, f.file, f.line, f.page, figure[0], on)
        checked += 1
    assert checked > 100
    spread = {f.page for f in report.findings if f.file.startswith("003")}
    assert len(spread) >= 4  # not one page for all: lines map to pages across the document


def test_every_finding_quotes_the_printed_words_it_judges(catalogue):
    _, report = catalogue
    assert [f for f in report.findings if not f.quote] == []
    kinds = {f.kind: f for f in report.findings}
    assert {"table_identity", "verdict_vs_thresholds", "unattributed", "average_outside_range"} <= set(kinds)
    row = kinds["table_identity"]  # a table row: its label and its cells as printed
    assert row.quote.startswith(row.place.split("row '")[1].split("'")[0]) and row.printed in row.quote.split(" | ")
    verdict = kinds["verdict_vs_thresholds"]  # the report's own field, at its line (not the report's first)
    assert verdict.quote == f"Overall Test Result | {verdict.printed}"
    counter = kinds["average_outside_range"]
    assert counter.quote.startswith("% Processor Time | ") and counter.printed in counter.quote
    assert kinds["unattributed"].printed in kinds["unattributed"].quote


def test_the_page_starts_are_stored_and_survive_the_migration_down_and_up(catalogue, pdfs):
    from sqlalchemy import create_engine

    from esrpdb.db import migrate

    url, _ = catalogue
    engine = create_engine(url)
    read = text("SELECT f.file_name, d.page_start_lines FROM documents d JOIN source_files f ON f.id = d.source_file_id "
                "ORDER BY 1")
    try:
        with engine.connect() as conn:
            before = conn.execute(read).all()
        assert [name for name, _ in before] == sorted(p.name for p in pdfs)
        for (name, starts), pdf in zip(before, sorted(pdfs)):
            assert starts[0] == 1 and starts == sorted(starts) and len(starts) == len(_pages(pdf)), name
        migrate.downgrade(url, "0027")
        with engine.connect() as conn:
            columns = conn.execute(text("SELECT column_name FROM information_schema.columns "
                                        "WHERE table_name = 'documents'")).scalars().all()
        assert "page_start_lines" not in columns
        migrate.upgrade(url)
        with engine.connect() as conn:
            assert conn.execute(read).all() == before
            assert conn.execute(text("SELECT to_regclass('esrpdb_downgrade_archive')")).scalar() is None
    finally:
        engine.dispose()


def test_the_terminal_json_and_csv_give_page_and_quote(catalogue):
    url, report = catalogue
    runner = CliRunner()
    found = json.loads(runner.invoke(app, ["--database-url", url, "audit", "--format", "json"]).stdout)
    assert [(f["file"], f["line"], f["page"], f["quote"]) for f in found] == \
        [(f.file, f.line, f.page, f.quote) for f in report.findings]
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, ["--database-url", url, "audit", "--format", "csv"]).stdout)))
    assert [(r["page"], r["quote"]) for r in rows] == [(str(f.page), f.quote) for f in report.findings]
    result = runner.invoke(app, ["--database-url", url, "audit", "--verbose"])
    assert result.exit_code == 0, result.output
    head = report.causes()[0].head
    assert f"line {head.line} (page {head.page})" in result.stdout or f"{head.line} (page {head.page})" in result.stdout
    assert f"“{head.quote[:60]}" in result.stdout
    wrong = next(f for f in report.findings if f.verdict == "mismatch" and f.kind == "table_identity")
    assert f"{wrong.place} (page {wrong.page})" in " ".join(result.stdout.split())


@pytest.mark.browser
def test_the_site_audit_page_shows_each_findings_page_and_quote(catalogue, browser, tmp_path):
    from esrpdb.db.catalog import open_catalog
    from esrpdb.site.build import build_site
    from tests.site_helpers import open_page

    url, report = catalogue
    catalog = open_catalog(url)
    try:
        build_site(catalog.reader(), tmp_path / "site")
    finally:
        catalog.close()
    browser.set_window_size(1400, 900)
    assert open_page(browser, tmp_path / "site" / "audit.html") == []
    shown = browser.execute_script("""
        return [...document.querySelectorAll('#causes > tbody.cause')].map(b => {
          b.querySelector('details').open = true;
          return {where: b.querySelector('td.where').innerText,
                  quote: b.querySelector('tr.cause-row blockquote')?.innerText,
                  evidence: [...b.querySelectorAll('td.evidence')].map(td => td.innerText)};
        })""")
    causes = report.causes()
    assert len(shown) == len(causes) > 3
    for row, cause in zip(shown, causes):
        assert row["where"] == cause.where() and "(page " in row["where"]
        assert row["quote"] == f"“{cause.head.quote}”"
        for evidence, finding in zip(row["evidence"], cause.findings):
            assert f"page {finding.page}" in evidence and finding.quote in evidence
