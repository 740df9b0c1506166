"""One source line of a document: its number in the file and its cleaned cells (`Line`), and a quick maker.

What every reader of a document's text works on (lines.py makes them, furniture.py marks the page furniture
among them, the readers of reports and tables read them). Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass

from .once import computed_once


@dataclass(frozen=True)
class Line:
    """One source line: its number in the file and its cleaned cells (a prose line has one cell)."""

    number: int
    cells: tuple[str, ...]
    separated: bool = False  # cells came from tabs, pipes or runs of spaces
    rule: bool = False  # a drawn separator row ("---", "|---|---|")
    heading: int = 0  # Markdown heading level
    furniture: bool = False  # running page header or footer, page number
    starts: tuple[int, ...] = ()  # where each cell starts on the line, for columns aligned with spaces

    @computed_once
    def text(self) -> str:
        if len(self.cells) == 1:  # a prose line's one cell is its text (empty or not)
            return self.cells[0]
        return " ".join(cell for cell in self.cells if cell)

    @property
    def blank(self) -> bool:
        return not self.text

    @property
    def first(self) -> str:
        return self.cells[0] if self.cells else ""

    def joined(self, sep: str) -> str:
        return sep.join(cell for cell in self.cells if cell)


_new = object.__new__


def made_line(number: int, cells: tuple[str, ...], separated: bool = False, rule: bool = False, heading: int = 0,
              furniture: bool = False, starts: tuple[int, ...] = (), text: str | None = None) -> Line:
    """`Line(...)`, its fields written straight into its __dict__: a frozen dataclass's __init__ sets each
    through object.__setattr__ (2.0 µs a line, 0.65 µs this way; ~50,000 lines for 40 PDFs). `text`: the
    line's text where the caller knows it (a prose line's one cell), kept as `Line.text` would work it out."""
    line = _new(Line)
    fields = line.__dict__
    fields["number"], fields["cells"], fields["separated"], fields["rule"] = number, cells, separated, rule
    fields["heading"], fields["furniture"], fields["starts"] = heading, furniture, starts
    if text is not None:
        fields["text"] = text
    return line
