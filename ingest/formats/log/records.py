"""What a Jetstress text log becomes: its timed events and the thresholds it states (records only, so the
package can name what `parse` returns without loading the reader)."""

from __future__ import annotations

from dataclasses import dataclass

from ...jetstress.records import LogEvent, Thresholds


@dataclass
class JetstressLog:
    source_name: str
    events: list[LogEvent]
    thresholds: Thresholds | None
