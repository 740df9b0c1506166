"""Document text -> numbered, cleaned lines: the layer every reader of ESRP/whitepaper text uses.

Text extracted from PDFs arrives as plain text or Markdown: tab-separated table rows, Markdown
pipe tables, columns aligned with runs of spaces, ``**bold**``/``<b>``/``<u>`` markup, escaped
underscores, running page headers and footers. Each source line becomes one `Line` with its
cells cleaned of markup; line numbers stay those of the file, so every warning can name one.
Pure: bytes or text in, lines out; work per line is bounded.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .furniture import mark_furniture
from .line import Line, made_line
from .markup import MARKUP, clean

MAX_LINE_CHARS = 100_000  # a longer line is read up to here (a whole test log fits easily)

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_RULE_CELL = re.compile(r":?-{3,}:?|={3,}|_{3,}|\*{3,}")
_RULE_MARKS = frozenset(":-=_*")  # what every _RULE_CELL match starts with
_WIDE_GAP = re.compile(r"\S\s{2,}\S")


_ALIGNED_CELL = re.compile(r"\S+(?: \S+)*")


def _split(raw: str) -> tuple[list[str], bool, tuple[int, ...]]:
    stripped = raw.strip()
    if "\t" in raw:
        return raw.rstrip("\r\n").split("\t"), True, ()
    if stripped.startswith("|") or stripped.count(" | ") >= 2:
        cells = stripped.split("|")
        if cells and not cells[0].strip():
            cells = cells[1:]
        if cells and not cells[-1].strip():
            cells = cells[:-1]
        return cells, len(cells) > 1, ()
    # (ASCII text with no control character holds no whitespace but the space: two of them or no wide gap)
    if ("  " in stripped or not stripped.isascii() or not stripped.isprintable()) and _WIDE_GAP.search(stripped):
        found = list(_ALIGNED_CELL.finditer(raw.replace("\xa0", " ")))
        return [m[0] for m in found], True, tuple(m.start() for m in found)
    indent = len(raw) - len(raw.lstrip(" "))
    if indent >= ALIGNED_INDENT:  # a header's word under its column ("(median)"), a cell's wrapped words
        return [raw], False, (indent,)
    return [raw], False, ()


_LONE_HEADER_WORD = re.compile(r"\(?[A-Za-z][A-Za-z.]*(?: [A-Za-z.]+)?\)?")
_CAPTION_CELL = re.compile(r"(?:figure|fig\.|table|exhibit)\s+\d+[a-z]?[:.]?", re.IGNORECASE)


def make_line(number: int, raw: str) -> Line:
    heading = 0
    match = _HEADING.match(raw) if "#" in raw else None  # (each pattern asked only when its mark is there)
    if match:
        heading, raw = len(match[1]), raw[match.end() :]
    if ("```" in raw or "~~~" in raw) and _FENCE.match(raw):
        return Line(number, ())
    stripped = raw.strip()
    # A plain prose line (most lines): no tab or pipe, ASCII with no control character and no space doubled (no
    # whitespace but single spaces: no wide gap), no markup; what _split and clean make of it is its stripped text,
    # its indent kept as they keep it (each asked once, not once by each: 40 PDFs' 25,000 such lines, 17 -> 0 ms)
    if "\t" not in raw and "|" not in stripped and "  " not in stripped and stripped.isascii() \
            and stripped.isprintable() and not MARKUP.search(stripped):
        indent = len(raw) - len(raw.lstrip(" "))
        rule = bool(stripped) and stripped[0] in _RULE_MARKS and _RULE_CELL.fullmatch(stripped) is not None
        return made_line(number, (stripped,) if stripped else (), False, rule, heading, False,
                         (indent,) if indent >= ALIGNED_INDENT else (), stripped)
    parts, separated, starts = _split(raw)
    if len(parts) == 1 and not separated:  # a prose line (most of them): what the lines below make of one cell
        cell = clean(parts[0])
        rule = bool(cell) and cell[0] in _RULE_MARKS and _RULE_CELL.fullmatch(cell) is not None
        return made_line(number, (cell,) if cell else (), False, rule, heading, False, starts, cell)
    if separated and _CAPTION_CELL.fullmatch(parts[0].strip()) and len([p for p in parts if p.strip()]) == 2:
        parts, separated, starts = [" ".join(p.strip() for p in parts if p.strip())], False, ()  # "Table 1⇥Arrays"
    cells = tuple([clean(part) for part in parts])
    rule = any(cells) and all(cell[0] in _RULE_MARKS and _RULE_CELL.fullmatch(cell) for cell in cells if cell)
    if not separated:
        cells = (cells[0],) if cells and cells[0] else ()
    return made_line(number, cells, separated, bool(rule), heading, False, starts)


# What word processors put in a PDF's text and an extractor passes on: ligature glyphs ("Database
# ﬁles", "Log buﬀers") become their letters; soft hyphens and zero-width spaces vanish.
TYPOGRAPHY = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st", "\u00ad": None, "\u200b": None, "\ufeff": None})
# str.translate looks every character up in the table (40 ms for a 200-page volume); the few there are
# are found at C speed instead and replaced one by one.
_TYPOGRAPHIC = re.compile("[" + "".join(map(chr, TYPOGRAPHY)) + "]")


def _plain(match: re.Match[str]) -> str:
    return TYPOGRAPHY[ord(match[0])] or ""


def split_lines(text: str, warnings: list[str], page_lines: tuple[int, ...] | list[int] = ()) -> list[Line]:
    """Numbered, cleaned lines; an overlong line is read up to MAX_LINE_CHARS, with a warning. `page_lines`:
    the line numbers a PDF's pages start on (form feeds mark them in a text)."""
    lines = []
    text = _TYPOGRAPHIC.sub(_plain, text)
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        if len(raw) > MAX_LINE_CHARS:
            warnings.append(f"line {number}: line is {len(raw):,} characters long; only the first "
                            f"{MAX_LINE_CHARS:,} were read")
            raw = raw[:MAX_LINE_CHARS]
        lines.append(make_line(number, raw.replace("\f", " ")))
    paged = {n for n, raw in enumerate(text.split("\n")) if raw.startswith("\f")} if "\f" in text else set()
    starts = sorted(paged | {n - 1 for n in page_lines if 1 < n <= len(lines)})  # (a text with no form feed: no split)
    return mark_furniture(align_indented(lines), starts)


