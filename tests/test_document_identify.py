"""Recognising a document from its whole text: reports that start after the head are found.

Identification reads the head for speed; a text document the head does not settle is scanned in
full (streamed, bounded by the size cap) before it is refused, so no decision depends on where
the reports start.
"""

from __future__ import annotations

import pytest

from esrpdb.ingest import bounded_read, registry
from esrpdb.ingest.errors import UnknownFormat
from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.jetstress import normalise
from tests.helpers import DOCUMENTS, REPO_ROOT

SEEDS = sorted(DOCUMENTS.glob("0*.txt"))
SENTENCE = ("Messaging storage has changed a great deal over the years, and this paper looks at what an analyst "
            "needs to know before buying it. ")


def prose(size_bytes: int) -> str:
    """Paragraphs of plain prose, no table and no report, of about `size_bytes`."""
    text = SENTENCE * (size_bytes // len(SENTENCE) + 1)
    return "\n\n".join(text[i : i + 400] for i in range(0, size_bytes, 400)) + "\n\n"


def _runs(document) -> list[dict]:
    runs = []
    for report in document.reports:
        values = normalise.run_values(report)
        values.pop("source_line")
        runs.append(values)
    return runs


@pytest.mark.parametrize("path", SEEDS, ids=[p.name[:3] for p in SEEDS])
def test_a_seed_after_20_kb_of_prose_is_recognised_and_reads_the_same(path, tmp_path):
    data = prose(20 * 1024).encode() + path.read_bytes()
    target = tmp_path / path.name
    target.write_bytes(data)
    head = bounded_read.read_head(target, registry.HEAD_BYTES)
    assert not document_text.identify(target.name, head)  # the head alone shows nothing
    assert registry.detect(target.name, head, rest=bounded_read.chunks(target)) is document_text
    original = document_text.parse(path.name, path.read_bytes())
    moved = document_text.parse(target.name, data)
    assert _runs(moved) == _runs(original)
    assert [(t.kind, t.columns, [(r.label, r.values) for r in t.rows]) for t in moved.tables] == \
           [(t.kind, t.columns, [(r.label, r.values) for r in t.rows]) for t in original.tables]


def test_the_whole_text_scan_is_bounded_by_the_size_cap():
    seed = SEEDS[1].read_bytes()
    big = b"plain prose line\n" * (document_text.MAX_BYTES // 17 + 1)
    consumed = []

    def chunks():
        for part in (big, seed):
            consumed.append(len(part))
            yield part
    assert not document_text.identify_rest("late.txt", big[:8192], chunks())
    assert consumed == [len(big)]  # the report beyond the cap is never read


@pytest.mark.parametrize("path", [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")),
                                  *sorted(p for p in REPO_ROOT.glob("*/README.md") if not p.parent.name.startswith(".")),
                                  DOCUMENTS / "README.md"],  # not .pytest_cache's: the same tests in every checkout
                         ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_the_whole_text_scan_still_leaves_prose_about_jetstress(path):
    data = path.read_bytes()
    with pytest.raises(UnknownFormat):
        registry.detect(path.name, data[:8192], rest=lambda: iter([data]))


def test_binary_and_other_formats_are_not_scanned(tmp_path):
    assert not document_text.identify_rest("dump.txt", b"\x00\x01", iter([b"\x00\x01" + SEEDS[1].read_bytes()]))
    html = b"<html><body>" + SEEDS[1].read_bytes()
    assert not document_text.identify_rest("page.txt", html[:8192], iter([html]))
    assert not document_text.identify_rest("seed.docx", b"x", iter([SEEDS[1].read_bytes()]))


def test_utf16_text_is_scanned_in_chunks_across_line_ends():
    data = (prose(12 * 1024) + SEEDS[1].read_text(encoding="utf-8")).encode("utf-16")
    pieces = [data[i : i + 777] for i in range(0, len(data), 777)]  # odd sizes split characters and lines
    assert document_text.identify_rest("seed.txt", data[:8192], iter(pieces))


def test_cli_ingest_recognises_a_late_report(fresh_database_url, tmp_path):
    from typer.testing import CliRunner

    from esrpdb.cli.main import app
    target = tmp_path / "late.txt"
    target.write_bytes(prose(20 * 1024).encode() + SEEDS[1].read_bytes())
    result = CliRunner().invoke(app, ["--database-url", fresh_database_url, "ingest", str(target)])
    assert result.exit_code == 0, result.output
    assert "loaded" in result.output




@pytest.mark.parametrize("first_cell, claimed", [("run_iops", False), ("Total IOPS", True),
                                                 ("Achieved Transactional I/O per Second", True)])
def test_an_iops_row_needs_iops_as_a_word_not_inside_a_name(first_cell, claimed):
    """Notes about Jetstress with a benchmark table of view names are not an ESRP table."""
    text = f"Timings of the Jetstress catalogue.\n\n| view | rows | ms |\n|---|---:|---:|\n| {first_cell} | 99,000 | 37.5 |\n"
    data = text.encode()
    assert document_text.identify_rest("notes.md", data[:100], iter([data])) is claimed
