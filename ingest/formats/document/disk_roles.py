"""How many disks a system has, on both bases: all physical disks, and the active ones.

Documents print the count several ways for one system: "Number of disks tested: 28", "Total
number of disks we tested in solution: 32 (28 active)", "Number of physical disks in test: 32".
A count whose label or parentheses say *total* or *physical* counts every disk; one that says
*active* (in the label or in parentheses), or counts the disks *tested* without saying total,
counts the disks under load. All = the largest total printed; active = the active count printed
(else the tested count); the difference is the disks that carry no load (hot spares and system
disks), one group whose role the document does not settle. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .facts import Fact

_ACTIVE_IN_PARENTHESES = re.compile(r"\(\s*(\d[\d,]*)\s+active\b", re.IGNORECASE)
_TOTAL_LABEL = re.compile(r"\btotal\b|\bphysical\b|\bin (?:the )?(?:system|solution)\b", re.IGNORECASE)
_ACTIVE_LABEL = re.compile(r"\bactive\b|\btested\b|\bin test\b", re.IGNORECASE)


@dataclass(frozen=True)
class DiskCount:
    count: int
    role: str  # active | hot_spare (the disks that carry no load)
    fact: Fact


def _label(fact: Fact) -> str:
    return fact.quote.split(":", 1)[0].split(" [", 1)[0]


def disk_counts(facts: list[Fact]) -> list[DiskCount]:
    """The system's disk groups by role, from every disk count it prints (see the module docstring)."""
    counts = [f for f in facts if f.fact == "disk_count" and f.number and f.number >= 1]
    if not counts:
        return []
    totals: list[tuple[int, Fact]] = []
    active: list[tuple[int, Fact]] = []
    for fact in counts:
        value = fact.quote.split(":", 1)[-1]
        in_parentheses = _ACTIVE_IN_PARENTHESES.search(value)
        if in_parentheses:
            active.append((int(in_parentheses[1].replace(",", "")), fact))
            totals.append((int(fact.number or 0), fact))
        elif _TOTAL_LABEL.search(_label(fact)):
            totals.append((int(fact.number or 0), fact))
        elif _ACTIVE_LABEL.search(_label(fact)):
            active.append((int(fact.number or 0), fact))
        else:
            totals.append((int(fact.number or 0), fact))
    all_count, all_fact = max(totals, key=lambda t: t[0]) if totals else active[0]
    explicit = [a for a in active if _ACTIVE_IN_PARENTHESES.search(a[1].quote) or "active" in _label(a[1]).casefold()]
    active_count, active_fact = (explicit or active or [(all_count, all_fact)])[0]
    if active_count > all_count:
        all_count, all_fact = active_count, active_fact
    groups = [DiskCount(active_count, "active", active_fact)]
    if all_count > active_count:
        groups.append(DiskCount(all_count - active_count, "hot_spare", all_fact))
    return groups
