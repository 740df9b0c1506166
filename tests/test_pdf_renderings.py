"""Seed documents printed as a word processor lays them out (tests/pdf_renderings.py): ruled tables
whose labels and headers wrap, proportional type, ligatures, running headers and footers, tables
broken over pages, two-column prose. Each reads to what its text reads to (issue 23)."""

from __future__ import annotations

import html

import pytest

from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.pdf import layout as pdf_layout
from tests.document_variants import records
from tests.helpers import FIXTURES
from tests.pdf_renderings import print_pdf, seed_html
from tests.unattended import score

SEEDS = sorted((FIXTURES / "documents").glob("0*.txt"))
pytestmark = pytest.mark.browser(driver=False)  # Chromium prints the renderings; skipped, saying so, without it


@pytest.fixture(scope="session")
def renderings(tmp_path_factory) -> dict[str, dict]:
    """Per seed: its text and its two PDFs (one column of prose, two)."""
    folder = tmp_path_factory.mktemp("renderings")
    made: dict[str, dict] = {}
    for seed in SEEDS:
        text = seed.read_text(encoding="utf-8")
        pdfs = {}
        for layout, two_columns in (("one-column", False), ("two-column", True)):
            pdf = folder / layout / f"{seed.stem}.pdf"
            pdf.parent.mkdir(exist_ok=True)
            print_pdf(seed_html(text, title=seed.stem, two_columns=two_columns), pdf)
            pdfs[layout] = pdf
        made[seed.name] = {"text": seed, **pdfs}
    return made


def _cases():
    for seed in SEEDS:
        for layout in ("one-column", "two-column"):
            yield pytest.param(seed.name, layout, id=f"{seed.name[:3]}-{layout}")


@pytest.mark.parametrize("seed, layout", list(_cases()))
def test_a_printed_seed_reads_to_the_same_reports(renderings, seed, layout):
    text = document_text.parse(seed, renderings[seed]["text"].read_bytes())
    pdf_path = renderings[seed][layout]
    printed = document_text.parse(pdf_path.name, pdf_path.read_bytes())
    assert records(printed) == records(text)  # runs, instances, latencies: every value
    assert [r.report_type for r in printed.reports] == [r.report_type for r in text.reports]


@pytest.mark.parametrize("layout", ["one-column", "two-column"])
def test_the_printed_seeds_give_the_whole_unattended_catalogue(renderings, seed_catalog, catalog, layout, capsys):
    from esrpdb.ingest.pipeline import ingest_paths

    paths = [renderings[s.name][layout] for s in SEEDS]
    outcomes = ingest_paths(catalog.engine, paths)
    assert [o.status for o in outcomes] == ["loaded"] * len(paths), [o.message for o in outcomes]
    result = score(seed_catalog.engine, catalog.engine)
    found, total = result.figures
    with capsys.disabled():
        print(f"\n{layout}: unattended catalogue: {result.systems_found}/{len(result.systems)} systems, "
              f"{found}/{total} figures")
    assert result.systems_found == len(result.systems) and found == total, result.table()


def test_a_printed_seed_and_its_text_are_one_document(renderings, catalog):
    from sqlalchemy import text

    from esrpdb.ingest.pipeline import ingest_paths

    seed = SEEDS[0].name
    ingest_paths(catalog.engine, [renderings[seed]["text"]])
    with catalog.engine.connect() as conn:
        before = conn.execute(text("select key from solutions order by key")).all()
    (outcome,) = ingest_paths(catalog.engine, [renderings[seed]["one-column"]])
    assert any("same document" in w for w in outcome.warnings), outcome.warnings
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select key from solutions order by key")).all() == before


PROSE = ("Jetstress ran against every database of the server for two hours, and the storage kept the database "
         "read latency well under the limit that Microsoft sets for a passing test, while the log writes stayed "
         "short throughout the run and the background maintenance went on as it does in production.")


def test_a_word_longer_than_its_column_is_read_whole(tmp_path):
    """A path longer than a column's line is broken where the line ends, as word processors break it
    (CSS `overflow-wrap: anywhere`); its pieces are one word again, and wrapped prose keeps its spaces."""
    path = r"C:\Jetstress\results\7_2driveFW_2iop_7threads_2hrs\Performance_2011_5_28_11_38_30.blg"
    paragraphs = [PROSE] * 6 + [f"Performance Log {path}", f"{path} has 486 samples."] + [PROSE] * 6
    page = ("<!doctype html><html><head><meta charset='utf-8'><style>body { font-family: 'DejaVu Serif', serif; "
            "font-size: 10pt; } p { margin: 3pt 0; overflow-wrap: anywhere; } .columns { column-count: 2; "
            "column-gap: 18pt; }</style></head><body><div class='columns'>"
            + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs) + "</div></body></html>")
    pdf = tmp_path / "long-word.pdf"
    print_pdf(page, pdf)
    text = pdf_layout.extract_layout(pdf.name, pdf.read_bytes()).text
    assert "Performance_2011_5_28" not in " ".join(PROSE.split())  # the path is the only long word
    assert text.count(path) == 2, [line for line in text.splitlines() if "Jetstress" in line and "\\" in line]
    assert " ".join(text.split()).count(" ".join(PROSE.split())) >= 1  # wrapped prose joined with its spaces
