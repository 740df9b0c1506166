"""A design in any wording: mailbox sizes after the count, storage groups of one database, a space as the
thousands separator, labels with a qualifier in parentheses; and numbers that are not the fact (a release,
a database's IOPS). Sentences written for these tests (SYNTHETIC), in the bench documents' manner."""

from __future__ import annotations

import pytest

from esrpdb.ingest.draft.drafts import DraftSolution
from esrpdb.ingest.draft.fact import Fact
from esrpdb.ingest.draft.facts import _row_fact
from esrpdb.ingest.draft.quantities import quantity_facts
from esrpdb.ingest.draft.workload import add_group_databases


def _read(sentence: str) -> dict[str, tuple[str, float | None, str | None]]:
    return {f.fact: (f.value, f.number, f.unit) for f in quantity_facts(sentence, 1)}


@pytest.mark.parametrize(("sentence", "size", "unit"), [
    ("The profile simulated 10,000 mailboxes of 512 MB at 200 messages/day", 512, "MB"),
    ("Simulated design: 20,000 mailboxes, 3 GB each, 0.08 IOPS per mailbox", 3, "GB"),
    ("the array holds 6 000 mailboxes of 2 GB (two servers x 3,000)", 2, "GB"),
    ("with a 250 MB mailbox quota", 250, "MB"),
])
def test_a_mailbox_size_after_its_count(sentence, size, unit):
    assert _read(sentence)["mailbox_size"][1:] == (size, unit)


def test_a_space_separates_thousands_in_a_mailbox_count():
    assert _read("the array holds 6 000 mailboxes of 2 GB")["mailboxes"][1] == 6000


@pytest.mark.parametrize(("sentence", "count"), [
    ("spread over 8 storage groups with one database each, so the target was 1,280 I/O per second", 8),
    ("Databases were spread over six storage groups with one database each.", 6),
])
def test_storage_groups_of_one_database_count_the_databases(sentence, count):
    assert _read(sentence)["databases"][1] == count


@pytest.mark.parametrize("sentence", [
    "per mailbox the server needs 768 database IOPS; it achieved approximately 970",
    "Each storage group holds one mailbox database of 600 mailboxes.",
])
def test_a_number_beside_database_that_is_not_the_databases(sentence):
    assert not {"databases", "databases_per_server"} & set(_read(sentence))


@pytest.mark.parametrize(("sentence", "link"), [
    ("Microsoft Exchange Server 2010 SP1 on Corvane NX3400 iSCSI Storage", "iSCSI"),
    ("This reference architecture sizes a Halvorsen HD-7800 Fibre Channel array for 20,000 users", "Fibre Channel"),
    ("two active/active controllers, four 8Gb FC host ports per controller", "Fibre Channel"),
    ("Exchange Server 2010 Mailbox Resiliency on the SP-2200 SAS Array", "SAS"),
    ("the 10K SAS storage behind it", None),
    ("ESXi hosts with dual 8Gb FC HBAs", None),
])
def test_the_storages_own_link_in_other_words(sentence, link):
    assert _read(sentence).get("connectivity", (None,))[0] == link


def test_every_disk_said_in_passing_is_a_count_of_its_own():
    assert _read("Before testing, all 44 disks were zeroed and the LUNs formatted")["all_disks_stated"][1] == 44
    assert _read("102.4 IOPS per disk over all 48 installed drives")["all_disks_stated"][1] == 48
    assert "all_disks_stated" not in _read("The NV-7800 had all 20 SSDs in one RAID 5 group.")


def test_a_release_before_hosts_is_not_a_count():
    assert "servers" not in _read("Three physical Hyper-V hosts each run one Exchange 2010 Mailbox VM.")


@pytest.mark.parametrize(("label", "fact"), [
    ("Databases (each 2 TB volume)", "databases"),
    ("Host connectivity", "connectivity"),
    ("Storage Connectivity (Fiber Channel, SAS, SATA,", "connectivity"),
    ("Host connection", "connectivity"),
    ("Front end", "connectivity"),
    ("Maximum bandwidth of storage connectivity to host", None),
])
def test_row_labels_in_other_words(label, fact):
    assert (_row_fact(label) or (None,))[0] == fact


