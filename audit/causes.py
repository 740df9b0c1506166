"""One finding per cause: the findings a single error produces, grouped, so a summary counts errors.

One misprinted figure is printed again in the summary, the body and a figure's caption; one
swapped block ("median run" figures that are another run's) makes every row under it disagree;
one wrong divisor makes every per-disk row of its table wrong; one printed row is judged by a
claim, a sum check and a summary check. Findings are joined when they rest on the same printed
place (file, line, system), print the same figure for the same system and metric, or sit in a
table a block check found wrong for that system. Only findings that find something wrong
(mismatch, rounding) are causes; matches and unverifiable figures stay findings. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..schema.vocabulary import NAMED_DIFFERENTLY
from .findings.finding import Finding
from .terms import MISMATCH, ROUNDING, SEVERITY

WRONG = (MISMATCH, ROUNDING)
BLOCK_KINDS = ("median_run_figures", "median_run_label", "per_disk_count", "caption_vs_table")


@dataclass
class Cause:
    """Every finding one error produced, the worst first."""

    number: int
    findings: list[Finding]

    @property
    def head(self) -> Finding:
        return self.findings[0]

    @property
    def verdict(self) -> str:
        return self.head.verdict

    @property
    def solutions(self) -> str:
        """Every system it concerns, the worst finding's first."""
        return ", ".join(dict.fromkeys(f.solution or "(no solution)" for f in self.findings))

    @property
    def places(self) -> list[tuple[str | None, int | None, int | None]]:
        """(file, line, page: a PDF's, else None) it shows up at, in file and line order."""
        found = {(f.file, f.line, f.page) for f in self.findings}
        return sorted(found, key=lambda p: (p[0] or "", p[1] if p[1] is not None else -1))

    def where(self) -> str:
        """"file lines 12 (page 2), 40 (page 3); other file line 7": each line with its page in a PDF."""
        by_file: dict[str | None, list[str]] = {}
        for file, line, page in self.places:
            shown = str(line) if line is not None else "?"
            by_file.setdefault(file, []).append(f"{shown} (page {page})" if page is not None else shown)
        return "; ".join(f"{file or '(no file)'} line{'s' if len(lines) > 1 else ''} {', '.join(lines)}"
                         for file, lines in by_file.items())


def _worst_first(finding: Finding) -> tuple:
    difference = abs(finding.relative_difference) if finding.relative_difference is not None else 0.0
    return (SEVERITY[finding.verdict], BLOCK_KINDS.index(finding.kind) if finding.kind in BLOCK_KINDS else 9,
            -difference, finding.sort_key())


_PLACE_PARTS = re.compile(r", (?:row|column|line|section) ")


def _table(finding: Finding) -> str | None:
    """The table a finding's place names ("Figure 5, row 'X', column 'Y'" -> "Figure 5")."""
    return _PLACE_PARTS.split(finding.place, maxsplit=1)[0] if finding.place else None


def _other_run(finding: Finding) -> bool:
    """Reproduced by another run of the trial: what a block of another run's figures makes."""
    reproduced = finding.inputs.get("reproduced_by") if isinstance(finding.inputs, dict) else None
    return isinstance(reproduced, dict) and "run" in reproduced


STANDALONE_KINDS = (NAMED_DIFFERENTLY,)  # a line naming a thing two ways is its own error, whatever else is on it


def _keys(finding: Finding, blocks: dict[tuple, int | None]) -> list[tuple]:
    if finding.kind in STANDALONE_KINDS:
        return [(finding.kind, finding.sha256, finding.solution, finding.metric)]
    keys: list[tuple] = []
    if finding.line is not None:
        keys.append(("place", finding.sha256, finding.line, finding.solution))
    if finding.kind == "claim" and finding.printed is not None:
        keys.append(("figure", finding.solution, finding.other_solution, finding.metric, finding.printed))
    table = (finding.sha256, _table(finding))
    if finding.kind in BLOCK_KINDS:  # one block of a table: one error, in every column it shows in
        keys += [("block", *table, finding.kind), ("block of", *table, finding.solution, finding.kind)]
    elif (median := blocks.get(("block of", *table, finding.solution, "median_run_figures"))) is not None and (
            _other_run(finding) or (finding.kind.startswith("table_") and (finding.line or 0) >= (median or 0))):
        keys.append(("block of", *table, finding.solution, "median_run_figures"))  # rows under the block's heading
    elif ("block of", *table, finding.solution, "per_disk_count") in blocks and finding.metric.endswith("_per_disk"):
        keys.append(("block of", *table, finding.solution, "per_disk_count"))
    elif ("block of", *table, finding.solution, "caption_vs_table") in blocks:
        keys.append(("block of", *table, finding.solution, "caption_vs_table"))
    return keys


def group(findings: list[Finding]) -> list[Cause]:
    """The causes among `findings`, worst first (see the module docstring)."""
    wrong = [f for f in findings if f.verdict in WRONG]
    blocks = {("block of", f.sha256, _table(f), f.solution, f.kind): f.line for f in wrong if f.kind in BLOCK_KINDS}
    parent = list(range(len(wrong)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[tuple, int] = {}
    for index, finding in enumerate(wrong):
        for key in _keys(finding, blocks):
            if key in owner:
                parent[root(index)] = root(owner[key])
            else:
                owner[key] = index
    members: dict[int, list[Finding]] = {}
    for index, finding in enumerate(wrong):
        members.setdefault(root(index), []).append(finding)
    groups = sorted((sorted(m, key=_worst_first) for m in members.values()), key=lambda m: _worst_first(m[0]))
    return [Cause(number, found) for number, found in enumerate(groups, 1)]
