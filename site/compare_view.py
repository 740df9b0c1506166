"""The compare pages: what `esrpdb compare` prints, for any pair, from the same library.

Every solution's figures are read once by `queries.compare_figures.read_figures` (as compare
reads two); the static pages are `queries.compare.compare_figures` over them, with names for
keys. The any-pair page gets the same figures as data (each as its value and its trial's range)
and site.js writes the rows compare_figures would (tests/test_site_browser.py holds the two equal).
The pair a visitor lands on is chosen by a rule (`default_pair`), never by name.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from itertools import combinations
from pathlib import Path
from typing import Any

from jinja2 import Environment
from sqlalchemy import Engine

from ..queries import compare as compare_lib
from ..queries.compare_figures import METRICS, SolutionFigures, figure_keys, read_figures
from .data import Catalogue, page_name

Row = dict[str, Any]
ALL_METRICS = tuple(METRICS)
HEADLINE = ("achieved_iops_per_disk", "all")  # both sides of the default pair have it (the index's first chart)
LIKE_GROUP_LIMIT = 200  # solutions per like group searched for the default pair: the ones with most figures


def _key(figure: tuple[str, str | None]) -> str:
    return f"{figure[0]}|{figure[1] or ''}"


def pair_view(a: str, b: str, cat: Catalogue, figures: dict[str, SolutionFigures]) -> Row:
    """compare's rows for a pair, named: the rows where either side has the figure, and the metrics neither has."""
    left, right = cat.solution(a), cat.solution(b)
    report = compare_lib.compare_figures(figures.get(a, SolutionFigures(a)), figures.get(b, SolutionFigures(b)),
                                         ALL_METRICS, names=(left["name"], right["name"]))
    rows = [{"words": compare_lib.metric_words(r.metric, r.disk_basis), "metric": r.metric, "basis": r.disk_basis,
             "value_a": r.value_a, "value_b": r.value_b, "percent_more": r.percent_more,
             "percent_more_min": r.percent_more_min, "percent_more_max": r.percent_more_max, "sentence": r.sentence}
            for r in report.rows]
    return {"a": left, "b": right, "rows": [r for r in rows if r["value_a"] is not None or r["value_b"] is not None],
            "neither": [r["words"] for r in rows if r["value_a"] is None and r["value_b"] is None],
            "unlike": report.unlike}


def _like_group(s: Row, f: SolutionFigures | None) -> tuple | None:
    """Solutions alike in what compare notes and in mailbox class; None where the test is not known."""
    if f is None or f.run_id is None or f.value(*HEADLINE) is None:
        return None
    test = f.test
    if test.get("jetstress_release") is None or test.get("report_type") is None or s.get("mailbox_class") is None:
        return None
    return (test["jetstress_release"], test["report_type"], test.get("iops_per_mailbox"), test.get("scenario"),
            s["mailbox_class"])


def default_pair(cat: Catalogue, figures: dict[str, SolutionFigures]) -> tuple[str, str] | None:
    """The pair the compare page opens on: like tests (the same Jetstress release, test type, IOPS per
    mailbox, condition and mailbox class, and no note from compare), both with the headline figure;
    the most figures in common first, then a pair a document compares, then the menu's order. None
    where no two solutions were tested alike."""
    keys = [s["key"] for s in cat.solutions]
    if len(keys) < 2:
        return None
    groups: dict[tuple, list[str]] = defaultdict(list)
    for s in cat.solutions:
        if (group := _like_group(s, figures.get(s["key"]))) is not None:
            groups[group].append(s["key"])
    claimed, order = set(cat.claimed_pairs), {k: i for i, k in enumerate(keys)}
    best: tuple | None = None
    for members in groups.values():
        members = sorted(members, key=lambda k: (-len(figures[k].values), order[k]))[:LIKE_GROUP_LIMIT]
        for a, b in combinations(sorted(members, key=order.get), 2):
            fa, fb = figures[a], figures[b]
            if compare_lib.unlike_notes(a, fa.test, b, fb.test):
                continue
            if (b, a) in claimed and (a, b) not in claimed:
                a, b = b, a
            rank = (-len(fa.values.keys() & fb.values.keys()), (a, b) not in claimed, order[a], order[b])
            if best is None or rank < best[0]:
                best = (rank, (a, b))
    return best[1] if best else None


