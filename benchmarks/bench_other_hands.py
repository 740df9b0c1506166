"""Documents by other hands: each bench document read alone, as text and printed to PDF, against its key.

    python benchmarks/bench_other_hands.py [--forms text,pdf] [--only NAME...] [--with-training] [--misses]

The documents are fixtures/other_hands/ (SYNTHETIC, written by authors who never saw the reader:
fixtures/README.md); `--with-training` adds the six documents the reader was built on
(fixtures/synthetic_documents/, fixtures/unseen_families/) as a second block, for contrast. Each
document is ingested alone into a fresh clone of a migrated catalogue on a private embedded server,
with no manifest, as `esrpdb ingest` reads an analyst's folder; the PDF is the text laid out by
Chromium as a word processor would (tests/pdf_renderings.py), cached under
~/.cache/esrpdb-bench/other-hands-<hash>. One line per document and form, then totals per family and
form: systems, facts, runs, runs' read latencies, per-system figures (tests/synthetic_keys.py), the
audit's planted inconsistencies found, its false alarms (mismatches resting on nothing planted) and
its reader doubts (tests/document_bench.py). `--misses` prints what each document missed.

Not a test: a score, not a time. tests/test_other_hands.py keeps a few documents at their score.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `tests` (the shared scoring) as a namespace package, as pytest's pythonpath

sys.path.insert(0, str(ROOT / "benchmarks"))

from private_server import fresh_catalogue, migrated_template  # noqa: E402

from tests import document_bench as bench  # noqa: E402

BENCH = ROOT / "fixtures" / "other_hands"
TRAINING = (ROOT / "fixtures" / "synthetic_documents", ROOT / "fixtures" / "unseen_families")
TEMPLATE = "esrpdb_bench_hands_template"


def printed(path: Path, cache: Path) -> Path:
    """The document as Chromium prints it (one column; its tables set out with spaces or pipes printed as
    tables: tests/pdf_renderings.py `plain_tables`), made once per text."""
    from tests.pdf_renderings import print_pdf, seed_html

    text = path.read_text(encoding="utf-8")
    renderer = (ROOT / "tests" / "pdf_renderings.py").read_bytes()  # a change to the layout is a new PDF
    pdf = cache / f"{path.stem}-{hashlib.sha256(text.encode() + renderer).hexdigest()[:12]}-plain.pdf"
    if not pdf.exists():
        print_pdf(seed_html(text, title=path.stem, plain_tables=True), pdf)
    return pdf


def read_all(server, admin: str, pairs, forms: list[str], cache: Path, show_misses: bool) -> list[bench.DocumentResult]:
    results = []
    for n, (path, key) in enumerate(pairs):
        text = path.read_text(encoding="utf-8")
        for form in forms:
            source = path if form == "text" else printed(path, cache)
            with fresh_catalogue(server, admin, f"esrpdb_bench_hands_{n}_{form}", TEMPLATE) as catalog:
                result = bench.read_document(catalog.engine, source, key, text, form)
            results.append(result)
            print(bench.line(result), flush=True)
            if show_misses:
                print("\n".join("    " + row for row in result.score.table().split("\n")[1:]))
                for miss in result.latencies[2]:
                    print(f"    missed latency {miss}")
                for miss in result.audit.missed:
                    print(f"    missed planted {miss}")
                for alarm in result.audit.alarms:
                    print(f"    false alarm {alarm}")
    return results


def totals(results: list[bench.DocumentResult], label: str) -> None:
    print("-" * 120)
    for family in sorted({r.family for r in results}):
        for form in sorted({r.form for r in results}):
            chosen = [r for r in results if r.family == family and r.form == form]
            if chosen:
                print(bench.total_line(chosen, f"{label} {family} {form} ({len(chosen)} documents)"))
    for form in sorted({r.form for r in results}):
        chosen = [r for r in results if r.form == form]
        print(bench.total_line(chosen, f"{label} all {form} ({len(chosen)} documents)"))
        print(f"    {bench.percentages(chosen)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--forms", default="text,pdf", help="text, pdf or both (default: text,pdf)")
    parser.add_argument("--only", nargs="*", default=None, help="documents whose name contains one of these")
    parser.add_argument("--with-training", action="store_true", help="also the six documents the reader was built on")
    parser.add_argument("--misses", action="store_true", help="print what each document missed")
    args = parser.parse_args(argv)
    forms = [f for f in args.forms.split(",") if f]
    if "pdf" in forms:
        from tests.helpers import chromium

        if chromium() is None:
            parser.error("--forms pdf needs Chromium (apt-get install chromium), or use --forms text")
    blocks = [("bench", bench.documents(BENCH))]
    if args.with_training:
        blocks.append(("training", [p for folder in TRAINING for p in bench.documents(folder)]))
    if args.only:
        blocks = [(label, [(p, k) for p, k in pairs if any(o in p.stem for o in args.only)]) for label, pairs in blocks]
    cache = Path.home() / ".cache" / "esrpdb-bench" / "other-hands"
    cache.mkdir(parents=True, exist_ok=True)

    with migrated_template(TEMPLATE, "esrpdb-bench-hands-") as (server, admin):
        print(bench.header())
        for label, pairs in blocks:
            results = read_all(server, admin, pairs, forms, cache, args.misses)
            totals(results, label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
