"""One design quantity a document states twice with two values (audit/findings/stated_twice.py).

On a bench document by other hands (fixtures/other_hands/oh_esrp_a2_04, SYNTHETIC: its Overview says
0.12 IOPS per mailbox, its Simulated Exchange Configuration 0.18, planted by its author) the audit
names both lines; a headroom the words print, or one part's share of a count, is never a finding.
"""

from __future__ import annotations

import pytest

from esrpdb.audit import audit
from esrpdb.audit.findings.stated_twice import KIND, _headroom, _per_part
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, scratch_database


@pytest.fixture(scope="module")
def a2_04(pg_server, template_url):
    from esrpdb.db.catalog import open_catalog

    with scratch_database(pg_server, "twice", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            ingest_paths(catalog.engine, [FIXTURES / "other_hands" / "oh_esrp_a2_04.txt"])
            return audit(catalog.engine).findings
        finally:
            catalog.close()


def test_iops_per_mailbox_stated_twice_is_a_mismatch_citing_both_lines(a2_04):
    found = [f for f in a2_04 if f.kind == KIND]
    assert len(found) == 1, [(f.metric, f.explanation) for f in found]
    assert found[0].metric == "iops_per_mailbox" and found[0].verdict == "mismatch"
    first, second = found[0].inputs["lines"]  # the Overview's sentence (it starts on 33, the figure is on 34)
    assert sorted(found[0].inputs["values"]) == ["0.12", "0.18"] and first in (33, 34) and second in (65, 79)


def test_a_headroom_the_words_print_is_one_design():
    assert _headroom(0.15, 0.18, ["0.15 IOPS per mailbox", "0.18 IOPS per mailbox (0.15 plus 20% headroom)"])
    assert not _headroom(0.12, 0.18, ["0.12 IOPS per mailbox", "0.18 IOPS per mailbox"])


def test_a_parts_share_of_a_count_is_not_a_second_statement():
    assert _per_part("mailboxes", 1000, 10000)  # "five databases of 1,000 mailboxes" beside 10,000 in all
    assert not _per_part("mailboxes", 9000, 10000)
    assert not _per_part("iops_per_mailbox", 0.1, 0.2)


def test_every_disk_said_twice_with_two_counts_is_a_mismatch(pg_server, template_url):
    """oh_vendor-ra_a4_05 (SYNTHETIC, by other hands; planted): "over all 48 installed drives" (line 11) and
    "all 44 disks were zeroed" (line 41)."""
    from tests.helpers import audited

    findings = audited(pg_server, "alldisks", [FIXTURES / "other_hands" / "oh_vendor-ra_a4_05.txt"])
    found = [f for f in findings if f.kind == KIND]
    assert [(f.metric, f.verdict, sorted(f.inputs["lines"])) for f in found] == [("all_disks_stated", "mismatch", [11, 41])]
