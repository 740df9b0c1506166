"""The pages that say where things are point at things that exist: every backticked dotted name in
docs/architecture.md and ingest/README.md resolves to a module, an attribute or a stored column, and
every backticked path to a file or folder (`<name>`, any `<word>`, and `00NN` stand for any)."""

from __future__ import annotations

import importlib
import re

import pytest

from tests.helpers import REPO_ROOT

PAGES = {  # page -> the packages its short names are relative to, tried in order
    "docs/architecture.md": ("", "ingest."),
    "ingest/README.md": ("ingest.", ""),
}
_TICKED = re.compile(r"`([^`\s]+)`")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_FILE_SUFFIXES = (".py", ".md", ".sql", ".toml", ".sh")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module("esrpdb." + ".".join(parts[:cut]) if parts[0] != "esrpdb"
                                             else ".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def _is_column(dotted: str) -> bool:
    from esrpdb.schema import Base

    table, _, column = dotted.partition(".")
    return table in Base.metadata.tables and column in Base.metadata.tables[table].c


def _path_exists(path: str, page: str) -> bool:
    pattern = re.sub(r"<\w+>", "*", path).replace("00NN", "00??").rstrip("/")
    places = [REPO_ROOT, (REPO_ROOT / page).parent]
    return any(list(place.glob(pattern)) for place in places) or any(REPO_ROOT.rglob(pattern))


def _pointers(page: str):
    text = (REPO_ROOT / page).read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", lambda block: block.group(0) if page == "docs/architecture.md" else "", text, flags=re.S)
    return sorted(set(_TICKED.findall(text)))


@pytest.mark.parametrize("page", PAGES)
def test_every_pointer_of_the_page_exists(page):
    stale = []
    for token in _pointers(page):
        token = token.rstrip(".,:;")
        if "/" in token or token.endswith(_FILE_SUFFIXES):
            if not _path_exists(token, page):
                stale.append(token)
        elif _DOTTED.match(token):
            if not (any(_resolves(prefix + token) for prefix in PAGES[page]) or _is_column(token)):
                stale.append(token)
    assert stale == []


def test_a_stale_pointer_is_caught():
    assert not _resolves("ingest.pipeline._writer")
    assert _resolves("ingest.pipeline.ingest_paths") and _resolves("ingest.formats.contract.RECORDS")
    assert not _path_exists("ingest/nowhere.py", "docs/architecture.md")
