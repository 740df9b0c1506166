"""A table printed one cell a line: each label on a line, its value on the next ("Exchange mailboxes
simulated" / "9000"), as an extractor prints a two-column table it reads cell by cell.

Such a block is told by its shape, never its words: it follows a caption ("Table 1 – …") and runs
to a blank line (where none closes it, as far as its pairs hold, to a figure); its lines pair up, no
label is a number, and many values are (a paragraph wrapped over lines has no numbers in every other
line). Each pair becomes the row a tab-separated extraction prints, cited on the value's line; the
value's own line is left blank. Pure.
"""

from __future__ import annotations

import re

from .lines import Line
from .wrapped_grids import is_number

MIN_PAIRS = 2
NUMERIC_VALUES = 0.4  # of the values, at least, start with a digit
_STARTS_WITH_DIGIT = re.compile(r"[\d$]")


def _pairs(labels: list[Line], values: list[Line]) -> bool:
    if any(is_number(label.text) or label.text.endswith(".") for label in labels):
        return False
    numeric = sum(1 for value in values if _STARTS_WITH_DIGIT.match(value.text))
    return numeric >= NUMERIC_VALUES * len(values)


def _head(block: list[int], lines: list[Line]) -> list[int]:
    """The block's longest leading run of pairs that ends on a figure (or none): where no blank line closes
    the table (a PDF prints no gap between its last row and the text after it), it is read as far as its
    pairs hold. A figure ends the run, so a short heading and the prose under it are never taken for a
    row. One pass: a label that fails `_pairs` fails every longer run."""
    head: list[int] = []
    numeric = 0
    for at in range(0, len(block) - 1, 2):
        label, value = lines[block[at]].text, lines[block[at + 1]].text
        if is_number(label) or label.endswith("."):
            break
        figure = bool(_STARTS_WITH_DIGIT.match(value))
        numeric += figure
        pairs = at // 2 + 1
        if figure and pairs >= MIN_PAIRS and numeric >= NUMERIC_VALUES * pairs:
            head = block[:at + 2]
    return head


def paired_lines(lines: list[Line], consumed: set[int], caption: re.Pattern[str]) -> list[Line]:
    """`lines` with each label/value block under a `caption` line joined into rows (see the module docstring)."""
    result = list(lines)
    index = 0
    while index < len(lines):
        if index in consumed or lines[index].separated or not caption.match(lines[index].text):
            index += 1
            continue
        cursor = index + 1
        while cursor < len(lines) and lines[cursor].blank:
            cursor += 1
        whole = []
        while cursor < len(lines) and cursor not in consumed and not lines[cursor].blank \
                and not lines[cursor].separated and not caption.match(lines[cursor].text):
            whole.append(cursor)
            cursor += 1
        # a value may look like a page number ("1" under "Servers per DAG"): tried with such lines, then without
        block = next((b for b in (whole, [i for i in whole if not lines[i].furniture], _head(whole, lines))
                      if len(b) >= 2 * MIN_PAIRS and len(b) % 2 == 0
                      and _pairs([lines[i] for i in b[::2]], [lines[i] for i in b[1::2]])), None)
        if block is not None:
            for label_at, value_at in zip(block[::2], block[1::2]):
                value = lines[value_at]
                result[label_at] = Line(value.number, (lines[label_at].text, value.text), separated=True)
                result[value_at] = Line(value.number, ())
        index = max(cursor, index + 1)
    return result
