"""The site's audit (issue 32) in headless Chromium: what `esrpdb audit` knows, readable at 1400 px.

The site is built from documents alone (no manifest): the synthetic vendor reference architecture
(fixtures/README.md, SYNTHETIC: planted errors, several causes on one system) and seed 003 (one
"median run" block that is wrong for three systems at once, and figures no system can be named
for). Expected causes, their order and their findings are read from `audit()` over the same
catalogue, never typed. At a 1400x900 window each audit table fits its box, every cause row's
explanation is shown whole (not clipped, not in a tooltip), causes come worst first, a cause's
findings open on click (details/summary: scripts off too), and the findings about no system have
a section of their own.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from esrpdb.audit import AuditReport, audit
from esrpdb.audit.terms import SEVERITY
from esrpdb.site.data import load_catalogue
from tests.helpers import FIXTURES, TEMPLATE, scratch_database
from tests.site_helpers import SCREENSHOTS, link_target, open_chromium, open_page

pytestmark = pytest.mark.browser  # skipped, saying why, where Chromium or chromedriver is missing (conftest.py)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402

DOCUMENTS = [FIXTURES / "synthetic_documents" / "synth_vendor-ra_train_002.txt",
             next((FIXTURES / "documents").glob("003_*.txt"))]
WIDTH, HEIGHT = 1400, 900


@pytest.fixture(scope="module")
def built(pg_server, template_url, tmp_path_factory):
    """(site folder, the audit of the same catalogue, solution key -> page file)."""
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths
    from esrpdb.site.build import build_site

    out = tmp_path_factory.mktemp("audit-site") / "site"
    with scratch_database(pg_server, "siteaud", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, DOCUMENTS)
            assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]
            build_site(catalog.reader(), out)
            report = audit(catalog.reader())
            pages = {s["key"]: out / "solutions" / f"{s['page']}.html" for s in load_catalogue(catalog.reader()).solutions}
        finally:
            catalog.close()
    return out, report, pages


def _words(text: str) -> str:
    return " ".join(text.split())


def _most_causes(report: AuditReport) -> str:
    """The system most causes concern (the reference architecture's, with its planted errors)."""
    counted: dict[str, int] = {}
    for cause in report.causes():
        for key in {f.solution for f in cause.findings if f.solution}:
            counted[key] = counted.get(key, 0) + 1
    return max(counted, key=lambda k: (counted[k], k))


def _cause_rows(browser) -> list[dict]:
    return browser.execute_script("""
        return [...document.querySelectorAll('#causes > tbody.cause')].map(b => {
          const row = b.querySelector('tr.cause-row'), cell = row.querySelector('td.explanation');
          const r = cell.getBoundingClientRect();
          return {number: Number(b.dataset.cause), verdict: b.dataset.verdict,
                  cells: [...row.children].map(td => td.innerText),
                  explanation: cell.innerText, title: cell.getAttribute('title'),
                  scroll: [cell.scrollWidth, cell.clientWidth, cell.scrollHeight, cell.clientHeight],
                  left: r.left, right: r.right, width: r.width, height: r.height,
                  overflow: getComputedStyle(cell).overflow, ellipsis: getComputedStyle(cell).textOverflow};
        })""")


def _assert_fits_and_reads(browser, page: Path, causes) -> list[dict]:
    """The cause table fits its box and the window; every explanation is shown whole; rows as expected."""
    assert open_page(browser, page) == [], page.name
    sizes = browser.execute_script(
        "const w = document.getElementById('causes-wrap'), t = document.getElementById('causes');"
        "return [w.scrollWidth, w.clientWidth, t.getBoundingClientRect().right,"
        " document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    box_scroll, box_width, table_right, page_scroll, page_width = sizes
    assert box_scroll <= box_width and page_scroll <= page_width, (page.name, sizes)  # no sideways scrolling
    assert table_right <= page_width, (page.name, sizes)
    rows = _cause_rows(browser)
    assert [r["number"] for r in rows] == [c.number for c in causes], page.name
    for row, cause in zip(rows, causes):
        scroll_width, client_width, scroll_height, client_height = row["scroll"]
        assert scroll_width <= client_width + 1 and scroll_height <= client_height + 1, (page.name, row)
        assert row["overflow"] == "visible" and row["ellipsis"] != "ellipsis" and not row["title"], row
        assert 0 <= row["left"] and row["right"] <= page_width and row["width"] >= 250, row  # a readable column
        head = next(f for f in cause.findings)  # the row reads from its first (worst) finding
        assert _words(row["explanation"]).startswith(_words(head.explanation)), (page.name, row["number"])
        assert row["verdict"] == head.verdict and row["cells"][1] == head.verdict
        assert (head.printed or "—") in row["cells"][3]
    return rows


def test_every_cause_row_fits_1400_px_and_reads_whole_worst_first(browser, built, tmp_path):
    out, report, pages = built
    causes = report.causes()
    assert len(causes) >= 5 and any(len(c.head.explanation) > 300 for c in causes)  # long ones must wrap
    browser.set_window_size(WIDTH, HEIGHT)
    try:
        rows = _assert_fits_and_reads(browser, out / "audit.html", causes)
        severities = [SEVERITY[r["verdict"]] for r in rows]
        assert severities == sorted(severities)  # worst first, numbered as `esrpdb audit` numbers them
        assert [r["number"] for r in rows] == list(range(1, len(causes) + 1))
        summary = browser.find_element(By.ID, "audit-summary").text
        assert summary == report.summary() + "."
        for key, page in pages.items():
            own = [c for c in causes if any(f.solution == key for f in c.findings)]
            mine = [type(c)(c.number, [f for f in c.findings if f.solution == key]) for c in own]
            if not own:
                assert open_page(browser, page) == [] and browser.find_elements(By.ID, "no-causes"), page.name
                continue
            _assert_fits_and_reads(browser, page, mine)
        folder = SCREENSHOTS if os.environ.get("ESRPDB_SCREENSHOTS") == "1" else tmp_path
        open_page(browser, pages[_most_causes(report)])
        browser.execute_script("document.getElementById('audit').scrollIntoView()")
        browser.save_screenshot(str(folder / "audit-causes.png"))
    finally:
        browser.set_window_size(1280, 900)


def test_a_cause_over_several_systems_reads_each_systems_own_figures_and_names_the_others(browser, built):
    out, report, pages = built
    spread = [c for c in report.causes() if len({f.solution for f in c.findings}) > 1]
    assert spread  # seed 003's "median run" block: one cause, three systems
    cause = spread[0]
    systems = list(dict.fromkeys(f.solution for f in cause.findings))
    for key in systems:
        open_page(browser, pages[key])
        body = browser.find_element(By.CSS_SELECTOR, f'#causes > tbody[data-cause="{cause.number}"]')
        own = [f for f in cause.findings if f.solution == key]
        row = body.find_element(By.CSS_SELECTOR, "tr.cause-row")
        assert _words(row.find_element(By.CSS_SELECTOR, "td.explanation").text).startswith(_words(own[0].explanation))
        others = body.find_element(By.CSS_SELECTOR, ".systems")
        linked = [link_target(pages[key], a.get_attribute("href")) for a in others.find_elements(By.TAG_NAME, "a")]
        assert sorted(linked) == sorted(pages[k].resolve() for k in systems if k != key)
        summary = body.find_element(By.TAG_NAME, "summary").text
        assert f"{len(own)} finding" in summary and f"{len(cause.findings) - len(own)} about other systems" in summary


def test_a_causes_findings_open_on_click_and_fit(browser, built):
    out, report, pages = built
    key = _most_causes(report)
    browser.set_window_size(WIDTH, HEIGHT)
    try:
        assert open_page(browser, pages[key]) == []
        bodies = browser.find_elements(By.CSS_SELECTOR, "#causes > tbody.cause")
        by_number = {c.number: c for c in report.causes()}
        for body in bodies:
            cause = by_number[int(body.get_attribute("data-cause"))]
            own = [f for f in cause.findings if f.solution == key]
            nested = body.find_element(By.CSS_SELECTOR, "table.audit-findings")
            assert not nested.is_displayed()  # on request only
            summary = body.find_element(By.TAG_NAME, "summary")
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
            summary.click()
            assert nested.is_displayed()
            rows = nested.find_elements(By.CSS_SELECTOR, "tbody tr.finding")
            assert [r.get_attribute("data-verdict") for r in rows] == [f.verdict for f in own]
            texts = [_words(r.find_element(By.CSS_SELECTOR, "td.explanation").text) for r in rows]
            assert texts == [_words(f.explanation) for f in own]
            clipped = browser.execute_script(
                "return [...arguments[0].querySelectorAll('td')].filter(td => td.scrollWidth > td.clientWidth + 1"
                " || td.scrollHeight > td.clientHeight + 1).map(td => td.innerText)", nested)
            assert clipped == []
        sizes = browser.execute_script(
            "const w = document.getElementById('causes-wrap');"
            "return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes  # opened, still no sideways scrolling
        summary = bodies[0].find_element(By.TAG_NAME, "summary")
        summary.click()
        assert not bodies[0].find_element(By.CSS_SELECTOR, "table.audit-findings").is_displayed()  # and closes
    finally:
        browser.set_window_size(1280, 900)


def test_findings_about_no_system_have_a_section_of_their_own(browser, built):
    out, report, pages = built
    loose = [f for f in report.findings if f.solution is None]
    assert loose  # seed 003's configuration figures name no system
    assert open_page(browser, out / "index.html") == []
    note = browser.find_element(By.ID, "unattached")
    assert note.text.startswith(f"{len(loose)} audit findings concern no catalogued solution")
    note.find_element(By.TAG_NAME, "a").click()
    assert browser.current_url.endswith("audit.html#unattributed")
    section = browser.execute_script("""
        return [...document.querySelectorAll('section.document')].map(s => ({
          file: s.querySelector('h3 .file').textContent,
          rows: [...s.querySelectorAll('tr.finding')].map(r => [r.dataset.verdict,
                  r.querySelector('td.explanation').innerText])}))""")
    expected: dict[str | None, list] = {}
    for f in sorted(loose, key=lambda f: (f.file or "", f.line if f.line is not None else -1, f.sort_key())):
        expected.setdefault(f.file, []).append([f.verdict, f.explanation])
    assert [s["file"] for s in section] == list(expected)
    for shown in section:
        assert [[v, _words(t)] for v, t in shown["rows"]] == [[v, _words(t)] for v, t in expected[shown["file"]]]
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_causes_and_their_findings_read_with_javascript_off(built):
    out, report, pages = built
    key = _most_causes(report)
    driver, profile = open_chromium(javascript=False)
    try:
        driver.set_window_size(WIDTH, HEIGHT)
        driver.get(pages[key].as_uri())
        rows = driver.find_elements(By.CSS_SELECTOR, "#causes tr.cause-row td.explanation")
        assert rows and all(r.is_displayed() for r in rows)
        body = driver.find_element(By.CSS_SELECTOR, "#causes > tbody.cause")
        nested = body.find_element(By.CSS_SELECTOR, "table.audit-findings")
        assert not nested.is_displayed()
        body.find_element(By.TAG_NAME, "summary").click()
        assert nested.is_displayed()
        driver.get((out / "audit.html").as_uri())
        assert len(driver.find_elements(By.CSS_SELECTOR, "#causes > tbody.cause")) == len(report.causes())
        assert re.search(r"\d+ causes", driver.find_element(By.ID, "audit-summary").text)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
