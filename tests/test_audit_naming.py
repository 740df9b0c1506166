"""The same hardware or software named differently across one document (issue 32): one finding per
disagreement, naming the attribute, every spelling and its lines; never two systems' own values.

The documents are SYNTHETIC (fixtures/audit_documents/naming_*.txt, fixtures/README.md): a reference
architecture whose summary names its array, its servers' memory and whose reports name the operating
system otherwise than its tables; the same paper consistent; a lab comparison of two arrays of one
family, each with its own model number, firmware, adapter and disks.
"""

from __future__ import annotations

import re

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.spellings import (
    models,
    near,
    same_size,
    same_version,
    system_name,
    system_names_differ,
    versions,
)
from esrpdb.ingest.formats import document as document_format
from esrpdb.ingest.pipeline import ingest_paths
from tests.document_variants import VARIANTS
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

HERE = FIXTURES / "audit_documents"
ARCHITECTURE = HERE / "naming_reference_architecture.txt"
CONSISTENT = HERE / "naming_reference_architecture_consistent.txt"
COMPARISON = HERE / "naming_lab_comparison.txt"
RENAMES = (("Northwind", "Contoso"), ("NX4", "CT7"), ("Fabrikam RX820", "Adatum AD640"), ("RX820", "AD640"),
           ("Litware LW26", "Proseware PW31"), ("MBXA", "EXHOST"), ("MBXB", "JSHOST"))
_SPELLING = re.compile(r'"([^"]*)" \(lines? ([\d, ]+)\)')


def _named(text: str | bytes, name: str = "paper.txt") -> list[str]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return draft_document(document_format.parse(name, data)).named_differently


def _spellings(message: str) -> dict[str, list[int]]:
    return {p: [int(n) for n in lines.split(", ")] for p, lines in _SPELLING.findall(message)}


def _lines_with(text: str, word: str) -> list[int]:
    return [n for n, line in enumerate(text.split("\n"), 1) if word in line]


def _renamed(text: str) -> str:
    for old, new in RENAMES:
        text = text.replace(old, new)
    return text


# --- what two spellings are -------------------------------------------------------------------------


def test_a_version_with_its_leading_zeros_dropped_or_shortened_is_the_same_version():
    (_, long), (_, short), (_, other) = versions("14.01.0225.017 14.1.225.17 14.01.0218.012")
    assert same_version(long, short) and same_version(versions("08.02.0060")[0][1], versions("08.02.0060.000")[0][1])
    assert not same_version(long, other)


def test_an_operating_system_abbreviated_is_the_same_one_another_service_pack_or_edition_is_not():
    full = system_name("Windows Server 2008 R2 Enterprise Service Pack 1 (6.1.7601.65536)")
    assert system_names_differ(system_name("Windows Server 2008 R2"), full) is None
    assert system_names_differ(system_name("Windows Server 2008 R2 Enterprise SP1 x64"), full) is None
    assert system_names_differ(system_name("Windows Server 2008 R2 SP1"),
                               system_name("Windows Server 2008 R2 Enterprise (6.1.7600.16385)")) == "another service pack"
    assert system_names_differ(system_name("Windows Server 2008 R2 Standard"), full) == "another edition"
    assert system_names_differ(system_name("Windows Server 2012"), full) == "another version"


def test_models_are_told_by_shape_and_a_digit_apart_is_another_model():
    assert [m.printed for m in models("Two Fabrikam RX820, 2 x eight-core 2.6 GHz, 128 GB memory, 8Gb FC, 25-disk")] \
        == ["RX820"]
    assert near("nx4210", "nx4120") and near("ps4000xv", "p4000xv")
    assert not near("nx4210", "lw2642") and not near("nx4210", "nx4210")


def test_one_size_printed_in_decimal_and_binary_gb_is_the_same_size():
    assert same_size(900, 838.19) and same_size(16, 16384 / 1024)
    assert not same_size(64, 96) and not same_size(600, 900)


# --- drafting: which statements disagree -------------------------------------------------------------


def test_the_reference_architecture_flags_model_memory_and_os_once_each_with_every_line():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    found = {m.split(":")[0]: _spellings(m) for m in _named(text)}
    assert set(found) == {"storage model", "server memory", "operating system"}
    assert found["storage model"] == {"NX4210": _lines_with(text, "NX4210"), "NX4120": _lines_with(text, "NX4120")}
    assert found["server memory"] == {"96 GB": _lines_with(text, "96 GB"), "128 GB": _lines_with(text, "128 GB")}
    os_lines = found["operating system"]
    assert os_lines["Windows Server 2008 R2 Enterprise (6.1.7600.16385)"] == _lines_with(text, "6.1.7600")
    assert sorted(n for p, n in os_lines.items() if "SP1" in p) == [[n] for n in _lines_with(text, "SP1")]


