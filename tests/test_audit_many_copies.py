"""Issue 32: "The seeds as text + PDF, and 60 copies of them, give the findings of one copy."

Sixty copies of one seed document, each with other bytes (so another SHA-256, never skipped as the
same file) but the same content: LF or CRLF line ends, trailing spaces on every line, blank lines at
the end, and a name of its own. The content fingerprint (ingest/formats/document/fingerprint.py,
revision 0015) makes them one document, so the audit of the sixty must be the audit of one copy:
the same causes, in the same order, resting on the same findings, and every finding citing a single
copy. One seed, the one whose audit has the most kinds of finding (claims judged per system, a
block wrong for three systems, figures no system can be named for): 60 copies take about 6 s to
load; all four seeds would take four times that.
"""

from __future__ import annotations

import pytest

from esrpdb.audit import AuditReport, audit
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

SEED = next((FIXTURES / "documents").glob("003_*.txt"))
COPIES = 60
CITES = ("file", "sha256")  # which copy a finding cites: any one of them, as long as it is one


def copy_bytes(text: str, number: int) -> bytes:
    """Copy `number`: line ends, trailing spaces and trailing blank lines vary; no character of content does."""
    end = "\r\n" if number % 2 else "\n"
    pad = " " * ((number // 2) % 5)
    return (end.join(line + pad for line in text.split("\n")) + end * (number // 10)).encode("utf-8")


def _audit_of(pg_server, paths) -> AuditReport:
    from esrpdb.db.catalog import open_catalog

    with scratch_database(pg_server, "copies", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, paths)
            assert [o.status for o in outcomes] == ["loaded"] * len(paths), [o.message for o in outcomes]
            return audit(catalog.engine)
        finally:
            catalog.close()


def _content(finding) -> dict:
    return {k: v for k, v in finding.as_dict().items() if k not in CITES}


def test_copies_are_byte_different_and_one_copy_is_the_seed():
    text = SEED.read_text(encoding="utf-8")
    made = [copy_bytes(text, n) for n in range(COPIES)]
    assert len(set(made)) == COPIES and made[0] == SEED.read_bytes()

    def content(data: bytes) -> list[str]:
        return [line.rstrip() for line in data.decode("utf-8").splitlines()]

    assert all(content(m)[:len(content(made[0]))] == content(made[0]) for m in made)
    assert all(not "".join(content(m)[len(content(made[0])):]) for m in made)  # only blank lines added


@pytest.mark.slow
def test_sixty_copies_of_a_seed_give_the_audit_of_one_copy(pg_server, template_url, tmp_path):
    text = SEED.read_text(encoding="utf-8")
    paths = []
    for number in range(COPIES):
        path = tmp_path / f"copy-{number:02d}-{SEED.name}"
        path.write_bytes(copy_bytes(text, number))
        paths.append(path)
    one, many = _audit_of(pg_server, [SEED]), _audit_of(pg_server, paths)
    assert one.causes() and any(f.solution is None for f in one.findings)  # the seed exercises both
    assert [(c.number, c.verdict, [_content(f) for f in c.findings]) for c in many.causes()] == \
        [(c.number, c.verdict, [_content(f) for f in c.findings]) for c in one.causes()]
    assert [_content(f) for f in many.findings] == [_content(f) for f in one.findings]
    assert many.summary() == one.summary()
    cited = {(f.file, f.sha256) for f in many.findings if f.file is not None}
    assert len(cited) == 1 and next(iter(cited))[0] in {p.name for p in paths}  # judged once, on one copy
