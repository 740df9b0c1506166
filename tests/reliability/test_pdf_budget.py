"""Issue 34, item 2: every PDF is read within a budget (ingest/pdf/budget.py).

A 1 MB PDF holding 1 GiB of spaces in one FlateDecode stream, pages sharing one content stream of
150,000 objects, a content stream disguised as an image, a PDF that reads too long: each is that
file's one `failed` line naming the limit it passed, the good report beside it loads, the batch's
memory stays bounded, and nothing of the refused file is written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from sqlalchemy import create_engine, text

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.pdf import budget
from esrpdb.ingest.pdf.layout import extract_layout
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, child_pids
from tests.pdf_bombs import crowded_pdf, inflating_pdf, write

GOOD_REPORT = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
PEAK_MEMORY_MB = 600


@pytest.fixture(scope="module")
def gib_of_spaces() -> bytes:
    return inflating_pdf(2**30)  # about 1 MB


@pytest.mark.db  # ingests into a database of its own
def test_a_decompression_bomb_fails_by_its_limit_the_good_report_loads_and_memory_stays_low(
        tmp_path, fresh_database_url, gib_of_spaces):
    bomb = write(tmp_path / "bomb.pdf", gib_of_spaces)
    assert bomb.stat().st_size < 2 * 2**20
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                                    "ingest", str(bomb), str(GOOD_REPORT), "--format", "json"],
                                   env=env, stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(process.pid, 0)  # the CLI and every reader it waited for: the largest's peak
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 1, err.read_text()
    rows = {row["file"]: row for row in json.loads(out.read_text())}
    assert rows[str(bomb)]["status"] == "failed"
    message = rows[str(bomb)]["message"]
    assert "MAX_DECOMPRESSED_BYTES" in message and str(bomb) in message and "\n" not in message
    assert rows[str(GOOD_REPORT)]["status"] == "loaded"
    peak_kib = usage.ru_maxrss
    assert peak_kib < PEAK_MEMORY_MB * 1024, f"peak {peak_kib / 1024:.0f} MB"
    engine = create_engine(fresh_database_url)
    try:
        with engine.connect() as conn:
            stored = conn.execute(text("select file_name from source_files")).scalars().all()
    finally:
        engine.dispose()
    assert stored == [GOOD_REPORT.name]  # nothing of the bomb


def test_pages_sharing_one_crowded_content_stream_fail_in_seconds_naming_the_limit(tmp_path):
    data = crowded_pdf(2000, 150_000)  # under 1 MB
    started = time.monotonic()
    with pytest.raises(ParseError) as refused:
        extract_layout("crowded.pdf", data)
    assert time.monotonic() - started < 30
    assert str(refused.value).startswith("crowded.pdf: page 1:") and "MAX_OBJECTS" in str(refused.value)


def test_a_pdf_that_reads_too_long_is_stopped_by_the_time_limit_and_leaves_no_process(monkeypatch):
    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    data = crowded_pdf(2000, 20_000)  # under the per-page limit: only the time stops it
    started = time.monotonic()
    with pytest.raises(ParseError, match=r"^slow\.pdf: reading it took longer than 1 s .*MAX_READ_SECONDS"):
        extract_layout("slow.pdf", data)
    assert time.monotonic() - started < 10
    assert child_pids() == []


def test_a_bomb_the_byte_count_does_not_see_is_stopped_by_the_memory_limit(monkeypatch):
    """A content stream whose dictionary calls it an image is not counted, but PDFium inflates it: the
    child's own memory limit stops it, and the parent is untouched."""
    monkeypatch.setattr(budget, "MAX_READ_MEMORY_BYTES", 256 * 2**20)
    with pytest.raises(ParseError, match=r"^disguised\.pdf: reading it needed more than 256 MiB .*"
                                         r"MAX_READ_MEMORY_BYTES"):
        extract_layout("disguised.pdf", inflating_pdf(2**30, marked_as_image=True))


