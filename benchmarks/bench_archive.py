"""`esrpdb ingest FOLDER` on an analyst's archive of PDFs, against `pdftotext -layout` of the same files.

    python benchmarks/bench_archive.py [--count 300] [--repeat 3] [--base DIR]

The folder (benchmarks/archive_folder.py): the seeds and the synthetic documents printed as a word
processor lays them out, in one and two columns, `--count` distinct documents of 15-40 pages,
cached under ~/.cache/esrpdb-bench/. Then, in one run, on a private embedded PostgreSQL, `--repeat`
times each:
- floor: `pdftotext -layout FILE -` of every PDF, one process after another (poppler: the C
  extractor analysts use);
- esrpdb: `esrpdb --catalogue NAME ingest FOLDER` as a user types it, its own process (with its
  forked readers), into a fresh catalogue (a clone of one migrated before the clock), its peak
  memory the largest resident set of the command and its children (/usr/bin/time's %M).
Prints the ratio ingest / pdftotext (min/median/max; goal <= 2x), pages per second, the peak memory
(goal < 300 MB) and the whole folder's time (goal < 2 minutes for 300 PDFs). `--base DIR`: paired runs
against another copy of the package (DIR/esrpdb, first on PYTHONPATH), as bench_one_document.py's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import archive_folder  # noqa: E402

from esrpdb.db import embedded, roles  # noqa: E402
from esrpdb.db.catalog import open_catalog  # noqa: E402

TEMPLATE = "archive_template"


def floor_seconds(files: list[Path]) -> float:
    started = time.perf_counter()
    for pdf in files:
        subprocess.run(["pdftotext", "-layout", str(pdf), "-"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def command_env(home: Path, base: Path | None = None) -> dict[str, str]:
    """The environment of a benchmarked `esrpdb` command: the private server's home, no catalogue or URL of
    the caller's, and `base` (a copy of the package, DIR/esrpdb) first on PYTHONPATH when given."""
    env = {**os.environ, "ESRPDB_HOME": str(home)}
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE", "PYTHONPATH"):
        env.pop(name, None)
    if base is not None:
        env["PYTHONPATH"] = str(base)
    return env


def check_base(base: Path) -> None:
    """A --base copy the installed console script can run (`esrpdb.cli.console:entry`), or a one-line exit.
    A copy from before that entry point (3ee16c5) needs a cli/console.py of two lines:
    `def entry():` / `    from .main import run; run()`."""
    if not (base / "esrpdb" / "__init__.py").is_file():
        sys.exit(f"--base {base}: no package at {base / 'esrpdb'}")
    if not (base / "esrpdb" / "cli" / "console.py").is_file():
        sys.exit(f"--base {base}: {base / 'esrpdb' / 'cli' / 'console.py'} is missing (a copy older than the console "
                 "script's entry point): add one with `def entry():` and `    from .main import run; run()`")


def fresh_catalogue(server, name: str) -> None:
    """The catalogue `name` as a clone of the migrated template (a user's first ingest migrates once)."""
    import psycopg

    with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as conn:
        database = roles.catalogue_database(name)
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        roles.create_database(conn, database, template=roles.catalogue_database(TEMPLATE) if name != TEMPLATE
                              else None)
    if name == TEMPLATE:
        open_catalog(server.url_for(database=roles.catalogue_database(TEMPLATE))).close()


