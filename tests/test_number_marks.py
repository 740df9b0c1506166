"""A document that writes decimals with a comma ("1.221,8 IOPS") is read as if it wrote "1,221.8", its
table cells too, a unit's letter glued to the number ("7,2K" drives, "1,2TB") included. The lines are
written here (SYNTHETIC); the expected cells are the printed ones with their marks swapped.
"""

from __future__ import annotations

import pytest

from esrpdb.ingest.formats.document.lines import split_lines
from esrpdb.ingest.formats.document.number_marks import comma_decimal, with_decimal_points

LINES = """Profile: 6.000 mailboxes of 4 GB, 0,10 IOPS per mailbox.
Achieved IOPS     776,0 IOPS   762,8 IOPS   1.221,8 IOPS
DB read latency      16,5 ms      16,2 ms      9,7 ms
Eskilde NA-440   24 x 6,0 TB   7,2K NL-SAS   RAID 10   144.000
Orrin Data OD-9   48 x 1,8TB   10K SAS   RAID 10   86.400
"""


def _cells(text: str) -> list[str]:
    lines = split_lines(text, [])
    assert comma_decimal(lines, set())
    return [cell for line in with_decimal_points(lines, set()) for cell in line.cells]


@pytest.mark.parametrize("printed, read", [("24 x 6,0 TB", "24 x 6.0 TB"), ("7,2K NL-SAS", "7.2K NL-SAS"),
                                           ("48 x 1,8TB", "48 x 1.8TB"), ("144.000", "144,000"),
                                           ("1.221,8 IOPS", "1,221.8 IOPS"), ("10K SAS", "10K SAS")])
def test_a_number_with_a_units_letter_glued_to_it_is_rewritten_with_the_others(printed, read):
    cells = _cells(LINES)
    assert printed not in cells or printed == read
    assert read in cells


def test_words_with_digits_are_never_numbers_to_rewrite():
    cells = _cells(LINES + "Models R2,0X and 4,5GBX stay as printed   1,5 ms\n")
    assert any("R2,0X" in cell and "4,5GBX" in cell for cell in cells) and "1.5 ms" in cells
