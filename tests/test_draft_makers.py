"""Which words of a system's name are its maker's, what a percentage compares, and which short lines are
headings: each read from the document's own words (ingest/draft/brands.py, published.py, names.py,
formats/document/tables.py). Pure. The words are in the shape of the lab comparisons and reference
architectures by other hands (fixtures/other_hands/oh_third-party_a6_05, oh_vendor-ra_a4_04, SYNTHETIC);
every name here is made up, and each rule is asked again with the systems renamed."""

from __future__ import annotations

import pytest

from esrpdb.audit.doubts import _sides_swapped
from esrpdb.audit.terms import DOUBT, MISMATCH, Judgement, parse_printed
from esrpdb.ingest.draft.brands import brand_owners, maker_before, maker_words, model_maker, owned_brand
from esrpdb.ingest.draft.fact import Fact
from esrpdb.ingest.draft.names import mentions, words
from esrpdb.ingest.draft.published import paragraphs, sentence_claims
from esrpdb.ingest.formats import document
from esrpdb.ingest.formats.document.lines import split_lines

NAMES = [("Graymoor", "GS-1200", "Ferrant", "Aurex 20"), ("Oakhurst", "OK-3300", "Pelling", "Nimbo 40")]


@pytest.mark.parametrize("maker, model, other_maker, other_model", NAMES)
def test_the_maker_is_the_words_the_document_drops(maker, model, other_maker, other_model):
    text = (f"{maker} {model} versus {other_maker} {other_model}. The {model} costs 45% less; "
            f"the {other_model} is faster.")
    assert maker_words(f"{maker} {model}", text) == (maker, model)
    assert maker_words(f"{other_maker} {other_model}", text) == (other_maker, other_model)


@pytest.mark.parametrize("maker, model, other_maker, other_model", [*NAMES, ("Orrin Data", "OD-9", "Velmora", "Strata 2600")])
@pytest.mark.parametrize("form", ["spaces", "pipes", "tabs"])
def test_a_model_printed_after_its_maker_in_a_cell_of_its_own_gives_the_maker(maker, model, other_maker, other_model, form):
    """A document that names its systems by model ("the OD-9") and prints them whole only in a table's cells or
    a title's parts ("Orrin Data OD-9  |  Velmora Strata 2600")."""
    gap = {"spaces": "   ", "pipes": "  |  ", "tabs": "\t"}[form]
    text = (f"Three arrays under Jetstress\n{maker} {model}{gap}{other_maker} {other_model}\n\n"
            f"The {model} and the {other_model} were run five times.\n")
    lines = split_lines(text, [])
    assert maker_before(model, lines) == (maker, model)
    assert maker_before(other_model, lines) == (other_maker, other_model)


@pytest.mark.parametrize("maker, model", [("Strata Peak", "SP-2200"), ("Harrow", "HX 40")])
def test_a_cell_that_begins_with_the_maker_and_model_before_a_comma_gives_the_maker(maker, model):
    """"Storage   Strata Peak SP-2200, dual RAID controllers with 2 GB cache each": the system's model is
    stated (a document titled by its solution); the cell says whose it is."""
    lines = split_lines(f"Table 1. Configuration\nStorage        {maker} {model}, dual RAID controllers\n", [])
    assert maker_before(model, lines) == (maker, model)
    facts = [Fact("model", model, None, None, 2, "Storage")]
    assert [(f.fact, f.value) for f in model_maker(facts, lines)] == [("vendor", maker)]
    assert model_maker([], lines) == []


@pytest.mark.parametrize("before", ["The", "Microsoft", "Table", "Storage"])
def test_an_article_a_platform_or_a_common_word_before_a_model_is_no_maker(before):
    lines = split_lines(f"Results\n{before} OD-9   Pass\n", [])
    assert maker_before("OD-9", lines) is None


def test_a_name_printed_only_whole_has_no_maker_split():
    assert maker_words("Graymoor GS-1200", "The Graymoor GS-1200 ran twice. Graymoor GS-1200 passed.") is None


