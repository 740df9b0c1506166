"""How long commands take to start, against `python -c pass` measured in the same run.

    python benchmarks/bench_startup.py [--repeats 7] [--database-url URL]

Each command runs as its own process, `--repeats` times; the median wall time is printed
with its ratio to the floor (an interpreter that imports nothing). `esrpdb sql "select 1"`
runs against the embedded server (started first, so its start-up is not counted) or the
server of --database-url; the raw floor for it is one psycopg connection and SELECT 1.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOALS_MS = {"esrpdb --help": 300, 'esrpdb sql "select 1"': 500}


def _esrpdb() -> list[str]:
    script = Path(sys.executable).with_name("esrpdb")
    return [str(script)] if script.exists() else [sys.executable, "-m", "esrpdb.cli.main"]


def _median_ms(argv: list[str], repeats: int, env: dict) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--database-url", help="default: the embedded server in ESRPDB_HOME")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if args.database_url:
        env["ESRPDB_DATABASE_URL"] = args.database_url
    else:
        from esrpdb.db import embedded

        embedded.start()
    esrpdb = _esrpdb()
    subprocess.run([*esrpdb, "sql", "select 1"], check=True, capture_output=True, env=env)  # migrate once

    from esrpdb.db.connection import resolve_urls

    url = resolve_urls(args.database_url).reader or resolve_urls(args.database_url).owner
    raw = url.replace("postgresql+psycopg://", "postgresql://")
    floor_ms = _median_ms([sys.executable, "-c", "pass"], args.repeats, env)
    connect_ms = _median_ms([sys.executable, "-c", f"import psycopg; psycopg.connect({raw!r}).execute('select 1')"],
                            args.repeats, env)
    cases = {
        "python -c pass": floor_ms,
        "python: import psycopg, connect, SELECT 1": connect_ms,
        "python: import typer": _median_ms([sys.executable, "-c", "import typer"], args.repeats, env),
        "esrpdb --help": _median_ms([*esrpdb, "--help"], args.repeats, env),
        "esrpdb query --list": _median_ms([*esrpdb, "query", "--list", "-f", "csv"], args.repeats, env),
        'esrpdb sql "select 1"': _median_ms([*esrpdb, "sql", "select 1", "-f", "csv"], args.repeats, env),
        # no filter: a key the catalogue lacks is an error now (issue 26), and the catalogue may be empty
        "esrpdb query median-runs": _median_ms([*esrpdb, "query", "median-runs", "-f", "csv"], args.repeats, env),
    }
    print(f"{'command':<44}{'median ms':>10}{'x floor':>9}  goal")
    for name, ms in cases.items():
        goal = f"< {GOALS_MS[name]} ms {'ok' if ms < GOALS_MS[name] else 'MISSED'}" if name in GOALS_MS else ""
        print(f"{name:<44}{ms:>10.0f}{ms / floor_ms:>9.1f}  {goal}")


if __name__ == "__main__":
    main()
