"""classes.html (issue 25's mailbox classes) in headless Chromium, checked against the canned view.

The expected classes, rows and ranks are read from `mailbox_class_ranks` in the seed catalogue,
never typed: each class present is a section, in class order; its rows come in total-IOPS rank
order with the view's three ranks; every solution link opens an existing page and shows the name,
not the key; the unlike-tests warning appears exactly where the view's like_for_like is false; the
index links to the page. Screenshots go to the test's temp folder, or to docs/screenshots/ with
ESRPDB_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from sqlalchemy import text

from esrpdb.site import build, classes
from esrpdb.site.data import Catalogue, load_catalogue
from tests.site_helpers import SCREENSHOTS, asset_refs, link_target, open_chromium, open_page, soup

pytestmark = pytest.mark.browser  # skipped, saying why, where Chromium or chromedriver is missing (conftest.py)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402

RANKS = ("total_iops_rank", "db_read_latency_rank", "log_replay_rank")


@pytest.fixture(scope="module")
def cat(seed_catalog):
    return load_catalogue(seed_catalog.reader())


@pytest.fixture(scope="module")
def view(seed_catalog) -> list[dict]:
    """The canned view's rows, read as the reader role."""
    with seed_catalog.reader().connect() as conn:
        return [dict(r._mapping) for r in conn.execute(text("SELECT * FROM mailbox_class_ranks"))]


def _sections(browser) -> list[dict]:
    return browser.execute_script("""
        return [...document.querySelectorAll('section.mailbox-class')].map(s => ({
          order: Number(s.dataset.classOrder), like: s.dataset.likeForLike, heading: s.querySelector('h2').textContent,
          count: s.querySelector('.class-count').textContent, unlike: s.querySelectorAll('.unlike').length,
          rows: [...s.querySelectorAll('tbody tr')].map(r => ({
            key: r.dataset.key, rank: r.querySelector('.rank').textContent.trim(),
            total_iops_rank: r.querySelector('.iops-rank').textContent.trim(),
            db_read_latency_rank: r.querySelector('.latency-rank').textContent.trim(),
            log_replay_rank: r.querySelector('.replay-rank').textContent.trim(),
            name: r.querySelector('td.name').textContent.trim(),
            href: r.querySelector('td.name a') && r.querySelector('td.name a').getAttribute('href')}))}))""")


def _shown(rank) -> str:
    return "—" if rank is None else f"{rank:,}"


def test_each_class_of_the_view_in_order_with_its_rows_in_rank_order(browser, site, view):
    assert open_page(browser, site / "classes.html") == []
    expected = sorted({(r["mailbox_class_order"], r["mailbox_class"]) for r in view})
    assert len(expected) >= 2  # the seed spans several classes
    sections = _sections(browser)
    assert [(s["order"], s["heading"]) for s in sections] == expected
    for section in sections:
        rows = {r["solution"]: r for r in view if r["mailbox_class_order"] == section["order"]}
        keys = [r["key"] for r in section["rows"]]
        assert sorted(keys) == sorted(rows), section["heading"]
        ranks = [rows[k]["total_iops_rank"] for k in keys]
        have = [r for r in ranks if r is not None]
        assert have == sorted(have) and ranks[len(have):] == [None] * (len(ranks) - len(have)), section["heading"]
        for shown in section["rows"]:
            want = rows[shown["key"]]
            assert shown["rank"] == _shown(want["total_iops_rank"])
            for column in RANKS:
                assert shown[column] == _shown(want[column]), (shown["key"], column)
        n = len(rows)
        assert section["count"].startswith(f"{n} solution{'' if n == 1 else 's'} in this class")


def test_the_unlike_tests_warning_appears_exactly_where_the_view_says(browser, site, view):
    assert open_page(browser, site / "classes.html") == []
    like = {r["mailbox_class_order"]: r["like_for_like"] for r in view}
    for section in _sections(browser):
        assert section["like"] == ("true" if like[section["order"]] else "false")
        assert section["unlike"] == (0 if like[section["order"]] else 1), section["heading"]
    assert (browser.find_elements(By.CSS_SELECTOR, ".unlike") != []) == (not all(like.values()))


def test_the_warning_names_what_an_unlike_class_mixes():
    """The seed may have no unlike class: the page's words for one, from rows shaped like the view's."""
    def row(key, release, test, per_mailbox, rank):
        return {"key": key, "mailbox_class": "up to 1,000 mailboxes", "mailbox_class_order": 1, "mailbox_count": 500,
                "jetstress_release": release, "report_type": test, "iops_per_mailbox": per_mailbox,
                "total_iops": 100.0 / rank, "total_iops_rank": rank, "db_read_latency_ms": None,
                "db_read_latency_rank": None, "logs_per_s_per_server": None, "log_replay_rank": None,
                "like_for_like": False}

    solutions = [{"key": k, "name": f"Name of {k}", "page": k, "mailbox_count": None} for k in ("a", "b", "c")]
    cat = Catalogue(solutions=solutions, class_ranks=[row("a", "2007", "Performance", 0.5, 1),
                                                      row("b", "2010", "Stress", 0.5, 2)],
                    mailbox_classes=[{"class_ordinal": 1, "label": "up to 1,000 mailboxes", "min_mailbox_count": 0,
                                      "max_mailbox_count": 1000}])
    page = soup_of(build.environment().get_template("classes.html").render(root="", **classes.class_page(cat)))
    warning = page.select_one("#class-1 .unlike").get_text(" ", strip=True)
    assert "mixes Jetstress 2007 and 2010; Performance and Stress tests" in warning
    assert [a.get_text() for a in page.select("#class-1 td.name a")] == ["Name of a", "Name of b"]
    assert [li.get_text() for li in page.select("#unclassed li")] == ["Name of c"]
    assert "—" in page.select_one("#class-1 tbody tr").get_text()  # missing latency and replay


