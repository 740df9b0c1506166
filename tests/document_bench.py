"""One bench document read alone and scored: what the catalogue holds, and what the audit says of it.

Shared by `benchmarks/bench_other_hands.py` (every document, as text and printed to PDF) and
`tests/test_other_hands.py` (a few, at their score). A document is ingested alone into a catalogue
of its own with no manifest, as an analyst's folder is; the catalogue is scored against the
document's answer key (tests/synthetic_keys.py: systems, facts, runs, figures), each run's
latencies are looked up in what the views read (run_scope_latencies), and the audit is scored
against the inconsistencies the key plants:

- planted found: a planted inconsistency on whose lines (or, for a PDF, whose printed figures) the
  audit rests a finding that says something is wrong (mismatch or rounding);
- false alarms: mismatch causes resting on no planted line: an accusation the document does not earn;
- reader doubts: findings the audit lists as the reader's doubt rather than the vendor's error.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text as sql
from sqlalchemy.engine import Engine

from tests.synthetic_keys import RUN_TOLERANCE, Score, load_key, near, score

WRONG = ("mismatch", "rounding")
DOUBT = "doubt"
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_LATENCIES = sql("""
SELECT r.report_type, coalesce(f.achieved_iops, r.achieved_iops) AS achieved, l.avg_db_read_latency_ms
FROM runs r LEFT JOIN run_figures f ON f.run_id = r.id
JOIN run_scope_latencies l ON l.run_id = r.id AND l.scope IN ('transactional', 'disk_subsystem')  -- 2007: volumes
WHERE r.solution_id IS NOT NULL
""")


def documents(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every document of a folder with its key, by name."""
    pairs = []
    for key_path in sorted(folder.glob("*.key.json")):
        key = load_key(key_path)
        pairs.append((key_path.with_name(key["document"]), key))
    return pairs


@dataclass
class AuditScore:
    found: int = 0
    planted: int = 0
    false_alarms: int = 0
    doubts: int = 0
    missed: list[str] = field(default_factory=list)
    alarms: list[str] = field(default_factory=list)


def _numbers(text: str | None) -> set[float]:
    return {float(n.replace(",", "")) for n in _NUMBER.findall(text or "")}


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w%.,]+", " ", text.casefold()).split())


def pdf_line_map(pdf_lines: list[str], lines: list[str]) -> dict[int, int]:
    """Each line of esrpdb's extraction of a PDF -> the line of the text it prints (by its words, in order:
    a PDF keeps the text's order). A line the text does not hold (a page header) maps to nothing."""
    plain = [_plain(t) for t in lines]
    found, at = {}, 0
    for number, text in enumerate(pdf_lines, start=1):
        words = _plain(text)
        if len(words) < 4:
            continue
        window = range(at, min(len(plain), at + 400))
        match = next((i for i in window if plain[i] == words), None) or \
            next((i for i in window if len(plain[i]) >= 4 and (words in plain[i] or plain[i] in words)), None)
        if match is not None:
            found[number], at = match + 1, match
    return found


def audit_score(report: Any, key: dict[str, Any], lines: list[str], *, by_line: bool,
                line_map: dict[int, int] | None = None) -> AuditScore:
    """The audit against the key's planted inconsistencies. `by_line`: the catalogue's lines are the
    text's (a .txt); a PDF's findings cite lines of esrpdb's own extraction: `line_map` takes them to the
    text's lines (pdf_line_map), else they are matched by the figures they print."""
    runs = {r.get("id"): r.get("line") for r in key["runs"] if r.get("id")}

    def cited_lines(planted: dict[str, Any]) -> set[int]:
        """Its lines, and the title line of the report it is about (a report's verdict is cited where it starts)."""
        run = runs.get(planted.get("run"))
        return set(planted["lines"]) | ({run} if run is not None else set())

    planted_lines = {line for i in key["inconsistencies"] for line in cited_lines(i)}
    planted_numbers = {n for line in planted_lines if 0 < line <= len(lines) for n in _numbers(lines[line - 1])}

    def rests_on(finding: Any, cited: set[int], numbers: set[float]) -> bool:
        if by_line:
            return finding.line in cited
        if line_map is not None:
            return line_map.get(finding.line) in cited
        # a verdict ("Pass") prints no number: the figures its explanation rests on are its numbers
        return bool((_numbers(finding.printed) or _numbers(finding.explanation)) & numbers)

    result = AuditScore(planted=len(key["inconsistencies"]))
    wrong = [f for f in report.findings if f.verdict in WRONG]
    for planted in key["inconsistencies"]:
        cited = cited_lines(planted)
        numbers = _numbers(str(planted.get("printed") or "")) if not by_line else set()
        if any(rests_on(f, cited, numbers) for f in wrong):
            result.found += 1
        else:
            result.missed.append(f"{planted['id']} {planted['kind']} (lines {planted['lines'][:4]})")
    for cause in report.causes():
        if cause.verdict != "mismatch":
            continue
        if not any(rests_on(f, planted_lines, planted_numbers) for f in cause.findings):
            result.false_alarms += 1
            first = cause.findings[0]
            result.alarms.append(f"line {first.line} {first.metric} {first.printed!r}: {first.explanation[:int(os.environ.get('BENCH_EXPLAIN', '160'))]}")
    result.doubts = sum(1 for f in report.findings if f.verdict == DOUBT)
    return result


