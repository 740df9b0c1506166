"""Issue 49: the audit's work grows linearly with a document's rows that become claims.

A 33 MB document whose table of 10^6 rows each state a figure (two claims a row) kept `audit` and `site` at
100 % CPU past 8 minutes: rules that, for each claim or row, passed over every claim, run or row of the
catalogue. Not timed: the work is counted, as the lines of the audit's own code the interpreter executes
(sys.settrace; a loop's every turn is a line), for a document of N such rows and then beside it one of 9N.
Linear work makes the second count about 10 times the first (N + 9N rows). Before the audit's indexes by
value and place: 18 times for rows of figures (a per-disk row's whole-system row found by a pass over the
table's rows), 66 for rows that are runs of one trial (each claim offered every run of the trial), 54 for
figures in disk group tables (each doubt a pass over every claim and run). benchmarks/bench_audit_rows.py measures the time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from esrpdb.audit import audit
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES

pytestmark = pytest.mark.db
AUDIT_CODE = str(Path(audit.__code__.co_filename).parent)
SEED = FIXTURES / "documents" / "synthetic-contoso-whitepaper.md"
LABELS = ("Total IOPS per watt", "Idle power (W)", "Active power (W)", "Useable MB per dollar", "Achieved IOPS/disk",
          "Log IOPS", "Number of disks tested")
GROWTH_ALLOWED = 14.0  # linear: ~10; the quadratic work found: 18 to 66


def claim_rows_document(path: Path, rows: int, seed: int = 0, kind: str = "figures") -> Path:
    """The seed whitepaper with a table of `rows` rows, each a figure for each of its two systems (two claims):
    figures of several metrics, or (kind "runs") each row a run of both systems, "Achieved IOPS - Run k", or
    (kind "disk groups") disk counts and capacities in two tables of disk groups."""
    lines = [SEED.read_text(encoding="utf-8"), "", f"Table 9: Per-server results ({seed})", "",
             "|  | Contoso StorMax 9000 | Fabrikam FX-200 |", "|---|---|---|"]
    labels = [f"Achieved IOPS - Run {n + 4}" if kind == "runs" else
              ("Number of disks tested", "Useable capacity (GB)")[n % 2] if kind == "disk groups" else
              LABELS[n % len(LABELS)] for n in range(rows)]
    body = [f"| {label} | {100 + (n + seed) % 977:,}.{n % 100:02d} | {60 + n % 613:,}.{n % 10}0 |"
            for n, label in enumerate(labels)]
    if kind == "disk groups":  # two tables of disk groups, every figure a mismatch the doubts reconsider
        half = len(body) // 2
        body = [*body[:half], "", "Table 10: Log disks", "", *lines[-2:], *body[half:]]
        lines[-4] = f"Table 9: Database disks ({seed})"
    lines += body
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def audited_lines(engine) -> int:
    """Lines of the audit package's code executed by one audit of the catalogue."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if not frame.f_code.co_filename.startswith(AUDIT_CODE):
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        audit(engine)
    finally:
        sys.settrace(None)
    return count


def _claims(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select count(*) from claims")).scalar()


@pytest.mark.parametrize("kind", ["figures", "runs", "disk groups"])
def test_the_audits_work_grows_linearly_with_rows_that_become_claims(tmp_path, catalog, kind):
    rows = 60 if kind == "runs" else 200
    small = claim_rows_document(tmp_path / "small.md", rows, seed=1, kind=kind)
    (outcome,) = ingest_paths(catalog.engine, [small])
    assert outcome.status == "loaded", outcome.message
    assert _claims(catalog.engine) >= (1 if kind == "disk groups" else 2) * rows  # the rows are claims: each judged
    first = audited_lines(catalog.engine)
    large = claim_rows_document(tmp_path / "large.md", 9 * rows, seed=2, kind=kind)
    (outcome,) = ingest_paths(catalog.engine, [large])
    assert outcome.status == "loaded", outcome.message
    assert _claims(catalog.engine) >= (1 if kind == "disk groups" else 2) * 10 * rows
    second = audited_lines(catalog.engine)
    print(f"audit lines executed: {first:,} for {rows} rows, {second:,} for {10 * rows}: x{second / first:.2f}")
    assert second / first < GROWTH_ALLOWED, (first, second, second / first)
