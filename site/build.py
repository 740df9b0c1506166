"""`build_site(engine, out)`: the catalogue as static pages that open from disk.

No server, no CDN: styles and scripts are copied from this package, charts are inline SVG drawn
at build time. Above `static_chart_limit` solutions the solution pages carry their Vega-Lite
specs instead and the vendored Vega bundle draws them in the browser, because rendering tens of
thousands of SVGs at build time would take minutes (see docs/site.md); the index charts are
always drawn at build time.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy import Engine

from . import (
    audit_view,
    charts as charts_lib,
    classes as classes_lib,
    compare_view,
    esrp_charts,
    out_folder,
    pages as pages_lib,
    schema_page,
)
from .data import CHART_METRICS, Catalogue, index_filters, load_catalogue
from .formatting import FILTERS, plain_text
from .options import STATIC_CHART_LIMIT

STATIC_FILES = ("site.css", "site.js")
# Index charts solution pages leave out: the spread overview, and the ESRP charts whose marks link
# to "solutions/KEY.html", a path relative to the index.
INDEX_ONLY = ("bar-spread", "log-playback", "bar-backup")


class SiteExists(FileExistsError):
    """OUT exists and is not empty, and --force was not given."""


@dataclass
class BuildReport:
    out: Path
    solutions: int
    pages: int
    charts_svg: int
    client_charts: bool
    seconds: float
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase, to see where a build goes
    interrupted_after_move: bool = False  # Ctrl-C came while the whole site was being moved in: it is written


def environment() -> Environment:
    env = Environment(loader=PackageLoader("esrpdb.site", "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True, finalize=plain_text)
    env.filters.update(FILTERS, drawable=charts_lib.drawable)  # a spec drawn in the browser: as drawn at build time
    return env


def prepare_out(out: Path, force: bool) -> None:
    """Refuse a non-empty OUT unless forced (nothing is removed yet: `_move_into_place` replaces)."""
    if out.exists() and not out.is_dir():
        raise SiteExists(f"{out} exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise SiteExists(f"{out} exists and is not empty; use --force to replace the site in it")
    out.mkdir(parents=True, exist_ok=True)


def _move_into_place(staging: Path, out: Path) -> None:
    """Swap the built site in: only what a build writes is replaced (site/out_folder.py: the user's own
    files in OUT's folders stay), and a link in OUT is replaced as a link (never followed)."""
    out_folder.move_into_place(staging, out)


def _move_uninterrupted(staging: Path, out: Path) -> bool:
    """The move with Ctrl-C and SIGTERM held back, so OUT never holds half of each site; True when
    one arrived meanwhile (taken here: the caller reports the interrupt after the site is whole)."""
    import signal

    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        _move_into_place(staging, out)
        pending = held & signal.sigpending()
        for signum in pending:
            signal.sigtimedwait({signum}, 0)
        return bool(pending)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _write(path: Path, content: str) -> None:
    path.write_text(content, encoding="utf-8")


def _static(out: Path, client_charts: bool) -> None:
    static = out / "static"
    static.mkdir(exist_ok=True)
    package = resources.files("esrpdb.site") / "static"
    for name in STATIC_FILES:
        (static / name).write_bytes((package / name).read_bytes())
    if client_charts:
        (static / "vega-bundle.js").write_bytes(vega_bundle())


def vega_bundle() -> bytes:
    """Vega, Vega-Lite and vega-embed as one script, from vl-convert (which carries them; nothing is
    downloaded). Bundling takes seconds, so it is cached per vl-convert version."""
    import vl_convert
    from platformdirs import user_cache_dir

    version = "-".join([vl_convert.get_vega_version(), vl_convert.get_vega_embed_version(),
                        vl_convert.get_vegalite_versions()[-1]])
    cached = Path(user_cache_dir("esrpdb")) / f"vega-bundle-{version}.js"
    if cached.is_file():
        return cached.read_bytes()
    bundle = vl_convert.javascript_bundle().encode("utf-8")  # type: ignore[call-arg]  # snippet is optional at run time
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(bundle)
        partial.replace(cached)
    except OSError:
        pass  # a read-only cache folder only costs the next build the same seconds
    return bundle


def index_charts(cat: Catalogue) -> list[charts_lib.Chart]:
    """The index's charts, drawn once and shared by every solution page."""
    groups = {s["key"]: s["group"] for s in cat.solutions}
    return ([charts_lib.bar_chart(metric, cat.solutions) for metric in CHART_METRICS]
            + [charts_lib.latency_scatter(cat.latency_points, groups, cat.names), charts_lib.spread_overview(cat.solutions),
               esrp_charts.log_playback(cat.solutions), esrp_charts.backup_bars(cat.solutions)])


def rank_notes(cat: Catalogue) -> dict[str, dict[str, str]]:
    """Per solution and chart: where the solution stands, in words (listed above its page's charts)."""
    notes: dict[str, dict[str, str]] = {s["key"]: {} for s in cat.solutions}
    for metric, (column, words) in CHART_METRICS.items():
        have = charts_lib.ranked(metric, cat.solutions)
        for rank, s in enumerate(have, start=1):
            drawn = "" if rank <= charts_lib.TOP_BARS else f"; only the top {charts_lib.TOP_BARS} are drawn"
            notes[s["key"]][f"bar-{metric}"] = f"{words}: {s[column]:,.4g}, rank {rank} of {len(have)}{drawn}."
        for s in cat.solutions:
            notes[s["key"]].setdefault(f"bar-{metric}", f"{words}: no figure.")
    plotted = {p["key"] for p in cat.latency_points}
    for s in cat.solutions:
        notes[s["key"]]["scatter-latency"] = ("latencies: plotted in the scatter" if s["key"] in plotted
                                              else "latencies: its median run has no report latencies")
    return notes


def build_site(engine: Engine, out: Path | str, force: bool = False,
               static_chart_limit: int = STATIC_CHART_LIMIT) -> BuildReport:
    """Write the whole site to `out`; `engine` may be the read-only role.

    The site is built in a hidden folder inside OUT and moved into place when whole: a build that
    fails (or is interrupted) leaves OUT as it was.
    """
    import tempfile

    out = Path(out)
    prepare_out(out, force)
    staging = Path(tempfile.mkdtemp(prefix=".esrpdb-site-", dir=out))
    try:
        report = _build(engine, staging, static_chart_limit)
        report.interrupted_after_move = _move_uninterrupted(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    report.out = out
    return report


def _build(engine: Engine, out: Path, static_chart_limit: int) -> BuildReport:
    started = time.perf_counter()
    phases: dict[str, float] = {}
    lap = time.perf_counter()
    cat = load_catalogue(engine)
    phases["read"], lap = time.perf_counter() - lap, time.perf_counter()
    env = environment()
    client_charts = len(cat.solutions) > static_chart_limit
    _static(out, client_charts)

    charts = index_charts(cat) if cat.solutions else []
    if charts:
        (out / "charts").mkdir(exist_ok=True)
    for chart in charts:
        chart.svg = charts_lib.render_svg(chart.spec)
        _write(out / "charts" / f"{chart.name}.svg", chart.svg)
    rendered = len(charts)
    _write(out / "index.html", env.get_template("index.html").render(
        root="", solutions=cat.solutions, filters=index_filters(cat), charts=charts, client_charts=False,
        unattached=len(cat.findings.get(None, []))))
    pages = 1
    phases["index"], lap = time.perf_counter() - lap, time.perf_counter()

    shared = env.get_template("_macros.html").module.charts(  # type: ignore[attr-defined]  # a Jinja macro
        [c for c in charts if c.name not in INDEX_ONLY], img=client_charts, root="../")
    job = pages_lib.Job(out, env, cat, Markup(shared), rank_notes(cat), client_charts)
    rendered += pages_lib.render_all(job)
    pages += len(cat.solutions)
    phases["solution pages"], lap = time.perf_counter() - lap, time.perf_counter()

    pages += compare_view.write_pages(out, env, cat, engine)
    phases["compare"], lap = time.perf_counter() - lap, time.perf_counter()

    _write(out / "classes.html", env.get_template("classes.html").render(
        root="", client_charts=False, **classes_lib.class_page(cat)))
    pages += 1
    phases["classes"], lap = time.perf_counter() - lap, time.perf_counter()

    _write(out / "audit.html", env.get_template("audit.html").render(
        root="", client_charts=False, **audit_view.audit_page(cat)))
    pages += 1
    phases["audit"], lap = time.perf_counter() - lap, time.perf_counter()

    _write(out / "schema.html", env.get_template("schema.html").render(
        root="", client_charts=False, **schema_page.schema_page(engine)))
    pages += 1
    phases["schema"] = time.perf_counter() - lap
    return BuildReport(out, len(cat.solutions), pages, rendered, client_charts, time.perf_counter() - started, phases)