def latency_items(engine: Engine, key: dict[str, Any], matched: dict[str, tuple[str | None, str]]) -> tuple[int, int, list[str]]:
    """Key runs printed with their latencies (a report) whose catalogue run holds the same average
    database read latency (within 0.5 % or 0.002 ms): (found, total, misses)."""
    with engine.connect() as conn:
        held = [(kind, float(achieved), latency) for kind, achieved, latency in conn.execute(_LATENCIES)
                if achieved is not None]
    found, total, misses = 0, 0, []
    for run in key["runs"]:
        expected = run.get("db_read_latency_ms")
        if expected is None or run.get("achieved_iops") is None or run.get("from_table_only"):
            continue
        total += 1
        seen = [latency for kind, achieved, latency in held
                if kind == run["test_type"] and abs(achieved - run["achieved_iops"]) <= RUN_TOLERANCE]
        if any(latency is not None and near(expected, latency, 0.002) for latency in seen):
            found += 1
        else:
            misses.append(f"{run['test_type']} {run.get('server')} line {run.get('line')}: "
                          f"read latency {expected} ms, seen {seen or 'no run'}")
    return found, total, misses


@dataclass
class DocumentResult:
    name: str
    family: str
    form: str
    statuses: list[str]
    messages: list[str]
    score: Score
    latencies: tuple[int, int, list[str]]
    audit: AuditScore

    def counts(self) -> dict[str, tuple[int, int]]:
        counts = self.score.counts()
        counts["latencies"] = self.latencies[:2]
        counts["planted"] = (self.audit.found, self.audit.planted)
        return counts


def read_document(engine: Engine, path: Path, key: dict[str, Any], text: str, form: str) -> DocumentResult:
    """Ingest `path` alone into the (empty) catalogue of `engine`, then score the catalogue and its audit."""
    from esrpdb.audit import audit
    from esrpdb.ingest.pipeline import ingest_paths

    outcomes = ingest_paths(engine, [path])
    result = score(engine, key, Path(key["document"]).stem)
    report = audit(engine)
    lines = text.split("\n")
    line_map = None
    if form != "text":
        from esrpdb.ingest.formats.document import read_lines

        line_map = pdf_line_map([line.text for line in read_lines(path.name, path.read_bytes())[0]], lines)
    return DocumentResult(Path(key["document"]).stem, key.get("family", "?"), form,
                          [o.status for o in outcomes], [o.message for o in outcomes], result,
                          latency_items(engine, key, result.matched),
                          audit_score(report, key, lines, by_line=form == "text", line_map=line_map))


COLUMNS = ("systems", "facts", "runs", "latencies", "figures", "planted")


def line(result: DocumentResult) -> str:
    counts = result.counts()
    cells = " ".join(f"{f:>3}/{t:<3}" for f, t in (counts[c] for c in COLUMNS))
    status = "" if result.statuses == ["loaded"] else f"  [{'; '.join(result.messages)[:80]}]"
    return (f"{result.name[:44]:<44} {result.form:<4} {cells} {result.audit.false_alarms:>6} "
            f"{result.audit.doubts:>6}{status}")


def header() -> str:
    return f"{'document':<44} {'form':<4} " + " ".join(f"{c[:7]:<7}" for c in COLUMNS) + " alarms doubts"


def total_line(results: list[DocumentResult], label: str) -> str:
    sums = {c: [0, 0] for c in COLUMNS}
    for result in results:
        for c, (f, t) in result.counts().items():
            if c in sums:
                sums[c][0] += f
                sums[c][1] += t
    cells = " ".join(f"{f:>3}/{t:<3}" for f, t in sums.values())
    alarms = sum(r.audit.false_alarms for r in results)
    doubts = sum(r.audit.doubts for r in results)
    return f"{label[:49]:<49} {cells} {alarms:>6} {doubts:>6}"


def percentages(results: list[DocumentResult]) -> str:
    parts = []
    for c in COLUMNS:
        f = sum(r.counts()[c][0] for r in results)
        t = sum(r.counts()[c][1] for r in results)
        parts.append(f"{c} {100 * f / t:.0f} %" if t else f"{c} -")
    return ", ".join(parts)