# --- columns aligned with spaces -----------------------------------------------------

ALIGN_LOOKBACK = 3  # non-blank lines back to the row whose columns an indented row follows
ALIGNED_INDENT = 8  # spaces before a lone short cell that stands under a column of the table around it


def _columns_of(cells: tuple[int, ...], columns: tuple[int, ...]) -> list[int]:
    """The column of each cell: the nearest column start, in order (two cells never share a column)."""
    found: list[int] = []
    for start in cells:
        best = min(range(len(columns)), key=lambda j: (abs(columns[j] - start), j))
        found.append(max(best, found[-1] + 1) if found else best)
    return found


def align_indented(lines: list[Line]) -> list[Line]:
    """A space-aligned row that starts indented (its first cells are empty: a header over its table, a
    header's second line, a row's wrapped cells) gets its empty cells back from the columns of the
    aligned row above it, else below it, as a tab-separated row keeps them. `lines`: those split_lines has just made."""
    result = list(lines)
    filled = [bool(line.text) for line in lines]  # a line aligned below keeps its text: asked once a line
    widths = [len(line.starts) for line in lines]  # result's, as its rows take their columns
    for index, line in enumerate(lines):
        if not line.starts or line.starts[0] == 0 or \
                max(widths[max(0, index - 2 * ALIGN_LOOKBACK) : index + 1 + 2 * ALIGN_LOOKBACK]) <= widths[index]:
            continue  # (the last: only a line with more cells can lend it columns, and none near has more)
        above = [result[n] for n in range(max(0, index - 2 * ALIGN_LOOKBACK), index) if filled[n]][-ALIGN_LOOKBACK:]
        while above and not all(n.starts for n in above):  # never across a caption or prose: another table's rows
            above = above[1:]
        below = [lines[n] for n in range(index + 1, min(len(lines), index + 1 + 2 * ALIGN_LOOKBACK)) if filled[n]]
        below = below[:ALIGN_LOOKBACK]
        # the row above it (a wrapped row), else the rows below it (a header over its table)
        candidates = [n for n in [*reversed(above), *below]
                      if len(n.starts) > len(line.starts) and n.starts[0] < line.starts[0]]
        # a header line above that starts a column at every place this one does (a narrow header's words
        # one space apart hide a column start in the line just above: "Writes/sec Reads"), else the nearest
        exact = [n for n in candidates if any(n is a for a in above)  # (by identity: a line below is never equal
                 and set(line.starts) <= set(n.starts)]                  # to one above, their numbers differ)
        grid = max(exact, key=lambda n: len(n.starts)) if exact else next(iter(candidates), None)
        if grid is None:
            continue
        if len(line.starts) == len(grid.starts) - 1:
            columns = list(range(1, len(grid.starts)))  # all but the first: the label column is the one left empty
        else:
            columns = _columns_of(line.starts, grid.starts)
        if columns[-1] >= len(grid.starts) or columns[0] == 0:
            continue
        cells = [""] * (columns[-1] + 1)
        for column, cell in zip(columns, line.cells):
            cells[column] = cell
        result[index] = replace(line, cells=tuple(cells), starts=tuple(grid.starts[c] for c in range(len(cells))),
                                separated=True)
        widths[index] = len(cells)
    # an indented line no table's columns took is prose: its indent marks no column. (Its starts dropped in place: the
    # lines split_lines has just made, no one else's, 15,700 of them not made again; a cell of two spaces or more is no
    # lone header word, and not matched: 26 -> 4 ms for 40 PDFs)
    for line in result:
        if line.starts and not line.separated and \
                not (line.cells and line.cells[0].count(" ") < 2 and _LONE_HEADER_WORD.fullmatch(line.cells[0])):
            line.__dict__["starts"] = ()
    return result


