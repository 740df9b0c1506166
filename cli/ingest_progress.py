"""What a person watching `esrpdb ingest` on a terminal plans with: files and pages done, pages per
second, and the time left. Pure: the command keeps the counts and shows the line.

The time left is the time so far scaled by the bytes still to go: a folder's sizes are known before
any file is read (pages only once a PDF is opened), and a PDF's reading time follows its size
closely enough for a person to plan by (a file skipped as already ingested makes the first estimate
short; it corrects itself file by file).
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_SECONDS_FOR_RATE = 0.25  # before this, a rate is noise (a folder of small PDFs is done in a second or two)


@dataclass
class IngestProgress:
    files_total: int
    bytes_total: int
    files_done: int = 0
    bytes_done: int = 0
    pages_done: int = 0

    def record(self, size_bytes: int, pages: int | None) -> None:
        self.files_done += 1
        self.bytes_done += size_bytes
        self.pages_done += pages or 0


def seconds_left(progress: IngestProgress, elapsed_s: float) -> float | None:
    """The time left at the pace so far, by bytes; None until there is a pace to go by."""
    if elapsed_s < MIN_SECONDS_FOR_RATE or progress.bytes_done <= 0:
        return None
    return max(progress.bytes_total - progress.bytes_done, 0) * elapsed_s / progress.bytes_done


def clock(seconds: float) -> str:
    """1:05 for 65 s, 1:02:03 past an hour."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def progress_line(progress: IngestProgress, elapsed_s: float) -> str:
    """'120/300 files, 2,740 pages, 46 pages/s, 1:12 left' (pages while any PDF has been read)."""
    parts = [f"{progress.files_done}/{progress.files_total} files"]
    if progress.pages_done:
        parts.append(f"{progress.pages_done:,} pages")
        if elapsed_s >= MIN_SECONDS_FOR_RATE:
            parts.append(f"{progress.pages_done / elapsed_s:,.0f} pages/s")
    left = seconds_left(progress, elapsed_s)
    if left is not None and progress.files_done < progress.files_total:
        parts.append(f"{clock(left)} left")
    return ", ".join(parts)
