"""The built site in headless Chromium (Debian's chromium and chromium-driver, driven by selenium).

Every page of the seed site is opened from disk: the index lists every solution, sorting and
filtering work, every page shows its charts (SVG, one bar per solution), the console stays free of
errors, every link resolves, and nothing spills sideways at a phone's width. Screenshots go to the test's temp folder, or to
docs/screenshots/ with ESRPDB_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from esrpdb.site.data import CHART_METRICS, load_catalogue
from tests.helpers import FIXTURES
from tests.site_helpers import (
    SCREENSHOTS,
    built_site,
    open_chromium,
    open_page,
    seed_keys,
    visible_keys,
)

pytestmark = pytest.mark.browser  # skipped, saying why, where Chromium or chromedriver is missing (conftest.py)
PHONE_WIDTH = 390

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def test_index_lists_sorts_and_filters(browser, site, seed_catalog):
    assert open_page(browser, site / "index.html") == []
    assert sorted(visible_keys(browser)) == seed_keys()
    cat = load_catalogue(seed_catalog.reader())
    per_disk = {s["key"]: s["achieved_iops_per_disk"] for s in cat.solutions}
    header = browser.find_element(By.XPATH, "//th[starts-with(normalize-space(.), 'Achieved IOPS per disk')]")
    header.click()
    ascending = [k for k in visible_keys(browser) if per_disk[k] is not None]
    assert ascending == sorted(ascending, key=lambda k: per_disk[k])
    assert all(per_disk[k] is None for k in visible_keys(browser)[len(ascending):])  # missing figures last
    header.click()
    descending = visible_keys(browser)
    assert descending[0] == max((k for k in per_disk if per_disk[k] is not None), key=per_disk.get)
    assert header.get_attribute("aria-sort") == "descending"

    def expect(**by_column):
        wanted = [s["key"] for s in cat.solutions
                  if all(v in str(s.get(c) or "").split(", ") for c, v in by_column.items())]
        assert sorted(visible_keys(browser)) == sorted(wanted), by_column
        shown = browser.find_element(By.ID, "shown-count").text
        assert shown == f"{len(wanted)} of {len(cat.solutions)} shown"

    Select(browser.find_element(By.NAME, "media")).select_by_visible_text("SSD")
    expect(media="SSD")
    Select(browser.find_element(By.NAME, "media")).select_by_index(0)
    Select(browser.find_element(By.NAME, "release")).select_by_visible_text("2010")
    expect(jetstress_release="2010")
    Select(browser.find_element(By.NAME, "release")).select_by_index(0)
    Select(browser.find_element(By.NAME, "connectivity")).select_by_visible_text("iSCSI")
    expect(connectivity="iSCSI")
    Select(browser.find_element(By.NAME, "connectivity")).select_by_index(0)
    expect()
    browser.find_element(By.NAME, "q").send_keys("PowerVault")  # free text matches the name
    assert visible_keys(browser) == ["dell-powervault-md1220"]
    browser.find_element(By.NAME, "q").clear()
    browser.find_element(By.NAME, "q").send_keys("\b")
    expect()


def test_every_page_shows_its_charts_without_console_errors_and_links_resolve(browser, site, seed_catalog):
    cat = load_catalogue(seed_catalog.reader())
    pages = sorted(site.rglob("*.html"))
    for path in pages:
        assert open_page(browser, path) == [], path.name
        links = browser.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.href)")
        for href in links:
            parts = urlsplit(href)
            assert parts.scheme == "file", (path.name, href)
            assert Path(unquote(parts.path)).is_file(), (path.name, href)
        if path.parent.name == "solutions" or path.name == "index.html":
            for metric, (column, _) in CHART_METRICS.items():
                bars = browser.find_elements(
                    By.CSS_SELECTOR, f'#chart-bar-{metric} svg g.mark-rect path[aria-roledescription="bar"]')
                assert len(bars) == sum(s.get(column) is not None for s in cat.solutions), (path.name, metric)
                assert all(b.is_displayed() for b in bars)
    page = site / "solutions" / "dell-eql-2x-ps5000xv.html"
    open_page(browser, page)
    outlined = browser.find_element(
        By.CSS_SELECTOR, '#chart-bar-achieved_iops_per_disk path[aria-label="dell-eql-2x-ps5000xv"]')
    assert outlined.value_of_css_property("stroke-width") == "3px"
    assert browser.find_element(By.ID, "achieved-iops-per-disk").text == "208.4"
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-runs svg")


def test_phone_width_and_screenshots(browser, site, tmp_path):
    folder = SCREENSHOTS if os.environ.get("ESRPDB_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1600, 1500)  # the whole seed table and the first charts
    open_page(browser, site / "index.html")
    browser.save_screenshot(str(folder / "index.png"))
    open_page(browser, site / "solutions" / "dell-eql-2x-ps5000xv.html")
    browser.set_window_size(1280, 1250)
    browser.save_screenshot(str(folder / "solution.png"))
    try:
        browser.set_window_size(PHONE_WIDTH, 844)
        for path in (site / "index.html", site / "compare.html", site / "solutions" / "dell-eql-2x-ps5000xv.html"):
            assert open_page(browser, path) == []
            width = browser.execute_script("return document.documentElement.clientWidth")
            overflow = browser.execute_script("return document.documentElement.scrollWidth")
            assert overflow <= width, (path.name, overflow, width)  # wide tables scroll in their own box
            svgs = browser.execute_script(
                "return [...document.querySelectorAll('figure.chart svg')].map(s => s.getBoundingClientRect().right)")
            assert all(right <= width for right in svgs), path.name
        browser.execute_script("document.getElementById('chart-runs').scrollIntoView()")
        browser.save_screenshot(str(folder / "phone.png"))
    finally:
        browser.set_window_size(1280, 900)
    for name in ("index.png", "solution.png", "phone.png"):
        assert (folder / name).stat().st_size > 0


def test_large_catalogue_mode_draws_charts_in_the_browser(browser, tmp_path_factory, seed_catalog_url):
    site = built_site(tmp_path_factory, seed_catalog_url, static_chart_limit=0)
    assert open_page(browser, site / "solutions" / "intel-x25e-3-ssd.html") == []
    bars = browser.find_elements(By.CSS_SELECTOR, '#chart-runs svg path[aria-roledescription="bar"]')
    assert len(bars) == 3
    image = browser.find_element(By.CSS_SELECTOR, "#chart-bar-achieved_iops_per_disk img")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)
    assert browser.get_log("browser") == []


def test_the_essentials_read_with_javascript_off(site):
    """Scripts off: the table, the charts and the figures are all there; the any-pair form stays hidden."""
    driver, profile = open_chromium(javascript=False)
    try:
        driver.get((site / "index.html").as_uri())
        rows = driver.find_elements(By.CSS_SELECTOR, "#solutions tbody tr")
        assert sorted(r.get_attribute("data-key") for r in rows if r.is_displayed()) == seed_keys()
        assert not driver.find_element(By.ID, "filters").is_displayed()
        assert driver.find_elements(By.CSS_SELECTOR, "#chart-bar-achieved_iops_per_disk svg path[aria-roledescription='bar']")
        driver.get((site / "solutions" / "dell-eql-2x-ps5000xv.html").as_uri())
        assert driver.find_element(By.ID, "achieved-iops-per-disk").text == "208.4"
        assert driver.find_elements(By.CSS_SELECTOR, "#chart-runs svg")
        driver.get((site / "compare.html").as_uri())
        assert not driver.find_element(By.ID, "compare-form").is_displayed()  # site.js would show it
        assert driver.find_elements(By.CSS_SELECTOR, "#compare-result td.sentence")  # the default pair, written out
        assert driver.find_elements(By.CSS_SELECTOR, "#claimed-pairs a")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_a_documents_only_site_names_its_systems_and_says_they_are_provisional(browser, catalog, tmp_path):
    """The seed documents with no manifest: one row per system, named (no hash keys), marked provisional,
    every canned chart drawn; a solution page says where it was read from."""
    from esrpdb.ingest.pipeline import ingest_paths
    from esrpdb.site.build import build_site

    ingest_paths(catalog.engine, sorted((FIXTURES / "documents").glob("0*.txt")))
    out = tmp_path / "site"
    build_site(catalog.reader(), out)
    assert open_page(browser, out / "index.html") == []
    keys = visible_keys(browser)
    assert len(keys) == 10 and not any(k.startswith("doc-") for k in keys)
    tags = browser.execute_script(
        "return [...document.querySelectorAll('#solutions tbody tr')].map(r => r.querySelector('.tag')?.textContent)")
    assert tags == ["provisional"] * len(keys)
    marked = browser.execute_script(
        "const keys = new Set(arguments[0]); return Object.fromEntries([...document.querySelectorAll('figure')]"
        ".map(f => [f.id, new Set([...f.querySelectorAll('[aria-label]')].map(m => m.getAttribute('aria-label'))"
        ".filter(k => keys.has(k))).size]))", keys)
    # Seed 003 prints the prices of its three arrays (the Fibre Channel array's for its two other
    # configurations too) and their usable space; seed 002 the power of its two configurations.
    assert marked["chart-bar-iops_per_dollar"] == 5 and marked["chart-bar-mb_per_dollar"] == 3
    # Figure 4 prints only total IOPS for the two other configurations: no achieved IOPS per disk.
    assert marked["chart-bar-perf_per_watt"] == 2 and marked["chart-bar-achieved_iops_per_disk"] == len(keys) - 2
    page = next(out.glob("solutions/*.html"))
    assert open_page(browser, page) == []
    assert "provisional" in browser.find_element(By.ID, "status").text
    _names_never_keys(browser, out, load_catalogue(catalog.reader()))


def _names_never_keys(browser, out: Path, cat) -> None:
    """Index rows, solution page titles, the compare menus and compare pair pages show names; keys
    appear only in URLs, ids and option values (and on the solution page's labelled Key line)."""
    names = {s["key"]: s["name"] for s in cat.solutions}
    assert len(set(names.values())) == len(names) and not set(names.values()) & set(names)
    open_page(browser, out / "index.html")
    links = browser.execute_script(
        "return [...document.querySelectorAll('#solutions tbody tr')].map(r => [r.dataset.key, r.querySelector('a').text])")
    assert {key: text for key, text in links} == names
    for s in cat.solutions:
        assert open_page(browser, out / "solutions" / f"{s['page']}.html") == []
        assert browser.find_element(By.ID, "title").text == s["name"]
        assert browser.title == f"{s['name']} · ESRP catalogue"
        assert s["key"] not in browser.find_element(By.CSS_SELECTOR, ".crumbs").text
    assert open_page(browser, out / "compare.html") == []
    for menu in ("compare-a", "compare-b"):
        options = [(o.get_attribute("value"), o.text) for o in Select(browser.find_element(By.ID, menu)).options]
        assert dict(options) == names
    Select(browser.find_element(By.ID, "compare-a")).select_by_index(0)
    Select(browser.find_element(By.ID, "compare-b")).select_by_index(1)
    result = browser.find_element(By.ID, "compare-result").text
    assert not any(key in result.split() for key in names), result
    for pair in out.glob("compare/*.html"):
        assert open_page(browser, pair) == []
        heading = browser.find_element(By.TAG_NAME, "h1").text
        assert " vs " in heading and not any(key in heading.split() for key in names), heading