def ingest_once(home: Path, folder: Path, catalogue: str, extra: list[str],
                base: Path | None = None) -> tuple[float, float, str]:
    """(seconds, peak MiB, the summary line) of `esrpdb ingest FOLDER` in its own process; `base`: a copy of
    the package (DIR/esrpdb) put first on PYTHONPATH for the same console script."""
    env = command_env(home, base)
    esrpdb = shutil.which("esrpdb") or sys.exit("esrpdb is not on PATH (pip install -e .)")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing.name, esrpdb, "--catalogue", catalogue,
                               *extra, "ingest", str(folder)], capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - started
        peak_kib = int(timing.read().split()[-1])
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-300:]
    if done.returncode != 0:
        failed = [line for line in done.stdout.splitlines() if " failed " in line][:10]
        sys.exit(f"esrpdb ingest failed ({done.returncode}): {summary}\n" + "\n".join(failed) + done.stderr[-2000:])
    return seconds, peak_kib / 1024, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300, help="PDFs in the folder (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (medians are reported)")
    parser.add_argument("--keep", metavar="HOME", type=Path,
                        help="use (and keep) this ESRPDB_HOME for the private server, e.g. to profile after")
    parser.add_argument("--base", metavar="DIR", type=Path,
                        help="paired runs: each run ingests with DIR/esrpdb (first on PYTHONPATH) too, right after")
    args = parser.parse_args()
    if args.base is not None:
        check_base(args.base)
    for tool in ("pdftotext", "/usr/bin/time"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed (apt-get install poppler-utils time)")
    folder = archive_folder.build(args.count)
    files = sorted(folder.glob("*.pdf"))
    pages = sum(archive_folder.page_count(pdf) for pdf in files)
    print(f"folder: {folder} ({len(files)} PDFs, {pages} pages, "
          f"{sum(p.stat().st_size for p in files) / 1e6:.0f} MB)", flush=True)
    home = args.keep or Path(tempfile.mkdtemp(prefix="esrpdb-bench-archive-"))
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o711)  # as root the server's own user must enter it
    server = embedded.start(home)
    floors, ingests, peaks, bases = [], [], [], []
    try:
        fresh_catalogue(server, TEMPLATE)
        for n in range(args.repeat):
            floors.append(floor_seconds(files))
            fresh_catalogue(server, f"archive_{n}")
            seconds, peak, summary = ingest_once(home, folder, f"archive_{n}", [])
            ingests.append(seconds)
            peaks.append(peak)
            print(f"run {n + 1}: pdftotext {floors[-1]:.1f} s, esrpdb {seconds:.1f} s "
                  f"({seconds / floors[-1]:.2f}x), peak {peak:.0f} MiB; {summary}", flush=True)
            if args.base is not None:
                fresh_catalogue(server, f"archive_base_{n}")
                base_seconds, base_peak, base_summary = ingest_once(home, folder, f"archive_base_{n}", [], args.base)
                bases.append(base_seconds)
                print(f"       base {base_seconds:.1f} s ({base_seconds / floors[-1]:.2f}x), peak {base_peak:.0f} MiB; "
                      f"this / base {seconds / base_seconds:.2f}; {base_summary}", flush=True)
    finally:
        if args.keep is None:
            embedded.stop(home)
            shutil.rmtree(home, ignore_errors=True)
    floor, ingest = statistics.median(floors), statistics.median(ingests)
    print(f"pdftotext -layout: {floor:.1f} s ({pages / floor:.0f} pages/s), median of {len(floors)}")
    print(f"esrpdb ingest:     {ingest:.1f} s ({pages / ingest:.0f} pages/s), median of {len(ingests)} "
          f"(goal < 120 s for 300 PDFs)")
    ratios = sorted(i / f for i, f in zip(ingests, floors))
    print(f"ratio ingest / pdftotext: min {ratios[0]:.2f}x, median {statistics.median(ratios):.2f}x, "
          f"max {ratios[-1]:.2f}x (goal <= 2x)")
    if bases:
        paired = sorted(i / b for i, b in zip(ingests, bases))
        print(f"base ingest:       median {statistics.median(bases):.1f} s; this / base: min {paired[0]:.2f}x, "
              f"median {statistics.median(paired):.2f}x, max {paired[-1]:.2f}x")
    print(f"peak memory of the command: {statistics.median(peaks):.0f} MiB (goal < 300 MiB)")


if __name__ == "__main__":
    main()
