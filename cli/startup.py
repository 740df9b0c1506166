"""A command's start-up without the cyclic collector.

Starting `esrpdb ingest FILE` imports SQLAlchemy, psycopg, the catalogue's tables, the formats and the
drafting rules: hundreds of thousands of objects that all live until the command ends, which the
collector walked again and again while they were made (a tenth of the command's start-up). `run`
turns it off before the command line is read; each command turns it back on (`collector_on`) as it
begins, the ingest once its catalogue is open, its heavy imports done. A process forked meanwhile
turns its own back on (ingest/parallel: forked.py, workers.py): what a reading makes is collected.
"""

from __future__ import annotations

import gc


def collector_off() -> None:
    gc.disable()


def collector_on() -> None:
    """The start-up's objects (modules, classes, the catalogue's tables: they live as long as the command)
    frozen out of every later collection, and the collector back on; a no-op where it is already on (a
    library caller's process, the tests' CliRunner), which is never frozen."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
