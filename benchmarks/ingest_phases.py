"""Where an ingest's time goes: wall time per step of the pipeline, for `bench_html_ingest.py --phases`.

Wraps the pipeline's own functions with timers for the length of a `with` block and puts them
back after; the timed figures of the benchmark are taken without it. Steps nest (COPY is inside
`load_report`, which is inside the commit's transaction), so the rows do not add up to the total.
"""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy.engine import Transaction

from esrpdb.ingest import load, pipeline, registry
from esrpdb.ingest.load import report_statement, writers
from esrpdb.ingest.load.known_files import KnownFiles

# (module or class, attribute, label): the steps of one file's ingest, in the order they run. Each is
# patched where its caller looks it up (writers calls load_report by its own name); tests/test_benchmarks.py
# checks every one exists and is reached by an ingest.
STEPS = (
    (registry, "detect", "detect the format"),
    (KnownFiles, "sha256", "hash the file"),
    (KnownFiles, "held", "already-ingested check"),
    (pipeline, "_read", "read, draft and sanity check"),
    (load, "claim_source_file", "claim the file's row"),
    (writers, "load_report", "write the report"),
    (report_statement, "dumps", "  of which: rows as JSON"),
    (report_statement, "write_report", "  of which: the report's statement"),
    (Transaction, "commit", "commit (stored figures refreshed)"),  # the library's: Core (db/sessions.py CoreSession)
    (pipeline, "link_evidence", "link evidence (once a batch)"),
)


@contextmanager
def timed_steps() -> Iterator[Counter]:
    """Seconds spent in each step while the block runs."""
    spent: Counter = Counter()
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in STEPS]

    def timer(function, label):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - started
        return timed

    for (owner, name, label), (_, _, function) in zip(STEPS, originals):
        setattr(owner, name, timer(function, label))
    try:
        yield spent
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)


def print_steps(spent: Counter, reports: int, total_s: float) -> None:
    print(f"where a report's time goes (one more repetition, timers on): {total_s / reports * 1000:.2f} ms a report")
    for _, _, label in STEPS:
        print(f"  {label:<36}{spent[label] / reports * 1000:7.2f} ms")
