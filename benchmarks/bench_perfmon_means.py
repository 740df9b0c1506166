"""What a fixed order of the perfmon sums costs (revision 0031): a large export linked to one run, its
sums recomputed by refresh_run_figures as 0026 took them (`sum(value)`, the plan's order), as 0031 takes
them (`sum(value ORDER BY sampled_at)`), and as an exact numeric sum would (`sum(value::numeric)::float8`),
in turns on the same catalogue (the perfmon sums' rows deleted first, so each turn reads every sample).

    python benchmarks/bench_perfmon_means.py --megabytes 100 [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_perfmon_ingest import COUNTERS, write_csv  # noqa: E402

from esrpdb.db import embedded  # noqa: E402
from esrpdb.db.catalog import open_catalog  # noqa: E402
from esrpdb.ingest.pipeline import ingest_file  # noqa: E402

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
ORDERED = "sum(ps.value ORDER BY ps.sampled_at)"
VARIANTS = {
    "0026: sum(value), plan's order": (MIGRATIONS / "run_figures_0026.sql").read_text(encoding="utf-8"),
    "0031: sum(value ORDER BY sampled_at)": (MIGRATIONS / "run_figures_0031.sql").read_text(encoding="utf-8"),
    "exact: sum(value::numeric)::float8": (MIGRATIONS / "run_figures_0031.sql").read_text(encoding="utf-8")
    .replace(ORDERED, "sum(ps.value::numeric)"),  # stored into float8: cast on insert
}
RECOMPUTE = "SELECT refresh_run_figures(ARRAY[:run])"
# One run over the whole export (local time; the export's bias is 240), every counter linked to it.
RUN = ("INSERT INTO runs (source_file_id, report_type, test_start, test_end) SELECT source_file_id, 'Performance', "
       "min(sampled_at) AT TIME ZONE 'UTC' - interval '240 minutes', max(sampled_at) AT TIME ZONE 'UTC' - "
       "interval '240 minutes' FROM perf_samples GROUP BY source_file_id RETURNING id")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megabytes", type=int, default=100, help="size of the generated CSV")
    parser.add_argument("--repeats", type=int, default=3, help="turns of each variant (the median is shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="esrpdb-bench-") as tmp:
        os.chmod(tmp, 0o711)  # as root the server's own user must enter it
        home, csv_path = Path(tmp) / "home", Path(tmp) / "bench.csv"
        rows = write_csv(csv_path, args.megabytes * 2**20)
        server = embedded.start(home)
        catalog = open_catalog(server.url)
        try:
            assert ingest_file(catalog.engine, csv_path).status == "loaded"
            with catalog.engine.begin() as conn:
                run = conn.execute(text(RUN)).scalar_one()
                conn.execute(text("UPDATE perf_counters SET run_id = :run"), {"run": run})
            with catalog.engine.begin() as conn:
                conn.execute(text("ANALYZE perf_samples"))
            times: dict[str, list[float]] = {name: [] for name in VARIANTS}
            sums: dict[str, list] = {}
            for _ in range(args.repeats):
                for name, sql in VARIANTS.items():  # in turns: the machine's load falls on each alike
                    with catalog.engine.connect() as conn:  # rolled back: head's function and sums stay
                        conn.exec_driver_sql(sql)
                        conn.execute(text("DELETE FROM perf_counter_means"))
                        started = time.perf_counter()
                        conn.execute(text(RECOMPUTE), {"run": run})
                        times[name].append(time.perf_counter() - started)
                        sums[name] = conn.execute(text("SELECT value_sum FROM perf_counter_means "
                                                       "ORDER BY counter_id")).scalars().all()
                        conn.rollback()
        finally:
            catalog.close()
            embedded.stop(home)
    print(f"{rows:,} rows x {len(COUNTERS)} counters = {rows * len(COUNTERS):,} samples, one run")
    base = statistics.median(times[next(iter(VARIANTS))])
    for name, taken in times.items():
        median = statistics.median(taken)
        same = sum(a == b for a, b in zip(sums[name], sums[next(iter(VARIANTS))]))
        print(f"{name:<40} {median:7.2f} s  {median / base:5.2f}x  sums equal to 0026's: {same}/{len(sums[name])}")


if __name__ == "__main__":
    main()
