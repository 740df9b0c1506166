"""Solution pages: one template render and one file each, in worker processes for large catalogues.

Rendering 10,000 pages is most of a large build (about 3 ms a page, all in Python), so above
PARALLEL_FROM solutions the pages are split over forked workers, one per CPU. Workers inherit the
catalogue and the templates by fork and only render and write; they never touch the database or
vl-convert, so nothing forked is used twice. Where fork is missing the pages render in order.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

from . import charts as charts_lib
from .data import Catalogue

PARALLEL_FROM = 1000  # solutions; below, a pool costs more than it saves


@dataclass
class Job:
    out: Path
    env: Environment
    cat: Catalogue
    shared: str  # the index charts every page shows, as HTML rendered once
    notes: dict[str, dict[str, str]]
    client_charts: bool
    page_of: dict[str, str] | None = None  # solution key -> page name, for links to other solutions
    name_of: dict[str, str] | None = None  # solution key -> name, for those links' text

    def __post_init__(self) -> None:
        if self.page_of is None:
            self.page_of = {s["key"]: s["page"] for s in self.cat.solutions}
        if self.name_of is None:
            self.name_of = self.cat.names


_JOB: Job | None = None  # set before forking; the workers read it


def render_one(job: Job, s: dict) -> int:
    """Write one solution's page; return how many charts were drawn to SVG for it."""
    key, cat = s["key"], job.cat
    own = charts_lib.run_spread(s["name"], cat.runs.get(key, []))
    if not job.client_charts:
        own.svg = charts_lib.render_svg(own.spec)
    html = job.env.get_template("solution.html").render(
        root="../", s=s, d=cat.details.get(key, {}), disks=cat.disks.get(key, []), runs=cat.runs.get(key, []),
        latencies=cat.latencies.get(key, []), findings=cat.findings.get(key, []),
        causes=cat.cause_rows.get(key, []), shared=job.shared, own=own,
        notes=job.notes[key], pages=job.page_of, names=job.name_of, client_charts=job.client_charts)
    (job.out / "solutions" / f"{s['page']}.html").write_text(html, encoding="utf-8")
    return 0 if job.client_charts else 1


def _render_range(bounds: tuple[int, int]) -> int:
    job = _JOB
    return sum(render_one(job, s) for s in job.cat.solutions[bounds[0]:bounds[1]])


def _workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def render_all(job: Job) -> int:
    """Every solution page; returns the number of charts drawn to SVG."""
    global _JOB
    solutions = job.cat.solutions
    if solutions:
        (job.out / "solutions").mkdir(exist_ok=True)
    workers = _workers()
    parallel = (len(solutions) >= PARALLEL_FROM and workers > 1 and job.client_charts
                and "fork" in multiprocessing.get_all_start_methods())
    if not parallel:
        return sum(render_one(job, s) for s in solutions)
    step = -(-len(solutions) // (workers * 4))
    ranges = [(start, min(start + step, len(solutions))) for start in range(0, len(solutions), step)]
    _JOB = job
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return sum(pool.map(_render_range, ranges))
    finally:
        _JOB = None
