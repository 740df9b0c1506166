"""`esrpdb site` on a synthetic 10,000-solution catalogue: build time and page weight.

Fills a private embedded PostgreSQL with N synthetic solutions (one disk group, one trial of
three Performance runs with one instance's latencies each, a test configuration with a mailbox
count, a list price for two in three, a power figure for one in two), then times `build_site`
and reports the pages' sizes. Goal: under a minute for 10,000 solutions. Not a test; run by hand:

    python benchmarks/bench_site.py [--solutions 10000] [--keep OUT]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from esrpdb.db import embedded
from esrpdb.db.catalog import open_catalog
from esrpdb.site.build import build_site

FILL = [
    """INSERT INTO source_files (id, sha256, path, file_name, format, parser_version, size_bytes)
       SELECT g, lpad(to_hex(g), 64, '0'), 'bench/' || g, 'Performance_bench_' || g || '.html', 'jetstress_html',
              'bench', 1000
       FROM generate_series(1, :n) g""",
    """INSERT INTO solutions (id, key, vendor, model, label, connectivity, raid_level, usable_capacity_bytes,
                              list_price_amount, list_price_currency, list_price_type, active_power_w, idle_power_w,
                              power_boundary)
       SELECT g, 'bench-' || lpad(g::text, 5, '0'), 'Vendor ' || chr(65 + g % 7), 'Array ' || g, 'Synthetic array ' || g,
              (ARRAY['iSCSI', 'Fibre Channel', 'SAS'])[1 + g % 3], 'RAID 10', (1 + g % 40)::bigint * 137438953472,
              CASE WHEN g % 3 > 0 THEN 20000 + (g * 37) % 90000 END, CASE WHEN g % 3 > 0 THEN 'USD' END,
              CASE WHEN g % 3 > 0 THEN 'list' END, CASE WHEN g % 2 = 0 THEN 100 + g % 400 END,
              CASE WHEN g % 2 = 0 THEN 90 + g % 380 END, CASE WHEN g % 2 = 0 THEN 'enclosure_and_drives' END
       FROM generate_series(1, :n) g""",
    """INSERT INTO disks (solution_id, disk_count, model, media, speed_rpm, raw_capacity_bytes, role)
       SELECT g, 4 + g % 92, 'Disk ' || g % 13, CASE WHEN g % 5 = 0 THEN 'SSD' ELSE 'HDD' END,
              CASE WHEN g % 5 = 0 THEN NULL ELSE 15000 END, 300000000000, 'active'
       FROM generate_series(1, :n) g""",
    "INSERT INTO trials (id, solution_id, label) SELECT g, g, 'median-trial' FROM generate_series(1, :n) g",
    """INSERT INTO runs (id, source_file_id, report_index, solution_id, trial_id, run_label, origin, report_type,
                         jetstress_version, jetstress_release, reported_verdict, achieved_iops, target_iops)
       SELECT (g - 1) * 3 + k, g, k, g, g, 'Run ' || k, 'report', 'Performance',
              (ARRAY['08.02.0060.000', '14.01.0225.017', '15.01.0466.031'])[1 + g % 3],
              (ARRAY[2007, 2010, 2013])[1 + g % 3], 'Pass', 500 + (g * 7919) % 12000 + k * 37, 500
       FROM generate_series(1, :n) g CROSS JOIN generate_series(1, 3) k""",
    "INSERT INTO instances (id, run_id, name) SELECT r.id, r.id, 'Instance1' FROM runs r",
    """INSERT INTO latencies (run_id, instance_id, scope, db_read_latency_ms, db_write_latency_ms,
                              log_write_latency_ms, db_reads_per_s, db_writes_per_s, log_writes_per_s,
                              source_latency_unit)
       SELECT r.id, r.id, 'transactional', 5 + r.id % 15, 2 + r.id % 9, 0.5 + (r.id % 40) / 10.0,
              r.achieved_iops * 0.6, r.achieved_iops * 0.4, 50 + r.id % 900, 'ms' FROM runs r""",
    """INSERT INTO test_configs (source_file_id, run_id, jetstress_version, test_type, mailbox_count,
                                 iops_per_mailbox, settings)
       SELECT g, (g - 1) * 3 + 2, '14.01.0225.017', 'Performance', 500 * (1 + g % 20), 0.5, '{}'::jsonb
       FROM generate_series(1, :n) g""",
]


def fill(engine, n: int) -> None:
    with engine.begin() as conn:
        for statement in FILL:
            conn.execute(text(statement), {"n": n})
        for table in ("source_files", "solutions", "trials", "runs", "instances"):
            conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"))
        conn.execute(text("ANALYZE"))


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def weight(out: Path) -> dict[str, float]:
    """Total size, and the index's and an average solution page's, in MiB."""
    pages = list((out / "solutions").glob("*.html"))
    mib = 2**20
    return {"total": sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / mib,
            "index": (out / "index.html").stat().st_size / mib,
            "solution_page": sum(p.stat().st_size for p in pages) / max(len(pages), 1) / mib,
            "static": sum(p.stat().st_size for p in (out / "static").iterdir()) / mib}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--solutions", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="build the site here and keep it (else a temp folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="esrpdb-bench-site-") as tmp:
        os.chmod(tmp, 0o711)  # as root the server's own user must enter it; esrpdb opens no folder itself
        home = Path(tmp) / "home"
        server = embedded.start(home)
        catalog = open_catalog(server.url)
        try:
            started = time.perf_counter()
            fill(catalog.engine, args.solutions)
            print(f"filled {args.solutions:,} solutions in {time.perf_counter() - started:.1f} s", flush=True)
            out = args.keep or Path(tmp) / "site"
            if out.exists():
                shutil.rmtree(out)
            cpu_before = _cpu_seconds()
            report = build_site(catalog.reader(), out)
            cpu = _cpu_seconds() - cpu_before
            load = os.getloadavg()[0]
            sizes = weight(out)
        finally:
            catalog.close()
            embedded.stop(home)
    print(f"built {report.pages:,} pages for {report.solutions:,} solutions in {report.seconds:.1f} s "
          f"({report.charts_svg} SVG charts at build time; solution-page charts "
          f"{'drawn in the browser' if report.client_charts else 'inline SVG'})")
    print(f"CPU time of the build (this process and its page workers, not PostgreSQL): {cpu:.1f} s; "
          f"load average at the end {load:.1f} on {os.cpu_count()} CPUs (other work on the machine stretches wall time)")
    print("phases: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in report.phases.items()))
    print(f"site {sizes['total']:.1f} MiB: index {sizes['index']:.2f} MiB, solution page {sizes['solution_page'] * 1024:.1f} KiB "
          f"on average, static files {sizes['static']:.2f} MiB")
    print(f"goal: under 60 s -> {'met' if report.seconds < 60 else 'NOT met'}")


if __name__ == "__main__":
    main()
