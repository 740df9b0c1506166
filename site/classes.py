"""classes.html: solutions ranked within classes of mailbox count, as the published ESRP catalogue
compared them.

The ranks, figures and like-for-like flag are the canned view `mailbox_class_ranks`'s own (read
once by `data.load_catalogue`); this module only groups its rows by class, puts names on them and
says in words what an unlike class mixes. The class bounds are the rows of table
`mailbox_classes`, which the catalogue's owner may change.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from .data import Catalogue

Row = dict[str, Any]


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def bounds_words(bounds: Row) -> str:
    """A class's bounds in words: "1,001 to 5,000 mailboxes", "10,001 mailboxes or more"."""
    low, high = bounds["min_mailbox_count"], bounds["max_mailbox_count"]
    if high is None:
        return f"{low:,} mailboxes or more"
    return f"{low:,} to {high:,} mailboxes"


def _listed(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def mixed_words(rows: list[Row]) -> str:
    """What a class mixes, from its rows' releases, test types and IOPS per mailbox ("" when alike).

    Like the view, a missing value is no difference of its own: only distinct stored values count.
    """
    parts = []
    releases = sorted({str(r["jetstress_release"]) for r in rows if r.get("jetstress_release") is not None})
    if len(releases) > 1:
        parts.append(f"Jetstress {_listed(releases)}")
    tests = sorted({str(r["report_type"]) for r in rows if r.get("report_type") is not None})
    if len(tests) > 1:
        parts.append(f"{_listed(tests)} tests")
    per_mailbox = sorted({float(r["iops_per_mailbox"]) for r in rows if r.get("iops_per_mailbox") is not None})
    if len(per_mailbox) > 1:
        parts.append(f"{_listed([f'{v:g}' for v in per_mailbox])} IOPS per mailbox")
    return "; ".join(parts)


def class_page(cat: Catalogue) -> Row:
    """The template's data: one section per class present (smallest first), the solutions no class
    holds, and every class's bounds with how many solutions fall in it."""
    by_key = cat.by_key
    sections = []
    for (order, label), grouped in groupby(cat.class_ranks, key=lambda r: (r["mailbox_class_order"],
                                                                            r["mailbox_class"])):
        rows = [{**r, "name": by_key[r["key"]]["name"] if r["key"] in by_key else r["key"],
                 "page": by_key[r["key"]]["page"] if r["key"] in by_key else None} for r in grouped]
        like = all(r["like_for_like"] for r in rows)
        sections.append({"order": order, "label": label, "rows": rows, "like_for_like": like,
                         "count_words": _count(len(rows), "solution", "solutions"),
                         "mixed": "" if like else mixed_words(rows)})
    classed = {r["key"] for r in cat.class_ranks}
    unclassed = sorted((s for s in cat.solutions if s["key"] not in classed), key=lambda s: s["name"].lower())
    counts = {sec["order"]: len(sec["rows"]) for sec in sections}
    bounds = [{**b, "words": bounds_words(b), "solutions": counts.get(b["class_ordinal"], 0)}
              for b in cat.mailbox_classes]
    counted = sum(s.get("mailbox_count") is not None for s in unclassed)
    why = [f"{_count(len(unclassed) - counted, 'has', 'have')} no mailbox count stored" if counted < len(unclassed) else "",
           f"{_count(counted, 'has a count', 'have counts')} no class holds" if counted else ""]
    return {"sections": sections, "unclassed": unclassed, "bounds": bounds, "total": len(cat.solutions),
            "unclassed_words": _count(len(unclassed), "solution", "solutions"),
            "unclassed_why": ", ".join(w for w in why if w)}
