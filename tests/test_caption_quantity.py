"""A table of systems as rows whose caption names the quantity and whose headings only qualify it
("Power (watts)": "System | Under load | While idle"): each system's figures are read as if every heading
said the quantity. The documents are written here (SYNTHETIC, made-up systems); expected watts are the
cells as printed, parsed by the code's own number reader.
"""

from __future__ import annotations

import re

import pytest

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.jetstress.vocabulary import parse_number

HEAD = """Exchange 2016 storage compared: Alder A-10 and Birch B-20

Both systems were tested with Jetstress 2016 for 5,000 mailboxes.

Table 1 - Systems
System        Alder A-10      Birch B-20
Disks         24 x 1.2TB 10K SAS   12 x 4TB 7.2K NL-SAS

"""
POWER = """Table 2 - Power (watts)

System        Under   While
               load    idle
Alder A-10    1,210     980
Birch B-20      655     540
"""


def _power(text: str) -> dict[str, dict[str, float]]:
    drafted = draft_document(document_text.parse("paper.txt", text.encode()))
    return {s.name: {c.metric: parse_number(c.value) for c, _, _ in s.claims if c.metric in ("idle_power", "active_power")}
            for s in drafted.systems}


@pytest.mark.parametrize("form", ["spaces", "tabs", "crlf"])
def test_a_captions_quantity_qualified_by_its_headings_is_each_systems_figure(form):
    power = re.sub(r" {2,}", "\t", POWER) if form == "tabs" else POWER
    text = HEAD + power
    text = text.replace("\n", "\r\n") if form == "crlf" else text
    table = next(t for t in document_text.parse("paper.txt", text.encode()).tables if "Power" in t.title)
    cells = {column: [row.values[index] for row in table.rows] for index, column in enumerate(table.columns)}
    found = _power(text)
    for system, (active, idle) in cells.items():
        owner = next(name for name in found if system in name or name in system)
        assert found[owner] == {"active_power": parse_number(active), "idle_power": parse_number(idle)}


def test_headings_that_name_their_own_quantity_are_read_as_printed():
    """The caption's quantity is not pressed on headings that say theirs ("Disks", "Usable TB")."""
    text = HEAD + POWER.replace("Table 2 - Power (watts)", "Table 2 - Power and capacity") \
        .replace("Under   While", "Disks   Usable").replace("load    idle", "       TB")
    table = next(t for t in document_text.parse("paper.txt", text.encode()).tables if "capacity" in t.title)
    assert not any(" – " in column or " – " in row.label for column in table.columns for row in table.rows)
