"""What a PDH export's header and rows are: its columns' counter paths, its header, its rows (records
only, shared with the BLG reader, so naming them loads no reader)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

Row = tuple[datetime, list[float | None]]

_INSTANCE_INDEX = re.compile(r"(.*)#(\d+)")


@dataclass(frozen=True)
class CounterPath:
    r"""``\\machine\object(instance)\counter``; `instance` is the whole text in parentheses."""

    machine: str | None
    object: str
    instance: str | None
    counter: str

    @property
    def parent(self) -> str | None:
        """``JetstressWin`` in ``JetstressWin/Instance524.1``."""
        return self.instance.split("/", 1)[0] if self.instance and "/" in self.instance else None

    @property
    def instance_name(self) -> str | None:
        """The instance without parent and ``#index``: ``Instance524.1``, ``svchost``."""
        if self.instance is None:
            return None
        name = self.instance.split("/", 1)[1] if self.parent is not None else self.instance
        match = _INSTANCE_INDEX.fullmatch(name)
        return match.group(1) if match else name

    @property
    def instance_index(self) -> int | None:
        """1 in ``svchost#1`` (PDH numbers duplicate instance names)."""
        match = _INSTANCE_INDEX.fullmatch(self.instance or "")
        return int(match.group(2)) if match else None

    def __str__(self) -> str:
        machine = f"\\\\{self.machine}" if self.machine is not None else ""
        instance = f"({self.instance})" if self.instance is not None else ""
        return f"{machine}\\{self.object}{instance}\\{self.counter}"


@dataclass(frozen=True)
class PerfmonHeader:
    banner: str  # first header cell as printed
    pdh_format: str  # "PDH-CSV 4.0" | "PDH-TSV 4.0"
    time_zone_name: str | None  # "Eastern Daylight Time"; None for typeperf
    bias_minutes: int | None  # UTC = local + bias; None when the banner has no zone
    assumed_utc: bool  # True when the banner has no zone and timestamps were taken as UTC
    separator: str  # "," or "\t"
    encoding: str  # "utf-8", "utf-8-sig", "utf-16-le", "utf-16-be"
    line: int  # line number of the header (2 for typeperf, after its blank line)
