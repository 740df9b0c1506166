"""Charts as Vega-Lite specs, rendered to SVG at build time by vl-convert (no browser, no CDN).

One spec builder serves the site and `esrpdb plot`. Every chart names the runs it uses in its
caption, puts basis and unit in the axis title, and colours bars by the test they come from
(Jetstress release, test type, IOPS per mailbox) so that unlike tests are marked, not mixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .data import CHART_METRICS, Row
from .formatting import BIDI_SHOWN
from .options import TOP_BARS

TOP_POINTS = 2000  # points in the latency scatter
LABELLED_POINTS = 40  # below this many points each point is labelled with its solution key
MEDIAN_RUN_WORDS = "each solution's median run (the median by total IOPS of its largest trial)"


@dataclass
class Chart:
    name: str
    title: str
    caption: str  # which runs and how many solutions the chart uses
    spec: dict[str, Any]
    svg: str | None = None  # filled by render_all; None: rendered in the browser


def _units(rows: list[Row], column: str) -> str:
    return ", ".join(sorted({str(r[column]) for r in rows if r.get(column)})) or "unknown"


def axis_title(metric: str, rows: list[Row]) -> str:
    """The metric's unit and basis, from the rows it is drawn from."""
    if metric == "achieved_iops_per_disk":
        return "achieved IOPS per disk (median run; basis: all disks)"
    if metric == "iops_per_dollar":
        return f"total IOPS per {_units(rows, 'list_price_currency')} of list price (median run)"
    if metric == "mb_per_dollar":
        return f"usable MB (2^20 bytes) per {_units(rows, 'list_price_currency')} of list price"
    if metric == "perf_per_watt":
        return f"total IOPS per active watt (median run; power boundary: {_units(rows, 'power_boundary')})"
    raise KeyError(metric)


def _base(title: str, width: int = 440) -> dict[str, Any]:
    return {"title": title, "width": width,
            "config": {"font": "sans-serif", "legend": {"labelLimit": 400, "titleLimit": 400}},
            "background": "white"}


def _group_colour() -> dict[str, Any]:
    """Colour by test; the legend says why."""
    return {"field": "test", "type": "nominal", "title": "test (unlike tests do not compare)",
            "legend": {"orient": "bottom", "direction": "vertical"}}


def ranked(metric: str, solutions: list[Row]) -> list[Row]:
    """Solutions with a figure for `metric`, best first (ties by key, so every build draws the same)."""
    column, _ = CHART_METRICS[metric]
    return sorted((s for s in solutions if s.get(column) is not None), key=lambda s: (-s[column], s["key"]))


def bar_chart(metric: str, solutions: list[Row], *, top: int = TOP_BARS) -> Chart:
    """One bar per solution with a figure for `metric`, best first; each bar's aria-label is its key,
    so a solution page outlines its own bar with one CSS rule instead of a chart of its own."""
    column, words = CHART_METRICS[metric]
    have = ranked(metric, solutions)
    shown = have[:top]
    values = [{"solution": s["key"], "name": s.get("name", s["key"]), "value": s[column], "test": s["group"]}
              for s in shown]
    groups = len({v["test"] for v in values})
    caption = (f"Uses {MEDIAN_RUN_WORDS}: {len(shown)} of {len(have)} solutions with a figure for {words}"
               + (f" (the top {top})" if len(have) > top else "")
               + (f"; {groups} unlike tests, coloured apart" if groups > 1 else "") + ".")
    spec = {**_base(words), "data": {"values": values}, "mark": {"type": "bar"},
            "height": {"step": 18},
            "encoding": {
                "y": {"field": "name", "type": "nominal", "sort": "-x", "title": None,
                      "axis": {"labelLimit": 220}},
                "x": {"field": "value", "type": "quantitative", "title": axis_title(metric, have)},
                "color": _group_colour(),
                "description": {"field": "solution"}}}
    return Chart(f"bar-{metric}", words, caption, spec)


def name_labels(values: list[Row], x: str, y: str, *, dx: int) -> list[dict[str, Any]]:
    """A scatter's text layer naming each mark, while there are few enough marks to read the names."""
    if len(values) > LABELLED_POINTS:
        return []
    return [{"mark": {"type": "text", "align": "left", "dx": dx, "fontSize": 10},
             "encoding": {"x": {"field": x, "type": "quantitative"}, "y": {"field": y, "type": "quantitative"},
                          "text": {"field": "name"}}}]


def latency_scatter(points: list[Row], groups: dict[str, str], names: dict[str, str] | None = None) -> Chart:
    """Read latency against log-write latency of each solution's median run (from its report)."""
    shown = points[:TOP_POINTS]
    values = [{"solution": p["key"], "name": (names or {}).get(p["key"], p["key"]), "read": p["db_read_latency_ms"],
               "log": p["log_write_latency_ms"],
               "test": groups.get(p["key"], "")} for p in shown]
    caption = (f"Uses {MEDIAN_RUN_WORDS} when it has a Jetstress report with latencies: {len(shown)} of "
               f"{len(points)} such solutions; averages over database instances (reads) and log volumes (writes).")
    point = {"mark": {"type": "point", "filled": True, "size": 80},
             "encoding": {
                 "x": {"field": "log", "type": "quantitative", "title": "log write latency, ms (average)"},
                 "y": {"field": "read", "type": "quantitative", "title": "database read latency, ms (average)"},
                 "color": _group_colour(),
                 "description": {"field": "solution"}}}
    layers = [point, *name_labels(values, "log", "read", dx=7)]
    spec = {**_base("read latency vs log write latency"), "height": 300, "data": {"values": values},
            "layer": layers}
    return Chart("scatter-latency", "Read latency vs log write latency", caption, spec)


