"""Jetstress and the Windows tools around it print local US dates ("9/18/2008 2:54:59 PM").

Test logs, power logs and perfmon exports all read them; the pattern of a log timestamp and the
fields-to-datetime step (12-hour clock, fractions, impossible dates) live here once.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

# "M/D/YYYY h:mm:ss AM", as a test log prints it; the fields as groups (month, day, year, hour,
# minute, second, A/P), and the same pattern without groups, to embed in other patterns.
US_STAMP_FIELDS = r"(\d{1,2})/(\d{1,2})/(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*([AaPp])[Mm]"
US_STAMP = US_STAMP_FIELDS.replace("(", "(?:")
# A log timestamp anywhere but inside a longer number ("Test Log10/5/2008 …" in PDF text); group 1 is the stamp.
LOG_STAMP = re.compile(rf"(?<![\d/])({US_STAMP})(?!\w)")


def us_datetime(month: str | int, day: str | int, year: str | int, hour: str | int, minute: str | int,
                second: str | int, fraction: str | None = None, half: str | None = None, *,
                zone: tzinfo | None = None) -> datetime | None:
    """The moment the printed fields name; None for an impossible one (13 PM, February 30).

    `half` is "AM"/"PM" (any case, or just "A"/"P") for the 12-hour clock, None for 24 hours;
    `fraction` the digits after the seconds' point.
    """
    hour_24 = int(hour)
    if half is not None:
        if not 1 <= hour_24 <= 12:
            return None
        hour_24 = hour_24 % 12 + (12 if half[:1].lower() == "p" else 0)
    micro = int(fraction.ljust(6, "0")) if fraction else 0
    try:
        return datetime(int(year), int(month), int(day), hour_24, int(minute), int(second), micro, zone)
    except ValueError:
        return None
