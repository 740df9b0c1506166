"""A table's "Total" column against the hosts' figures beside it (audit/findings/column_sums.py).

The document is a bench document by other hands (fixtures/other_hands/oh_vendor-ra_a3_01, SYNTHETIC;
planted by its author: Table 5's baseline total 2,895.5 achieved IOPS is not the sum of the three hosts'
942.7 + 929.5 + 927.8, line 117); the rebuild table's total (Table 6, line 130) adds up and is no finding.
"""

from __future__ import annotations

import pytest

from tests.helpers import FIXTURES, audited


@pytest.fixture(scope="module")
def a3_01(pg_server, template_url):
    return audited(pg_server, "columns", [FIXTURES / "other_hands" / "oh_vendor-ra_a3_01.txt"])


def test_a_total_column_that_is_not_its_rows_sum_is_a_mismatch(a3_01):
    found = [f for f in a3_01 if f.kind == "table_sum" and f.verdict == "mismatch"]
    assert [(f.line, f.printed) for f in found] == [(117, "2,895.5")]
    assert found[0].recomputed == pytest.approx(2800.0) and "MBX1" in found[0].explanation


def test_a_total_column_that_adds_up_is_no_finding(a3_01):
    assert not [f for f in a3_01 if f.kind == "table_sum" and f.line == 130 and f.verdict != "match"]
