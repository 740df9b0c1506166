"""Issue 49's note: the peak memory and the time of one batch of hostile files, ingested into a fresh
catalogue by `esrpdb ingest` as a user runs it. Not a test:

    python benchmarks/bench_bomb_batch.py [--rows 1000000] [--clock-bombs]

The batch: PDFs that inflate to 1 GiB and 300 MB (one disguised as an image), a PDF of 2,000 pages
sharing one stream of 150,000 objects (tests/pdf_bombs.py), a text document of --rows table rows (10^6:
about 33 MB, under the 64 MB cap; the issue's document) and a wide oversized table, then one ordinary
report. --clock-bombs adds the two PDFs only the read's time budget stops (about MAX_READ_SECONDS
each). Printed: elapsed time and peak RSS of the command's whole process tree (sampled by psutil every
20 ms; the embedded server's processes are not in it), beside the `python -c pass` floor.

Measured once (2 shared cores, default batch, 10^6 rows): 292 s, peak RSS of the tree 1,160 MB, the
largest process 1,047 MB (floor 0.14 s, 11 MB); the four PDFs refused within their limits, the three
text files loaded: the 34 MB text document was read in the writer itself with no budget. With one budget
a document whatever its format (ingest/parallel/document_budget.py; same machine, under other jobs'
load): 23.5 s, peak RSS of the tree 712 MB, the largest process 506 MB (floor 0.06 s, 11 MB); exit 1, the
four PDFs and the 34 MB document refused within their limits (the document by MAX_READ_MEMORY_BYTES), the
wide table and the report loaded.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import psycopg

from esrpdb.db import embedded, migrate, roles

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/pdf_bombs.py: the bombs the reliability tests use
from tests.pdf_bombs import crowded_pdf, inflating_pdf, write  # noqa: E402

SEED = REPO / "fixtures" / "documents" / "synthetic-contoso-whitepaper.md"
REPORT = REPO / "fixtures" / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"


def bomb_folder(folder: Path, rows: int, clock_bombs: bool) -> list[str]:
    write(folder / "a-inflates-1GiB.pdf", inflating_pdf(2**30))
    write(folder / "b-inflates-300MB.pdf", inflating_pdf(300 * 2**20))
    write(folder / "c-image-disguise.pdf", inflating_pdf(2**30, marked_as_image=True))
    write(folder / "d-crowded.pdf", crowded_pdf(2000, 150_000))
    if clock_bombs:
        write(folder / "e-slow.pdf", crowded_pdf(2000, 20_000))
        write(folder / "f-slow.pdf", crowded_pdf(2000, 20_001))
    lines = [SEED.read_text(encoding="utf-8"), "", "Table 9: Per-server results", "",
             "| Server | Achieved IOPS | Database reads/sec |", "|---|---|---|"]
    lines += [f"| MBX{n:07d} | {1000 + n % 977:,}.{n % 100:02d} | {600 + n % 613:,}.{n % 10}0 |" for n in range(rows)]
    (folder / "g-long-table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    wide = "| " + " | ".join(f"Col{c}" for c in range(2000)) + " |\n" + "|---" * 2000 + "|\n"
    wide += "".join("| " + " | ".join(str(r * c % 997) for c in range(2000)) + " |\n" for r in range(200))
    (folder / "h-wide-table.md").write_text(SEED.read_text(encoding="utf-8") + "\n\nTable 10: Wide\n\n" + wide,
                                            encoding="utf-8")
    shutil.copyfile(REPORT, folder / "z-report.html")
    return sorted(f"{p.name} {p.stat().st_size / 2**20:.1f} MB" for p in folder.iterdir())


def measured(command: list[str]) -> tuple[float, int, int, subprocess.CompletedProcess]:
    """Elapsed seconds, peak RSS of the whole process tree and of its largest process, and the result."""
    peak_tree = peak_one = 0
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_tree, peak_one
        root = psutil.Process(process.pid)
        while not done.is_set():
            rss = []
            try:
                for proc in [root, *root.children(recursive=True)]:
                    try:
                        rss.append(proc.memory_info().rss)
                    except psutil.Error:
                        pass
            except psutil.Error:
                break
            peak_tree, peak_one = max(peak_tree, sum(rss)), max(peak_one, max(rss, default=0))
            done.wait(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out, err = process.communicate()
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    return elapsed, peak_tree, peak_one, subprocess.CompletedProcess(command, process.returncode, out, err)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--clock-bombs", action="store_true")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="esrpdb-bench-bombs-"))
    home.chmod(0o711)
    try:
        server = embedded.start(home / "home")
        with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as admin:
            roles.create_database(admin, "bombs")
        url = server.url_for(database="bombs")
        migrate.upgrade(url)
        folder = home / "batch"
        folder.mkdir()
        for line in bomb_folder(folder, args.rows, args.clock_bombs):
            print("  " + line)
        floor_s, floor_rss, _, _ = measured([sys.executable, "-c", "pass"])
        env_python = [sys.executable, "-m", "esrpdb.cli.main", "--database-url", url]
        elapsed, tree, one, result = measured([*env_python, "ingest", str(folder)])
        print(result.stdout[-3000:])
        print(f"floor (python -c pass): {floor_s:.2f} s, {floor_rss / 2**20:.0f} MB")
        print(f"bomb batch: exit {result.returncode}, {elapsed:.1f} s, peak RSS of the process tree "
              f"{tree / 2**20:.0f} MB (largest process {one / 2**20:.0f} MB)")
    finally:
        embedded.stop(home / "home")
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "160")
    main()
