"""The `esrpdb` console script: the worker that reads `ingest FILE`'s PDF forked before anything else loads.

`esrpdb ingest FILE` runs on two paths at once, the worker reading the PDF and the command loading its
database side (benchmarks/bench_timeline.py); the worker's was the longer. It began only once the CLI
framework had loaded and read the command line (~0.07 s). Here the command line is recognised first,
by the few words `ingest` takes (`ingest_paths`); the worker is forked (ingest/reading.py `start_early`),
and only then does the framework load and read the command line itself, the ingest command taking the
worker when it was started for the very paths it was given (anything else: it is stopped, and the
command starts its own as before). A command line this does not plainly recognise (an option it does
not know, `--help`) is left to the framework alone. tests/test_cli_console.py holds the words below
to the real command's options.
"""

from __future__ import annotations

import sys

# The options of `esrpdb [OPTIONS] ingest [OPTIONS] PATH...` (cli/main.py `main`, cli/ingest_command.py):
# those that take a value, and the flags.
GLOBAL_VALUES = frozenset({"--database-url", "--reader-url", "--catalogue"})
GLOBAL_FLAGS = frozenset({"--debug"})
INGEST_VALUES = frozenset({"--solution", "--format", "-f"})
INGEST_FLAGS = frozenset({"--new-solution", "--failfast", "--verbose", "-v"})


def ingest_paths(argv: list[str]) -> list[str] | None:
    """The paths of a command line that is plainly `[global options] ingest [options] PATH...`, else None."""
    words = iter(argv)
    for word in words:
        if word == "ingest":
            break
        if not _option(word, words, GLOBAL_VALUES, GLOBAL_FLAGS):
            return None
    else:
        return None
    paths: list[str] = []
    only_paths = False
    for word in words:
        if only_paths or word == "-" or not word.startswith("-"):
            paths.append(word)
        elif word == "--":
            only_paths = True
        elif not _option(word, words, INGEST_VALUES, INGEST_FLAGS):
            return None
    return paths or None


def _option(word: str, words, values: frozenset[str], flags: frozenset[str]) -> bool:
    """Whether `word` is one of these options (its value taken from `words` when it is not `--name=value`)."""
    if word in flags:
        return True
    name, has_value, _ = word.partition("=")
    if name not in values:
        return False
    return bool(has_value) or next(words, None) is not None


def entry() -> None:
    """The console script: the reading worker forked (for `ingest PATH...`), then the command (cli/main.py
    `run`), then the process's end without the interpreter's teardown (startup.ended). Only for a process
    of its own: it ends the process, whoever called it."""
    from .. import kept_code
    from . import startup

    startup.collector_off()
    kept_code.install()
    paths = ingest_paths(sys.argv[1:])
    if paths is not None:
        from ..ingest.reading import start_early

        start_early(paths)
    from .main import run

    try:
        run()
    except SystemExit as done:
        startup.ended(done.code)
    startup.ended(0)
