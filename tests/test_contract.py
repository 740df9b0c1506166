"""The contract between reading and writing (ingest/formats/contract.py), checked over the registry at run time
as mypy checks it in registry.format_modules: every format is a whole-file or a streamed one, every
`parse` returns a record the contract names, and every record names a writer that exists."""

from __future__ import annotations

import importlib
import typing

import pytest

from esrpdb.ingest import registry
from esrpdb.ingest.formats import contract

MODULES = registry.format_modules()


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.FORMAT)
def test_every_format_is_one_kind_of_the_contract(module):
    kinds = [kind.__name__ for kind in (contract.WholeFileFormat, contract.StreamedFormat) if isinstance(module, kind)]
    assert len(kinds) == 1, f"{module.__name__}: {kinds or 'neither whole-file nor streamed'}"
    assert isinstance(module.FORMAT, str) and isinstance(module.MAX_BYTES, (int, type(None)))
    if isinstance(module, contract.StreamedFormat):
        assert module.MAX_BYTES is None  # streamed: the pipeline never reads it whole


@pytest.mark.parametrize("module", [m for m in MODULES if isinstance(m, contract.WholeFileFormat)], ids=lambda m: m.FORMAT)
def test_every_parse_returns_a_record_the_contract_names(module):
    returned = typing.get_type_hints(module.parse)["return"]
    kinds = [kind for kind in contract.RECORDS if kind.type is returned]
    assert len(kinds) == 1, f"{module.FORMAT}.parse returns {returned}, which the contract does not name"
    assert module.FORMAT in kinds[0].formats


def test_the_records_are_exactly_the_read_records_and_each_format_is_named_once():
    assert {kind.type for kind in contract.RECORDS} == set(typing.get_args(contract.ReadRecord))
    named = [name for kind in contract.RECORDS for name in kind.formats]
    assert len(named) == len(set(named))
    whole = {m.FORMAT for m in MODULES if isinstance(m, contract.WholeFileFormat)}
    assert set(named) == whole


def test_only_documents_are_identified_late():
    assert [m.FORMAT for m in MODULES if isinstance(m, contract.LateIdentified)] == ["document_text"]


@pytest.mark.parametrize("kind", contract.RECORDS, ids=lambda k: k.type.__name__)
def test_every_record_names_writers_that_exist(kind):
    for step in kind.written_by.replace(" first (a DraftedDocument), then ", " -> ").split(" -> "):
        module_name, _, attribute = step.rpartition(".")
        module = importlib.import_module(f"esrpdb.ingest.{module_name}")
        assert callable(getattr(module, attribute, None)), f"{kind.type.__name__}: {step} does not exist"
