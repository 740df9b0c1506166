"""Issue 26: a long file in hand shows how far it has got (bytes read, rows written) on a terminal."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

from esrpdb.cli.ingest_progress import IngestProgress, clock, progress_line, seconds_left
from esrpdb.ingest.load import progress
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, chromium, pty_screen

ROWS = 30_000  # synthetic: the typeperf sample's header, one row a second for eight hours


def _long_export(path):
    start = datetime(2008, 10, 5, 21, 14, 21)
    lines = ['"(PDH-CSV 4.0)","\\\\SERVER\\Processor(_Total)\\% Processor Time","\\\\SERVER\\Memory\\Available MBytes"']
    for n in range(ROWS):
        stamp = (start + timedelta(seconds=n)).strftime("%m/%d/%Y %H:%M:%S.123")
        lines.append(f'"{stamp}","{n % 97 / 7:.6f}","{7000 + n % 13}.000000"')
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def test_a_listener_hears_bytes_and_rows_of_the_file_in_hand(catalog, tmp_path):
    export = _long_export(tmp_path / "long.csv")
    heard = []
    with progress.listening(lambda name, position, size, rows: heard.append((name, position, size, rows))):
        (outcome,) = ingest_paths(catalog.engine, [export])
    assert outcome.status == "loaded", outcome.message
    assert len(heard) >= ROWS // progress.ROWS_BETWEEN_REPORTS
    assert {name for name, *_ in heard} == {str(export)}
    positions = [position for _, position, _, _ in heard]
    assert positions == sorted(positions) and 0 < positions[0] < export.stat().st_size
    assert heard[-1][1:] == (export.stat().st_size, export.stat().st_size, ROWS)


def test_nobody_listening_costs_nothing_and_says_nothing(catalog, tmp_path):
    (outcome,) = ingest_paths(catalog.engine, [_long_export(tmp_path / "long.csv")])
    assert outcome.status == "loaded"


def test_the_terminal_shows_megabytes_and_rows_of_one_long_file(fresh_database_url, tmp_path):
    export = _long_export(tmp_path / "long.csv")
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"} | {"TERM": "xterm", "COLUMNS": "120"}
    process = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                                "ingest", str(export)], stdin=follower, stdout=subprocess.PIPE, stderr=follower,
                               env=env)
    os.close(follower)
    screen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    stdout, _ = process.communicate(timeout=120)
    os.close(leader)
    assert process.returncode == 0
    shown = screen.decode("utf-8", "replace")
    assert "long.csv" in shown and " MB, " in shown and " rows" in shown, shown[-2000:]
    assert b"1 loaded" in stdout


# --- issue 36: a batch shows files and pages done, pages per second and the time left -------------------

COPIES = 24  # more files than the bar's threshold, and enough for a pace (MIN_SECONDS_FOR_RATE) before the last


def test_the_time_left_is_the_time_so_far_scaled_by_the_bytes_to_go():
    counts = IngestProgress(files_total=3, bytes_total=3_000_000)
    assert seconds_left(counts, 10.0) is None  # nothing done: no pace yet
    counts.record(1_000_000, 24)
    counts.record(0, None)  # a file that is no PDF: a file done, no pages
    assert seconds_left(counts, 0.1) is None  # too soon for a rate
    assert seconds_left(counts, 20.0) == 40.0
    assert progress_line(counts, 20.0) == "2/3 files, 24 pages, 1 pages/s, 0:40 left"
    counts.record(2_000_000, 1_176)
    assert progress_line(counts, 20.0) == "3/3 files, 1,200 pages, 60 pages/s"  # all done: no time left shown
    assert (clock(65), clock(3723), clock(0.4)) == ("1:05", "1:02:03", "0:00")


@pytest.mark.skipif(chromium() is None, reason="needs chromium to print the PDFs")
def test_the_terminal_shows_pages_per_second_and_the_time_left(fresh_database_url, tmp_path):
    import pypdfium2

    from tests.pdf_renderings import print_pdf, seed_html

    source = FIXTURES / "synthetic_documents" / "synth_third-party_train_003.txt"
    printed = tmp_path / "printed.pdf"
    print_pdf(seed_html(source.read_text(encoding="utf-8"), title="copy"), printed)
    per_copy = len(pypdfium2.PdfDocument(printed.read_bytes()))
    folder = tmp_path / "folder"
    folder.mkdir()
    for n in range(COPIES):  # more files than the bar's threshold; each a distinct file of one document
        (folder / f"copy-{n}.pdf").write_bytes(printed.read_bytes() + f"%copy {n}\n".encode())
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"} | {"TERM": "xterm", "COLUMNS": "160"}
    process = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                                "ingest", str(folder)], stdin=follower, stdout=subprocess.PIPE, stderr=follower,
                               env=env)
    os.close(follower)
    screen = pty_screen(leader)
    stdout, _ = process.communicate(timeout=180)
    os.close(leader)
    assert process.returncode == 0 and f"{COPIES} loaded".encode() in stdout, stdout[-500:]
    shown = screen.decode("utf-8", "replace")
    done = [(int(files), int(pages.replace(",", ""))) for files, pages in
            re.findall(rf"(\d+)/{COPIES} files, ([\d,]+) pages", shown)]
    assert done and all(pages == files * per_copy for files, pages in done), shown[-2000:]  # whole PDFs' pages
    assert re.search(rf"/{COPIES} files, [\d,]+ pages, [\d,]+ pages/s, \d+:\d\d left", shown), shown[-2000:]


def test_a_piped_ingest_prints_a_line_per_file_on_stderr_before_its_table(fresh_database_url):
    """Issue 47: `esrpdb ingest FOLDER > log 2>&1` shows each file as it ends, not only the final table."""
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    done = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "ingest",
                           str(FIXTURES / "catalog")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    progress_lines = [line for line in lines if line.startswith("ingest: ")]
    assert len(progress_lines) >= 10 and all(re.match(r"ingest: \d+/\d+ files, (loaded|skipped) ", line)
                                             for line in progress_lines), progress_lines
    title = next(n for n, line in enumerate(lines) if line.strip() == "Ingest")
    assert lines.index(progress_lines[-1]) < title  # before the table, not with it
    counted = [int(re.match(r"ingest: (\d+)/", line)[1]) for line in progress_lines]
    assert counted == sorted(counted)
    silent = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "ingest",
                             str(FIXTURES / "catalog")], capture_output=True, text=True, env=env, timeout=600)
    assert "ingest: " in silent.stderr and "ingest: " not in silent.stdout  # standard error: stdout stays the table


def test_a_piped_ingest_of_one_long_file_says_how_far_it_has_got(fresh_database_url, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from esrpdb.cli import ingest_command
    from esrpdb.cli.main import app

    monkeypatch.setattr(ingest_command, "LOG_EVERY_S", 0.0)  # every report heard (10 s apart by default)
    export = _long_export(tmp_path / "long.csv")
    result = CliRunner().invoke(app, ["--database-url", fresh_database_url, "ingest", str(export)])
    assert result.exit_code == 0, result.output
    heard = [line for line in result.stderr.splitlines() if re.fullmatch(r"ingest: .*long\.csv: [\d,]+/[\d,]+ MB read, "
                                                                         r"[\d,]+ rows", line)]
    assert len(heard) >= 2 and heard[-1].endswith(f"{ROWS:,} rows"), result.stderr
