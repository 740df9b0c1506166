"""A document whose systems are renamed reads the same: models named like units or codes, makers of two words.

The reader must not change when the systems are renamed (DESIGN.md). Authors name models "KB-31",
"MS-8" or "ZQ-31", and a rule that reads a unit's letters ("KB", "MS") or a count ("31 SSDs") into a
model's name turns a table of systems into one of quantities, or counts disks that are not there. Each
document here (fixtures/other_hands/, SYNTHETIC) is ingested as written and with its models renamed to
such names, consistently (a model's product line too, so the renamed document still names one system
one way), and the two catalogues must score the same against the key (renamed alike): the same systems,
facts, runs, latencies and figures, the same planted inconsistencies found, and no new false alarm.
The unit tests below pin each rule the renamed documents first broke.
"""

from __future__ import annotations

import pytest

from esrpdb.ingest.draft.brands import brand_owners, maker_words, owned_brand
from esrpdb.ingest.draft.company import title_system, with_company
from esrpdb.ingest.draft.fact import Fact
from esrpdb.ingest.draft.quantities import disk_facts
from esrpdb.ingest.formats.document import parse
from esrpdb.ingest.formats.document.furniture import mark_furniture
from esrpdb.ingest.formats.document.lines import split_lines
from esrpdb.ingest.formats.document.orientation import is_quantity
from esrpdb.ingest.formats.document.tables import classify
from tests import document_bench
from tests.helpers import FIXTURES, TEMPLATE, scratch_database
from tests.synthetic_keys import load_key, rename_key, rename_text

FOLDER = FIXTURES / "other_hands"
# Each document's models (and the product line a model is printed without its number) renamed: to codes spelled
# like units ("KB-31") and to codes whose letters and number stand apart ("ZQ 310"). Before the rules below, each
# of these lost systems, facts or figures, or raised an alarm, once renamed so.
CASES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("oh_third-party_a5_02", (("QX400", "KB-31"), ("HS-24", "MB-52"))),
    ("oh_third-party_a5_02", (("QX400", "ZQ 310"), ("HS-24", "RX 52"))),
    ("oh_third-party_a5_03", (("AX-520", "KB-31"), ("StorStack 3100i", "MB-52"), ("StorStack", "MB-52"),
                              ("DS-1600", "GB-70"))),
    ("oh_third-party_a5_04", (("FS-7", "KB-31"), ("Nimbus 440", "MB-52"), ("Nimbus", "MB-52"))),
    ("oh_third-party_a6_01", (("StorLine 540", "KB-31"), ("StorLine", "KB-31"), ("NX-2260", "MB-52"),
                              ("KD-880", "GB-70"), ("Tessio 300", "TB-9"), ("Tessio", "TB-9"))),
    ("oh_third-party_a6_03", (("Helix 3220", "KB-31"), ("Helix", "KB-31"), ("LX-90", "MB-52"), ("TW5000", "GB-70"))),
    ("oh_third-party_a6_04", (("NA-440", "ZQ 310"), ("Strata 2600", "RX 52"), ("Strata", "RX 52"), ("OD-9", "PW 70"))),
    ("oh_vendor-ra_a3_03", (("SP-2200", "ZQ 310"),)),
    ("oh_vendor-ra_a3_04", (("NS-5240", "ZQ 310"),)),
    ("oh_vendor-ra_a4_05", (("StorEdge 3400", "KB-31"), ("StorEdge", "KB-31"))),
    ("oh_vendor-ra_a4_06", (("Skylark AF920", "ZQ-31"), ("Skylark", "ZQ-31"))),
    ("oh_vendor-ra_a4_06", (("Skylark AF920", "ZQ 310"), ("Skylark", "ZQ 310"))),
    # a maker of two words whose second is no company's word ("Violin Memory"-like), named so where the document
    # names its company: the title split it after its first word, and the model kept the second
    ("oh_esrp_a1_01", (("Veltrix", "Zenthor Quill"),)),
    ("oh_esrp_a1_03", (("Keystrel", "Brimsby Arc"),)),
)


@pytest.fixture(scope="module")
def read(pg_server, template_url, tmp_path_factory):
    """(document, renames) -> its DocumentResult, each ingested alone into a fresh catalogue (no renames: as written)."""
    from esrpdb.db.catalog import open_catalog

    folder = tmp_path_factory.mktemp("renamed")
    results: dict[tuple[str, tuple], document_bench.DocumentResult] = {}

    def reading(name: str, renames: tuple[tuple[str, str], ...] = ()) -> document_bench.DocumentResult:
        if (name, renames) not in results:
            path, key = FOLDER / f"{name}.txt", load_key(FOLDER / f"{name}.key.json")
            text = path.read_text(encoding="utf-8")
            if renames:
                text, key = rename_text(text, renames), rename_key(key, renames)
                path = folder / f"{len(results)}" / path.name
                path.parent.mkdir()
                path.write_text(text, encoding="utf-8")
            with scratch_database(pg_server, "renamed", TEMPLATE) as url:
                catalog = open_catalog(url)
                try:
                    results[name, renames] = document_bench.read_document(catalog.engine, path, key, text, "text")
                finally:
                    catalog.close()
        return results[name, renames]

    return reading


@pytest.mark.parametrize("name, renames", CASES, ids=[f"{name}-{renames[0][1]}" for name, renames in CASES])
def test_a_document_reads_the_same_with_its_models_renamed(read, name, renames):
    written, renamed = read(name), read(name, renames)
    assert renamed.statuses == ["loaded"], renamed.messages
    assert renamed.counts() == written.counts(), renamed.score.table()
    assert renamed.audit.alarms == written.audit.alarms
    assert renamed.audit.doubts == written.audit.doubts


