"""A comparison whose other side is a printed figure: "27% more IOPS per dollar than our 2013 TerraVault
5600 design (0.0142 IOPS per dollar)" compares the document's design with one it does not test. The
draft reads the bracketed figure as `versus_value`, the manifest keeps it, the writer stores it as
`claims.other_value_printed` (0029) and the audit takes b from it (SYNTHETIC fixtures)."""

from __future__ import annotations

import tomllib

import pytest
from sqlalchemy import text

from esrpdb.ingest.draft import draft_manifests
from esrpdb.ingest.draft.published import paragraphs, sentence_claims
from esrpdb.ingest.formats.document.lines import Line
from esrpdb.ingest.formats.manifest import ManifestError, parse as parse_manifest
from tests.helpers import FIXTURES, MINIMAL_SOLUTION_TOML, TEMPLATE, scratch_database

A4_04 = FIXTURES / "other_hands" / "oh_vendor-ra_a4_04.txt"
SENTENCE = "That is 27% more IOPS per dollar than our 2013 TerraVault 5600 design (0.0142 IOPS per dollar)."


def _comparisons(sentence: str) -> list:
    prose = paragraphs([Line(15, (sentence,))])
    return [c for c in sentence_claims(prose) if c.comparison]


def test_the_figure_in_brackets_after_than_is_the_other_designs():
    [claim] = _comparisons(SENTENCE)
    assert (claim.metric, claim.value, claim.line) == ("percent_more:iops_per_dollar", "27", 15)
    assert claim.than is not None and claim.than.strip() == "our 2013 TerraVault 5600 design"
    assert claim.versus_value == "0.0142"


@pytest.mark.parametrize("sentence", [
    "That is 27% more IOPS per dollar than our 2013 design (see Table 3).",  # no figure in the brackets
    "That is 27% more IOPS per dollar than our 2013 design (979.2 MB per dollar).",  # another metric's
    "That is 27% more IOPS per dollar than our 2013 design, which gave 0.0142 IOPS per dollar.",  # no brackets
])
def test_no_printed_other_side_without_a_bracketed_figure_of_the_compared_metric(sentence):
    [claim] = _comparisons(sentence)
    assert claim.versus_value is None


def test_the_draft_of_a4_04_writes_versus_value_and_it_parses():
    [(key, toml)] = draft_manifests(A4_04.name, A4_04.read_bytes(), f"../documents/{A4_04.name}")
    claims = [c for c in tomllib.loads(toml)["claims"] if c["metric"] == "percent_more:iops_per_dollar"]
    assert [(c["value"], c["versus_value"], c["line"], "versus" in c) for c in claims] == [("27", "0.0142", 15, False)]
    parsed = parse_manifest(f"{key}.toml", toml.encode())
    [spec] = [c for c in parsed.claims if c.metric == "percent_more:iops_per_dollar"]
    assert spec.versus_value == "0.0142" and spec.versus is None


# a manifest of one solution with one run and one comparison claim (tests may not import each other)
COMPARISON = MINIMAL_SOLUTION_TOML + """\

[[trials]]
key = "median-trial"

[[runs]]
label = "Run 1"
trial = "median-trial"
report = "reports/Performance_1.html"

[[claims]]
metric = "percent_more:achieved_iops_per_disk"
value = "38"
unit = "%"
subject = "comparison"
disk_basis = "active"
document = "doc.txt"
location = "Figure 1"
line = 3
"""


def edit(old: str, new: str, base: str = COMPARISON) -> str:
    assert old in base
    return base.replace(old, new, 1)


def test_a_manifest_comparison_with_a_printed_other_side_parses():
    parsed = parse_manifest("ok.toml", edit("line = 3", 'line = 3\nversus_value = "390.4"').encode())
    assert parsed.claims[0].versus_value == "390.4" and parsed.claims[0].versus is None


@pytest.mark.parametrize("extra, expected", [
    ('versus_value = "390.4"\nversus = "other"', "claims[0].versus: not with versus_value"),
    ('versus_value = "390.4"\nversus_run = "Run 2"', "claims[0].versus_run: not with versus_value"),
    ('versus_value = "about 390"', 'claims[0].versus_value: "about 390" is not a number as printed'),
    ("versus_value = 390.4", "claims[0].versus_value: expected a string"),
])
def test_versus_value_rules(extra, expected):
    with pytest.raises(ManifestError) as caught:
        parse_manifest("bad.toml", edit("line = 3", f"line = 3\n{extra}").encode())
    assert any(p.startswith(expected) for p in caught.value.problems), caught.value.problems


