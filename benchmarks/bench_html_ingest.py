"""HTML ingest throughput (parse + normalise + load) as a ratio to a bare lxml parse.

Runs against a private embedded PostgreSQL in a temporary folder. Each load happens in a
transaction that is rolled back, so every repetition writes the same rows.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import lxml.html
from sqlalchemy.orm import Session

from esrpdb.db import embedded
from esrpdb.db.catalog import open_catalog
from esrpdb.ingest import load
from esrpdb.ingest.formats import jetstress_html

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "jetstress_html"


def best_of(repeats: int, func) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    files = [(p.name, p.read_bytes()) for p in sorted(FIXTURES.rglob("*.html"))]
    total_bytes = sum(len(d) for _, d in files)

    with tempfile.TemporaryDirectory(prefix="esrpdb-bench-") as home:
        server = embedded.start(Path(home))
        catalog = open_catalog(server.url)
        try:
            def bare_lxml():
                for _, data in files:
                    lxml.html.fromstring(data)

            def parse_only():
                for name, data in files:
                    jetstress_html.parse(name, data)

            def ingest():
                with Session(catalog.engine) as session:
                    with session.begin():
                        for index, (name, data) in enumerate(files):
                            report = jetstress_html.parse(name, data)
                            source = load.SourceInfo(f"{index:064x}", name, name, "jetstress_html", "bench", len(data))
                            source_id = load.claim_source_file(session, source)
                            load.load_report(session, source_id, report)
                        session.rollback()

            ingest()  # warm-up: imports, connection pool, prepared plans
            floor = best_of(args.repeats, bare_lxml)
            parsed = best_of(args.repeats, parse_only)
            loaded = best_of(args.repeats, ingest)
        finally:
            catalog.close()
            embedded.stop(Path(home))

    mb = total_bytes / 2**20
    print(f"{len(files)} reports, {total_bytes / 1024:.0f} KiB, best of {args.repeats}")
    print(f"bare lxml parse  {floor * 1000:8.1f} ms  {mb / floor:6.1f} MB/s")
    print(f"esrpdb parse     {parsed * 1000:8.1f} ms  {mb / parsed:6.1f} MB/s")
    print(f"parse+load       {loaded * 1000:8.1f} ms  {mb / loaded:6.1f} MB/s  ({len(files) / loaded:.0f} reports/s)")
    print(f"ratio parse / bare lxml: {parsed / floor:.1f}x")
    print(f"ratio ingest (parse+normalise+load) / bare lxml: {loaded / floor:.1f}x")


if __name__ == "__main__":
    main()
