"""How many disks a system has, on both bases: all physical disks, and the active ones.

Documents print the count several ways for one system: "Number of disks tested: 28", "Total
number of disks we tested in solution: 32 (28 active)", "Number of physical disks in test: 32".
A count whose label or parentheses say *total* or *physical* counts every disk; one that says
*active* (in the label or in parentheses), or counts the disks *tested* without saying total,
counts the disks under load; "(6 hot spares)", "Hot spares: 2" count the spares. All = the largest
total printed (else active + spares); active = the active count printed (else all - spares, else
the tested count); the difference is the disks that carry no load (hot spares and system
disks), one group whose role the document does not settle. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .deferred import deferred
from .fact import Fact

_ACTIVE_IN_PARENTHESES = deferred(r"\(\s*(\d[\d,]*)\s+active\b", re.IGNORECASE)
_TOTAL_LABEL = deferred(r"\btotal\b|\bphysical\b|\bin (?:the )?(?:system|solution)\b", re.IGNORECASE)
_ACTIVE_LABEL = deferred(r"\bactive\b|\btested\b|\bin test\b", re.IGNORECASE)


@dataclass(frozen=True)
class DiskCount:
    """A count of disks in one role (active, hot spare), with the fact that states it."""

    count: int
    role: str  # active | hot_spare (the disks that carry no load)
    fact: Fact


def _label(fact: Fact) -> str:
    return fact.quote.split(":", 1)[0].split(" [", 1)[0]


def disk_counts(facts: list[Fact]) -> list[DiskCount]:
    """The system's disk groups by role, from every disk count it prints (see the module docstring)."""
    counts = [f for f in facts if f.fact == "disk_count" and f.number and f.number >= 1]
    stated_active = [(int(f.number), f) for f in facts if f.fact == "active_disk_count" and f.number]
    spares = [(int(f.number or 0), f) for f in facts if f.fact == "spare_disk_count" and f.number is not None]
    if not counts and not stated_active:
        return []
    totals: list[tuple[int, Fact]] = []
    active: list[tuple[int, Fact]] = []
    for fact in counts:
        value = fact.quote.split(":", 1)[-1]
        in_parentheses = _ACTIVE_IN_PARENTHESES.search(value)
        if in_parentheses:
            active.append((int(in_parentheses[1].replace(",", "")), fact))
            totals.append((int(fact.number or 0), fact))
        elif fact.by_quantity or _TOTAL_LABEL.search(_label(fact)):  # "72 x 300GB 15K SAS": every disk
            totals.append((int(fact.number or 0), fact))
        elif _ACTIVE_LABEL.search(_label(fact)):
            active.append((int(fact.number or 0), fact))
        else:
            totals.append((int(fact.number or 0), fact))
    # A count a row's label states first (the one the document's per-disk rows divide by), then one
    # printed in a description's parentheses or prose ("(29 active disks)", "66 active drives").
    in_parentheses_or_prose = [a for a in active if _ACTIVE_IN_PARENTHESES.search(a[1].quote)] + stated_active
    labelled = [a for a in active if "active" in _label(a[1]).casefold()] + \
        [a for a in active if a not in in_parentheses_or_prose and "active" not in _label(a[1]).casefold()]
    explicit = labelled + in_parentheses_or_prose
    if totals:
        all_count, all_fact = max(totals, key=lambda t: t[0])
    elif explicit and spares:
        all_count, all_fact = explicit[0][0] + spares[0][0], spares[0][1]
    else:
        all_count, all_fact = (active or explicit)[0]
    if explicit:
        active_count, active_fact = explicit[0]
    elif spares and spares[0][0] < all_count:
        active_count, active_fact = all_count - spares[0][0], spares[0][1]
    else:
        active_count, active_fact = all_count, all_fact
    if active_count > all_count:
        all_count, all_fact = active_count, active_fact
    groups = [DiskCount(active_count, "active", active_fact)]
    if all_count > active_count:
        groups.append(DiskCount(all_count - active_count, "hot_spare", all_fact))
    return groups
