"""The answer keys are right: every key in the repository passes tests/key_checker.py, and the checker
catches each kind of wrong key (a figure off its runs, a sum off its rows, a planted inconsistency that
is not one, a line that does not print what the key says)."""

from __future__ import annotations

import copy
import json

import pytest

from tests.helpers import FIXTURES
from tests.key_checker import check_file, check_key, off_by_more_than_rounding, printed_number

FOLDERS = ("other_hands", "synthetic_documents", "unseen_families")
KEYS = sorted(k for folder in FOLDERS for k in (FIXTURES / folder).glob("*.key.json"))


@pytest.mark.parametrize("path", KEYS, ids=[k.name.removesuffix(".key.json") for k in KEYS])
def test_every_key_passes_the_checker(path):
    assert check_file(path) == []


def test_the_bench_has_thirty_documents_eight_per_family():
    keys = [json.loads(k.read_text(encoding="utf-8")) for k in (FIXTURES / "other_hands").glob("*.key.json")]
    families = {family: sum(1 for k in keys if k["family"] == family) for family in ("esrp", "vendor-ra", "third-party")}
    assert len(keys) >= 30 and min(families.values()) >= 8, families
    for key in keys:
        assert (FIXTURES / "other_hands" / key["document"]).exists(), key["document"]


def _lab() -> tuple[dict, str]:
    folder = FIXTURES / "synthetic_documents"
    return (json.loads((folder / "synth_third-party_train_003.key.json").read_text(encoding="utf-8")),
            (folder / "synth_third-party_train_003.txt").read_text(encoding="utf-8"))


def _problems(change) -> list[str]:
    key, text = _lab()
    changed = copy.deepcopy(key)
    change(changed)
    return check_key(changed, text)


def test_the_lab_key_is_right_before_any_change():
    key, text = _lab()
    assert check_key(key, text) == []


@pytest.mark.parametrize("change, expected", [
    (lambda k: k["figures"][2].__setitem__("value", k["figures"][2]["value"] * 1.05), "figure 3"),
    (lambda k: k["runs"][0].__setitem__("achieved_iops", k["runs"][0]["achieved_iops"] + 50), "is not reads"),
    (lambda k: k["systems"][0].__setitem__("spares", 3), "is not disks_active"),
    (lambda k: k["inconsistencies"][0].__setitem__("correct", 90.45), "nothing is wrong"),
    (lambda k: k["inconsistencies"][0].__setitem__("lines", [10**6]), "is not a line of the document"),
    (lambda k: k["claims"][1].__setitem__("printed", "97"), "is printed on none of lines"),
    (lambda k: k["claims"][1].__setitem__("status", "false"), "marked false"),
    (lambda k: k["runs"][0].__setitem__("verdict_by_rule", "Pass"), "verdict_by_rule Pass"),
    (lambda k: k["systems"][0].__setitem__("iops_per_mailbox", 150), "messages per day"),
], ids=["figure", "run-sum", "disks", "planted-not-wrong", "line", "printed", "status", "verdict", "ipm"])
def test_the_checker_catches_a_wrong_key(change, expected):
    problems = _problems(change)
    assert any(expected in p for p in problems), problems


def test_printed_numbers_in_every_grouping():
    assert printed_number("1,838.643") == (1838.643, 3)
    assert printed_number("1 873.221 IOPS") == (1873.221, 3)
    assert printed_number("1.873,2") == (1873.2, 1)
    assert printed_number("0,5") == (0.5, 1)
    assert printed_number("no digits") is None
    assert not off_by_more_than_rounding("94", 94.222)
    assert off_by_more_than_rounding("90.45", 94.222)