# --- document title ------------------------------------------------------------------

_TITLE_WORDS = re.compile(r"exchange|jetstress|esrp", re.IGNORECASE)
# The first section's heading or a line of running text: where a title block printed with no blank line ends.
_SECTION_START = re.compile(r"(?:\d+(?:\.\d+)*\.?\s+)?(?:executive\s+summary|summary|introduction|abstract|overview|"
                            r"(?:table\s+of\s+)?contents|background|audience|purpose|scope)\b", re.IGNORECASE)


# Legal text names the vendor but never the system: a copyright line, a disclaimer, a trademark notice.
LEGAL = re.compile(r"©|\(c\)\s*\d{4}|\bcopyright\b|all rights reserved|trademarks?\b|written permission|"
                   r"strictly (?:forbidden|prohibited)|\bdisclaim|\bwarrant(?:y|ies)\b|without notice|\bliabilit", re.IGNORECASE)


# What every LEGAL match holds, lowered: "(c)" of "(C) 2012", "copyright" of "Copyright"...
_LEGAL_WORDS = ("©", "(c)", "copyright", "all rights reserved", "trademark", "written permission", "strictly", "disclaim",
                "warrant", "without notice", "liabilit")


def _is_legal(text: str) -> bool:
    """LEGAL's search (case-insensitive, ~0.3 µs a character), asked only where the lowered text holds one of
    its words: exact where lowering keeps each character in place and no "ı" or "ſ" (which match "i" and "s")
    is printed; any other text is searched whole."""
    low = text.lower()
    if len(low) == len(text) and "ı" not in text and "ſ" not in text and not any(word in low for word in _LEGAL_WORDS):
        return False
    return LEGAL.search(text) is not None


def document_title(lines: list[Line]) -> str | None:
    """The title block at the top: a Markdown heading, else the first block naming Exchange/Jetstress/ESRP."""
    blocks: list[list[Line]] = []
    current: list[Line] = []
    for line in lines[:200]:
        if line.blank or line.furniture or (line.heading and current):  # a heading opens a block (a PDF's
            if current:                                                  # paragraphs may print no blank line)
                blocks.append(current)
                current = []
            if len(blocks) >= 3:
                break
            if line.blank or line.furniture:
                continue
        current.append(line)
    if current and len(blocks) < 3:
        blocks.append(current)
    # never a copyright or disclaimer line (a PDF may print one in the title's block: no blank line between),
    # looked for line by line only when the blocks' lines joined show one (a line's match is one there too)
    if _is_legal("\n".join(line.text for block in blocks for line in block)):
        blocks = [kept for block in blocks if (kept := [line for line in block if not _is_legal(line.text)])]
    if blocks and len(blocks[0]) > 5:  # a PDF that prints no blank line: the title ends where the text begins
        head = next((i for i, line in enumerate(blocks[0]) if _SECTION_START.match(line.text) or len(line.text) > 80), None)
        if head:  # and starts at the line naming the product's use, not at a letterhead above it
            first = next((i for i, line in enumerate(blocks[0][:head]) if _TITLE_WORDS.search(line.text)), 0)
            blocks[0] = blocks[0][first:head]
    longest = [8 if i == 0 else 5 for i in range(len(blocks))]  # a title page's lines, a block's lines after it
    candidates = [block for block, most in zip(blocks, longest)
                  if len(block) <= most and all(len(line.text) <= 200 for line in block)]
    for block in candidates:
        heading = next((line for line in block if 0 < line.heading <= 2), None)
        if heading:
            return heading.text
    for block in candidates:
        if any(_TITLE_WORDS.search(line.text) for line in block):
            return " ".join(line.text for line in block)
    return " ".join(line.text for line in candidates[0]) if candidates else None
