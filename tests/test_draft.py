"""`esrpdb draft DOCUMENT`: manifest drafts that load unchanged, claims with their lines, honest recall.

The recall figures compare the drafts of the four seeds with the hand-written manifests in
fixtures/catalog/ (tests/drafting_recall.py); docs/drafting.md prints the same table.
"""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.formats import document as document_format
from tests import drafting_recall
from tests.helpers import DOCUMENTS, REPO_ROOT

runner = CliRunner()
SEED_002 = DOCUMENTS / "002_2e1b37b2175e5892.txt"


def _drafts(output: str) -> list[dict]:
    return [tomllib.loads(part.split("\n", 1)[1]) for part in output.split("# ---- ")[1:]]


def test_draft_prints_the_188_and_172_percent_sentences_with_their_lines():
    result = runner.invoke(app, ["draft", str(SEED_002)])
    assert result.exit_code == 0, result.output
    claims = [c for d in _drafts(result.stdout) for c in d["claims"]]
    found = {(c["metric"], c["value"], c["line"], c.get("qualifier")) for c in claims}
    assert ("percent_more:total_iops", "188", 18, "up_to") in found
    assert ("percent_more:throughput_mb_per_s", "172", 18, "up_to") in found
    assert "# source: line 18" in result.stdout
    for line in result.stdout.splitlines():
        if line.startswith(("value = ", "count = ", "usable = ", "amount = ", "idle_w = ", "active_w = ")):
            assert "# source: line " in line, line


def test_drafts_of_the_seeds_load_unchanged_and_the_audit_judges_their_claims(tmp_path, fresh_database_url):
    (tmp_path / "documents").mkdir()
    for seed in drafting_recall.SEEDS:
        shutil.copy(seed, tmp_path / "documents" / seed.name)
        result = runner.invoke(app, ["draft", str(tmp_path / "documents" / seed.name), "-o", str(tmp_path / "drafts")])
        assert result.exit_code == 0, result.output
    drafts = sorted((tmp_path / "drafts").glob("*.toml"))
    assert len(drafts) == 10  # 000: 2 SANs, 001: 1, 002: HDDs and SSDs, 003: 3 SANs and 2 other FC configurations
    ingest = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(tmp_path / "drafts"),
                                 "--format", "json"])
    assert ingest.exit_code == 0, ingest.output
    outcomes = json.loads(ingest.stdout)
    assert [o["status"] for o in outcomes if o["format"] == "solution_manifest"] == ["loaded"] * len(drafts)
    assert not [o for o in outcomes if o["status"] == "failed"]
    audit = runner.invoke(app, ["--database-url", fresh_database_url, "audit", "--format", "json"])
    findings = [f for f in json.loads(audit.stdout) if f["kind"] == "claim"]
    keys = {d.stem for d in drafts}
    judged = [f for f in findings if f["solution"] in keys]
    assert judged and sum(f["verdict"] == "match" for f in judged) >= 50


def test_recall_of_the_hand_written_manifests(capsys):
    results = [drafting_recall.measure(seed) for seed in drafting_recall.SEEDS]
    table = drafting_recall.table(results)
    with capsys.disabled():
        print(f"\nesrpdb draft against the hand-written manifests:\n{table}")
    assert all(r.invented == [] for r in results)  # every drafted value is printed on the line it cites
    claims = sum(r.claims_found for r in results) / sum(r.claims_total for r in results)
    facts = sum(r.facts_found for r in results) / sum(r.facts_total for r in results)
    assert claims >= 0.90 and facts >= 0.65  # the target for claims; facts as measured, kept from going back
    assert table in (REPO_ROOT / "docs" / "drafting.md").read_text(encoding="utf-8")


def test_a_document_with_no_report_and_no_table_fails_with_one_line(tmp_path):
    prose = tmp_path / "notes.txt"
    prose.write_text("We ran Jetstress and it went well.\n\nNothing else to say.\n", encoding="utf-8")
    result = runner.invoke(app, ["draft", str(prose), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "no Jetstress report" in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_document_too_large_fails_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(document_format, "MAX_BYTES", 1000)
    result = runner.invoke(app, ["draft", str(SEED_002)])
    assert result.exit_code == 1
    assert "refused before reading" in result.stderr


def test_several_solutions_into_one_file_is_refused_and_nothing_is_written(tmp_path):
    target = tmp_path / "one.toml"
    result = runner.invoke(app, ["draft", str(SEED_002), "-o", str(target)])
    assert result.exit_code == 1 and "tests 2 solutions" in result.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("seed", drafting_recall.SEEDS, ids=[p.name[:3] for p in drafting_recall.SEEDS])
def test_every_drafted_claim_validates_as_a_manifest(seed):
    from esrpdb.ingest.formats import manifest

    result = runner.invoke(app, ["draft", str(seed)])
    for part in result.stdout.split("# ---- ")[1:]:
        text = part.split("\n", 1)[1]
        parsed = manifest.parse("draft.toml", text.encode("utf-8"))
        assert parsed.claims


def test_a_test_start_time_printed_without_its_value_gives_the_next_reports_date():
    """Issue 36: a layout that parts the label from its value (large type) left a Test Start Time with no
    value, and drafting failed the whole document (IndexError); the next report's date is the tested date."""
    from esrpdb.ingest.draft.facts import document_facts

    text = (DOCUMENTS.parent / "synthetic_documents" / "synth_third-party_train_003.txt").read_text(encoding="utf-8")
    first, second = "8/26/2012 10:48:47 AM", "8/29/2012 10:48:47 AM"
    assert text.count(f"**Test Start Time**\t{first}") == 1 and second in text
    parsed = document_format.parse("doc.txt", text.replace(f"**Test Start Time**\t{first}", "**Test Start Time**\t ")
                                   .encode())
    assert [f.value for f in document_facts(parsed) if f.fact == "tested_date"] == ["8/29/2012"]
