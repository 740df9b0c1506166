"""One vocabulary for the checks the ingest writes (`ingest_warnings.check_name`) and the audit reads:
`schema.vocabulary.INGEST_CHECKS`, as report types and disk bases are. Every check name spelled in SQL,
in a test's query, in a view or in the docs is one of them; no module spells one as a string of its
own; and each is written by the ingest."""

from __future__ import annotations

import ast
import re

import pytest

from esrpdb.ingest.jetstress import rules
from esrpdb.schema import vocabulary
from tests.helpers import REPO_ROOT

SKIPPED = ("fixtures", ".git", "build", "node_modules")  # fixtures: the bench authors' own words
# check_name compared or assigned to a literal, in SQL ('…'), in Python ("…" or a dict key), or IN a list
_COMPARED = re.compile(r"""check_name["']?\s*(?:=|==|!=|<>|:)\s*['"](\w+)['"]""")
_LISTED = re.compile(r"check_name\s+(?:NOT\s+)?IN\s*\(([^)]*)\)", re.IGNORECASE)
_DOC_WARNING = re.compile(r"`(\w+)` warnings?\b")  # "stored as `report_seen_twice` warnings"


def _files(*suffixes: str):
    for path in sorted(REPO_ROOT.rglob("*")):
        parts = path.relative_to(REPO_ROOT).parts
        if path.suffix in suffixes and path.is_file() and not any(p in SKIPPED or p.startswith(".") for p in parts):
            yield path


def _spelled(path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = set(_COMPARED.findall(text))
    for listed in _LISTED.findall(text):
        found.update(re.findall(r"'(\w+)'", listed))
    if path.suffix == ".md":
        found.update(_DOC_WARNING.findall(text))
    return found


def test_the_vocabulary_is_one_list_and_its_constants_spell_it():
    assert len(set(vocabulary.INGEST_CHECKS)) == len(vocabulary.INGEST_CHECKS)
    constants = {getattr(vocabulary, name) for name in ("PARSER_WARNING", "DOCUMENT_READER", "ACHIEVED_IOPS_VS_INSTANCES",
                                                        "INSTANCE_COUNT_VS_DATABASE_FILES", "VERDICT_VS_THRESHOLDS",
                                                        "REPORT_SEEN_TWICE", "UNATTRIBUTED_CLAIM", "NAMED_DIFFERENTLY")}
    assert constants == set(vocabulary.INGEST_CHECKS)


def test_the_report_checks_are_the_rules_the_loader_runs():
    assert [check.__name__ for check in rules.CHECKS] == list(vocabulary.REPORT_CHECKS)


def test_every_check_name_spelled_anywhere_is_in_the_vocabulary():
    unknown = {}
    for path in _files(".sql", ".py", ".md"):
        if path.name != "test_check_vocabulary.py":  # its own examples below
            unknown.update({str(path.relative_to(REPO_ROOT)): sorted(found) for found in
                            [_spelled(path) - set(vocabulary.INGEST_CHECKS)] if found})
    assert unknown == {}, "check names no one writes"


def test_the_pattern_finds_what_it_is_for():
    assert _COMPARED.findall("where check_name = 'report_seen_twice'") == ["report_seen_twice"]
    assert _COMPARED.findall('{"check_name": "document_reader"}') == ["document_reader"]
    assert _COMPARED.findall('IngestWarning(check_name="x_y")') == ["x_y"]
    assert _LISTED.findall("check_name IN ('a', 'b')") == ["'a', 'b'"]


def test_no_module_spells_a_check_name_of_its_own():
    """The package's modules name a check through schema.vocabulary's constants, never as a string."""
    words = set(vocabulary.INGEST_CHECKS) - {"parser"}  # "parser" is a common word: its constant is checked below
    spelled = []
    for path in _files(".py"):
        relative = path.relative_to(REPO_ROOT)
        if relative.parts[0] in ("tests", "benchmarks") or relative.as_posix() == "schema/vocabulary.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in words:
                spelled.append(f"{relative}:{node.lineno} {node.value!r}")
    assert spelled == []
    assert 'Finding("parser"' not in (REPO_ROOT / "ingest" / "jetstress" / "rules.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("check", vocabulary.INGEST_CHECKS)
def test_every_check_is_written_by_the_ingest(check):
    constant = next(name for name in dir(vocabulary) if name.isupper() and getattr(vocabulary, name) == check)
    users = [path for path in _files(".py") if path.relative_to(REPO_ROOT).parts[0] == "ingest"
             and re.search(rf"\b{constant}\b", path.read_text(encoding="utf-8"))]
    assert users, f"{check} ({constant}) is in the vocabulary but nothing in ingest/ writes it"
