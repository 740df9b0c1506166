"""Metamorphic tests: every seed read through every extraction variant gives the same records.

The variants (tests/document_variants.py) change only how the text is laid out — plain tabs, runs of
spaces, Markdown tables and headings, `<b>` and `**bold**`, CRLF, form feeds with running
headers and page footers, a PDF read back by pypdf — so each must read to the same normalised
runs, instances and latencies as the original, verdicts included.
"""

from __future__ import annotations

import functools
import re

import pytest

from esrpdb.ingest.formats import document as document_text
from tests.document_variants import VARIANTS, crlf, markdown_bold, pages, records, spaces
from tests.helpers import DOCUMENTS

SEEDS = sorted(DOCUMENTS.glob("0*.txt"))


@functools.lru_cache(maxsize=None)
def original(name: str) -> list[dict]:
    path = DOCUMENTS / name
    return records(document_text.parse(path.name, path.read_bytes()))


def _read(name: str, data: str | bytes) -> list[dict]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return records(document_text.parse(name, raw))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("path", SEEDS, ids=[p.name[:3] for p in SEEDS])
def test_every_variant_reads_to_the_same_records(path, variant):
    text = path.read_text(encoding="utf-8")
    name = path.with_suffix(".pdf").name if variant == "pdf" else path.name
    assert _read(name, VARIANTS[variant](text)) == original(path.name)


@pytest.mark.parametrize("path", SEEDS, ids=[p.name[:3] for p in SEEDS])
def test_variants_compose(path):
    text = path.read_text(encoding="utf-8")
    assert _read(path.name, crlf(pages(spaces(markdown_bold(text))))) == original(path.name)


def test_the_seeds_reports_are_all_read_with_their_verdicts():
    counts = {path.name[:3]: len(original(path.name)) for path in SEEDS}
    assert counts == {"000": 2, "001": 4, "002": 2, "003": 0}
    verdicts = [r["run"]["reported_verdict"] for path in SEEDS for r in original(path.name)]
    assert set(verdicts) <= {"Pass", "Fail", None} and verdicts.count("Pass") >= 6


@pytest.mark.parametrize("path", SEEDS[:3], ids=[p.name[:3] for p in SEEDS[:3]])
def test_a_failed_run_is_read_with_its_verdict(path):
    """The same reports printed as failed: every one is still a run, with verdict Fail."""
    text = path.read_text(encoding="utf-8")
    failed = _read(path.name, spaces(re.sub(r"(Overall Test Result(?:\W|</?b>)*)Pass", r"\1Fail", text)))
    expected = original(path.name)
    assert len(failed) == len(expected)
    printed = [r["run"]["reported_verdict"] for r in expected]
    assert [r["run"]["reported_verdict"] for r in failed] == ["Fail" if v == "Pass" else v for v in printed]
    assert [r["latencies"] for r in failed] == [r["latencies"] for r in expected]
