"""Tables for a terminal: headers in words with units, numbers never split, a vertical layout
when the columns cannot fit the width; piped or redirected, titles flush left and a table wider
than PIPED_MAX_WIDTH written one record per block, so no line runs to thousands of characters.

Rich folds any cell to make a table fit; for a number that is worse than useless (5239.76
printed as `523`/`9.7`/`6`), so number columns never wrap, and when they and the text columns'
longest words cannot share the width, each row is printed as a block of `header: value` lines.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Sequence, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .safe_text import printable

MAX_WORD_WIDTH = 24  # a longer word (a path, a URL) may fold
_WORDS = {"iops": "IOPS", "kiops": "kIOPS", "mb": "MB", "gb": "GB", "db": "DB", "cpu": "CPU", "ese": "ESE"}
_UNITS = {"ms": "ms", "w": "W", "bytes": "bytes", "percent": "%", "s": "s", "mb": "MB", "pct": "%"}


def header_words(column: str) -> str:
    """`achieved_iops_per_disk` → `achieved IOPS/disk`; `read_latency_ms` → `read latency (ms)`."""
    tokens = column.split("_")
    if tokens[0] == "is" and len(tokens) > 1:
        return " ".join(_WORDS.get(t, t) for t in tokens[1:]) + "?"
    unit = None
    if len(tokens) > 1 and tokens[-1] in _UNITS and tokens[-2] != "per":
        unit = _UNITS[tokens.pop()]
    words: list[str] = []
    for token in tokens:
        if words and words[-1] == "per":
            words[-1] = "/"
            words.append(_WORDS.get(token, _UNITS.get(token, token)))
        else:
            words.append(_WORDS.get(token, token))
    text = " ".join(words).replace(" / ", "/")
    return f"{text} ({unit})" if unit else text


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


PIPED_MAX_WIDTH = 200  # piped or redirected, a wider table is written one record per block
RICH_ROW_LIMIT = 5_000  # beyond this, rich's per-cell objects cost more memory than the rows themselves


def print_table(columns: Sequence[str], rows: list[Sequence[Any]], text_of: Callable[[Any], str], *,
                title: str | None, out: TextIO, width: int | None) -> None:
    """`width` None: the terminal's on a terminal; piped, as wide as the widest row, so no value is cut."""
    numeric = [bool(rows) and all(_is_number(r[i]) or r[i] is None for r in rows) for i in range(len(columns))]
    headers = [printable(header_words(c)) for c in columns]
    title = printable(title) if title else None
    if len(rows) > RICH_ROW_LIMIT:
        _print_plain(out, headers, [[text_of(v) for v in row] for row in rows], numeric, title)
        return
    piped = width is None and not out.isatty()
    if piped:
        widths = [max((len(text_of(r[i])) for r in rows), default=0) for i in range(len(columns))]
        width = max(80, sum(max(w, len(h)) + 3 for w, h in zip(widths, headers)) + 1)
        if width > PIPED_MAX_WIDTH:  # a 2,000-character line serves neither `less` nor `grep`
            _print_records(out, headers, [[text_of(v) for v in row] for row in rows], title)
            return
    console = Console(file=out, width=width)
    # Text, never markup: a value such as `[/x]` or `[[disks]]` is shown as it is.
    table = Table(title=Text(title) if title else None, show_lines=False, title_justify="left" if piped else "center")
    cells = [[Text(text_of(v)) for v in row] for row in rows]
    for index, (header, is_number) in enumerate(zip(headers, numeric)):
        texts = [row_cells[index].plain for row_cells in cells]
        if is_number:  # never narrower than its longest number
            table.add_column(Text(header), justify="right", overflow="fold",
                             min_width=max((len(t) for t in texts), default=1))
        else:  # wrapped between words, never narrower than a longish word
            longest_word = max((len(w) for t in [header, *texts] for w in t.split()), default=1)
            table.add_column(Text(header), overflow="fold", min_width=min(longest_word, MAX_WORD_WIDTH))
    for row_cells in cells:
        table.add_row(*row_cells)
    if _minimum_width(console, table) <= console.width:
        console.print(table)
    else:
        _print_vertical(console, headers, cells, title)
    if not rows:
        console.print("(no rows)")


def _minimum_width(console: Console, table: Table) -> int:
    """Columns at their minimum widths plus borders and padding (rich would squeeze below min_width)."""
    edges = len(table.columns) + 1
    padding = 2 * len(table.columns)
    return sum(c.min_width or 1 for c in table.columns) + edges + padding


def _print_vertical(console: Console, headers: list[str], cells: list[list[Text]], title: str | None) -> None:
    if title:
        console.print(Text(title, style="bold"))
    for number, row_cells in enumerate(cells, 1):
        block = Table(box=None, show_header=False, padding=(0, 1))
        block.add_column(no_wrap=True, style="bold")
        block.add_column(overflow="fold")
        for header, cell in zip(headers, row_cells):
            block.add_row(Text(header), cell)
        console.print(Text(f"— row {number} —", style="dim"))
        console.print(block)


def _print_plain(out: TextIO, headers: list[str], texts: list[list[str]], numeric: list[bool],
                 title: str | None) -> None:
    """A long result as aligned plain lines, written row by row: every value whole, memory bounded by
    the rows themselves (the caller's row cap), not by a rich object per cell."""
    widths = [max([len(h), *(len(row[i]) for row in texts)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells, widths, numeric)).rstrip()

    if title:
        out.write(title + "\n")
    out.write(line(headers) + "\n" + "  ".join("-" * w for w in widths) + "\n")
    for row in texts:
        out.write(line(row) + "\n")


def _print_records(out: TextIO, headers: list[str], texts: list[list[str]], title: str | None) -> None:
    """Piped rows too wide for a line: one block per row, `header: value` a line, every value whole
    (a value's own line breaks are kept, indented under it)."""
    width = max((len(h) for h in headers), default=0)
    if title:
        out.write(title + "\n")
    for number, row in enumerate(texts, 1):
        out.write(f"-- row {number} --\n")
        for header, value in zip(headers, row):
            out.write(f"{header.ljust(width)}  {value.replace(chr(10), chr(10) + ' ' * (width + 2))}".rstrip() + "\n")
    if not texts:
        out.write("(no rows)\n")
