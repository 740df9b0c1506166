"""The documents by other hands read again with their systems renamed: a score, not a time.

    python benchmarks/bench_renamed.py [--names KB-31,MB-52,GB-70,TB-9] [--makers] [--only NAME…]

The reader must not change when the systems are renamed (DESIGN.md). Each of the 36 documents of
fixtures/other_hands/ (SYNTHETIC) is ingested alone into a fresh catalogue as written, then again with
the names its key gives its systems replaced by `--names`, in order: its models (a model's product line,
its first word when that holds no digit, too, so the document still names each system one way), or with
`--makers` its makers. The two catalogues are scored against the key, renamed alike (tests/synthetic_keys.py,
tests/document_bench.py), and every document whose score line differs is printed with what the renamed
one missed, its planted inconsistencies not found and its false alarms. The last line counts them.
A rename can break a planted inconsistency itself: a model printed a digit apart ("VX-4800"/"VX4880") is no
near miss once one spelling is renamed. docs/unattended.md ("Sixth pass") gives the sets of names tried
and what each found; tests/test_renamed_models.py holds the documents each fix was for.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from private_server import fresh_catalogue, migrated_template  # noqa: E402

from tests import document_bench as bench  # noqa: E402
from tests.synthetic_keys import rename_key, rename_text  # noqa: E402

FOLDER = ROOT / "fixtures" / "other_hands"
TEMPLATE = "esrpdb_bench_renamed"


def renames_for(key: dict, names: list[str], field: str) -> list[tuple[str, str]]:
    """Each distinct name the key gives its systems in `field` ("model" or "vendor"), with its new name; a name
    of several words whose first holds no digit renames that first word too (a product line, a short maker)."""
    old: list[str] = []
    for system in key["systems"]:
        if system.get(field) and system[field] not in old:
            old.append(system[field])
    pairs = []
    for name, new in zip(old, names):
        pairs.append((name, new))
        first = name.split()[0]
        if " " in name and not any(ch.isdigit() for ch in first):
            pairs.append((first, new))
    return pairs


def read(server, admin: str, path: Path, key: dict, text: str, n: int) -> bench.DocumentResult:
    with fresh_catalogue(server, admin, f"{TEMPLATE}_{n}", TEMPLATE) as catalog:
        return bench.read_document(catalog.engine, path, key, text, "text")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--names", default="KB-31,MB-52,GB-70,TB-9",
                        help="the new names, comma-separated, given in order to each document's systems")
    parser.add_argument("--makers", action="store_true", help="rename the makers (vendors), not the models")
    parser.add_argument("--only", nargs="*", default=None, help="documents whose name contains one of these")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.names.split(",") if name.strip()]
    field = "vendor" if args.makers else "model"
    pairs = bench.documents(FOLDER)
    if args.only:
        pairs = [(p, k) for p, k in pairs if any(o in p.stem for o in args.only)]
    changed = 0
    with migrated_template(TEMPLATE, "esrpdb-bench-renamed-") as (server, admin), \
            tempfile.TemporaryDirectory(prefix="esrpdb-bench-renamed-texts-") as texts:
        folder = Path(texts)
        for n, (path, key) in enumerate(pairs):
            text = path.read_text(encoding="utf-8")
            renames = renames_for(key, names, field)
            written = read(server, admin, path, key, text, 2 * n)
            renamed_path = folder / path.name
            renamed_text = rename_text(text, renames)
            renamed_path.write_text(renamed_text, encoding="utf-8")
            renamed = read(server, admin, renamed_path, rename_key(key, renames), renamed_text, 2 * n + 1)
            before, after = bench.line(written)[45:], bench.line(renamed)[45:]
            same = before == after
            changed += not same
            print(f"{path.stem:<40} {'same   ' if same else 'CHANGED'} {after}  {renames}", flush=True)
            if not same:
                print(f"{'':<40} as written {before}")
                print("\n".join("    " + row for row in renamed.score.table().split("\n")[1:]
                                if "missed" in row or "not found" in row))
                print("".join(f"    missed planted {m}\n" for m in renamed.audit.missed), end="")
                print("".join(f"    false alarm {a}\n" for a in renamed.audit.alarms), end="")
    print(f"renamed {field}s to {', '.join(names)}: {changed} of {len(pairs)} documents score differently")
    return 0


if __name__ == "__main__":
    sys.exit(main())