def test_storage_groups_per_host_times_databases_per_group():
    solution = DraftSolution("SYNTHETIC")
    solution.facts += [Fact("storage_groups_per_server", "4", 4.0, None, 74, "Number of storage groups/host: 4"),
                       Fact("databases_per_storage_group", "1", 1.0, None, 76,
                            "Number of mailbox stores/storage group: 1")]
    add_group_databases(solution)
    assert [(f.fact, f.number) for f in solution.facts if f.fact.startswith("databases_per_server")] == \
        [("databases_per_server", 4.0)]


# --- Whole documents, drafted (SYNTHETIC, after the bench's ESRP and lab-comparison layouts) ---------------

def _drafted(text: str):
    from esrpdb.ingest.draft import draft_document
    from esrpdb.ingest.formats import document

    return draft_document(document.parse("synthetic.txt", text.encode()))


SYSTEMS_AS_ROWS = """Table 1. Storage configuration

| System | Connectivity | Drives | Drive | Drives | RAID | Formatted | List price |
|---|---|---|---|---|---|---|---|
|  |  | installed | type | in use | level | capacity | (USD) |
| {a} | Fibre Channel | 48 x 600GB | 15K SAS | 44 | RAID 10 | 11,873.4 GB | US$ 118,400 |
| {b} | iSCSI | 36 x 2TB | 7.2K NL-SAS | 34 | RAID 6 | 55,860.0 GB | US$ 62,900 |

Table 2. Hardware tested

                {a}         {b}
Watts (active)  690                   520
Watts (idle)    590                   455
Usable GB       3,755.1               4,425.6
"""


@pytest.mark.parametrize(("a", "b"), [("Arvessa StorLine 540", "Brontel NX-2260"), ("Quell Q-9", "Pardo P2")])
def test_a_disk_over_two_cells_and_power_and_prices_in_other_words(a, b):
    drafted = _drafted(SYSTEMS_AS_ROWS.format(a=a, b=b))
    first, second = drafted.systems
    facts = {f.fact: f.value for f in first.facts}
    assert (facts["disk_capacity"], facts["disk_rpm"], facts["disk_interface"]) == ("600", "15000", "SAS")
    assert {f.fact: f.value for f in second.facts}["disk_interface"] == "NL-SAS"
    claims = {c.metric: c.value for c, _, _ in first.claims}
    assert (claims["list_price"], claims["active_power"], claims["idle_power"]) == ("118,400", "690", "590")
    assert [float(m.manifest.power.idle_w) for m in drafted.manifests if m.manifest.power] == [590, 455]


ESRP_TOTAL = """Table 4 - Storage Disk Configuration (Mailbox Store Disks)
Number of physical disks in test                    40
Raid level                                          RAID-10
Total formatted capacity                            11,008.2 GB

Table 5 - Storage Disk Configuration (Transactional Log Disks)
Number of physical disks in test                    4
Raid level                                          RAID-10
Total formatted capacity                            1,100.8 GB

Hot spares: 1 (global; not included in Tables 4 and 5).
Total formatted capacity presented to the Exchange hosts: 12,109.0 GB.
"""


def test_a_capacity_that_sums_the_disk_tables_is_the_solutions():
    manifest = _drafted(ESRP_TOTAL).manifests[0].manifest
    assert manifest.capacity is not None and float(manifest.capacity.usable) == 12109.0


def test_a_row_written_as_a_sentence_is_read_as_the_row():
    facts = {f.fact: f.value for f in _drafted(ESRP_TOTAL).systems[0].facts}
    assert facts["spare_disk_count"] == "1"


BULLETS = """Results of the SYNTHETIC comparison of the {a}, the {b} and the {c}.

  > {a}: 126% more total IOPS per disk (all disks) than the {c}
  > {b}: 6.4% more IOPS per watt than the {a}
  > {c}: 4% more total IOPS per active disk than the {b}
"""


@pytest.mark.parametrize(("a", "b", "c"), [("Corbel CX-300", "Dunmore iQ-12", "Gaskell SB-1600"),
                                           ("Ardent A1", "Bexley B2", "Calder C3")])