def soup_of(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


def test_every_solution_link_opens_its_page_and_shows_the_name_not_the_key(browser, site, cat, view):
    assert open_page(browser, site / "classes.html") == []
    names = {s["key"]: s["name"] for s in cat.solutions}
    shown = [r for s in _sections(browser) for r in s["rows"]]
    assert len(shown) == len(view)
    for row in shown:
        assert row["name"] == names[row["key"]] and row["name"] != row["key"]
        target = link_target(site / "classes.html", row["href"])
        assert target is not None and target.is_file(), row["href"]
    for row in shown:
        assert open_page(browser, site / "classes.html") == []
        browser.find_element(By.CSS_SELECTOR, f'section.mailbox-class tr[data-key="{row["key"]}"] td.name a').click()
        assert browser.find_element(By.ID, "title").text == names[row["key"]]
        mailboxes = browser.find_element(By.ID, "mailboxes").find_element(By.TAG_NAME, "a")
        assert unquote(urlsplit(mailboxes.get_attribute("href")).path).endswith("/classes.html")
    # Solutions the view leaves out are listed at the end by name, and counted.
    classed = {r["solution"] for r in view}
    unclassed = sorted((s for s in cat.solutions if s["key"] not in classed), key=lambda s: s["name"].lower())
    assert open_page(browser, site / "classes.html") == []
    items = browser.find_elements(By.CSS_SELECTOR, "#unclassed li")
    assert [i.get_attribute("data-key") for i in items] == [s["key"] for s in unclassed]
    assert [i.find_element(By.TAG_NAME, "a").text for i in items] == [s["name"] for s in unclassed]
    if unclassed:
        said = browser.find_element(By.CSS_SELECTOR, "#unclassed .class-count").text
        assert said.startswith(f"{len(unclassed)} solution{'' if len(unclassed) == 1 else 's'} of {len(cat.solutions)}")


def test_the_intro_gives_the_bounds_and_rank_1_is_best(browser, site, seed_catalog):
    assert open_page(browser, site / "classes.html") == []
    intro = browser.find_element(By.ID, "classes-intro").text
    assert "mailbox_classes" in intro and "owner" in intro
    with seed_catalog.reader().connect() as conn:
        labels = [r[0] for r in conn.execute(text("SELECT label FROM mailbox_classes ORDER BY class_ordinal"))]
    assert [b.text.split(" (")[0] for b in browser.find_elements(By.CSS_SELECTOR, "#classes-intro .bound")] == labels
    assert "Rank 1 is best" in browser.find_element(By.TAG_NAME, "main").text


def test_the_index_and_every_page_link_to_it_and_nothing_is_fetched(browser, site):
    assert open_page(browser, site / "index.html") == []
    link = browser.find_element(By.XPATH, "//header//nav/a[.='Mailbox classes']")
    assert link.get_attribute("href").endswith("/classes.html")
    link.click()
    assert unquote(urlsplit(browser.current_url).path).endswith("/classes.html")
    assert browser.find_elements(By.CSS_SELECTOR, "section.mailbox-class")
    page = soup(site / "classes.html")
    for ref in asset_refs(page):
        assert not urlsplit(ref).scheme and not ref.startswith("//"), ref
        target = link_target(site / "classes.html", ref)
        assert target is not None and target.is_file(), ref
    for a in page.find_all("a"):
        target = link_target(site / "classes.html", a["href"])
        assert target is None or target.is_file(), a["href"]
    for path in site.rglob("*.html"):
        hrefs = [a.get("href", "") for a in soup(path).select("header nav a")]
        assert any(h.endswith("classes.html") and link_target(path, h) == (site / "classes.html").resolve()
                   for h in hrefs), path


def test_the_page_reads_with_javascript_off(site, view):
    browser, profile = open_chromium(javascript=False)
    try:
        browser.get((site / "classes.html").as_uri())
        rows = browser.find_elements(By.CSS_SELECTOR, "section.mailbox-class tbody tr")
        assert sorted(r.get_attribute("data-key") for r in rows if r.is_displayed()) == sorted(
            r["solution"] for r in view)
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_screenshot(browser, site, tmp_path):
    folder = SCREENSHOTS if os.environ.get("ESRPDB_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1280, 900)
    assert open_page(browser, site / "classes.html") == []
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(max(height + 150, 600), 1900))  # the window less its frame: the whole page
    browser.save_screenshot(str(folder / "classes.png"))
    browser.set_window_size(1280, 900)
    assert Path(folder / "classes.png").stat().st_size > 0
