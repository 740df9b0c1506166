"""cli/console.py: `ingest PATH...` is recognised from the command line before the CLI framework loads,
by the very options the real command has, and the worker forked for it is the one the command takes;
a command line it does not plainly recognise is left alone. The catalogue written through this path is
tests/test_speed_equivalence.py's (the command as typed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer
from typer.core import TyperOption

from esrpdb.cli import console
from esrpdb.cli.main import app


@pytest.mark.parametrize("argv, paths", [
    (["ingest", "a.pdf"], ["a.pdf"]),
    (["--catalogue", "x", "ingest", "-f", "json", "a", "b"], ["a", "b"]),
    (["--database-url=postgresql://h/d", "--debug", "ingest", "--failfast", "-v", "a", "--solution", "k"], ["a"]),
    (["--catalogue=x", "ingest", "--", "-named-with-a-dash.pdf"], ["-named-with-a-dash.pdf"]),
    (["ingest", "--format=csv", "-", "b"], ["-", "b"]),
])
def test_an_ingest_command_line_gives_its_paths(argv, paths):
    assert console.ingest_paths(argv) == paths


@pytest.mark.parametrize("argv", [
    [], ["--version"], ["ingest"], ["ingest", "--help", "a"], ["ingest", "-fjson", "a"], ["sql", "select 1"],
    ["--catalogue"], ["ingest", "a", "--solution"], ["--no-such-option", "ingest", "a"], ["ingest", "--new", "a"],
    ["--catalogue", "x", "query", "ingest", "a"],
])
def test_anything_else_is_left_to_the_cli(argv):
    assert console.ingest_paths(argv) is None


def _options(command) -> tuple[set[str], set[str]]:
    """(names of options that take a value, names of flags) of a Typer command, --help aside."""
    values: set[str] = set()
    flags: set[str] = set()
    for param in command.params:
        if isinstance(param, TyperOption):
            names = set(param.opts) | set(param.secondary_opts)
            (flags if param.is_flag or param.count else values).update(names)
    return values, flags - {"--help"}


def test_the_words_are_the_real_commands_options():
    """A value-taking option listed as a flag would make its value a path (a worker for nothing), one
    missing would leave the command line to the CLI alone: the lists are the command's own."""
    group = typer.main.get_command(app)
    values, flags = _options(group)
    assert values == set(console.GLOBAL_VALUES)
    eager = {"--version", "-V", "--install-completion", "--show-completion"}  # they end the command at once
    assert flags - eager == set(console.GLOBAL_FLAGS)
    values, flags = _options(group.commands["ingest"])  # type: ignore[attr-defined]
    assert values == set(console.INGEST_VALUES) and flags == set(console.INGEST_FLAGS)


def _entry_reporting_the_take(*argv: str, tmp_path) -> subprocess.CompletedProcess:
    """The console script with `argv`, printing whether the ingest command took the early worker."""
    script = (
        "import sys\nfrom esrpdb.ingest import reading\nfirst = reading.early_reading\n"
        "def reporting(paths):\n    ahead = first(paths)\n"
        "    print('took the early worker' if ahead is not None else 'no early worker', flush=True)\n"
        "    return ahead\n"
        f"reading.early_reading = reporting\nsys.argv = ['esrpdb', *{list(argv)!r}]\n"
        "from esrpdb.cli import console\nconsole.entry()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)


def test_the_ingest_command_takes_the_worker_forked_for_its_paths(tmp_path):
    """A PDF worth a worker (read_ahead.MIN_BYTES): the worker forked before the CLI loaded is the one the
    command takes. (The URL reaches no server: the command fails after taking it, as it would have.)"""
    pdf = tmp_path / "big.pdf"
    pdf.write_bytes(b"%PDF-1.4\n" + b"%" * 200_000)
    url = f"postgresql+psycopg://nobody@/nowhere?host={tmp_path}"
    taken = _entry_reporting_the_take("--database-url", url, "ingest", str(pdf), tmp_path=tmp_path)
    assert "took the early worker" in taken.stdout, taken.stdout + taken.stderr
    not_recognised = _entry_reporting_the_take("--database-url", url, "ingest", "-fcsv", str(pdf), tmp_path=tmp_path)
    assert "no early worker" in not_recognised.stdout  # the command starts its own, as before
