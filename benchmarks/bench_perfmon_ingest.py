"""perfmon ingest throughput against a raw COPY of the same rows, and peak memory.

Generates a relog-style PDH-CSV of the requested size in a temporary folder, then measures
in one run, on a private embedded PostgreSQL:
- floor: COPY of the same (file, counter, timestamp, value) rows, already in memory;
- esrpdb: `ingest_file` on the CSV (hash, stream-parse, COPY, one transaction);
- peak RSS of a separate process that ingests the file (goal: < 300 MB for a 1 GB CSV).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from esrpdb.db import embedded
from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.pipeline import ingest_file

FLOOR_MAX_SAMPLES = 4_000_000
COUNTERS = [f"\\\\BENCH\\LogicalDisk(c:\\db{n})\\{c}" for n in range(1, 6) for c in (
    "Disk Transfers/sec", "Disk Read Bytes/sec", "Disk Write Bytes/sec", "Avg. Disk sec/Read")]


def write_csv(path: Path, target_bytes: int) -> int:
    rng = random.Random(7)
    start = datetime(2011, 5, 28, 11, 40, 0)
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write('"(PDH-CSV 4.0) (Eastern Daylight Time)(240)",' + ",".join(f'"{c}"' for c in COUNTERS) + "\r\n")
        while out.tell() < target_bytes:
            stamp = start + timedelta(seconds=15 * rows)
            values = ",".join(f'"{rng.uniform(0, 5e6):.3f}"' for _ in COUNTERS)
            out.write(f'"{stamp:%m/%d/%Y %H:%M:%S}.000",{values}\r\n')
            rows += 1
    return rows


def child_ingest(url: str, csv_path: str) -> None:
    catalog = open_catalog(url)
    outcome = ingest_file(catalog.engine, Path(csv_path))
    assert outcome.status == "loaded", outcome.message
    # VmHWM is this process's own peak; ru_maxrss would carry the parent's peak across exec.
    status = Path("/proc/self/status").read_text()
    print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=int, default=100, help="size of the generated CSV (1024 for the 1 GB goal)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="esrpdb-bench-") as tmp:
        os.chmod(tmp, 0o711)  # as root the server's own user must enter it; esrpdb opens no folder itself
        home, csv_path = Path(tmp) / "home", Path(tmp) / "bench.csv"
        rows = write_csv(csv_path, args.megabytes * 2**20)
        values = rows * len(COUNTERS)
        server = embedded.start(home)
        catalog = open_catalog(server.url)
        try:
            # Floor: COPY the same number of long-format rows, built in memory beforehand.
            stamp0 = datetime(2011, 5, 28, 15, 40, tzinfo=timezone.utc)
            with Session(catalog.engine) as session, session.begin():
                session.execute(text(
                    "INSERT INTO source_files (id, sha256, path, file_name, format, parser_version, size_bytes) "
                    "VALUES (-1, repeat('f', 64), 'floor', 'floor', 'perfmon_csv', 'bench', 0)"))
                session.execute(text(
                    "INSERT INTO perf_counters (id, source_file_id, column_index, object_name, counter_name, counter_path) "
                    "SELECT -g, -1, g, 'LogicalDisk', 'c', 'p' FROM generate_series(1, :n) g"), {"n": len(COUNTERS)})
                # Held in memory so the floor times COPY alone; capped so a 1 GB run fits in RAM.
                floor_rows = min(rows, FLOOR_MAX_SAMPLES // len(COUNTERS))
                batch = [(-1, -(c + 1), stamp0 + timedelta(seconds=15 * r), 1234.5)
                         for r in range(floor_rows) for c in range(len(COUNTERS))]
                raw = session.connection().connection.driver_connection
                started = time.perf_counter()
                with raw.cursor() as cursor, cursor.copy(
                    "COPY perf_samples (source_file_id, counter_id, sampled_at, value) FROM STDIN (FORMAT BINARY)"
                ) as copy:
                    copy.set_types(["int4", "int4", "timestamptz", "float8"])
                    for row in batch:
                        copy.write_row(row)
                floor_rate = len(batch) / (time.perf_counter() - started)
                del batch
                session.rollback()

            started = time.perf_counter()
            outcome = ingest_file(catalog.engine, csv_path)
            ingest_s = time.perf_counter() - started
            assert outcome.status == "loaded", outcome.message

            print(f"esrpdb perfmon ingest: {ingest_s:.2f} s for {values:,} samples", flush=True)
            with catalog.engine.begin() as conn:  # TRUNCATE: deleting 70 M samples row by row takes minutes
                conn.execute(text("TRUNCATE perf_samples, perf_counters, perf_files, source_files CASCADE"))
            child = subprocess.run(
                [sys.executable, __file__, "--child", server.url, str(csv_path)],
                capture_output=True, text=True, check=True,
            )
            peak_rss_mb = int(child.stdout.strip().splitlines()[-1]) / 1024
        finally:
            catalog.close()
            embedded.stop(home)

    size_mb = args.megabytes
    print(f"{rows:,} rows x {len(COUNTERS)} counters = {values:,} samples, {size_mb} MiB CSV")
    print(f"raw COPY of the same rows             {floor_rate:12,.0f} samples/s")
    print(f"esrpdb perfmon ingest       {ingest_s:7.2f} s  {values / ingest_s:12,.0f} samples/s  {size_mb / ingest_s:6.1f} MiB/s")
    print(f"peak RSS of an ingesting process: {peak_rss_mb:.0f} MB")
    print(f"ratio ingest throughput / raw COPY throughput: {values / ingest_s / floor_rate:.0%}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child_ingest(sys.argv[2], sys.argv[3])
    else:
        main()
