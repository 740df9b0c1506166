"""Issue 49: bidi controls reach the site's charts too (a solution's name in a bar's label, a run's label in
its own chart): there they are shown as their code point, as the pages' text already is, never obeyed."""

from __future__ import annotations

import json

from esrpdb.site import charts
from esrpdb.site.build import environment

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
NAME = "Vendor\u202egpj.exe\u2066 X\u2069 \u200f"


def _solutions() -> list[dict]:
    return [{"key": f"s{n}", "name": f"{NAME}{n}", "total_iops": 1000.0 + n, "group": "Jetstress 2013\u202e"}
            for n in range(3)]


def _no_bidi(text: str) -> bool:
    return not any(c in text for c in BIDI)


def test_a_bar_charts_svg_shows_bidi_controls_as_code_points():
    metric = next(iter(charts.CHART_METRICS))
    column = charts.CHART_METRICS[metric][0]
    chart = charts.bar_chart(metric, [{**s, column: s["total_iops"]} for s in _solutions()])
    svg = charts.render_svg(chart.spec)
    assert _no_bidi(svg)
    assert "Vendor[U+202E]gpj.exe[U+2066] X[U+2069] [U+200F]0" in svg


def test_a_run_chart_titled_by_its_solution_shows_them_too():
    runs = [{"run_id": 1, "run_label": "run\u202e1", "trial": "t\u2067", "total_iops": 5.0, "is_median_run": True}]
    svg = charts.render_svg(charts.run_spread(NAME, runs).spec)
    assert _no_bidi(svg) and "run[U+202E]1" in svg and "t[U+2067]" in svg


def test_a_spec_drawn_in_the_browser_carries_no_bidi_control():
    """Above the static chart limit the page carries the spec and Vega draws it in the browser."""
    chart = charts.run_spread(NAME, [{"run_id": 1, "run_label": "r\u202e", "total_iops": 5.0}])
    page = environment().get_template("_macros.html").module.chart(chart)  # type: ignore[attr-defined]
    spec = page.split('class="chart-spec">', 1)[1].split("</script>", 1)[0]
    assert _no_bidi(spec) and "r[U+202E]" in json.loads(spec)["data"]["values"][0]["run"]
