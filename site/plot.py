"""The chart `esrpdb plot` draws, by name: the site's index charts and ESRP's, one place for both."""

from __future__ import annotations

from . import charts, esrp_charts
from .charts import Chart
from .data import CHART_METRICS, Row
from .options import PLOT_METRICS, TOP_BARS


def plot_chart(metric: str, solutions: list[Row], latency_points: list[Row], *, top: int = TOP_BARS) -> Chart:
    """The chart `esrpdb plot METRIC` draws: the site's own index chart for that metric (the ESRP
    charts without their links to solution pages, which mean nothing outside the site)."""
    if metric in CHART_METRICS:
        return charts.bar_chart(metric, solutions, top=top)
    if metric == "latency":
        return charts.latency_scatter(latency_points, {s["key"]: s["group"] for s in solutions},
                                      {s["key"]: s.get("name", s["key"]) for s in solutions})
    if metric == "spread":
        return charts.spread_overview(solutions, top=top)
    if metric == "log_playback":
        return esrp_charts.log_playback(solutions, link_root=None)
    if metric == "backup_throughput":
        return esrp_charts.backup_bars(solutions, top=top, link_root=None)
    raise KeyError(f"unknown chart {metric!r}; known: {', '.join(PLOT_METRICS)}")