def test_a_bullet_marked_with_a_chevron_is_an_item_of_its_own(a, b, c):
    from esrpdb.ingest.draft.published import paragraphs, sentence_claims
    from esrpdb.ingest.formats.document.lines import split_lines

    claims = {c.value: c for c in sentence_claims(paragraphs(split_lines(BULLETS.format(a=a, b=b, c=c), [])))}
    assert claims["126"].disk_basis == "all" and claims["126"].than.startswith(c)
    assert claims["6.4"].than.strip() == a and claims["4"].disk_basis == "active"


HARDWARE = """{company}

Exchange 2013 on {model} iSCSI Storage: Sizing, Best Practices and Validation
16K mailboxes, four physical Mailbox servers, 10GbE iSCSI

This paper runs Exchange Server 2013 on the {model} unified array over 10GbE iSCSI.

Table 1. Hardware components
Storage array (under test)         {short} {model}, dual controllers, 16 GB cache per controller,
                                   four 10GbE iSCSI host ports per controller
Drive shelves                      3 x PXS-24 shelves of 24 drives
Drives                             72 x 1.2TB 10K SAS: 68 in RAID 10 mirror pairs, 4 hot
                                   spares
Mailbox servers                    4 x Sellmark S-2600, 128 GB
                                   RAM, 2 x 10GbE iSCSI NICs
"""


@pytest.mark.parametrize(("company", "vendor", "model"), [("PELLUCID NETWORKS  |  WHITE PAPER", "Pellucid Networks", "PX-9000"),
                                                          ("Quillon Storage Systems", "Quillon Storage Systems", "QS-860")])
def test_a_letterhead_names_the_vendor_and_wrapped_cells_end_their_value(company, vendor, model):
    drafted = _drafted(HARDWARE.format(company=company, model=model, short=vendor.split()[0]))
    table = next(t for t in drafted.document.tables if t.title.startswith("Table 1"))
    assert [(r.label, r.values[0].split()[-1]) for r in table.rows][:3] == [
        ("Storage array (under test)", "controller"), ("Drive shelves", "drives"), ("Drives", "spares")]
    manifest = drafted.manifests[0].manifest
    assert (manifest.vendor, manifest.model) == (vendor, model)
    assert sorted((d.count, d.role) for d in manifest.disks) == [(4, "hot_spare"), (68, "active")]


@pytest.mark.parametrize("letterhead", ["Quillon Storage Systems", "VELTRANE TECHNICAL REPORT VT-2019-07"])
def test_a_title_page_printed_with_no_blank_line_ends_where_the_text_begins(letterhead):
    """A PDF whose renderer prints no blank lines: the title is the lines naming Exchange down to the first
    section, not the letterhead above it nor the summary below it (SYNTHETIC, after oh_vendor-ra_a3_06)."""
    from esrpdb.ingest.formats.document.lines import document_title, split_lines

    text = (f"{letterhead}\nExchange 2010 SP2 Reference Architecture for the QS-860 Fibre Channel Array\n"
            "12,000 users in five VMware virtual machines\nTechnical Report QTR-2012-031 - May 2012\n"
            "Executive Summary\nQuillon validated a QS-860 configuration for 12,000 Exchange 2010 SP2 mailboxes hosted "
            "in five\nVMware vSphere 5.0 virtual machines.\n")
    assert document_title(split_lines(text, [])) == (
        "Exchange 2010 SP2 Reference Architecture for the QS-860 Fibre Channel Array 12,000 users in five VMware "
        "virtual machines Technical Report QTR-2012-031 - May 2012")


@pytest.mark.parametrize(("name", "said"), [
    ("oh_esrp_a2_06", 'storage model: "5600" (lines 3, 34, 39, 198) vs "5650" (line 72)'),
    ("oh_vendor-ra_a3_02", 'disk shelf model: "DS-2460" (line 26) vs "DE-2460" (line 56)')])
def test_a_model_a_digit_apart_is_named_differently(name, said):
    """Bench documents by other hands (SYNTHETIC; planted by their authors): a storage model printed as a bare
    number after its product name ("Flexa 5650, firmware …"), and a disk shelf's model in a table and in prose."""
    from esrpdb.ingest.draft import draft_document
    from esrpdb.ingest.formats import document
    from tests.helpers import FIXTURES

    path = FIXTURES / "other_hands" / f"{name}.txt"
    found = draft_document(document.parse(path.name, path.read_bytes())).named_differently
    assert [message.split(":", 2)[0] + ":" + message.split(":", 2)[1] for message in found] == [said]
