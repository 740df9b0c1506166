"""Issue 25: the test design as data. Every seed solution whose document prints a mailbox count has
it stored with its file and line (the line shows the number), from the manifests' catalogue and
from the documents alone; classes and ranks follow from the stored counts."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.schema.classes import DEFAULT_MAILBOX_CLASSES
from tests.helpers import FIXTURES, canned_rows as rows

DOCUMENTS = FIXTURES / "documents"


def _printed_on_its_line(design: dict) -> bool:
    file_name, _, line = design["mailbox_count_source"].rpartition(" line ")
    printed = (DOCUMENTS / file_name).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    return any(int(n.replace(",", "")) == design["mailbox_count"] for n in re.findall(r"\d[\d,]*", printed))


def _class_of(count: int) -> str:
    return next(label for _, label, low, high in DEFAULT_MAILBOX_CLASSES if count >= low and (high is None or count <= high))


def test_every_printed_mailbox_count_is_stored_with_its_line(seed_catalog):
    with seed_catalog.engine.connect() as conn:
        printing = set(conn.execute(text(
            "select s.key from claims c join solutions s on s.id = c.solution_id where c.metric = 'mailboxes'")).scalars())
    designs = {d["solution"]: d for d in rows(seed_catalog, "test-designs")}
    assert len(printing) >= 8
    for key in printing:
        design = designs[key]
        assert design["mailbox_count"] and _printed_on_its_line(design), design
        assert design["mailbox_class"] == _class_of(design["mailbox_count"])
    assert {d["mailbox_count"] for d in designs.values() if d["solution"].startswith("intel-x25e")} == {200}


def test_ranks_within_a_class_follow_total_iops_and_read_latency(seed_catalog):
    ranked = rows(seed_catalog, "mailbox-class-ranks")
    assert len({r["mailbox_class"] for r in ranked}) >= 3
    for label in {r["mailbox_class"] for r in ranked}:
        members = [r for r in ranked if r["mailbox_class"] == label and r["total_iops"] is not None]
        by_iops = sorted(members, key=lambda r: -r["total_iops"])
        assert [r["total_iops_rank"] for r in by_iops] == list(range(1, len(by_iops) + 1))
        timed = sorted((r for r in members if r["db_read_latency_ms"] is not None), key=lambda r: r["db_read_latency_ms"])
        assert [r["db_read_latency_rank"] for r in timed] == list(range(1, len(timed) + 1))


def test_changed_class_bounds_move_the_solutions(catalog):
    (outcome,) = ingest_paths(catalog.engine, [DOCUMENTS / "002_2e1b37b2175e5892.txt"])
    assert outcome.status == "loaded", outcome.message
    before = {d["solution"]: d["mailbox_class"] for d in rows(catalog, "test-designs") if d["mailbox_count"]}
    assert before and set(before.values()) == {"up to 1,000 mailboxes"}
    with catalog.engine.begin() as conn:
        conn.execute(text("update mailbox_classes set max_mailbox_count = 100 where class_ordinal = 1"))
        conn.execute(text("update mailbox_classes set min_mailbox_count = 101 where class_ordinal = 2"))
    after = {d["solution"]: d["mailbox_class"] for d in rows(catalog, "test-designs") if d["mailbox_count"]}
    assert set(after.values()) == {"1,001–5,000 mailboxes"} and after.keys() == before.keys()


@pytest.mark.parametrize("document", sorted(p.name for p in DOCUMENTS.glob("00*.txt")))
def test_documents_alone_store_the_mailbox_count_with_its_line(catalog, document):
    (outcome,) = ingest_paths(catalog.engine, [DOCUMENTS / document])
    assert outcome.status == "loaded", outcome.message
    designs = [d for d in rows(catalog, "test-designs") if d["mailbox_count"] is not None]
    assert designs, "no mailbox count from the document alone"
    for design in designs:
        assert _printed_on_its_line(design), design


# --- the ESRP program: version and tested date --------------------------------------------------

SUBMISSION = DOCUMENTS / "001_4559286d3491bdeb.txt"  # the seed ESRP submission (its cover prints both)


def test_the_esrp_program_and_copies_are_stored_with_their_lines(seed_catalog):
    from datetime import date

    designs = {d["solution"]: d for d in rows(seed_catalog, "test-designs")}
    with seed_catalog.engine.connect() as conn:
        (document,) = conn.execute(text(
            "select d.* from documents d join source_files f on f.id = d.source_file_id "
            "where d.esrp_version is not null")).mappings().all()
    printed = SUBMISSION.read_text(encoding="utf-8").splitlines()
    assert "ESRP" in printed[document["esrp_version_line"] - 1] and document["esrp_version"] in \
        printed[document["esrp_version_line"] - 1]
    tested: date = document["tested_on"]
    assert tested.strftime("%B") in printed[document["tested_on_line"] - 1] and str(tested.year) in \
        printed[document["tested_on_line"] - 1]
    tested_here = [d for d in designs.values() if d["esrp_version"] is not None]
    assert [d["esrp_version"] for d in tested_here] == [document["esrp_version"]]
    assert tested_here[0]["esrp_version_source"].endswith(f" line {document['esrp_version_line']}")
    assert tested_here[0]["tested_on"] == tested
    # the copies its reports print ("Number of Copies per Database")
    assert tested_here[0]["database_copies"] == int(next(
        line.split()[-1] for line in printed if line.strip().startswith("Number of Copies per Database")))


@pytest.mark.parametrize("variant", ["plain", "spaces", "markdown", "html_bold", "markdown_bold", "crlf", "pages",
                                     "typeset"])
def test_the_esrp_program_reads_alike_in_every_form(variant):
    from esrpdb.ingest.formats import document
    from tests.document_variants import VARIANTS

    original = document.parse(SUBMISSION.name, SUBMISSION.read_bytes()).program
    changed = VARIANTS[variant](SUBMISSION.read_text(encoding="utf-8"))
    data = changed if isinstance(changed, bytes) else changed.encode("utf-8")
    program = document.parse(SUBMISSION.name, data).program
    assert (program.esrp_version, program.tested_on) == (original.esrp_version, original.tested_on)
    assert original.esrp_version and original.tested_on


@pytest.mark.parametrize("printed, expected", [
    ("Tested Date: June 09, 2011", "2011-06-09"), ("Date tested: 9 June 2011", "2011-06-09"),
    ("Tested date - 06/09/2011", "2011-06-09"), ("Tested Date: the 9th of never", None),
    ("Tested Date: Jun 9th, 2011", "2011-06-09")])
def test_tested_dates_in_the_forms_documents_print_them(printed, expected):
    from esrpdb.ingest.formats.document.lines import Line
    from esrpdb.ingest.formats.document.program import esrp_program

    program = esrp_program([Line(1, ("Tested with: ESRP – Storage Version 3.0",)), Line(2, (printed,))])
    assert program.esrp_version == "3.0" and program.esrp_version_line == 1
    assert (program.tested_on.isoformat() if program.tested_on else None) == expected


# --- one run stands for a solution everywhere ---------------------------------------------------

def test_compare_the_site_and_the_classes_take_the_same_run_for_a_solution(seed_catalog):
    from esrpdb.queries import compare
    from esrpdb.site.data import load_catalogue

    view = {r["solution"]: r["run_id"] for r in rows(seed_catalog, "representative-runs")}
    site = {s["key"]: s["median_run_id"] for s in load_catalogue(seed_catalog.reader()).solutions}
    classes = {r["solution"]: r["run_id"] for r in rows(seed_catalog, "mailbox-class-ranks")}
    with seed_catalog.engine.connect() as conn:
        compared = {key: figures.run_id for key, figures in compare.read_figures(conn, list(view)).items()}
    assert view and site == view == compared
    assert classes.items() <= view.items()
