"""Shared by the site tests: the seed catalogue's site, built once per session, and page parsing."""

from __future__ import annotations

import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

from esrpdb.db.catalog import open_catalog
from esrpdb.site.build import build_site

CATALOG = Path(__file__).resolve().parents[1] / "fixtures" / "catalog"
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


def without_spread(sentence: str) -> str:
    """`esrpdb compare`'s sentence less its "(N–M% across the runs)": the site shows one run per solution."""
    import re

    return re.sub(r" \((?:from )?[^()]*across the runs\)$", "", sentence)


def with_names(sentence: str, names: dict[str, str]) -> str:
    """`esrpdb compare`'s sentence with each solution key written as the site's name for it."""
    import re

    keys = sorted(names, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in keys))
    return pattern.sub(lambda m: names[m[0]], sentence)
