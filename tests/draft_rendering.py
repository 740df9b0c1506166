"""A canonical text of a drafted document, to prove a change to drafting left every draft as it was.

Every record drafting makes (systems with facts, runs and claims; unread rows; unattributed figures;
things named differently; the manifests as `toml_text.render` prints them, with their notes; the
document's facts) printed field by field. A table a run points to is printed as its place in the
document, not its rows, so the text stays small and still says which table. `python -m
tests.draft_rendering OUT` writes the rendering of the fixture documents (tests/test_draft_equivalence.py).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"


def fixture_sources() -> list[Path]:
    """The seeds and the rest of fixtures/documents, the other hands', synthetic, unseen-family and
    several-host texts: the drafted documents."""
    documents = sorted(p for p in (FIXTURES / "documents").iterdir() if p.name != "README.md")
    texts = [sorted((FIXTURES / folder).glob("*.txt"))
             for folder in ("other_hands", "synthetic_documents", "unseen_families", "host_tests")]
    return [*documents, *(p for folder in texts for p in folder)]


def _value(value, tables: dict[int, int]) -> str:
    """A record field by field; a table by its place, not its rows."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__name__ == "DocumentTable":
            return f"<table {tables.get(id(value), '?')} {value.title!r} line {value.line}>"
        inner = ", ".join(f"{f.name}={_value(getattr(value, f.name), tables)}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v, tables) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_value(v, tables)}" for k, v in value.items()) + "}"
    return repr(value)


def render_drafted(drafted) -> str:
    """One drafted document (a DraftedDocument) as canonical text."""
    from esrpdb.ingest.draft.toml_text import render

    document = drafted.document
    tables = {id(t): n for n, t in enumerate(document.tables)}
    source = Path(document.source_name).name
    out = [f"=== {source}"]
    for system in drafted.systems:
        out.append(f"system {system.name!r}")
        out += [f"  fact {_value(f, tables)}" for f in system.facts]
        out += [f"  run {_value(r, tables)}" for r in system.runs]
        out += [f"  claim {_value(c, tables)}" for c in system.claims]
    out += [f"unread {w!r}" for w in drafted.warnings]
    out += [f"unattributed {w!r}" for w in drafted.unattributed]
    out += [f"named_differently {w!r}" for w in drafted.named_differently]
    out += [f"document fact {_value(f, tables)}" for f in drafted.facts]
    for manifest in drafted.manifests:
        out.append(f"manifest notes {_value(manifest.notes, tables)}")
        out.append(render(manifest, source))
    return "\n".join(out) + "\n"


def render_fixtures() -> str:
    from esrpdb.ingest.draft import draft_document
    from esrpdb.ingest.formats import document as document_text

    return "".join(render_drafted(draft_document(document_text.parse(p.name, p.read_bytes())))
                   for p in fixture_sources())


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(render_fixtures(), encoding="utf-8")
