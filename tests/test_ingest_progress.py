"""Issue 26: a long file in hand shows how far it has got (bytes read, rows written) on a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from datetime import datetime, timedelta

from esrpdb.ingest.load import progress
from esrpdb.ingest.pipeline import ingest_paths

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
