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
ingest / `esrpdb --help` (goal: the ingest under 0.5 s, start-up included), and the processor time of
the command and its reading worker (user + system, /usr/bin/time: a shared machine's load stretches
the wall time of two processes more than their work). The package's bytecode is written first
(compileall), as an installed package has it.

`--base DIR`: paired runs against another copy of the package, DIR/esrpdb (e.g. `mkdir -p DIR/esrpdb &&
git archive main | tar -x -C DIR/esrpdb`), put first on PYTHONPATH for the same console script: each run
ingests with it too, right after this code's ingest, into a fresh catalogue of its own, and the ratio
this / base of each pair is printed (on a loaded machine a pair says more than two medians).
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
from bench_archive import check_base, command_env, fresh_catalogue  # noqa: E402

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


def ingest_timed(home: Path, document: Path, catalogue: str, base: Path | None) -> tuple[float, float, float, str]:
    """(seconds, processor seconds of the command and its children, peak MiB, the summary line) of
    `esrpdb --catalogue NAME ingest FILE`, the package on PYTHONPATH first when `base` names a copy."""
    env = command_env(home, base)
    esrpdb = shutil.which("esrpdb") or sys.exit("esrpdb is not on PATH (pip install -e .)")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", timing.name, esrpdb, "--catalogue", catalogue,
                               "ingest", str(document)], capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - started
        user, system, peak_kib = timing.read().split()[-3:]
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-300:]
    if done.returncode != 0:
        sys.exit(f"esrpdb ingest failed ({done.returncode}): {summary}\n{done.stderr[-2000:]}")
    return seconds, float(user) + float(system), int(peak_kib) / 1024, summary


def spread(values: list[float], unit: str = "s") -> str:
    return (f"min {min(values):.3f}{unit}, median {statistics.median(values):.3f}{unit}, "
            f"max {max(values):.3f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (min/median/max are reported)")
    parser.add_argument("--file", type=Path, help="the PDF to ingest (default: an archive copy of ~20 pages)")
    parser.add_argument("--keep", metavar="HOME", type=Path,
                        help="use (and keep) this ESRPDB_HOME for the private server, e.g. to profile after")
    parser.add_argument("--base", metavar="DIR", type=Path,
                        help="paired runs against the copy of the package in DIR/esrpdb (see above)")
    args = parser.parse_args()
    if args.base is not None:
        check_base(args.base)
    for tool in ("pdftotext", "/usr/bin/time"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed (apt-get install poppler-utils time)")
    compiled()
    if args.base is not None:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"[/\\](tests|benchmarks|fixtures|site)[/\\]",
                        str(args.base / "esrpdb")], stdout=subprocess.DEVNULL, check=False)
    document = (args.file or default_document()).resolve()
    pages = archive_folder.page_count(document)
    print(f"document: {document} ({pages} pages, {document.stat().st_size / 1e3:.0f} kB)", flush=True)
    esrpdb = shutil.which("esrpdb") or sys.exit("esrpdb is not on PATH (pip install -e .)")
    home = args.keep or Path(tempfile.mkdtemp(prefix="esrpdb-bench-one-"))
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o711)  # as root the server's own user must enter it
    env = {**os.environ, "ESRPDB_HOME": str(home)}
    server = embedded.start(home)  # warm: started before the clock, as an analyst's server already runs
    floors, helps, ingests, peaks, cpus, bases, base_cpus = [], [], [], [], [], [], []
    try:
        fresh_catalogue(server, "archive_template")
        seconds_of([esrpdb, "--help"], env)  # the interpreter's files in the page cache, as any second command
        for n in range(args.repeat):
            floors.append(seconds_of(["pdftotext", "-layout", str(document), "-"]))
            helps.append(seconds_of([esrpdb, "--help"], env))
            fresh_catalogue(server, f"one_{n}")
            seconds, cpu, peak, summary = ingest_timed(home, document, f"one_{n}", None)
            ingests.append(seconds)
            cpus.append(cpu)
            peaks.append(peak)
            print(f"run {n + 1}: pdftotext {floors[-1]:.3f} s, esrpdb --help {helps[-1]:.3f} s, "
                  f"esrpdb ingest {seconds:.3f} s, cpu {cpu:.2f} s ({seconds / floors[-1]:.1f}x pdftotext, "
                  f"{seconds / helps[-1]:.2f}x --help), peak {peak:.0f} MiB; {summary}", flush=True)
            if args.base is not None:
                fresh_catalogue(server, f"one_base_{n}")
                seconds, cpu, _, summary = ingest_timed(home, document, f"one_base_{n}", args.base)
                bases.append(seconds)
                base_cpus.append(cpu)
                print(f"       base ingest {seconds:.3f} s, cpu {cpu:.2f} s; this / base {ingests[-1] / seconds:.2f} "
                      f"(cpu {cpus[-1] / cpu:.2f}); {summary}", flush=True)
    finally:
        if args.keep is None:
            embedded.stop(home)
            shutil.rmtree(home, ignore_errors=True)
    print(f"pdftotext -layout:    {spread(floors)}")
    print(f"esrpdb --help:        {spread(helps)}")
    print(f"esrpdb ingest FILE:   {spread(ingests)} (goal < 0.5 s); cpu {spread(cpus)}")
    print(f"ratio ingest / pdftotext: {spread([i / f for i, f in zip(ingests, floors)], 'x')}")
    print(f"ratio ingest / --help:    {spread([i / h for i, h in zip(ingests, helps)], 'x')}")
    print(f"peak memory of the command: {statistics.median(peaks):.0f} MiB")
    if bases:
        print(f"base ingest FILE:     {spread(bases)}; cpu {spread(base_cpus)}")
        print(f"ratio this / base:    {spread([i / b for i, b in zip(ingests, bases)], 'x')}; "
              f"cpu {spread([c / b for c, b in zip(cpus, base_cpus)], 'x')}")


if __name__ == "__main__":
    main()
