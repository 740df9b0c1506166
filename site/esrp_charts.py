"""The charts of ESRP's own tests: log playback against read latency, and backup throughput.

The published ESRP catalogue ranked systems by log playback (logs the storage replays per second in
the soft-recovery test) against database read latency, within classes of mailbox count; these
charts draw the same from the catalogue's views (`log_replay`, `backup_throughput`, `test_designs`).
Each mark links to its solution's page when `link_root` is given (the index: "solutions/").
Few submissions include these tests, so each caption says in words how many solutions have the figure.
"""

from __future__ import annotations

from typing import Any

from .charts import TOP_POINTS, Chart, _base, _group_colour, name_labels
from .esrp import Row, class_order, mailbox_class_of
from .options import TOP_BARS

REPLAY_WORDS = "logs replayed per second per server (soft-recovery test)"
BACKUP_WORDS = "backup MB/s per database (database backup test; MB = 2^20 bytes)"


def _how_many(count: int, of: int, what: str) -> str:
    """ "1 of 10 solutions has …" in words, so a one-mark chart says why it is one mark."""
    if count == 0:
        return f"No solution of the {of} in the catalogue has {what}"
    verb = "has" if count == 1 else "have"
    return f"{'Only ' if count < of else ''}{count} of the {of} solutions in the catalogue {verb} {what}"


def _link(s: Row, link_root: str | None) -> dict[str, Any]:
    return {"href": f"{link_root}{s['page']}.html"} if link_root is not None else {}


def log_playback(solutions: list[Row], *, link_root: str | None = "solutions/") -> Chart:
    """Logs replayed per second per server against the median run's database read latency, one mark
    per solution, coloured by mailbox class."""
    replayed = [s for s in solutions if s.get("logs_per_s_per_server") is not None]
    have = sorted((s for s in replayed if s.get("median_read_latency_ms") is not None), key=lambda s: s["key"])
    shown = have[:TOP_POINTS]
    values = [{"solution": s["key"], "name": s["name"], "read": s["median_read_latency_ms"],
               "replay": s["logs_per_s_per_server"], "class": mailbox_class_of(s), **_link(s, link_root)}
              for s in shown]
    caption = (f"{_how_many(len(replayed), len(solutions), 'a soft-recovery (log playback) figure')}"
               f"; {len(have)} of them with a database read latency in its median run, plotted here. "
               "Read latency: the average over database instances of each solution's median Performance run. "
               "Faster replay (higher) at lower latency (left) is better; compare within a mailbox class.")
    encoding: dict[str, Any] = {
        "x": {"field": "read", "type": "quantitative", "title": "database read latency, ms (median run, average)",
              "scale": {"zero": True}},
        "y": {"field": "replay", "type": "quantitative", "title": REPLAY_WORDS, "scale": {"zero": True}},
        "color": {"field": "class", "type": "nominal", "title": "mailbox class",
                  "scale": {"domain": class_order(shown)}, "legend": {"orient": "bottom", "direction": "vertical"}},
        "description": {"field": "solution"},
        "tooltip": [{"field": "name", "title": "solution"}, {"field": "replay", "title": "logs/s per server"},
                    {"field": "read", "title": "read latency ms"}, {"field": "class", "title": "mailbox class"}]}
    if link_root is not None:
        encoding["href"] = {"field": "href"}
    layers: list[dict[str, Any]] = [{"mark": {"type": "point", "filled": True, "size": 120, "cursor": "pointer"},
                                     "encoding": encoding}, *name_labels(values, "read", "replay", dx=8)]
    spec = {**_base("log playback vs database read latency"), "height": 300, "data": {"values": values},
            "layer": layers}
    return Chart("log-playback", "Log playback vs read latency", caption, spec)


def backup_bars(solutions: list[Row], *, top: int = TOP_BARS, link_root: str | None = "solutions/") -> Chart:
    """Backup MB/s per database, one bar per solution, best first (ties by key)."""
    have = sorted((s for s in solutions if s.get("backup_mb_per_s_per_database") is not None),
                  key=lambda s: (-s["backup_mb_per_s_per_database"], s["key"]))
    shown = have[:top]
    values = [{"solution": s["key"], "name": s["name"], "value": s["backup_mb_per_s_per_database"],
               "server": s.get("backup_mb_per_s_per_server"), "test": s["group"], **_link(s, link_root)}
              for s in shown]
    caption = (f"{_how_many(len(have), len(solutions), 'a database backup figure')}"
               + (f"; the top {top} are drawn" if len(have) > top else "")
               + ". Each bar: the average over the backup test's databases of their MB/s.")
    encoding: dict[str, Any] = {
        "y": {"field": "name", "type": "nominal", "sort": "-x", "title": None, "axis": {"labelLimit": 220}},
        "x": {"field": "value", "type": "quantitative", "title": BACKUP_WORDS},
        "color": _group_colour(), "description": {"field": "solution"},
        "tooltip": [{"field": "name", "title": "solution"}, {"field": "value", "title": "MB/s per database"},
                    {"field": "server", "title": "MB/s per server"}]}
    if link_root is not None:
        encoding["href"] = {"field": "href"}
    spec = {**_base("backup throughput per database"), "data": {"values": values}, "height": {"step": 18},
            "mark": {"type": "bar", "cursor": "pointer"}, "encoding": encoding}
    return Chart("bar-backup", "Backup throughput per database", caption, spec)
