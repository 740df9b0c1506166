"""PDF ingest against `pdftotext -layout` of the same files, and peak memory on a long PDF.

Prints the seed documents as a word processor lays them out (tests/pdf_renderings.py: ruled tables
whose labels wrap, running headers, tables over pages; headless Chromium), plus one long PDF of
several hundred pages (the seeds printed again and again, as a bound volume of submissions). Then,
in one run, on a private embedded PostgreSQL:
- floor: `pdftotext -layout` of every file (poppler: the C extractor analysts use);
- esrpdb: `ingest_paths` on the same files, the real path (hash, detect, PDF layout, document
  reader, systems, one transaction per file, commit) into a fresh clone of a migrated catalogue;
- peak RSS (VmHWM) of a separate process ingesting the long PDF (goal < 300 MB for 400 pages).
Prints `ratio ingest / pdftotext: N.Nx` (goal <= 3x) and pages per second.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.pdf_renderings: the renderings the tests read

from esrpdb.db import embedded, roles  # noqa: E402
from esrpdb.db.catalog import open_catalog  # noqa: E402
from esrpdb.ingest.pipeline import ingest_paths  # noqa: E402
from tests.pdf_renderings import print_pdf, seed_html  # noqa: E402

SEEDS = sorted((ROOT / "fixtures" / "documents").glob("0*.txt"))


def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def render(folder: Path, long_copies: int) -> tuple[list[Path], Path]:
    seeds = []
    for seed in SEEDS:
        pdf = folder / f"{seed.stem}.pdf"
        print_pdf(seed_html(seed.read_text(encoding="utf-8"), title=seed.stem), pdf)
        seeds.append(pdf)
    volume = "\n\n".join(seed.read_text(encoding="utf-8") for seed in SEEDS * long_copies)
    long_pdf = folder / "long" / "volume.pdf"
    long_pdf.parent.mkdir()
    print_pdf(seed_html(volume, title="volume"), long_pdf)
    return seeds, long_pdf


def archive_copies(folder: Path, seeds: list[Path], copies: int) -> list[Path]:
    """Each seed PDF `copies` times, each copy one comment line longer (a distinct file for the SHA-256 check)."""
    folder.mkdir()
    made = []
    for n in range(1, copies + 1):
        for seed in seeds:
            copy = folder / f"{seed.stem}-{n}.pdf"
            copy.write_bytes(seed.read_bytes() + f"%copy {n}\n".encode())
            made.append(copy)
    return made


def floor_seconds(files: list[Path]) -> float:
    started = time.perf_counter()
    for pdf in files:
        subprocess.run(["pdftotext", "-layout", str(pdf), "-"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def ingest_seconds(server, files: list[Path], repeat: int) -> float:
    import psycopg

    admin = server.admin_url().replace("+psycopg", "")
    template = "esrpdb_bench_pdf_template"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
        roles.create_database(conn, template)
    open_catalog(server.url_for(database=template)).close()  # migrated once
    times = []
    for n in range(repeat):
        name = f"esrpdb_bench_pdf_{n}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            roles.create_database(conn, name, template=template)
        catalog = open_catalog(server.url_for(database=name))
        started = time.perf_counter()
        outcomes = ingest_paths(catalog.engine, files)
        times.append(time.perf_counter() - started)
        catalog.close()
        failed = [o.message for o in outcomes if o.status == "failed"]
        assert not failed, failed
    return statistics.median(times)


def peak_rss_mib(server, pdf: Path) -> float:
    probe = ("import sys\nfrom pathlib import Path\nfrom esrpdb.db.catalog import open_catalog\n"
             "from esrpdb.ingest.pipeline import ingest_file\n"
             "o = ingest_file(open_catalog(sys.argv[1]).engine, Path(sys.argv[2]))\n"
             "assert o.status in ('loaded', 'skipped'), o.message\n"
             "print([l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1])\n")
    done = subprocess.run([sys.executable, "-c", probe, server.url_for(database="esrpdb_bench_pdf_rss"), str(pdf)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=4, help="seed sets in the long PDF (4: ~400 pages)")
    parser.add_argument("--repeat", type=int, default=3, help="ingest repetitions (the median is reported)")
    parser.add_argument("--archive", type=int, default=0, metavar="N",
                        help="also a folder of N copies of each seed PDF, as an archive of many mid-sized PDFs "
                             "(each copy a distinct file of the same document: read whole, written as a twin)")
    args = parser.parse_args()
    for tool in ("pdftotext", "pdfinfo"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed for the floor (apt-get install poppler-utils)")
    with tempfile.TemporaryDirectory(prefix="esrpdb-bench-pdf-") as tmp:
        os.chmod(tmp, 0o711)  # as root the server's own user must enter it; esrpdb opens no folder itself
        folder = Path(tmp)
        seeds, long_pdf = render(folder, args.copies)
        files = [*seeds, long_pdf]
        total_pages = sum(pages(pdf) for pdf in files)
        long_pages = pages(long_pdf)
        home = folder / "home"
        server = embedded.start(home)
        try:
            floor = statistics.median(floor_seconds(files) for _ in range(args.repeat))
            ingest = ingest_seconds(server, files, args.repeat)
            import psycopg

            with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as conn:
                roles.create_database(conn, "esrpdb_bench_pdf_rss", template="esrpdb_bench_pdf_template")
            rss = peak_rss_mib(server, long_pdf)
            archive = archive_copies(folder / "archive", seeds, args.archive) if args.archive else []
            if archive:
                archive_pages = sum(pages(p) for p in archive)
                archive_floor = statistics.median(floor_seconds(archive) for _ in range(args.repeat))
                archive_ingest = ingest_seconds(server, archive, args.repeat)
        finally:
            embedded.stop(home)
    print(f"files: {len(files)} PDFs, {total_pages} pages (the long one {long_pages})")
    print(f"pdftotext -layout: {floor:.2f} s ({total_pages / floor:.0f} pages/s)")
    print(f"esrpdb ingest:     {ingest:.2f} s ({total_pages / ingest:.0f} pages/s)")
    print(f"ratio ingest / pdftotext: {ingest / floor:.1f}x (goal <= 3x)")
    print(f"peak RSS ingesting the long PDF: {rss:.0f} MiB (goal < 300 MiB)")
    if archive:
        print(f"archive of {len(archive)} PDFs ({archive_pages} pages): pdftotext {archive_floor:.2f} s, "
              f"esrpdb {archive_ingest:.2f} s, ratio {archive_ingest / archive_floor:.1f}x")


if __name__ == "__main__":
    main()
