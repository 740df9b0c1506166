"""Issue 46: drafting made faster drafts exactly what it drafted before.

Every fixture document's drafts (systems, facts, runs, claims, unread rows, unattributed figures,
names spelled two ways, the manifests' TOML and notes) rendered canonically must equal, byte for
byte, the rendering the base code made (fixtures/draft_golden/README.md).
"""

from __future__ import annotations

import gzip

from tests.draft_rendering import FIXTURES, render_fixtures

GOLDEN = FIXTURES / "draft_golden" / "drafts.txt.gz"


def _documents(text: str) -> dict[str, str]:
    parts = text.split("=== ")[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def test_the_drafts_of_the_fixture_documents_are_those_the_base_code_drafted():
    golden = gzip.decompress(GOLDEN.read_bytes()).decode("utf-8")
    drafted = render_fixtures()
    if drafted != golden:
        before, after = _documents(golden), _documents(drafted)
        changed = [name for name in before.keys() | after.keys() if before.get(name) != after.get(name)]
        raise AssertionError(f"drafts changed for {sorted(changed)}")
