"""Issue 47: a listing on a terminal is a table that fits it (the columns that fit, text wrapped, the
others named; `--columns` chooses), blocks of `header: value` lines only when not even two columns fit."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios

from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import pty_screen

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def _on_terminal(url: str, columns: int, *args: str) -> str:
    """The command run on a pseudo-terminal `columns` wide, as a person sees it (stdout and stderr)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("ESRPDB_READER_URL", "COLUMNS")} | {"TERM": "xterm"}
    process = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, *args],
                               stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    screen = pty_screen(leader)
    assert process.wait(timeout=120) == 0, screen.decode(errors="replace")
    os.close(leader)
    return ANSI.sub("", screen.decode()).replace("\r\n", "\n")


def test_solutions_fit_a_160_column_terminal_as_a_table(seed_catalog_url):
    shown = _on_terminal(seed_catalog_url, 160, "solutions")
    lines = shown.splitlines()
    assert "row 1" not in shown and any(line.startswith("┏") for line in lines)
    assert max(len(line) for line in lines if line[:1] in "┏┃┡│└") <= 160
    assert len(lines) < 100  # 14 solutions, not ~215 lines of blocks
    note = next(line for line in lines if line.startswith("note: "))
    assert re.match(r"note: \d+ of 14 columns left out to fit 160 characters: ", note) and "--columns" in note
    header = " ".join(line for line in lines if line.startswith("┃"))
    assert "key" in header and "model" in header
    for key in (row["key"] for row in json.loads(CliRunner().invoke(
            app, ["--database-url", seed_catalog_url, "solutions", "-f", "json"]).stdout)):
        assert f"│ {key}" in shown  # every row, its key whole


def test_columns_chooses_what_a_listing_shows(seed_catalog_url):
    shown = _on_terminal(seed_catalog_url, 100, "solutions", "--columns", "key,run_count", "-c", "status")
    header = next(line for line in shown.splitlines() if line.startswith("┃") and "key" in line)
    assert [cell.strip() for cell in header.strip("┃").split("┃")] == ["key", "run count", "status"]
    assert "note:" not in shown
    rows = json.loads(CliRunner().invoke(app, ["--database-url", seed_catalog_url, "runs", "-f", "json",
                                               "--columns", "run_id,solution"]).stdout)
    assert rows and all(list(row) == ["run_id", "solution"] for row in rows)
    typo = CliRunner().invoke(app, ["--database-url", seed_catalog_url, "solutions", "--columns", "key,modle"])
    assert typo.exit_code == 1 and typo.stderr.startswith("Error: unknown column 'modle' (did you mean 'model'?)")


def test_blocks_only_when_not_even_two_columns_fit(seed_catalog_url):
    shown = _on_terminal(seed_catalog_url, 30, "solutions")
    assert "— row 1 —" in shown and "┏" not in shown