@pytest.mark.parametrize("company, brand", [("Brightwater Storage", "TerraVault"), ("Keller Data", "Summit")])
def test_a_brand_of_a_company_is_the_product_line(company, brand):
    owners = brand_owners([f"{company.split()[0]} and {brand} are trademarks of {company} Corp.",
                           f"(c) 2019 {company} Inc. {brand} is a registered trademark of {company} Inc."])
    assert owners[brand.casefold()] == company
    facts = owned_brand([Fact("vendor", brand, None, None, 2, "title"), Fact("model", "7600", None, None, 2, "title")],
                        owners)
    assert [(f.fact, f.value) for f in facts] == [("vendor", company), ("model", f"{brand} 7600")]


def test_a_number_inside_a_printed_number_names_no_system():
    distinct = [set(words("GS-1200")), set(words("Aurex 20"))]
    assert mentions("Profile: 200 messages a day (0.20 IOPS per mailbox), 6 databases.", distinct) == []
    assert [system for _, system in mentions("the Aurex 20 sustained 1,479.5 IOPS", distinct)] == [1]


def _claims(text: str) -> dict[str, str]:
    return {c.value: c.metric for c in sentence_claims(paragraphs(split_lines(text, [])))}


@pytest.mark.parametrize("other", ["Aurex", "Nimbo"])
def test_a_percentage_compares_what_its_own_words_name(other):
    claims = _claims(f"The Graymoor costs 45% less and returns 1.6 times the total IOPS per dollar of the {other}; "
                     f"it also drew 380 W while idle, 25% less than the {other}. It needs 20% fewer drives, "
                     f"with 33% lower average database read latency.")
    assert claims == {"45": "percent_less:list_price", "25": "percent_less:idle_power",
                      "20": "percent_less:disk_count", "33": "percent_less:db_read_latency"}


def test_a_bullet_is_not_read_with_the_words_of_the_bullet_before():
    claims = _claims("The Alpha array offered:\n\n  - 79% more IOPS per watt under load\n"
                     "  - 33% lower average database read latency\n")
    assert claims == {"79": "percent_more:perf_per_watt", "33": "percent_less:db_read_latency"}


TABLE = """How we tested

Profile: 200 messages a day (0.20 IOPS per mailbox), 512 MB mailboxes, 5,000 mailboxes in 6
databases, one copy (no replication). One server per array ran Jetstress 2010 (14.00.0639.019)
in two-hour Performance mode.

Table 1. Hardware

System                 Interface      Drives   RAID        Usable (GB)
{a}             SAS          24   RAID 10        6,138.0
{b}   Fibre Channel          30   RAID 10        5,866.0
"""


@pytest.mark.parametrize("a, b", [("Graymoor GS-1200", "Ferrant Aurex 20"), ("Oakhurst OK-3300", "Pelling Nimbo 40")])
def test_a_wrapped_line_of_prose_is_no_heading_of_the_table_below(a, b):
    """"databases, one copy (no replication). One server per array …" is short and ends without a stop,
    but it carries a paragraph on: the table is the storage its rows describe, not a server table."""
    parsed = document.parse("hardware.txt", TABLE.format(a=a, b=b).encode())
    table = next(t for t in parsed.tables if t.title.startswith("Table 1"))
    assert table.kind == "storage_systems" and table.columns == (a, b)


def test_a_comparison_true_the_other_way_round_is_the_readers_doubt():
    judgement = Judgement(MISMATCH, -300.0, 5.0, "(1 - a / b) x 100 with a = 96, b = 24", {"a": 96.0, "b": 24.0})
    doubt = _sides_swapped("percent_less", judgement, parse_printed("75"))
    assert doubt is not None and doubt.verdict == DOUBT and "other way round" in doubt.explanation
    assert _sides_swapped("percent_less", judgement, parse_printed("70")) is None


