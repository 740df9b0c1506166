"""The compare pages in headless Chromium show what `esrpdb compare` prints (issue 35).

For every ordered pair of the seed the any-pair page writes compare's rows (every metric either
side has, both disk bases, the range across the runs) and its unlike-test notes, with names for
keys; the five published claims `esrpdb compare` reproduces are on the pages with the figure it
prints; the pair a visitor lands on is like for like; the MD1220's backup and soft-recovery runs
show their figures; the pages fit a 1400 px window and fetch nothing from elsewhere.
"""

from __future__ import annotations

import itertools
import json

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.queries import compare as compare_lib
from esrpdb.site.data import load_catalogue
from esrpdb.site.formatting import sig
from tests.site_helpers import open_page, seed_keys, with_names

pytestmark = pytest.mark.browser
pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ALL = tuple(compare_lib.METRICS)
# The seeds' published claims `esrpdb compare` reproduces: (A, B, metric, disk basis, printed percent).
PUBLISHED = [
    ("dell-eql-2x-ps4000xv", "hp-lefthand-p4500", "total_iops_per_disk", "active", 118),
    ("dell-eql-2x-ps4000xv", "fc-san-2009", "total_iops_per_disk", "active", 29),
    ("intel-x25e-3-ssd", "savvio-15k-24-hdd", "throughput_mb_per_s", None, 172),
    ("dell-eql-2x-ps5000xv", "hp-eva4400", "log_iops_per_disk", "all", 45),
    ("dell-eql-2x-ps5000xv", "hp-eva4400", "throughput_mb_per_s_per_disk", "all", 77),
]
WIDE = 1400


@pytest.fixture(scope="module")
def names(seed_catalog):
    return {s["key"]: s["name"] for s in load_catalogue(seed_catalog.reader()).solutions}


def _rows(browser, table: str = "compare-result") -> dict[tuple[str, str], dict]:
    return {(r["metric"], r["basis"]): r for r in browser.execute_script(
        f"return [...document.querySelectorAll('#{table} tbody tr')].map(r => ({{metric: r.dataset.metric, "
        "basis: r.dataset.basis, words: r.cells[0].textContent, sentence: r.querySelector('td.sentence').textContent}))")}


def _pick(browser, a: str, b: str) -> None:
    Select(browser.find_element(By.ID, "compare-a")).select_by_value(a)
    Select(browser.find_element(By.ID, "compare-b")).select_by_value(b)


def _notes(browser, box: str = "compare-unlike") -> list[str]:
    if not browser.find_element(By.ID, box).is_displayed():
        return []
    return [li.text for li in browser.find_elements(By.CSS_SELECTOR, f"#{box} li")]


def test_every_pair_shows_what_compare_prints(browser, site, seed_catalog, names):
    assert open_page(browser, site / "compare.html") == []
    reader = seed_catalog.reader()
    for a, b in itertools.permutations(seed_keys(), 2):
        _pick(browser, a, b)
        report = compare_lib.compare(reader, a, b, ALL)
        expected = [(r.metric, r.disk_basis or "", compare_lib.metric_words(r.metric, r.disk_basis),
                     with_names(r.sentence, names)) for r in report.rows if (r.value_a, r.value_b) != (None, None)]
        shown = [(k[0], k[1], r["words"], r["sentence"]) for k, r in _rows(browser).items()]
        assert shown == expected, (a, b)
        assert _notes(browser) == [with_names(note, names) for note in report.unlike], (a, b)
        assert browser.find_element(By.ID, "compare-head-a").text == names[a]
    assert browser.get_log("browser") == []


def test_the_published_claims_are_on_the_compare_pages_as_compare_prints_them(browser, site, seed_catalog_url, names):
    for a, b, metric, basis, printed in PUBLISHED:
        result = CliRunner().invoke(app, ["--database-url", seed_catalog_url, "compare", a, b, "--metric", metric,
                                          "--format", "json"])
        assert result.exit_code == 0, result.output
        rows = {(r["metric"], r["disk_basis"]): r for r in json.loads(result.stdout)}
        said = rows[(metric, basis)]["sentence"]
        assert f" {printed}% more " in said, said
        bases = {r["disk_basis"] for r in rows.values()}
        assert bases == ({"all", "active"} if basis else {None})  # both bases, as compare prints them
        for page, table in ((site / "compare.html", "compare-result"), (site / "compare" / f"{a}--{b}.html", "comparison")):
            assert open_page(browser, page) == []
            if table == "compare-result":
                _pick(browser, a, b)
            shown = _rows(browser, table)
            for (m, row_basis), row in rows.items():
                assert shown[(m, row_basis or "")]["sentence"] == with_names(row["sentence"], names), (page.name, m)


