"""A list of bullets belongs to the sentence that leads into it, and each bullet's own words say its basis
(ingest/draft/published.py `paragraphs`, ingest/draft/stated_basis.py). Pure; the words are in the
shape of a lab comparison's findings (fixtures/other_hands/oh_third-party_a5_01, SYNTHETIC)."""

from __future__ import annotations

from esrpdb.ingest.draft.published import paragraphs, sentence_claims
from esrpdb.ingest.draft.stated_basis import stated_basis
from esrpdb.ingest.formats.document.lines import split_lines

TEXT = """Compared with the Beta array, the Alpha array delivered:

  * 107% more total IOPS per disk, counting all 48 and 36 disks including spares
  * 101% more total IOPS per active disk
  * 41% more IOPS per dollar of list price
"""


def test_a_list_is_read_with_its_lead_in_sentence():
    joined = paragraphs(split_lines(TEXT, []))
    assert len(joined) == 1 and joined[0][0].startswith("Compared with the Beta array")
    assert [n for _, n in joined[0][1]] == [1, 3, 4, 5]  # each part keeps its own line


def test_each_bullet_says_its_own_disk_basis():
    claims = {c.value: c for c in sentence_claims(paragraphs(split_lines(TEXT, [])))}
    assert claims["107"].disk_basis == "all" and claims["101"].disk_basis == "active"
    assert claims["107"].line == 3 and claims["41"].metric == "percent_more:iops_per_dollar"


def test_the_item_says_the_basis_before_the_paragraph_does():
    paragraph = "A: 20% more IOPS per disk (all drives counted); B: 10% more IOPS per active drive."
    assert stated_basis("total_iops_per_disk", paragraph, paragraph, item="20% more IOPS per disk (all drives counted)") \
        == ("total_iops_per_disk", None, "all")
    assert stated_basis("total_iops_per_disk", paragraph, paragraph, item="10% more IOPS per active drive")[2] == "active"
