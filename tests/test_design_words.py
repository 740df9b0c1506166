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


def test_a_release_before_hosts_is_not_a_count():
    assert "servers" not in _read("Three physical Hyper-V hosts each run one Exchange 2010 Mailbox VM.")


@pytest.mark.parametrize(("label", "fact"), [
    ("Databases (each 2 TB volume)", "databases"),
    ("Host connectivity", "connectivity"),
    ("Storage Connectivity (Fiber Channel, SAS, SATA,", "connectivity"),
    ("Host connection", "connectivity"),
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