def test_a_figure_for_each_of_its_drives_is_per_disk_over_all_of_them():
    claims = {c.value: c for c in sentence_claims(paragraphs(split_lines(
        "The array reached 2,062.3 achieved IOPS, or 46.9 achieved IOPS for each of its 48 drives, and "
        "214.3 total IOPS for each SSD.", [])))}
    assert (claims["46.9"].metric, claims["46.9"].disk_basis) == ("achieved_iops_per_disk", "all")
    assert claims["214.3"].metric == "total_iops_per_disk" and claims["2,062.3"].metric == "achieved_iops"


def test_a_figure_in_brackets_after_than_is_the_other_sides():
    claims = _claims("That is 38% more IOPS per SSD than our 2015 reference design (390.4 IOPS per SSD). "
                     "It ran 538.7 IOPS per SSD.")
    assert "390.4" not in claims and "538.7" in claims


REPORT_LINES = """Jetstress System Parameters
Run Background Database Maintenance
True
Number of Copies per Database
2
Database Configuration
"""


def test_a_bare_number_under_a_reports_label_is_its_value_not_a_page_number():
    from esrpdb.ingest.formats.document.lines import mark_furniture

    lines = mark_furniture(split_lines(REPORT_LINES, []))
    assert [ln.furniture for ln in lines if ln.text == "2"] == [False]
    prose = mark_furniture(split_lines("Some prose here.\n\n2\n\nMore prose.\n", []))
    assert [ln.furniture for ln in prose if ln.text == "2"] == [True]


@pytest.mark.parametrize("a, b", [("Ventara 7400", "FS6100"), ("Larch 20", "Birch 9")])
def test_a_count_printed_as_a_product_is_the_product(a, b):
    text = (f"Table 2 Exchange profile\n\nArray\tServers\tMailboxes\tDatabases\n{a}\t2\t2 x 5,000\t8\n"
            f"{b}\t2\t2 x 5,000\t8\n")
    from esrpdb.ingest.draft.facts import table_facts

    table = next(t for t in document.parse("profile.txt", text.encode()).tables if t.title.startswith("Table 2"))
    assert {f.column: f.number for f in table_facts(table) if f.fact == "mailboxes"} == {a: 10000.0, b: 10000.0}


def test_a_machines_memory_is_held_by_that_machine_only():
    from esrpdb.ingest.draft.memory import row_memory, sentence_memory

    def read(facts):
        return [(f.fact, f.number) for f in facts]

    assert read(row_memory("Hyper-V hosts", "3 x Brannberg BX-460 G2, 2 x Xeon E5-2660 v2 (10 cores), 192 GB", 32, "")) \
        == [("memory:hyper-v host", 192.0)]
    assert read(row_memory("Management server", "Brannberg BX-120, 64 GB RAM, 2 x 300GB 10K SAS local disks", 36, "")) \
        == [("memory:management server", 64.0)]
    assert read(row_memory("VM memory", "64 GB each", 40, "")) == [("memory:vm", 64.0)]
    assert read(row_memory("Storage (tested)", "NS-5240, two controllers, 24 GB cache per controller", 26, "")) == []
    assert read(row_memory("Boot storage", "12 x 600GB 10K SAS (RAID 10)", 34, "")) == []
    assert read(sentence_memory("Each Hyper-V host is fitted with 256 GB of RAM and runs two VMs with 32 GB.", 47)) \
        == [("memory:hyper-v host", 256.0)]
    assert read(sentence_memory("Each VM was given 48 GB of memory so that the cache matched.", 52)) == [("memory:vm", 48.0)]


def test_transactional_iops_for_each_disk_is_achieved_iops_per_disk():
    claims = {c.value: c for c in sentence_claims(paragraphs(split_lines(
        "The array carried the load, delivering 44.9\ntransactional IOPS for each of the 48 disks in the array.", [])))}
    assert (claims["44.9"].metric, claims["44.9"].disk_basis) == ("achieved_iops_per_disk", "all")


