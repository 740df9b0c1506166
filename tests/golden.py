"""Golden pairs: each fixture beside a ``<fixture>.expected.json`` holding its parse.

Compared as a unified diff so a change shows exactly which field moved. Expected files are
written only on request, and never over an existing one without ``--force``:

    /tmp/venv/bin/python -m tests.golden --regenerate [--force]
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import sys
from datetime import date, datetime
from pathlib import Path

from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.jetstress.records import JetstressReport

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HTML_FIXTURES = FIXTURES / "jetstress_html"


def html_fixtures() -> list[Path]:
    return sorted(HTML_FIXTURES.glob("**/*.html"))


def expected_path(fixture: Path) -> Path:
    return fixture.with_name(fixture.name + ".expected.json")


def _plain(value: object) -> object:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def report_to_json(report: JetstressReport) -> str:
    """Stable JSON: dataclasses as objects, tuples as lists, date-times as ISO strings."""
    return json.dumps(dataclasses.asdict(report), default=_plain, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def parse_fixture(fixture: Path) -> JetstressReport:
    return jetstress_html.parse(fixture.name, fixture.read_bytes())


def compare_expected(fixture: Path) -> str | None:
    """None when the parse matches the expected file; otherwise what is wrong, as a diff."""
    expected = expected_path(fixture)
    if not expected.exists():
        return f"{fixture}: no expected file {expected.name}; run python -m tests.golden --regenerate"
    actual = report_to_json(parse_fixture(fixture))
    wanted = expected.read_text(encoding="utf-8")
    if actual == wanted:
        return None
    diff = difflib.unified_diff(
        wanted.splitlines(keepends=True), actual.splitlines(keepends=True), str(expected), "parsed now"
    )
    return "".join(diff)


def regenerate(*, force: bool) -> list[str]:
    """Write missing expected files (all of them with `force`); returns what was done."""
    done = []
    for fixture in html_fixtures():
        expected = expected_path(fixture)
        text = report_to_json(parse_fixture(fixture))
        if expected.exists() and not force:
            done.append(f"kept    {expected.relative_to(FIXTURES)} (exists; --force to overwrite)")
            continue
        with expected.open("w" if force else "x", encoding="utf-8") as out:
            out.write(text)
        done.append(f"wrote   {expected.relative_to(FIXTURES)}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="write expected files for fixtures lacking one")
    parser.add_argument("--force", action="store_true", help="with --regenerate: overwrite existing expected files")
    args = parser.parse_args(argv)
    if not args.regenerate:
        problems = [problem for fixture in html_fixtures() if (problem := compare_expected(fixture))]
        print("\n".join(problems) or f"{len(html_fixtures())} fixtures match their expected files")
        return 1 if problems else 0
    for line in regenerate(force=args.force):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
