"""`esrpdb audit` on one document with a long table: the audit's time against the table's rows.

A document with a table of 10^6 rows (33 MB, under the 64 MB cap) kept `audit` at 100 % CPU past 8
minutes: it compared every claim with every cell (1.2, 3.5, 16.3 s at 3k, 10k, 30k rows). Here the seed
synthetic whitepaper gets a table of N rows appended, is ingested into a private embedded server, and
the audit is timed at each N. The rows (--kind):
- claims (the default): each row a figure the audit judges for each of the document's two systems
  ("| Idle power (W) | 276.50 | 301.00 |": two claims a row), the issue's case;
- runs: each row a run of both systems ("| Achieved IOPS - Run 7 | ... |"): the trial grows with N;
- plain: host rows no rule reads as a figure (cells only, no claim).
The audit must grow linearly: each N's time over the previous one's is printed beside the rows' ratio,
and the time per row at the largest N over that at the smallest against a floor of 3 (quadratic work
gives ~N ratio). Peak RSS is the process's (ingest included). Not a test (tests/test_audit_linear_work.py
counts the work instead):

    python benchmarks/bench_audit_rows.py [--rows 3000 10000 30000] [--kind claims] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import shutil
import tempfile
import time
from pathlib import Path

import psycopg
from sqlalchemy import text

from esrpdb.audit import audit
from esrpdb.db import embedded, migrate, roles
from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.pipeline import ingest_paths

SEED = Path(__file__).resolve().parents[1] / "fixtures" / "documents" / "synthetic-contoso-whitepaper.md"
LINEAR_FLOOR = 3.0  # time per row at the largest N over that at the smallest: linear work stays near 1


LABELS = ("Total IOPS per watt", "Idle power (W)", "Active power (W)", "Useable MB per dollar", "Achieved IOPS/disk",
          "Log IOPS", "Number of disks tested")


def long_document(folder: Path, rows: int, kind: str = "claims") -> Path:
    """The seed whitepaper with a table of `rows` rows of `kind` (see the module's docstring)."""
    if kind == "plain":
        head = ["| Server | Achieved IOPS | Database reads/sec |", "|---|---|---|"]
        body = [f"| MBX{n:07d} | {1000 + n % 977:,}.{n % 100:02d} | {600 + n % 613:,}.{n % 10}0 |" for n in range(rows)]
    else:
        head = ["|  | Contoso StorMax 9000 | Fabrikam FX-200 |", "|---|---|---|"]
        labels = [f"Achieved IOPS - Run {n + 4}" for n in range(rows)] if kind == "runs" else \
            [LABELS[n % len(LABELS)] for n in range(rows)]
        body = [f"| {label} | {100 + n % 977:,}.{n % 100:02d} | {60 + n % 613:,}.{n % 10}0 |"
                for n, label in enumerate(labels)]
    lines = [SEED.read_text(encoding="utf-8"), "", "Table 9: Per-server results", "", *head, *body]
    path = folder / f"long-{kind}-{rows}.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[3000, 10000, 30000])
    parser.add_argument("--kind", choices=["claims", "runs", "plain"], default="claims")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="esrpdb-bench-audit-"))
    home.chmod(0o711)
    try:
        server = embedded.start(home / "home")
        per_row: list[float] = []
        times: list[float] = []
        for rows in args.rows:
            catalogue = f"audit{rows}"
            with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as admin:
                roles.create_database(admin, catalogue)
            url = server.url_for(database=catalogue)
            migrate.upgrade(url)
            catalog = open_catalog(url)
            document = long_document(home, rows, args.kind)
            started = time.perf_counter()
            outcomes = ingest_paths(catalog.engine, [document])
            ingest_s = time.perf_counter() - started
            assert all(o.status != "failed" for o in outcomes), [o.message for o in outcomes]
            with catalog.engine.connect() as conn:
                claims = conn.execute(text("SELECT count(*) FROM claims")).scalar()
            profiler = cProfile.Profile() if args.profile else None
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            report = audit(catalog.engine)
            audit_s = time.perf_counter() - started
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            catalog.close()
            per_row.append(audit_s / rows)
            times.append(audit_s)
            growth = (f", x{audit_s / times[-2]:.1f} the time for x{rows / args.rows[len(times) - 2]:.1f} the rows"
                      if len(times) > 1 else "")
            peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{rows:>8,} rows ({claims:,} claims): ingest {ingest_s:6.2f} s, audit {audit_s:6.2f} s "
                  f"({len(report.findings):,} findings, {audit_s / rows * 1e6:.0f} µs a row{growth}); "
                  f"peak RSS {peak_mb:,.0f} MB", flush=True)
        ratio = per_row[-1] / per_row[0]
        print(f"time per row, largest over smallest: {ratio:.2f} (floor {LINEAR_FLOOR}: "
              f"{'linear' if ratio < LINEAR_FLOOR else 'NOT linear'})")
    finally:
        embedded.stop(home / "home")
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