def test_an_aggregate_tables_transaction_log_writes_are_log_iops():
    from esrpdb.ingest.draft.table_claims import table_claims

    text = "Table 6 - Aggregate performance across all servers\n\nTransaction Log Writes/sec\t1506.358\n" \
           "Average Log Write Latency (ms)\t4.0\n"
    table = document.parse("aggregate.txt", text.encode()).tables[0]
    assert {(c.metric, c.value) for c in table_claims(table)} >= {("log_iops", "1506.358")}


def test_a_figure_after_than_b_and_is_the_subjects():
    from esrpdb.ingest.draft.names import owner_at

    distinct = [set(words("Lumetra LX-90")), set(words("Tarnwell TW5000"))]
    text = "The Lumetra LX-90 delivers 11% more total IOPS per dollar than the TW5000 and 32.4 achieved IOPS per disk."
    assert owner_at(text, text.index("32.4"), distinct) == 0
    compared = "The LX-90 delivered 310.5 IOPS compared to the TW5000 at 120.7 IOPS."
    assert owner_at(compared, compared.index("120.7"), distinct) == 1


def test_about_a_round_figure_allows_a_unit_of_its_last_digit_before_the_zeros():
    from esrpdb.audit.judge import qualified
    from esrpdb.audit.terms import parse_printed

    assert qualified(1814.0, parse_printed("1,800"), "approximately")[0]
    assert not qualified(1950.0, parse_printed("1,800"), "approximately")[0]
    assert not qualified(1814.0, parse_printed("1,800"), None)[0]


def test_a_sentence_naming_one_system_gives_it_its_disks():
    from esrpdb.ingest.draft.drafts import DraftSolution
    from esrpdb.ingest.draft.quantities import quantity_facts
    from esrpdb.ingest.draft.workload import add_named_facts

    solutions = [DraftSolution("Corvane Helix 3220"), DraftSolution("Lumetra LX-90")]
    distinct = [set(words(s.name)) - set(words(o.name)) for s, o in zip(solutions, solutions[::-1])]
    facts = list(quantity_facts("LX-90: 56 in use plus 4 global spares; hosts ran 6 databases each over 10 GbE iSCSI.", 36))
    add_named_facts(solutions, facts, distinct)
    assert not solutions[0].facts
    assert {(f.fact, f.value) for f in solutions[1].facts} == {("active_disk_count", "56"), ("spare_disk_count", "4"),
                                                               ("connectivity", "iSCSI")}


def test_a_disk_count_with_its_spares_added_is_the_active_count():
    from esrpdb.ingest.draft.table_claims import table_claims

    text = "Primary Storage Disk Configuration\n\nNumber of physical disks in test\t44 + 4 spares\nRaid level\tRAID 10\n"
    table = document.parse("disks.txt", text.encode()).tables[0]
    assert [(c.metric, c.value, c.disk_basis) for c in table_claims(table) if c.metric == "disk_count"] == \
        [("disk_count", "44", "active")]


def test_the_basis_a_per_disk_figures_own_words_state_comes_before_a_bracket():
    claims = {c.value: c for c in sentence_claims(paragraphs(split_lines(
        "Together the two servers achieved 4,914.6 IOPS, 102.4 IOPS per disk over all 48 installed drives\n"
        "(106.8 per active drive). Each SSD gave 51.5 IOPS per active disk.", [])))}
    assert claims["102.4"].disk_basis == "all" and claims["51.5"].disk_basis == "active"


def test_a_row_labelled_in_another_unit_gives_no_iops_figure():
    from esrpdb.ingest.draft.table_claims import _other_unit

    assert _other_unit("Total IOPS (W) per W", "IOPS")  # a heading's "(W)" set under the wrong column
    assert not _other_unit("IOPS per dollar (USD)", "IOPS/USD") and not _other_unit("Total IOPS per watt (W)", "IOPS/W")
    assert not _other_unit("Achieved IOPS (database)", "IOPS") and not _other_unit("DB read latency (ms)", "ms")
