"""What a power analyser's CSV becomes: its samples as printed (records only, so the package can name
what `parse` returns without loading the reader)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class PowerSample:
    timestamp: datetime  # as printed: naive local time, or aware when the file gives an offset
    watts: float | None  # None for a blank cell (dropped reading)


@dataclass(frozen=True)
class PowerLog:
    source_name: str
    timestamp_column: str  # header cells as printed
    watts_column: str
    columns: tuple[str, ...]
    samples: tuple[PowerSample, ...]

    @property
    def start(self) -> datetime | None:
        return self.samples[0].timestamp if self.samples else None

    @property
    def end(self) -> datetime | None:
        return self.samples[-1].timestamp if self.samples else None
