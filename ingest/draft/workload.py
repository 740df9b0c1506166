"""The workload a comparison states once for every system it tests.

A lab comparison prints its simulated workload in one sentence ("5,000 mailboxes of 1 GB each, with a
profile of 0.20 IOPS per mailbox") and means it for each array; a sentence that names one system
speaks of that system only. Pure.
"""

from __future__ import annotations

from dataclasses import replace

from .drafts import DraftSolution
from .fact import Fact
from .names import mentions

SHARED_DESIGN = frozenset({"mailboxes", "iops_per_mailbox", "mailbox_size", "messages_per_day", "databases",
                           "databases_per_server", "copies"})


def add_shared_design(solutions: list[DraftSolution], facts: list[Fact], distinct: list[set[str]]) -> None:
    """A comparison states its workload once in prose ("5,000 mailboxes of 1 GB each, 0.20 IOPS per
    mailbox"): a sentence naming one system speaks of it, one naming none of every system, unless such
    sentences disagree. A system's own table row says more than any sentence and is kept."""
    unnamed: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.fact not in SHARED_DESIGN:
            continue
        named = {index for _, index in mentions(fact.quote, distinct)}
        if len(named) == 1:
            _add_missing(solutions[named.pop()], fact)
        elif not named:
            unnamed.setdefault(fact.fact, []).append(fact)
    for name, stated in unnamed.items():
        if len({f.number for f in stated}) == 1:
            for solution in solutions:
                _add_missing(solution, stated[0])


def _add_missing(solution: DraftSolution, fact: Fact) -> None:
    # a table's databases per server says more than a sentence's total, and the other way round
    family = {fact.fact, f"{fact.fact}_per_server", fact.fact.removesuffix("_per_server")}
    if not any(f.fact in family for f in solution.facts):
        solution.facts.append(fact)


# What a sentence naming one system says of that system's disks and links ("LX-90: 56 in use plus 4 global
# spares; … over 10 GbE iSCSI"), where its table row says less.
NAMED_FACTS = frozenset({"active_disk_count", "spare_disk_count", "connectivity"})


def add_named_facts(solutions: list[DraftSolution], facts: list[Fact], distinct: list[set[str]]) -> None:
    """Facts of NAMED_FACTS from sentences that name exactly one system, given to that system when it has none
    of that fact yet (a table's row is kept)."""
    for fact in facts:
        if fact.fact not in NAMED_FACTS:
            continue
        named = {index for _, index in mentions(fact.quote, distinct)}
        if len(named) == 1:
            solution = solutions[named.pop()]
            if not any(f.fact == fact.fact for f in solution.facts):
                solution.facts.append(fact)


def add_group_databases(solution: DraftSolution) -> None:
    """Databases per server from Exchange 2007's storage groups per server times databases per group, where
    nothing states the databases themselves."""
    if any(f.fact in ("databases", "databases_per_server") for f in solution.facts):
        return
    groups = next((f for f in solution.facts if f.fact == "storage_groups_per_server" and f.number), None)
    each = next((f for f in solution.facts if f.fact == "databases_per_storage_group" and f.number), None)
    if groups is not None and each is not None and groups.number is not None and each.number is not None:
        count = groups.number * each.number
        solution.facts.append(replace(groups, fact="databases_per_server", value=f"{count:g}", number=count,
                                      quote=f"{groups.quote} × {each.quote}"))
