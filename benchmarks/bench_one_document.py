"""One new document of about 20 pages ingested from the command line, against pdftotext and `esrpdb --help`.

    python benchmarks/bench_one_document.py [--repeat 3] [--file PDF] [--keep HOME]

The everyday case: an analyst adds this month's submission to a catalogue on a warm embedded server.
The document (unless --file names one): the archive folder's copy of a seed nearest 20 pages
(benchmarks/archive_folder.py: printed by Chromium as a word processor lays it out, cached under
~/.cache/esrpdb-bench/). Then, in one run, on a private embedded PostgreSQL started before the clock,
`--repeat` times each, interleaved:
- floor: `pdftotext -layout FILE -` (poppler: the C extractor analysts use);
- start-up: `esrpdb --help` (the command's own start-up, nothing read);
- esrpdb: `esrpdb --catalogue NAME ingest FILE` as a user types it, its own process, into a fresh
  catalogue (a clone of one migrated before the clock), its peak memory (/usr/bin/time's %M).
Prints each run and min/median/max of the seconds and of the ratios ingest / pdftotext and
ingest / `esrpdb --help` (goal: the ingest under 0.5 s, start-up included). The package's bytecode is
written first (compileall), as an installed package has it.
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
from bench_archive import fresh_catalogue, ingest_once  # noqa: E402

from esrpdb.db import embedded  # noqa: E402

TARGET_PAGES = 20


def default_document() -> Path:
    """The archive's copy of a seed (fixtures/documents, one column) nearest TARGET_PAGES pages."""
    folder = archive_folder.build(40)
    seeds = [pdf for pdf in sorted(folder.glob("*.pdf")) if "synth" not in pdf.name and pdf.name.endswith("1col.pdf")]
    return min(seeds or sorted(folder.glob("*.pdf")),
               key=lambda pdf: abs(archive_folder.page_count(pdf) - TARGET_PAGES))


def compiled() -> None:
    """The package's bytecode written, as `pip install` writes it: with PYTHONDONTWRITEBYTECODE set (or a
    source tree never imported), every command would compile each module again, a third of a second."""
    import esrpdb

    subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"[/\\](tests|benchmarks|fixtures|site)[/\\]",
                    str(Path(esrpdb.__file__).parent)], stdout=subprocess.DEVNULL, check=False)


def seconds_of(argv: list[str], env: dict | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - started


def spread(values: list[float], unit: str = "s") -> str:
    return (f"min {min(values):.3f}{unit}, median {statistics.median(values):.3f}{unit}, "
            f"max {max(values):.3f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (min/median/max are reported)")
    parser.add_argument("--file", type=Path, help="the PDF to ingest (default: an archive copy of ~20 pages)")
    parser.add_argument("--keep", metavar="HOME", type=Path,
                        help="use (and keep) this ESRPDB_HOME for the private server, e.g. to profile after")
    args = parser.parse_args()
    for tool in ("pdftotext", "/usr/bin/time"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed (apt-get install poppler-utils time)")
    compiled()
    document = (args.file or default_document()).resolve()
    pages = archive_folder.page_count(document)
    print(f"document: {document} ({pages} pages, {document.stat().st_size / 1e3:.0f} kB)", flush=True)
    esrpdb = shutil.which("esrpdb") or sys.exit("esrpdb is not on PATH (pip install -e .)")
    home = args.keep or Path(tempfile.mkdtemp(prefix="esrpdb-bench-one-"))
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o711)  # as root the server's own user must enter it
    env = {**os.environ, "ESRPDB_HOME": str(home)}
    server = embedded.start(home)  # warm: started before the clock, as an analyst's server already runs
    floors, helps, ingests, peaks = [], [], [], []
    try:
        fresh_catalogue(server, "archive_template")
        seconds_of([esrpdb, "--help"], env)  # the interpreter's files in the page cache, as any second command
        for n in range(args.repeat):
            floors.append(seconds_of(["pdftotext", "-layout", str(document), "-"]))
            helps.append(seconds_of([esrpdb, "--help"], env))
            fresh_catalogue(server, f"one_{n}")
            seconds, peak, summary = ingest_once(home, document, f"one_{n}", [])
            ingests.append(seconds)
            peaks.append(peak)
            print(f"run {n + 1}: pdftotext {floors[-1]:.3f} s, esrpdb --help {helps[-1]:.3f} s, "
                  f"esrpdb ingest {seconds:.3f} s ({seconds / floors[-1]:.1f}x pdftotext, "
                  f"{seconds / helps[-1]:.2f}x --help), peak {peak:.0f} MiB; {summary}", flush=True)
    finally:
        if args.keep is None:
            embedded.stop(home)
            shutil.rmtree(home, ignore_errors=True)
    print(f"pdftotext -layout:    {spread(floors)}")
    print(f"esrpdb --help:        {spread(helps)}")
    print(f"esrpdb ingest FILE:   {spread(ingests)} (goal < 0.5 s)")
    print(f"ratio ingest / pdftotext: {spread([i / f for i, f in zip(ingests, floors)], 'x')}")
    print(f"ratio ingest / --help:    {spread([i / h for i, h in zip(ingests, helps)], 'x')}")
    print(f"peak memory of the command: {statistics.median(peaks):.0f} MiB")


if __name__ == "__main__":
    main()
