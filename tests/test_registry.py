"""One small protocol, many importers: every fixture is claimed by exactly one parser."""

from __future__ import annotations

import pytest

from esrpdb.ingest import registry
from esrpdb.ingest.errors import AmbiguousFormat, UnknownFormat
from tests.helpers import FIXTURES

NOT_DATA = {".py", ".json", ".pyc"}
NOT_INPUT = {"draft_golden"}  # a test's expected output (the drafts as rendered), never a file a user ingests


def data_files():
    files = [p for p in sorted(FIXTURES.rglob("*"))
             if p.is_file() and p.suffix not in NOT_DATA and p.name != "README.md" and "__pycache__" not in p.parts
             and not NOT_INPUT & set(p.relative_to(FIXTURES).parts)]
    assert len(files) > 30, files
    return files


def test_every_module_speaks_the_protocol():
    formats = [m.FORMAT for m in registry.format_modules()]
    assert len(formats) == len(set(formats))
    for module in registry.format_modules():
        assert callable(module.identify)
        assert callable(getattr(module, "parse", None)) or callable(getattr(module, "open_perfmon", None))


@pytest.mark.parametrize("path", data_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_fixture_is_claimed_by_exactly_one_parser(path):
    head = path.read_bytes()[: registry.HEAD_BYTES]
    claims = [m.FORMAT for m in registry.format_modules() if m.identify(path.name, head)]
    assert len(claims) == 1, f"{path}: claimed by {claims}"


@pytest.mark.parametrize("path", [FIXTURES / "README.md", FIXTURES / "catalog" / "README.md",
                                  FIXTURES.parent / "README.md", FIXTURES.parent / "docs" / "manifests.md"])
def test_prose_is_claimed_by_none(path):
    with pytest.raises(UnknownFormat):
        registry.detect(path.name, path.read_bytes()[: registry.HEAD_BYTES])


def test_two_claims_are_a_registry_bug():
    class Greedy:
        FORMAT = "greedy"

        @staticmethod
        def identify(name, head):
            return True

    with pytest.raises(AmbiguousFormat, match="claimed by several parsers: greedy, greedy"):
        registry.detect("x", b"", [Greedy, Greedy])
