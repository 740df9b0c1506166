"""Tables for a terminal: headers in words with units, numbers never split, text wrapped between
words; when the columns cannot share the terminal's width, the columns that fit are shown (in their
order, the others named on standard error: `--columns` chooses, csv and json give all), and only when
not even two fit is each row printed as a block of `header: value` lines. Piped or redirected, titles
flush left and a table wider than PIPED_MAX_WIDTH written one record per block, so no line runs to
thousands of characters and no value is cut or left out.

Rich folds any cell to make a table fit; for a number that is worse than useless (5239.76
printed as `523`/`9.7`/`6`), so number columns never wrap.
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
    cells = [[Text(text_of(v)) for v in row] for row in rows]
    minimum = [_minimum_column_width(header, [row_cells[i].plain for row_cells in cells], numeric[i])
               for i, header in enumerate(headers)]
    kept = _columns_that_fit(minimum, console.width)
    if len(kept) < min(2, len(headers)):  # not even two columns: a block per row
        _print_vertical(console, headers, cells, title)
        return
    # Text, never markup: a value such as `[/x]` or `[[disks]]` is shown as it is.
    table = Table(title=Text(title) if title else None, show_lines=False, title_justify="left" if piped else "center")
    natural = [max([len(headers[i]), *(len(line) for row_cells in cells for line in row_cells[i].plain.split("\n"))])
               for i in kept]
    widths = _share_width([minimum[i] for i in kept], natural, console.width - 1 - 3 * len(kept))
    for index, column_width in zip(kept, widths):
        # Numbers right-aligned, never narrower than the longest; text wrapped between words (rich is given
        # each width: left to itself it crops a wide table at the edge instead).
        table.add_column(Text(headers[index]), justify="right" if numeric[index] else "left", overflow="fold",
                         width=column_width)
    for row_cells in cells:
        table.add_row(*(row_cells[i] for i in kept))
    console.print(table)
    if not rows:
        console.print("(no rows)")
    if len(kept) < len(headers):
        import sys

        left_out = [columns[i] for i in range(len(columns)) if i not in kept]
        sys.stderr.write(printable(
            f"note: {len(left_out)} of {len(columns)} columns left out to fit {console.width} characters: "
            f"{', '.join(left_out)} (--columns NAME,… chooses; --format csv or json gives all)") + "\n")


def _minimum_column_width(header: str, texts: list[str], is_number: bool) -> int:
    """A number column: its longest number; a text column: its longest word, at most MAX_WORD_WIDTH
    (either at least its header's longest word)."""
    header_word = max((len(w) for w in header.split()), default=1)  # rich never breaks a header's word
    if is_number:
        return max([header_word, *(len(t) for t in texts)])
    return min(max([header_word, *(len(w) for t in texts for w in t.split())]), MAX_WORD_WIDTH)


def _share_width(minimum: list[int], natural: list[int], room: int) -> list[int]:
    """Each column's width: its minimum, then what is left shared out, the columns that want least
    first, none past its natural (widest line) width."""
    widths = list(minimum)
    room -= sum(minimum)
    wanting = sorted(range(len(widths)), key=lambda i: natural[i] - minimum[i])
    for position, index in enumerate(wanting):
        share = room // (len(wanting) - position) if room > 0 else 0
        grant = max(min(natural[index] - minimum[index], share), 0)
        widths[index] += grant
        room -= grant
    return widths


def _columns_that_fit(minimum: list[int], width: int) -> list[int]:
    """The columns, in their order, that fit `width` at their minimum widths with borders and padding
    (each column costs 3 more: its border and a space either side; the table 1): a column that does
    not fit is left out and the next ones are still tried."""
    kept: list[int] = []
    used = 1
    for index, least in enumerate(minimum):
        if used + least + 3 <= width:
            kept.append(index)
            used += least + 3
    return kept


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