@pytest.mark.db  # ingests into a database of its own
def test_bombs_read_ahead_in_a_batch_fail_once_and_the_good_report_loads(tmp_path, catalog):
    """Large enough to be read ahead in a child: a refused reading comes back as its error, not read again."""
    folder = tmp_path / "batch"
    folder.mkdir()
    write(folder / "a-crowded.pdf", crowded_pdf(2000, 150_000))
    write(folder / "b-spaces.pdf", inflating_pdf(300 * 2**20))
    write(folder / GOOD_REPORT.name, GOOD_REPORT.read_bytes())
    started = time.monotonic()
    outcomes = {os.path.basename(o.path): o for o in ingest_paths(catalog.engine, [folder])}
    assert time.monotonic() - started < 30
    assert outcomes["a-crowded.pdf"].status == "failed" and "MAX_OBJECTS" in outcomes["a-crowded.pdf"].message
    assert outcomes["b-spaces.pdf"].status == "failed"
    assert "MAX_DECOMPRESSED_BYTES" in outcomes["b-spaces.pdf"].message
    assert outcomes[GOOD_REPORT.name].status == "loaded", outcomes[GOOD_REPORT.name].message


@pytest.fixture
def report_to_read_ahead(tmp_path, monkeypatch):
    """A small report PDF that the read-ahead takes (whatever its size); skipped where nothing is read ahead."""
    from esrpdb.ingest.parallel import forked, read_ahead
    from tests.helpers import REPORT_PAGES, make_pdf

    if not forked.available():
        pytest.skip("reading ahead needs fork and two cores")
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf(REPORT_PAGES))
    return pdf


def test_a_pdf_read_ahead_is_read_within_the_budget_by_its_reading_child_itself(report_to_read_ahead, monkeypatch):
    """The child forked to read one PDF ahead puts itself within the budget and reads the PDF there: no
    second fork a PDF."""
    from esrpdb.ingest.parallel import read_ahead
    from esrpdb.ingest.pipeline import read_file

    def no_second_fork(*args):
        raise AssertionError("a reading child forked a child of its own")

    monkeypatch.setattr(budget, "_read_in_bounded_child", no_second_fork)  # the children inherit it
    pdf = report_to_read_ahead
    reader = read_ahead.ReadAhead(read_file, setup=budget.bound_this_process)
    try:
        reader.start([pdf])
        drafted = reader.take(pdf)
    finally:
        reader.close()
    assert drafted is not None and drafted.document.reports  # read in the child, within its own limits
    assert child_pids() == []


@pytest.mark.db  # ingests into a database of its own
def test_a_pdf_too_slow_for_its_reading_child_fails_by_the_time_limit_once(tmp_path, catalog, monkeypatch):
    """A reading child past the limit is stopped, and the line names the limit as it always did (read ahead
    or not: the first PDF of a batch is the writer's to read, in a bounded child of its own)."""
    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    folder = tmp_path / "batch"
    folder.mkdir()
    write(folder / "a-slow.pdf", crowded_pdf(2000, 20_000))
    write(folder / GOOD_REPORT.name, GOOD_REPORT.read_bytes())
    started = time.monotonic()
    outcomes = {os.path.basename(o.path): o for o in ingest_paths(catalog.engine, [folder])}
    assert time.monotonic() - started < 30
    assert outcomes["a-slow.pdf"].status == "failed"
    assert "took longer than 1 s" in outcomes["a-slow.pdf"].message and "MAX_READ_SECONDS" in outcomes["a-slow.pdf"].message
    assert outcomes[GOOD_REPORT.name].status == "loaded"
    assert child_pids() == []


def _read_and_hold(path):  # runs in the reading child: a result too large for the pipe waits for the reader
    from esrpdb.ingest.pipeline import read_file

    return read_file(path), "x" * 300_000


def test_a_reading_childs_time_limit_ends_with_its_pdf(report_to_read_ahead, monkeypatch):
    """The limit is the PDF's reading: a child whose result waits for the writer's turn (longer than the
    limit, its pipe full) is not stopped by it."""
    from esrpdb.ingest.parallel import read_ahead

    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    pdf = report_to_read_ahead
    reader = read_ahead.ReadAhead(_read_and_hold, setup=budget.bound_this_process)
    try:
        reader.start([pdf])
        time.sleep(3.5)  # past the child's alarm (the limit plus one second) had it still been set
        held = reader.take(pdf)
    finally:
        reader.close()
    assert held is not None and held[0].document.reports
    assert child_pids() == []
