"""One quantity a document states twice about one system, with two values: the design it simulated
(mailboxes, IOPS per mailbox, mailbox size, database copies) printed in a table and again in prose, and
every disk it has ("over all 48 installed drives", "all 44 disks were zeroed") said twice in its sentences.

Only what ingest kept as the system's facts (`solution_facts`, each with its line and words) is
compared, one fact name with itself: never two things (a host's memory with an array's cache), never
a count on one basis with a count on another (all disks, active disks, per server are facts of
their own names). A second value that a headroom the words print explains ("0.15 IOPS, 0.18 with
20% headroom") is the same design, not two; a count that is a whole multiple of the other is a part's
share (per server, per database), not a second statement.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..gather import AuditData
from ..terms import MISMATCH, fmt
from .finding import Finding, evidence

KIND = "quantity_stated_twice"
COMPARED = ("mailboxes", "iops_per_mailbox", "mailbox_size", "copies", "messages_per_day", "all_disks_stated")
MEMORY = "memory:"  # "memory:hyper-v host": one machine's memory, compared with that machine's only (draft/memory.py)
_MB = {"MB": 1.0, "GB": 1024.0, "TB": 1024.0 * 1024.0}
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", re.IGNORECASE)
TOLERANCE = 0.005


def _in_base_unit(fact: dict) -> float | None:
    number = fact["value_number"]
    if number is None:
        return None
    return float(number) * _MB.get((fact["unit"] or "").upper(), 1.0) if fact["fact"] == "mailbox_size" else float(number)


def _headroom(low: float, high: float, quotes: list[str]) -> bool:
    """The larger value is the smaller plus a percentage the words print (a headroom, a growth factor)."""
    for quote in quotes:
        for match in _PERCENT.finditer(quote or ""):
            if abs(low * (1 + float(match[1]) / 100) - high) <= TOLERANCE * high:
                return True
    return False


def _per_part(name: str, low: float, high: float) -> bool:
    """A count and a whole multiple of it: one server's or one database's share ("each server runs five
    databases of 1,000 mailboxes" beside 10,000 in all), not the design stated twice."""
    return name in ("mailboxes", "copies") and low > 0 and high / low >= 2 and abs(high / low - round(high / low)) < 1e-9


def stated_twice_findings(data: AuditData) -> list[Finding]:
    by_quantity: dict[tuple[int, str, int], list[dict]] = defaultdict(list)
    for fact in data.facts:
        if (fact["fact"] in COMPARED or fact["fact"].startswith(MEMORY)) and fact["source_line"] is not None \
                and _in_base_unit(fact) is not None:
            by_quantity[(fact["solution_id"], fact["fact"], fact["source_file_id"])].append(fact)
    out = []
    for (solution_id, name, file_id), stated in by_quantity.items():
        values: dict[float, dict] = {}
        for fact in stated:
            values.setdefault(round(_in_base_unit(fact) or 0.0, 6), fact)
        if len(values) != 2:  # three or more: a table of several designs, not one stated twice
            continue
        (low, first), (high, second) = sorted(values.items())
        if _headroom(low, high, [first["quote"], second["quote"]]) or _per_part(name, low, high):
            continue
        one, other = sorted((first, second), key=lambda f: f["source_line"])
        what = f"the {name.removeprefix(MEMORY)}'s memory (GB)" if name.startswith(MEMORY) else name.replace("_", " ")
        out.append(Finding(
            solution=data.solution_key(solution_id), other_solution=None, kind=KIND,
            metric="memory" if name.startswith(MEMORY) else name, verdict=MISMATCH,
            printed=other["value_printed"], recomputed=None, relative_difference=None,
            explanation=(f"{what} is stated as {one['value_printed']} (line {one['source_line']}: "
                         f"{(one['quote'] or '')[:80]!r}) and as {other['value_printed']} (line {other['source_line']}: "
                         f"{(other['quote'] or '')[:80]!r}); one design cannot have both ({fmt(low)} vs {fmt(high)})"),
            inputs={"lines": [one["source_line"], other["source_line"]],
                    "values": [one["value_printed"], other["value_printed"]]},
            place=f"line {other['source_line']}", line=other["source_line"], quote=other["quote"],
            **evidence(data, file_id)))
    return out