def test_versus_value_only_with_a_comparison():
    solution = edit('metric = "percent_more:achieved_iops_per_disk"\nvalue = "38"\nunit = "%"\nsubject = "comparison"',
                    'metric = "achieved_iops_per_disk"\nvalue = "390.4"\nunit = "IOPS/disk"\nsubject = "solution"')
    with pytest.raises(ManifestError) as caught:
        parse_manifest("bad.toml", edit("line = 3", 'line = 3\nversus_value = "390.4"', solution).encode())
    assert 'claims[0].versus_value: only with subject = "comparison"' in caught.value.problems


def test_a4_04s_27_percent_is_judged_against_the_printed_0_0142(pg_server, template_url):
    from esrpdb.audit import audit
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths

    with scratch_database(pg_server, "versus", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            assert [o.status for o in ingest_paths(catalog.engine, [A4_04])] == ["loaded"]
            with catalog.engine.connect() as conn:
                stored = conn.execute(text("SELECT value_printed, other_value_printed, other_solution_id FROM claims "
                                           "WHERE metric = 'percent_more:iops_per_dollar'")).all()
            assert [tuple(r) for r in stored] == [("27", "0.0142", None)]
            [finding] = [f for f in audit(catalog.engine).findings if f.metric == "percent_more:iops_per_dollar"]
        finally:
            catalog.close()
    assert (finding.verdict, finding.line, finding.printed) == ("mismatch", 15, "27")
    assert finding.inputs["b"] == pytest.approx(0.0142) and finding.recomputed == pytest.approx(17.9, abs=0.1)
    assert "printed figure for the other design" in finding.explanation and "0.0142" in finding.explanation


def test_the_printed_other_side_survives_a_downgrade_to_0028_and_back(pg_server, template_url):
    """0029's downgrade keeps the figures for the upgrade that comes back (archive.py)."""
    from sqlalchemy import create_engine, inspect

    from esrpdb.db import migrate
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths

    query = text("SELECT id, other_value_printed FROM claims WHERE other_value_printed IS NOT NULL")
    with scratch_database(pg_server, "versus_down", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            assert [o.status for o in ingest_paths(catalog.engine, [A4_04])] == ["loaded"]
            with catalog.engine.connect() as conn:
                before = conn.execute(query).all()
        finally:
            catalog.close()
        assert [value for _, value in before] == ["0.0142"]
        migrate.downgrade(url, "0028")
        engine = create_engine(url)
        try:
            assert "other_value_printed" not in {c["name"] for c in inspect(engine).get_columns("claims")}
            engine.dispose()
            migrate.upgrade(url)
            with engine.connect() as conn:
                assert conn.execute(query).all() == before
            assert not inspect(engine).has_table("esrpdb_downgrade_archive")
        finally:
            engine.dispose()


def test_a_printed_other_side_named_like_the_system_itself_is_still_the_other_design():
    """"than our 2013 TerraVault 5600 design (0.0142 …)" shares a word with the TerraVault 7600 the document
    tests; with its figure printed, the other side is that design, never the system against itself (a PDF
    that prints no blank line joins the bullet to the prose above it). SYNTHETIC, after oh_vendor-ra_a4_04."""
    from esrpdb.ingest.draft import draft_document
    from esrpdb.ingest.formats import document

    text = ("Exchange Server 2013 on the Brightwater TerraVault 7600\n\n"
            "Jetstress 2013 ran on all six servers at once in each scenario.\n"
            "* Including log writes the array handled 3,089 IOPS, which at the list price of $184,500 is\n"
            "0.0167 IOPS per dollar.\n"
            "* That is 27% more IOPS per dollar than our 2013 TerraVault 5600 design (0.0142 IOPS per dollar).\n\n"
            "Table 1. Hardware\nStorage array        Brightwater TerraVault 7600\n"
            "Drives               64 x 4TB 7.2K NL-SAS, 60 in use\n")
    drafted = draft_document(document.parse("joined.txt", text.encode()))
    kept = [c for system in drafted.systems for c, _, _ in system.claims if c.metric.startswith("percent_more")]
    assert [(c.value, c.versus_value) for c in kept] == [("27", "0.0142")], drafted.unattributed
