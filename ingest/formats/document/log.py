"""A report's "Test Log" as printed in document text -> log events and thresholds.

PDF extraction runs entries together into paragraphs, wraps long ones, separates a wrapped tail
from its entry by a blank line ("…samples higher than" … "0."), and can interleave two text
columns on one line ("left column⇥right column", seed 000's HP log). The lines are cut into
one chunk per entry here; `log_events.parse_test_log_lines` then reads the entries, so the
events and thresholds are the ones the HTML parser gets from the same log.
"""

from __future__ import annotations

import re

from ...jetstress.dates import LOG_STAMP
from ...jetstress.log_events import parse_test_log_lines
from ...jetstress.records import LogEvent, Thresholds
from .lines import Line
from .reports import RawSection

# Where an entry starts: "M/D/YYYY h:mm:ss AM", not inside a longer number.
_ENTRY = LOG_STAMP
_FINISHED = re.compile(r"[.:)!?]\s*$")
LOOKBACK = 5  # how far back a dangling fragment may find the entry it completes


def _line_text(line: Line, interleaved: list[int]) -> str:
    """The line's log text; of two text columns side by side, the last (the clean one) is kept."""
    cells = [cell for cell in line.cells if cell]
    if line.separated and len(cells) >= 2 and _ENTRY.match(cells[-1]):
        interleaved.append(line.number)
        return cells[-1]
    return " ".join(cells)


def _unfinished(texts: list[str]) -> bool:
    """An entry whose message stops mid-sentence ("…samples higher than", "C:\\Program Files\\Exchange", "--")."""
    message = _ENTRY.sub("", " ".join(texts), count=1).strip()
    return message.endswith("--") or not _FINISHED.search(message)


def read_log(raw: RawSection, warnings: list[str]) -> tuple[list[LogEvent], Thresholds | None]:
    entries: list[tuple[int, list[str]]] = []  # (line of the timestamp, text pieces)
    interleaved: list[int] = []
    blank_before = False
    for line in raw.lines:
        if line.furniture:
            continue
        if line.blank or line.rule:
            blank_before = True
            continue
        text = _line_text(line, interleaved)
        stamps = list(_ENTRY.finditer(text))
        head = text[: stamps[0].start()] if stamps else text
        if head.strip():
            _attach(entries, head.strip(), line.number, blank_before, warnings)
        for stamp, following in zip(stamps, [*stamps[1:], None]):
            end = following.start() if following else len(text)
            entries.append((line.number, [text[stamp.start() : end].strip()]))
        blank_before = False
    if interleaved:
        first, last = interleaved[0], interleaved[-1]
        warnings.append(f"line {first}: Test Log: lines {first}–{last} hold two interleaved text columns; "
                        "only the last column of each line was read")
    return parse_test_log_lines(((number, " ".join(pieces)) for number, pieces in entries), split_inside_lines=True)


def _attach(entries: list[tuple[int, list[str]]], fragment: str, number: int, blank_before: bool,
            warnings: list[str]) -> None:
    """Text without a timestamp continues an entry: the last one, or an earlier one it visibly completes."""
    if not entries:
        entries.append((number, [fragment]))
        return
    target = len(entries) - 1
    if blank_before and not _unfinished(entries[target][1]):
        earlier = [i for i in range(target - 1, max(-1, target - 1 - LOOKBACK), -1) if _unfinished(entries[i][1])]
        if earlier:
            target = earlier[0]
            warnings.append(f"line {number}: Test Log: {fragment[:40]!r} completes the entry of line "
                            f"{entries[target][0]}; joined to it")
    entries[target][1].append(fragment)
