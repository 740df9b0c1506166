"""schema.html (issue 35) in headless Chromium: every canned view and table the reader may select is
listed with the catalogue's own comment, and each column's row shows its type, key and comment as
`queries.describe.schema` reads them from the database; every page's navigation links to it."""

from __future__ import annotations

import pytest

from esrpdb.queries import canned, describe
from tests.site_helpers import link_target, open_page, soup

pytestmark = pytest.mark.browser  # skipped, saying why, where Chromium or chromedriver is missing (conftest.py)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402


def test_the_schema_page_lists_the_views_and_their_columns_comments(browser, site, seed_catalog):
    relations = {r.name: r for r in describe.schema(seed_catalog.reader())}
    assert open_page(browser, site / "schema.html") == []
    shown = browser.execute_script("""
        return [...document.querySelectorAll('section.relation')].map(s => ({
          name: s.dataset.name, kind: s.dataset.kind, visible: s.offsetHeight > 0,
          comment: s.querySelector('.relation-comment').textContent.trim(),
          columns: Object.fromEntries([...s.querySelectorAll('tbody tr')].map(
            r => [r.dataset.column, [...r.cells].map(c => c.textContent.trim())]))}))""")
    by_name = {s["name"]: s for s in shown}
    assert set(by_name) == set(relations)
    views = {q.view for q in canned.all_queries().values()}
    assert {name for name, s in by_name.items() if s["kind"] == "view"} == views
    assert all(s["visible"] for s in shown)
    for name, relation in relations.items():
        assert by_name[name]["comment"] == relation.comment
        assert by_name[name]["columns"] == {c.name: [c.name, c.type, c.key, c.comment] for c in relation.columns}
    per_disk = by_name["per_disk_iops"]["columns"]["disk_basis"]
    assert "active" in per_disk[3] and "hot spares" in per_disk[3]
    assert by_name["runs"]["columns"]["solution_id"][2] == "→ solutions.id"
    link = browser.find_element(By.CSS_SELECTOR, "a[href='#view-per_disk_iops']")
    assert link.text == "per_disk_iops"


def test_every_page_links_to_the_schema_page(site):
    for page in [site / "index.html", site / "classes.html", *sorted((site / "solutions").glob("*.html"))[:2]]:
        hrefs = [a["href"] for a in soup(page).select("header nav a")]
        assert any(link_target(page, h) == (site / "schema.html").resolve() for h in hrefs), page
