"""Tables whose columns are the hosts of one test: per-host figures, never systems side by side.

A document that drives one array from several hosts prints each host's figures in a column of its
own ("Server 1 | Server 2 | …", or the reports' machine names). Such a column is one host's part of
the test, not a system and not the system's figure: the system's figure is the test over the hosts
(their sum, host_tests.py); a document that prints no report of its hosts has only the table to give
that test, which is read from it (`host_table_run`: the columns added up). A heading is a host when it
is a report's machine name or an entity word with a number ("Server 3", "VM 2", "Host 4"), whatever
the system is called. Pure.
"""

from __future__ import annotations

import re

from ..formats.document.orientation import is_aggregate
from ..formats.document.records import DocumentTable, ReportDocument
from .deferred import deferred
from .drafts import DraftRun
from .run_rows import run_rows

_ENTITY = deferred(r"(?:(?:jetstress|exchange|mailbox|test)\s+)?(?:servers?|hosts?|vms?|virtual\s+machines?|nodes?)"
                   r"\s*#?\s*\d{1,3}", re.IGNORECASE)


def machine_names(document: ReportDocument) -> set[str]:
    """The machine names the document's reports print, case-folded."""
    return {r.machine_name.strip().casefold() for r in document.reports if r.machine_name and r.machine_name.strip()}


def is_host(heading: str, machines: set[str]) -> bool:
    text = " ".join(heading.split())
    return bool(text) and (text.casefold() in machines or bool(_ENTITY.fullmatch(text)))


def columns_are_hosts(table: DocumentTable, machines: set[str]) -> bool:
    """Every column of the table (two or more) is headed by a host."""
    headings = [c for c in table.columns if c.strip() and not is_aggregate(c)]
    return len(headings) > 1 and all(is_host(h, machines) for h in headings)


_PER_HOST = deferred(r"(?:/|\bper\s+|\beach\s+)(?:host|server|vm)\b", re.IGNORECASE)


def per_host_claims_left_out(claims: list, hosts: int, unattributed: list[str] | None) -> list:
    """A count printed per host ("Number of databases/host 4") is one host's, not the test's over `hosts`
    hosts: not judged against the test (the design multiplies it by the hosts instead)."""
    if hosts < 2:
        return claims
    kept = []
    for entry in claims:
        claim = entry[0]
        if claim.run is None and claim.metric in ("databases", "mailboxes", "storage_groups") \
                and _PER_HOST.search(claim.quote.split(claim.value)[0]):
            if unattributed is not None:
                unattributed.append(f'line {claim.line}: "{claim.value}" ({claim.metric}) is printed per host and the '
                                    f"test runs on {hosts} hosts; not judged")
            continue
        kept.append(entry)
    return kept


def host_table_run(table: DocumentTable, where: str, taken: set[str]) -> DraftRun | None:
    """The test a table of its hosts' columns prints, for a document that prints no report of theirs: one
    run over the columns, each figure the sum of the row every host prints it in (None when no row holds
    the test's IOPS). `taken`: the labels the system's runs have already."""
    headings = [(index, heading) for index, heading in enumerate(table.columns) if heading.strip() and not is_aggregate(heading)]
    per_host = [run_rows(table, index, None) for index, _ in headings]
    shared = {metric: labels for metric, labels in per_host[0].items()
              if all(rows.get(metric) == labels for rows in per_host[1:])}
    if "achieved_iops" not in shared and "total_iops" not in shared:
        return None
    label, n = f"Test on {len(headings)} hosts", 2
    while label in taken:
        label, n = f"Test on {len(headings)} hosts ({n})", n + 1
    return DraftRun(label, line=table.line, table=table, columns=tuple(heading for _, heading in headings), rows=shared,
                    description=f"one test on {len(headings)} hosts: {where}, its hosts' columns added up")