def test_the_same_paper_consistent_flags_nothing():
    """Versions without their leading zeros, the OS abbreviated, the array named in prose: all one name."""
    assert _named(CONSISTENT.read_text(encoding="utf-8")) == []


def test_two_systems_each_with_its_own_model_firmware_and_disks_flag_nothing():
    assert _named(COMPARISON.read_text(encoding="utf-8")) == []


def test_one_systems_own_disagreement_is_told_for_that_system():
    """The control of the test above: system B's disk size printed otherwise in its own column is flagged,
    under B's name, and system A's other size is not part of it."""
    text = COMPARISON.read_text(encoding="utf-8").replace("Raw capacity per disk (GB)\t600\t900",
                                                            "Raw capacity per disk (GB)\t600\t1200")
    (message,) = _named(text)
    assert message.startswith('disk size of "Northwind NX4220"')
    assert set(_spellings(message)) == {"900 GB", "1200 GB"}


@pytest.mark.parametrize("variant", ["crlf", "markdown", "renamed"])
def test_crlf_markdown_and_renamed_systems_give_the_same_findings(variant):
    for path in (ARCHITECTURE, COMPARISON):
        text = path.read_text(encoding="utf-8")
        made = _renamed(text) if variant == "renamed" else VARIANTS[variant](text)
        original = [(m.split(":")[0], sorted(_renamed(p) if variant == "renamed" else p for p in _spellings(m)))
                    for m in _named(text)]
        again = [(m.split(":")[0], sorted(_spellings(m))) for m in _named(made, path.name)]
        assert again == original, variant


def test_the_seeds_give_only_their_real_disagreements():
    """Read by hand: seed 001 names its server R610 (summary, server table) and T610 (ESRP table), prints
    Jetstress's version as the ESE.dll version, and calls the OS Enterprise where its reports say
    Foundation; seed 003 spells one PS4000XV 'P4000XV' once. Nothing else, and nothing in the synthetic
    documents (whose planted errors are of other kinds)."""
    found = {}
    for path in sorted((FIXTURES / "documents").glob("0*.txt")) + sorted((FIXTURES / "synthetic_documents").glob("*.txt")):
        for message in _named(path.read_bytes(), path.name):
            found.setdefault(path.name[:3], []).append((message.split(":")[0], sorted(_spellings(message))))
    assert found == {
        "001": [("server model", ["R610", "T610"]), ("operating system", [
            "Windows Server 2008 R2 Enterprise X64 Edition",
            "Windows Server 2008 R2 Foundation Service Pack 1 (6.1.7601.65536)"]),
            ("ESE version", ["14.01.0218.012", "14.01.0225.017"])],
        "003": [('storage model of "Dell EqualLogic SAN"', ["P4000XV", "PS4000XV"])]}


# --- the audit ---------------------------------------------------------------------------------------


def test_the_audit_lists_each_disagreement_as_one_mismatch_with_its_spellings_and_lines(pg_server, template_url,
                                                                                        tmp_path):
    from esrpdb.db.catalog import open_catalog

    copy = tmp_path / "naming_reference_architecture-crlf.txt"
    copy.write_bytes(VARIANTS["crlf"](ARCHITECTURE.read_text(encoding="utf-8")).encode("utf-8"))
    with scratch_database(pg_server, "naming", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            outcomes = ingest_paths(catalog.engine, [ARCHITECTURE, copy, COMPARISON])
            assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]
            report = audit(catalog.engine)
        finally:
            catalog.close()
    named = [f for f in report.findings if f.kind == "named_differently"]
    assert sorted(f.metric for f in named) == ["operating_system", "server_memory", "storage_model"]  # one copy's
    assert {f.file for f in named} == {ARCHITECTURE.name} and all(f.verdict == "mismatch" for f in named)
    memory = next(f for f in named if f.metric == "server_memory")
    assert memory.inputs["spellings"] == {"96 GB": [8], "128 GB": [19, 34]} and memory.line == 8
    assert '"96 GB" on line 8' in memory.explanation and '"128 GB" on lines 19, 34' in memory.explanation
    causes = [c for c in report.causes() if c.head.kind == "named_differently"]
    assert len(causes) == 3


def test_hosts_of_one_test_named_apart_are_no_models_named_differently():
    """Rows naming the hosts ("Server: EXCH-01", "Server: EXCH-02") beside their reports: a host's name
    differs from its neighbour's by a digit on purpose."""
    text = CONSISTENT.read_text(encoding="utf-8").replace("MBXA", "EXCH-0")
    text = text.replace("Item\tValue", "Item\tValue\nServer\tEXCH-01").replace(
        "Component\tConfiguration", "Component\tConfiguration\nServer\tEXCH-02")
    assert "Server\tEXCH-01" in text and _named(text) == []