def _packed(f: SolutionFigures, figures: list[tuple[str, str | None]]) -> list[list | None]:
    """Each figure in `figures`' order as [value, lowest, highest, runs] of its trial (runs 0 for a
    per-solution figure), null where the solution has none: a list keeps 10,000 solutions' data small."""
    out: list[list | None] = []
    for figure in figures:
        value, trial = f.values.get(figure), f.trial_values.get(figure, [])
        out.append(None if value is None else [value, min(trial) if trial else None, max(trial) if trial else None,
                                               len(trial)])
    return out


def _test(f: SolutionFigures) -> dict[str, list]:
    """What unlike_notes compares, as [value, the words compare prints for it]."""
    out = {c: [v, compare_lib.unlike_value(v)] for c, v in f.test.items() if c in compare_lib.LIKENESS and v is not None}
    if f.test.get("duration_h"):
        out["duration_h"] = [f.test["duration_h"], f"{f.test['duration_h']:.1f}"]
    return out


def page_data(cat: Catalogue, figures: dict[str, SolutionFigures], pair: tuple[str, str] | None) -> Row:
    """compare-data.js: compare's words and likeness rules, and every solution's figures."""
    order = figure_keys(ALL_METRICS)
    solutions = {}
    for s in cat.solutions:
        f = figures.get(s["key"], SolutionFigures(s["key"]))
        solutions[s["key"]] = {"name": s["name"], "page": s["page"], "run": f.run_id is not None,
                               "figures": _packed(f, order), "test": _test(f)}
    return {"figures": [[_key(k), compare_lib.metric_words(*k)] for k in order],
            "likeness": compare_lib.LIKENESS, "duration_share": compare_lib.DURATION_SHARE,
            "default": list(pair) if pair else None, "solutions": solutions}


def _finite(value: Any) -> Any:
    """NaN and infinities as null: JSON has neither."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _json(data: Row) -> str:
    return json.dumps(_finite(data), ensure_ascii=True, allow_nan=False, default=str).replace("</", "<\\/")


def write_pages(out: Path, env: Environment, cat: Catalogue, engine: Engine) -> int:
    """compare.html (the default pair written out, any pair in the browser) and one page per pair a
    document compares; returns the number of pages."""
    with engine.connect() as conn:
        figures = read_figures(conn) if cat.solutions else {}
    names = cat.names
    pairs = [{"a": a, "b": b, "a_name": names[a], "b_name": names[b], "page": f"{page_name(a)}--{page_name(b)}"}
             for a, b in cat.claimed_pairs if a in names and b in names and a != b]
    like = default_pair(cat, figures)
    pair = like or ((cat.solutions[0]["key"], cat.solutions[1]["key"]) if len(cat.solutions) > 1 else None)
    if cat.solutions:
        data = _json(page_data(cat, figures, pair))
        (out / "static" / "compare-data.js").write_text(f"window.ESRP_COMPARE = {data};\n", encoding="utf-8")
    shown = pair_view(pair[0], pair[1], cat, figures) if pair else None
    if shown:
        shown["like"] = like is not None
    (out / "compare.html").write_text(env.get_template("compare.html").render(
        root="", solutions=cat.solutions, pairs=pairs, shown=shown, client_charts=False), encoding="utf-8")
    if pairs:
        (out / "compare").mkdir(exist_ok=True)
    template = env.get_template("compare_pair.html")
    for p in pairs:
        view = pair_view(p["a"], p["b"], cat, figures)
        (out / "compare" / f"{p['page']}.html").write_text(template.render(
            root="../", client_charts=False, v=view, a=view["a"], b=view["b"]), encoding="utf-8")
    return 1 + len(pairs)