def spread_overview(solutions: list[Row], *, top: int = TOP_BARS) -> Chart:
    """The spread of total IOPS within each solution's median trial: one bar per solution."""
    have = sorted((s for s in solutions if s.get("spread_percent") is not None and (s.get("runs_in_trial") or 0) > 1),
                  key=lambda s: (-s["spread_percent"], s["key"]))
    shown = have[:top]
    values = [{"solution": s["key"], "name": s.get("name", s["key"]), "value": s["spread_percent"],
               "runs": s["runs_in_trial"], "test": s["group"]}
              for s in shown]
    caption = (f"Uses every run of each solution's median trial (trials of more than one run): {len(shown)} of "
               f"{len(have)} solutions; spread = (max - min) / median total IOPS x 100.")
    spec = {**_base("spread of total IOPS within the trial"), "data": {"values": values}, "height": {"step": 18},
            "mark": {"type": "bar"},
            "encoding": {"y": {"field": "name", "type": "nominal", "sort": "-x", "title": None,
                               "axis": {"labelLimit": 220}},
                         "description": {"field": "solution"},
                         "x": {"field": "value", "type": "quantitative",
                               "title": "spread of total IOPS within the trial, % of the median run"},
                         "color": _group_colour()}}
    return Chart("bar-spread", "Run-to-run spread", caption, spec)


def run_spread(name: str, runs: list[Row]) -> Chart:
    """Every run of one solution (`name`: what the site calls it) with a total IOPS figure, by trial,
    the median run marked."""
    ranked = [r for r in runs if r.get("total_iops") is not None]
    values = [{"run": f"{r.get('trial') or 'no trial'} · {r.get('run_label') or 'run ' + str(r['run_id'])}",
               "value": r["total_iops"], "median": "median run" if r.get("is_median_run") else "other run",
               "spread": r.get("spread_percent")} for r in ranked]
    spreads = sorted({(r.get("trial") or "no trial", r["spread_percent"]) for r in ranked
                      if r.get("spread_percent") is not None and (r.get("runs_in_trial") or 0) > 1})
    caption = (f"Uses every run of {name} with a total IOPS figure ({len(values)} runs); the median run of each "
               "trial is marked" + "".join(f"; {trial}: spread {spread:.2f}% of the median" for trial, spread in spreads)
               + ".")
    spec = {**_base(f"{name}: total IOPS of every run", width=360), "data": {"values": values},
            "height": {"step": 20}, "mark": {"type": "bar"},
            "encoding": {"y": {"field": "run", "type": "nominal", "title": None, "sort": None,
                               "axis": {"labelLimit": 260}},
                         "x": {"field": "value", "type": "quantitative", "title": "total IOPS (achieved + log)"},
                         "color": {"field": "median", "type": "nominal", "title": None,
                                   "legend": {"orient": "bottom"}}}}
    return Chart("runs", "Runs and trials", caption, spec)


_UNDRAWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def drawable(value: Any) -> Any:
    """The spec with every control character in its strings written as \\uXXXX: the renderer aborts the
    process on some of them (a vertical tab in a run label), and a label should show what is stored. Bidi
    controls are shown as their code point, as on the pages (formatting.plain_text): obeyed, they would
    reorder a label ("exe.txt" read backwards)."""
    if isinstance(value, str):
        return _UNDRAWABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", value).translate(BIDI_SHOWN)
    if isinstance(value, dict):
        return {drawable(k): drawable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [drawable(v) for v in value]
    return value


# vl-convert's loader resolves a mark's relative href against its data sets' home; the site's links
# are relative to the page, so the prefix is taken off again.
_LOADER_BASE = 'xlink:href="https://vega.github.io/vega-datasets/'


def render_svg(spec: dict[str, Any]) -> str:
    """SVG text for one spec; vl-convert runs Vega in-process, so no browser is needed."""
    import vl_convert

    svg = vl_convert.vegalite_to_svg(drawable(spec)).replace(_LOADER_BASE, 'xlink:href="')
    return svg[svg.index("<svg"):] if "<svg" in svg else svg


def write_chart(chart: Chart, path: Path) -> None:
    """Save one chart as .svg or .png, chosen by the file's suffix."""
    import vl_convert

    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(render_svg(chart.spec), encoding="utf-8")
    elif suffix == ".png":
        path.write_bytes(vl_convert.vegalite_to_png(drawable(chart.spec), scale=2))
    else:
        raise ValueError(f"unsupported chart format {path.suffix!r}: use .svg or .png")
