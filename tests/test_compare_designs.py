"""Like for like from documents: the test design a document states (mailboxes, their size, IOPS per
mailbox) flags unlike tests in `compare` (table, JSON, CSV), on the site's compare page and in the
query that ranks mailbox classes, with no JetstressConfig.xml anywhere."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from esrpdb.cli.main import app

runner = CliRunner()

# Two systems in one document, each with its own column: only the IOPS per mailbox differs.
DOCUMENT = """# Contoso StorMax 9000 vs. Fabrikam FX-200: Exchange 2010 storage performance (synthetic test document)

Contoso commissioned this comparison of two storage arrays under a Microsoft Exchange 2010
Jetstress workload. We ran the Jetstress primary storage performance test on each array.

## Test configuration

|  | Contoso StorMax 9000 | Fabrikam FX-200 |
|---|---|---|
| Number of mailboxes | 3,000 | 3,000 |
| IOPS per mailbox | {a} | {b} |
| Mailbox size (MB) | 2,048 | {size_b} |
| Number of disks tested | 24 | 36 |

## Test results

|  | Contoso StorMax 9000 | Fabrikam FX-200 |
|---|---|---|
| Achieved IOPS - Run 1 | 2,400.125 | 1,610.500 |
| Log IOPS - Run 1 | 210.250 | 140.750 |
| Total IOPS - Run 1 | 2,610.375 | 1,751.250 |

Figure 1: Jetstress IOPS for each array.
"""
A, B = "contoso-stormax-9000", "fabrikam-fx-200"


def _catalogue(url: str, folder, **design) -> str:
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths

    path = folder / "two-designs.md"
    path.write_text(DOCUMENT.format(**{"a": "0.3", "b": "0.2", "size_b": "2,048", **design}), encoding="utf-8")
    cat = open_catalog(url)
    try:
        outcomes = ingest_paths(cat.engine, [path])
    finally:
        cat.close()
    assert [o.status for o in outcomes] == ["loaded"], [o.message for o in outcomes]
    return url


@pytest.fixture
def two_designs(fresh_database_url, tmp_path) -> str:
    return _catalogue(fresh_database_url, tmp_path)


def test_compare_flags_the_iops_per_mailbox_a_document_states(two_designs):
    designs = json.loads(runner.invoke(app, ["--database-url", two_designs, "query", "test-designs", "-f", "json"]).stdout)
    assert {d["solution"]: d["iops_per_mailbox"] for d in designs} == {A: 0.3, B: 0.2}  # from the document alone
    note = f"IOPS per mailbox: 0.3 ({A}) vs 0.2 ({B})"
    table = runner.invoke(app, ["--database-url", two_designs, "compare", A, B, "-m", "total_iops"])
    assert table.exit_code == 0, table.output
    assert f"note: unlike tests — {note}" in table.stdout.splitlines()
    rows = json.loads(runner.invoke(app, ["--database-url", two_designs, "compare", A, B, "-m", "total_iops",
                                          "-f", "json"]).stdout)
    assert [r["unlike_tests"] for r in rows] == [note]
    cells = list(csv.DictReader(io.StringIO(runner.invoke(
        app, ["--database-url", two_designs, "compare", A, B, "-m", "total_iops", "-f", "csv"]).stdout)))
    assert [r["unlike_tests"] for r in cells] == [note]


def test_the_query_and_the_compare_page_flag_them_too(two_designs, tmp_path):
    from bs4 import BeautifulSoup

    from esrpdb.db.catalog import open_catalog
    from esrpdb.site.build import build_site

    ranks = json.loads(runner.invoke(app, ["--database-url", two_designs, "query", "mailbox-class-ranks",
                                           "-f", "json"]).stdout)
    assert [r["like_for_like"] for r in ranks] == [False, False]
    cat = open_catalog(two_designs)
    try:
        build_site(cat.reader(), tmp_path / "site")
    finally:
        cat.close()
    page = BeautifulSoup((tmp_path / "site" / "compare.html").read_text(encoding="utf-8"), "html.parser")
    assert [li.get_text() for li in page.select("#compare-unlike li")] == [
        "IOPS per mailbox: 0.3 (Contoso StorMax 9000) vs 0.2 (Fabrikam FX-200)"]
    data = (tmp_path / "site" / "static" / "compare-data.js").read_text(encoding="utf-8")
    assert '"iops_per_mailbox": [0.3, "0.3"]' in data and '"mailbox_size_mb": "mailbox size (MB)"' in data


def test_a_stated_mailbox_size_is_flagged_and_a_like_design_is_not(fresh_database_url, tmp_path):
    url = _catalogue(fresh_database_url, tmp_path, b="0.3", size_b="1,024")
    rows = json.loads(runner.invoke(app, ["--database-url", url, "compare", A, B, "-m", "total_iops", "-f", "json"]).stdout)
    assert [r["unlike_tests"] for r in rows] == [f"mailbox size (MB): 2048 ({A}) vs 1024 ({B})"]
