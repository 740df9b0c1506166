"""`esrpdb audit` on one document with a long table: the audit's time against the table's rows.

A document with a table of 10^6 rows (33 MB, under the 64 MB cap) kept `audit` at 100 % CPU past 8
minutes: it compared every claim with every cell. Here the seed synthetic whitepaper gets a table of N
host rows appended, is ingested into a private embedded server, and the audit is timed at each N. The
audit must grow linearly: the ratio of time per row at the largest N to that at the smallest (measured
in the same run) is printed against a floor of 3 (quadratic work gives ~N ratio). Not a test:

    python benchmarks/bench_audit_rows.py [--rows 3000 10000 30000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import tempfile
import time
from pathlib import Path

import psycopg

from esrpdb.audit import audit
from esrpdb.db import embedded, migrate, roles
from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.pipeline import ingest_paths

SEED = Path(__file__).resolve().parents[1] / "fixtures" / "documents" / "synthetic-contoso-whitepaper.md"
LINEAR_FLOOR = 3.0  # time per row at the largest N over that at the smallest: linear work stays near 1


def long_document(folder: Path, rows: int) -> Path:
    """The seed whitepaper with a table of `rows` host rows (two measured columns a row)."""
    lines = [SEED.read_text(encoding="utf-8"), "", "Table 9: Per-server results", "",
             "| Server | Achieved IOPS | Database reads/sec |", "|---|---|---|"]
    lines += [f"| MBX{n:07d} | {1000 + n % 977:,}.{n % 100:02d} | {600 + n % 613:,}.{n % 10}0 |" for n in range(rows)]
    path = folder / f"long-{rows}.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[3000, 10000, 30000])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="esrpdb-bench-audit-"))
    home.chmod(0o711)
    try:
        server = embedded.start(home / "home")
        per_row: list[float] = []
        for rows in args.rows:
            catalogue = f"audit{rows}"
            with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as admin:
                roles.create_database(admin, catalogue)
            url = server.url_for(database=catalogue)
            migrate.upgrade(url)
            catalog = open_catalog(url)
            document = long_document(home, rows)
            started = time.perf_counter()
            outcomes = ingest_paths(catalog.engine, [document])
            ingest_s = time.perf_counter() - started
            assert all(o.status != "failed" for o in outcomes), [o.message for o in outcomes]
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
            print(f"{rows:>8,} rows: ingest {ingest_s:6.2f} s, audit {audit_s:6.2f} s "
                  f"({len(report.findings)} findings, {audit_s / rows * 1e6:.0f} µs a row)")
        ratio = per_row[-1] / per_row[0]
        print(f"time per row, largest over smallest: {ratio:.2f} (floor {LINEAR_FLOOR}: "
              f"{'linear' if ratio < LINEAR_FLOOR else 'NOT linear'})")
    finally:
        embedded.stop(home / "home")
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
