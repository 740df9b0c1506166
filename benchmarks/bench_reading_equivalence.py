"""Whether a change to the reader reads every document as before: a proof, not a time.

A speed change to the PDF reader, the document reader or drafting must leave what they make byte for byte as
it was. For each document of a corpus this writes what reading makes of it: a PDF's extracted text (its
SHA-256, page starts and warnings), the parsed record field by field (tables in full) and every draft
(tests/draft_rendering.py). With `--base DIR` the same is written by another copy of the package (DIR/esrpdb
first on PYTHONPATH, in a process of its own) and the documents whose reading differs are named, with the
first line that differs; the exit status is 1 when any does.

The corpus: every fixture document the drafting golden test reads (texts: the seeds, the other hands', the
synthetic, unseen-family and several-host documents) and the archive folder of `--count` PDFs
(archive_folder.py: the seeds and synthetic documents printed by Chromium, one and two columns, cached after
the first run). `--pdfs DIR` adds the PDFs of a folder of your own (the other hands' printed PDFs, say:
~/.cache/esrpdb-bench/other-hands after bench_other_hands.py --forms pdf).

    python benchmarks/bench_reading_equivalence.py --base /tmp/base   # base: git archive REV | tar -x -C /tmp/base/esrpdb
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `tests` (the drafts' rendering) as a namespace package, as pytest's pythonpath

SEPARATOR = "##### "  # starts each document's part of the written text


def fields(value) -> str:
    """A record field by field, nested records and lists included (tables in full, unlike the drafts' rendering)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = ", ".join(f"{field.name}={fields(getattr(value, field.name))}" for field in dataclasses.fields(value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fields(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {fields(item)}" for key, item in value.items()) + "}"
    return repr(value)


def reading_of(path: Path) -> str:
    """What reading makes of one document, as text (an error as its own line: a refusal is a reading too)."""
    from esrpdb.ingest.draft import draft_document
    from esrpdb.ingest.formats import document as document_text
    from esrpdb.ingest.pdf import layout
    from tests.draft_rendering import render_drafted

    data = path.read_bytes()
    out = [f"{SEPARATOR}{path.name}\n"]
    if path.suffix.lower() == ".pdf":
        try:
            extracted = layout.extract_layout(path.name, data)
            digest = hashlib.sha256(extracted.text.encode("utf-8")).hexdigest()
            out.append(f"extracted {digest} {extracted.page_starts} {extracted.warnings}\n")
        except Exception as error:  # noqa: BLE001 - the refusal is compared like any reading
            out.append(f"extracted: refused {error!r}\n")
    try:
        document = document_text.parse(path.name, data)
    except Exception as error:  # noqa: BLE001
        out.append(f"parsed: refused {error!r}\n")
        return "".join(out)
    out.append(f"parsed {fields(document)}\n")
    out.append(render_drafted(draft_document(document)))
    return "".join(out)


def corpus(count: int, pdfs: Path | None) -> list[Path]:
    """The fixture texts, the archive folder's PDFs, and the PDFs of `pdfs`."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import archive_folder

    from tests.draft_rendering import fixture_sources

    found = [*fixture_sources(), *sorted(archive_folder.build(count).glob("*.pdf"))] if count else fixture_sources()
    return found + (sorted(pdfs.glob("*.pdf")) if pdfs is not None else [])


def parts(text: str) -> dict[str, str]:
    """The written text by document name."""
    return {part.split("\n", 1)[0]: part for part in text.split(SEPARATOR)[1:]}


def first_difference(before: str, after: str) -> str:
    """Where two readings of a document first part: the line, the column, and the text around it."""
    for number, (old, new) in enumerate(zip(before.splitlines(), after.splitlines()), 1):
        if old != new:
            column = next((at for at, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
            start = max(0, column - 60)
            return f"line {number}, column {column + 1}: {old[start:column + 60]!r} -> {new[start:column + 60]!r}"
    return "one reading is longer" if before else "not read by one of the two"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=40, help="PDFs of the archive folder (default 40; 0: none)")
    parser.add_argument("--pdfs", metavar="DIR", type=Path, help="the PDFs of this folder too")
    parser.add_argument("--base", metavar="DIR", type=Path, help="compare with DIR/esrpdb's reading")
    parser.add_argument("--out", metavar="FILE", type=Path, help="write this tree's reading here (kept)")
    args = parser.parse_args(argv)
    import esrpdb

    paths = corpus(args.count, args.pdfs)
    print(f"{len(paths)} documents, read by {Path(esrpdb.__file__).parent}", file=sys.stderr, flush=True)
    written = "".join(reading_of(path) for path in paths)
    if args.out is not None:
        args.out.write_text(written, encoding="utf-8")
    if args.base is None:
        print(f"{len(paths)} documents read ({len(written):,} characters written)")
        return
    if not (args.base / "esrpdb" / "__init__.py").is_file():
        sys.exit(f"--base {args.base}: no package at {args.base / 'esrpdb'}")
    with tempfile.NamedTemporaryFile("r", suffix=".txt", encoding="utf-8") as base_out:
        command = [sys.executable, __file__, "--count", str(args.count), "--out", base_out.name,
                   *(["--pdfs", str(args.pdfs)] if args.pdfs else [])]
        subprocess.run(command, check=True, env={**os.environ, "PYTHONPATH": str(args.base)})
        before = parts(base_out.read())
    after = parts(written)
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    for name in changed:
        print(f"differs: {name}: {first_difference(before.get(name, ''), after.get(name, ''))}")
    print(f"{len(paths) - len(changed)} of {len(paths)} documents read the same as {args.base}")
    if changed:
        sys.exit(1)


if __name__ == "__main__":
    main()
