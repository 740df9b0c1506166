"""Shared by the site tests: the seed catalogue's site, built once per session, page parsing, and
headless Chromium driven by selenium (for the tests marked `browser`; selenium is imported only there)."""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

from esrpdb.db.catalog import open_catalog
from esrpdb.site.build import build_site
from tests.helpers import FIXTURES, REPO_ROOT, chromedriver, chromium

CATALOG = FIXTURES / "catalog"
SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"  # where ESRPDB_SCREENSHOTS=1 puts the browser tests' screenshots
_built: dict[tuple[str, int], Path] = {}


def seed_keys() -> list[str]:
    """Every solution key of the bundled manifests, read from the TOML files themselves."""
    return sorted(tomllib.loads(p.read_text(encoding="utf-8"))["solution"]["key"] for p in CATALOG.glob("*.toml"))


def built_site(tmp_path_factory, url: str, static_chart_limit: int | None = None) -> Path:
    """The seed catalogue's site, built once per session and limit (read with the reader role)."""
    limit = 60 if static_chart_limit is None else static_chart_limit
    if (url, limit) not in _built:
        out = tmp_path_factory.mktemp(f"site{limit}") / "out"
        cat = open_catalog(url)
        try:
            build_site(cat.reader(), out, static_chart_limit=limit)
        finally:
            cat.close()
        _built[(url, limit)] = out
    return _built[(url, limit)]


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def asset_refs(page: BeautifulSoup) -> list[str]:
    """What a page loads: script src, stylesheet and link href, img src."""
    return ([t["src"] for t in page.find_all(["script", "img"]) if t.get("src")]
            + [t["href"] for t in page.find_all("link") if t.get("href")])


def link_target(page_path: Path, href: str) -> Path | None:
    """The file a relative href points at (None for in-page anchors)."""
    parts = urlsplit(href)
    if not parts.path:
        return None
    return (page_path.parent / unquote(parts.path)).resolve()


def with_names(sentence: str, names: dict[str, str]) -> str:
    """`esrpdb compare`'s sentence with each solution key written as the site's name for it."""
    import re

    keys = sorted(names, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in keys))
    return pattern.sub(lambda m: names[m[0]], sentence)


# --- headless Chromium (the `browser` fixture; conftest skips the tests where it is missing) --------


def open_chromium(javascript: bool = True):
    """A headless Chromium driven by selenium, and its throwaway profile folder."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="esrpdb-chromium-")
    options = webdriver.ChromeOptions()
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.binary_location = str(chromium())
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                     f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(chromedriver())))
    driver.set_page_load_timeout(60)
    return driver, profile


def open_page(driver, path: Path) -> list[dict]:
    """Load a page from disk; return what it wrote to the console (errors included)."""
    driver.get_log("browser")  # drop what earlier pages left
    driver.get(path.resolve().as_uri())
    driver.execute_script("return document.readyState")
    return driver.get_log("browser")


def visible_keys(driver) -> list[str]:
    """The solution keys the index's table shows (after filtering)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#solutions tbody tr')].filter(r => !r.hidden)"
        ".map(r => r.dataset.key)")