def test_the_pair_a_visitor_lands_on_is_like_for_like(browser, site, seed_catalog, names):
    assert open_page(browser, site / "compare.html") == []
    a = Select(browser.find_element(By.ID, "compare-a")).first_selected_option.get_attribute("value")
    b = Select(browser.find_element(By.ID, "compare-b")).first_selected_option.get_attribute("value")
    assert a != b and _notes(browser) == []
    assert browser.find_element(By.ID, "compare-default").is_displayed()
    reader = seed_catalog.reader()
    assert compare_lib.compare(reader, a, b, ALL).unlike == []
    with reader.connect() as conn:
        tests = {row.solution: row for row in conn.execute(text(
            "SELECT p.solution, r.jetstress_release, r.report_type, d.mailbox_class FROM representative_runs p "
            "JOIN runs r ON r.id = p.run_id JOIN test_designs d ON d.solution_id = p.solution_id"))}
    assert tests[a].jetstress_release == tests[b].jetstress_release is not None
    assert tests[a].report_type == tests[b].report_type is not None
    assert tests[a].mailbox_class == tests[b].mailbox_class is not None
    headline = _rows(browser)[("achieved_iops_per_disk", "all")]["sentence"]
    assert headline.startswith(f"{names[a]} delivered ") and "no achieved" not in headline


def test_the_md1220_page_shows_its_backup_and_log_replay_figures(browser, site, seed_catalog):
    with seed_catalog.reader().connect() as conn:
        backup = conn.execute(text("SELECT run_id, mb_per_s_per_database, mb_per_s_per_server FROM backup_throughput "
                                   "WHERE solution = 'dell-powervault-md1220'")).one()
        replay = conn.execute(text("SELECT run_id, elapsed_s, seconds_per_log, logs_per_s_per_server FROM log_replay "
                                   "WHERE solution = 'dell-powervault-md1220'")).one()
    assert open_page(browser, site / "solutions" / "dell-powervault-md1220.html") == []
    cells = {c.get_attribute("class"): c.text for c in browser.find_elements(By.CSS_SELECTOR, "#runs td.esrp-test")}
    assert f"{sig(backup.mb_per_s_per_database)} MB/s per database" in cells["esrp-test backup"]
    assert f"{sig(backup.mb_per_s_per_server)} MB/s per server" in cells["esrp-test backup"]
    assert f"in {sig(replay.elapsed_s)} s" in cells["esrp-test replay"]
    assert f"{sig(replay.seconds_per_log)} s per log" in cells["esrp-test replay"]
    assert f"{sig(replay.logs_per_s_per_server)} logs/s per server" in cells["esrp-test replay"]


def test_the_pages_fit_1400_px_and_fetch_nothing_from_elsewhere(browser, site):
    browser.set_window_size(WIDE, 900)
    try:
        pages = [site / "compare.html", *sorted((site / "compare").glob("*.html")),
                 site / "solutions" / "dell-powervault-md1220.html"]
        for page in pages:
            assert open_page(browser, page) == []
            widths = browser.execute_script(
                "const d = document.documentElement; return [d.scrollWidth, d.clientWidth, "
                "Math.max(0, ...[...document.querySelectorAll('.table-wrap')].map(w => w.scrollWidth - w.clientWidth))]")
            assert widths[0] <= widths[1] and widths[2] == 0, (page.name, widths)  # no table scrolls sideways
            fetched = browser.execute_script(  # what the page loads: scripts, styles, images, frames
                "return [...document.querySelectorAll('[src], link[href]')].map(e => e.src || e.href)")
            assert fetched and all(url.startswith("file://") for url in fetched), fetched
    finally:
        browser.set_window_size(1280, 900)
