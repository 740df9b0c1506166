"""A command's start-up without the cyclic collector, and its end without the interpreter's teardown.

Starting `esrpdb ingest FILE` imports SQLAlchemy, psycopg, the catalogue's tables, the formats and the
drafting rules: hundreds of thousands of objects that all live until the command ends, which the
collector walked again and again while they were made (a tenth of the command's start-up). `run`
turns it off before the command line is read; each command turns it back on (`collector_on`) as it
begins, the ingest once its catalogue is open, its heavy imports done. A process forked meanwhile
turns its own back on (ingest/parallel: forked.py, workers.py): what a reading makes is collected.
And a command's end (`ended`, from the console script alone: cli/console.py `entry`) skips the interpreter's
teardown of those objects, which the process's end frees at once.
"""

from __future__ import annotations

import gc
import sys
from typing import NoReturn


def collector_off() -> None:
    gc.disable()


def collector_on() -> None:
    """The start-up's objects (modules, classes, the catalogue's tables: they live as long as the command)
    frozen out of every later collection, and the collector back on; a no-op where it is already on (a
    library caller's process, the tests' CliRunner), which is never frozen."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def ended(code: object) -> NoReturn:
    """The command's end without the interpreter's teardown of its modules and objects (~20 ms of an
    ingest: SQLAlchemy's, psycopg's, the tables', all of which the process's end frees at once). The exit
    handlers run first, as at any exit (the caches' saves, logging, weakref finalizers), and the output
    is flushed; where that cannot be done cleanly (a thread still running, which the interpreter would
    wait for; a closed pipe, which it reports), the command ends the usual way."""
    import atexit
    import os
    import threading

    status = 0 if code is None else code if isinstance(code, int) else None
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if status is None or run_handlers is None or threading.active_count() > 1 or not _flushed():
        raise SystemExit(code)
    run_handlers()
    os._exit(status if _flushed() else 120)  # 120: as the interpreter ends when its output cannot be flushed


def _flushed() -> bool:
    """Standard output and error written out; False when one cannot be (a closed pipe)."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