@pytest.mark.parametrize("heading", ["Altamira KB-31", "Ferrant MS-8", "Marlow GB-70", "Orrin TB\u20119"])
def test_a_unit_glued_to_a_number_after_it_is_a_model_not_a_quantity(heading):
    assert not is_quantity(heading)


@pytest.mark.parametrize("heading", ["Usable GB", "Usable (GB)", "Latency (ms)", "Read ms", "Capacity TB"])
def test_a_unit_alone_or_after_its_number_is_still_a_quantity(heading):
    assert is_quantity(heading)


def test_a_number_in_a_models_name_is_no_count_of_disks():
    assert [f for f in disk_facts("ZQ-31 SSD (x3)", 1, "") if f.fact == "disk_count"] == []
    counted = [(f.fact, f.value) for f in disk_facts("3 x 400GB SSD", 1, "") if f.fact == "disk_count"]
    assert counted == [("disk_count", "3")]
    assert [(f.fact, f.value) for f in disk_facts("RAID 10 over 24 SSDs", 1, "")] == [("disk_count", "24")]


_TITLED = """ZQ-31 All-Flash Storage for Microsoft Exchange Server 2016

Table 1  Array

Item             Value
Enclosure        1 (24 slots, 20 populated)
RAID             RAID 5 (8+1), two groups
"""


def test_a_title_that_starts_with_a_model_alone_names_the_model_and_the_documents_company():
    document = parse("renamed.txt", _TITLED.encode())
    facts = {f.fact: f.value for f in title_system(document, ["Veltrane"])}
    assert facts == {"model": "ZQ-31", "vendor": "Veltrane"}
    assert {f.fact: f.value for f in title_system(document, [])} == {"model": "ZQ-31"}


def test_a_model_the_legal_lines_name_as_a_brand_is_made_by_its_owner():
    model = Fact("model", "KB-31", None, None, 21, "Array: KB-31")
    facts = owned_brand([model], {"kb-31": "Meridian Peak Systems"})
    assert [(f.fact, f.value) for f in facts] == [("model", "KB-31"), ("vendor", "Meridian Peak Systems")]
    assert owned_brand([model], {"storedge": "Meridian Peak Systems"}) == [model]


def test_a_brand_the_legal_lines_name_with_its_number_owns_a_vendor_read_from_its_letters():
    facts = [Fact("vendor", "ZQ", None, None, 3, "t"), Fact("model", "310", None, None, 3, "t")]
    owners = brand_owners(["Meridian Peak and ZQ 310 are trademarks of Meridian Peak Systems."])
    assert owners == {"meridian peak": "Meridian Peak Systems", "zq 310": "Meridian Peak Systems"}
    assert [(f.fact, f.value) for f in owned_brand(facts, owners)] == [("vendor", "Meridian Peak Systems"),
                                                                       ("model", "ZQ 310")]


def test_a_number_alone_is_no_model():
    assert maker_words("ZQ 310", "Power drawn: 310 W.") is None
    assert maker_words("Graymoor GS-1200", "The GS-1200 costs less.") == ("Graymoor", "GS-1200")


_HEADER = "Norrland Storage AB  -  ZQ 310 Exchange 2013 Reference Architecture  -  page {}"


def test_a_running_header_is_furniture_however_long_the_name_it_prints():
    text = "\n".join(f"{_HEADER.format(page)}\n\nProse of page {page}.\n" for page in (2, 3, 4))
    lines = mark_furniture(split_lines(text, []))
    assert [line.furniture for line in lines if "Reference Architecture" in line.text] == [True, True, True]
    once = mark_furniture(split_lines(_HEADER.format(2) + "\n", []))
    assert [line.furniture for line in once if line.text] == [False]  # printed once and long: a row, as before


_CAPTIONED = """Intro text.

2  CONFIGURATION

Table 1  Array

Item             Value
Model            Veltrane ZQ 310
RAID             RAID 5

Table 2  Virtual machines

Item          Value
Mailbox VMs   4
Databases     24

Figure 3: 24,181 IOPS across four VMs

Table 3  Results

VM        Achieved IOPS   Read latency (ms)
MBXVM1    6,071.0         0.832
MBXVM2    6,085.4         0.807
"""


def test_a_figures_caption_under_a_table_does_not_make_the_tables_captions_below():
    titles = [table.title for table in parse("captions.txt", _CAPTIONED.encode()).tables if table.rows]
    assert "Table 1  Array".split() == [t for t in titles if t.startswith("Table 1")][0].split()
    assert any(t.startswith("Table 2") for t in titles) and any(t.startswith("Table 3") for t in titles)


def test_a_tables_kind_is_what_most_of_its_rows_speak_of():
    labels = ["Model", "Raw capacity", "Usable capacity", "Disks", "Power"]
    assert classify(["Table 1 Array"], labels, ["Value"], False) == "storage_systems"
    assert classify(["Table 9"], ["Active power", "Idle power", "Disks"], ["Value"], False) == "power"


def test_a_vendor_widened_to_its_company_takes_the_companys_words_off_the_model():
    facts = [Fact("vendor", "Violin", None, None, 3, "t"), Fact("model", "Memory FS-2240", None, None, 3, "t")]
    widened = with_company(facts, ["Violin Memory"])
    assert [(f.fact, f.value) for f in widened] == [("vendor", "Violin Memory"), ("model", "FS-2240")]
    plain = [Fact("vendor", "Corvane", None, None, 3, "t"), Fact("model", "NX3400", None, None, 3, "t")]
    assert [(f.fact, f.value) for f in with_company(plain, ["Corvane Systems"])] == [("vendor", "Corvane Systems"),
                                                                                   ("model", "NX3400")]
