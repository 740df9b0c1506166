"""Issue 25's site parts in headless Chromium: the index at 1280 px, the mailbox-class filter, the
log-playback and backup charts with links to solution pages, and a run outside any trial in words.

Screenshots go to the test's temp folder, or to docs/screenshots/ with ESRPDB_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from esrpdb.site.data import load_catalogue
from tests.site_helpers import SCREENSHOTS, open_page, seed_keys, visible_keys

pytestmark = pytest.mark.browser  # skipped, saying why, where Chromium or chromedriver is missing (conftest.py)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def cat(seed_catalog):
    return load_catalogue(seed_catalog.reader())


def _shots(tmp_path: Path) -> Path:
    folder = SCREENSHOTS if os.environ.get("ESRPDB_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_index_fits_1280_px_without_scrolling_sideways(browser, site, tmp_path):
    browser.set_window_size(1280, 900)
    assert open_page(browser, site / "index.html") == []
    inner = browser.execute_script("return window.innerWidth")
    assert inner == 1280
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner
    table, box = browser.execute_script(
        "const t = document.getElementById('solutions'); return [t.scrollWidth, t.parentElement.clientWidth]")
    assert table <= box, (table, box)
    for header in ("Total IOPS per watt", "Audit findings"):
        th = browser.find_element(By.XPATH, f"//table[@id='solutions']//th[normalize-space(.)='{header}']")
        assert th.is_displayed()
        right = browser.execute_script("return arguments[0].getBoundingClientRect().right", th)
        assert right <= inner, (header, right)
    audit = browser.find_element(By.CSS_SELECTOR, '#solutions tr[data-key="hp-eva4400"] td.audit')
    assert audit.is_displayed() and "mismatch" in audit.text
    # The collapsed columns' values move to the detail line under the name.
    assert not browser.find_element(By.XPATH, "//table[@id='solutions']//th[.='Connectivity']").is_displayed()
    detail = browser.find_element(By.CSS_SELECTOR, '#solutions tr[data-key="dell-eql-2x-ps5000xv"] .detail')
    assert detail.is_displayed() and "iSCSI" in detail.text and "Jetstress 2007" in detail.text
    browser.save_screenshot(str(_shots(tmp_path) / "index-1280.png"))
    browser.set_window_size(1600, 900)  # wide enough: every column is a column again
    assert browser.find_element(By.XPATH, "//table[@id='solutions']//th[.='Connectivity']").is_displayed()
    assert not detail.is_displayed()
    browser.set_window_size(1280, 900)


def _classes(browser) -> dict[str, str]:
    return browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#solutions tbody tr')].filter(r => !r.hidden)"
        ".map(r => [r.dataset.key, r.querySelector('td.mailboxes').textContent.trim()]))")


def test_mailbox_column_shows_count_class_and_source_and_the_filter_picks_a_class(browser, site, cat):
    assert open_page(browser, site / "index.html") == []
    cell = browser.find_element(By.CSS_SELECTOR, '#solutions tr[data-key="hp-eva4400"] td.mailboxes')
    assert cell.text.split("\n") == ["4,000", "1,001–5,000 mailboxes"]
    assert cell.get_attribute("title").startswith("from ") and " line " in cell.get_attribute("title")
    before = visible_keys(browser)
    assert sorted(before) == seed_keys()
    menu = Select(browser.find_element(By.NAME, "mailbox_class"))
    offered = [o.text for o in menu.options][1:]
    assert offered == ["up to 1,000 mailboxes", "1,001–5,000 mailboxes", "5,001–10,000 mailboxes"]
    for label in offered:
        menu.select_by_visible_text(label)
        after = visible_keys(browser)
        wanted = sorted(s["key"] for s in cat.solutions if s["mailbox_class"] == label)
        assert sorted(after) == wanted and 0 < len(after) < len(before), label
        assert all(text.endswith(label) for text in _classes(browser).values()), label
        assert browser.find_element(By.ID, "shown-count").text == f"{len(after)} of {len(before)} shown"
    assert sorted(visible_keys(browser)) == ["dell-eql-2x-ps4000xv", "dell-eql-2x-ps5000xv", "fc-san-2009",
                                            "hp-lefthand-p4500"]  # 6,000 (three) and 5,100
    menu.select_by_index(0)
    assert sorted(visible_keys(browser)) == seed_keys()
    header = browser.find_element(By.XPATH, "//table[@id='solutions']//th[.='Mailboxes']")
    header.click()  # sorts by the count, missing counts last
    counts = [cat.solution(k)["mailbox_count"] for k in visible_keys(browser)]
    have = [c for c in counts if c is not None]
    assert have == sorted(have) and counts[len(have):] == [None] * (len(counts) - len(have))
    assert browser.get_log("browser") == []


def _chart_links(browser, figure: str) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' svg a')].map(a => a.getAttribute('xlink:href')"
        " || a.getAttribute('href'))", f"#chart-{figure}")


def test_log_playback_and_backup_charts_link_each_mark_to_its_solution_page(browser, site, cat, tmp_path):
    assert open_page(browser, site / "index.html") == []
    figure = browser.find_element(By.ID, "chart-log-playback")
    assert figure.find_element(By.TAG_NAME, "svg").is_displayed()
    caption = figure.find_element(By.TAG_NAME, "figcaption").text
    assert "Only 1 of the 10 solutions in the catalogue has a soft-recovery (log playback) figure" in caption
    marks = browser.find_elements(By.CSS_SELECTOR, '#chart-log-playback svg path[aria-roledescription="point"]')
    assert [m.get_attribute("aria-label") for m in marks] == ["dell-powervault-md1220"]
    text = figure.text + browser.execute_script("return arguments[0].querySelector('svg').textContent", figure)
    assert "Dell PowerVault MD1220 with PERC H800" in text and "1,001–5,000 mailboxes" in text
    assert "logs replayed per second per server" in text and "database read latency, ms" in text
    links = _chart_links(browser, "log-playback")
    assert links == ["solutions/dell-powervault-md1220.html"]
    backup = _chart_links(browser, "bar-backup")
    assert backup == ["solutions/dell-powervault-md1220.html"]
    assert "Only 1 of the 10 solutions in the catalogue has a database backup figure" in browser.find_element(
        By.CSS_SELECTOR, "#chart-bar-backup figcaption").text
    bars = browser.find_elements(By.CSS_SELECTOR, '#chart-bar-backup svg path[aria-roledescription="bar"]')
    assert [b.get_attribute("aria-label") for b in bars] == ["dell-powervault-md1220"]
    for href in links + backup:
        target = urljoin(browser.current_url, href)
        assert urlsplit(target).scheme == "file" and Path(unquote(urlsplit(target).path)).is_file(), href
    browser.execute_script("arguments[0].scrollIntoView()", figure)
    figure.screenshot(str(_shots(tmp_path) / "log-playback.png"))
    mark = browser.find_element(By.CSS_SELECTOR, "#chart-log-playback svg a")
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark)
    assert browser.current_url.endswith("/solutions/dell-powervault-md1220.html")
    assert browser.find_element(By.ID, "title").text == cat.solution("dell-powervault-md1220")["name"]


def test_a_run_outside_any_trial_is_described_in_words(browser, site):
    assert open_page(browser, site / "solutions" / "dell-powervault-md1220.html") == []
    said = browser.find_element(By.ID, "which-run").text
    assert said.startswith("From run “Performance (2 h)” (a single run, not one of a set of repeated runs)")
    assert "—" not in said and "outside any trial," not in said
    assert open_page(browser, site / "solutions" / "hp-eva4400.html") == []
    said = browser.find_element(By.ID, "which-run").text
    assert said.startswith("From trial “median-trial”, run “Run 2”: the median by total IOPS of its 3 runs")
