"""Units as a closed vocabulary: every measure column ends in one of these suffixes.

Conversions take their base explicitly, because the seeds' "GB" is 2^30 bytes while
disk vendors' is 10^9: the catalogue records which one a figure used instead of guessing.
"""

from __future__ import annotations

from typing import Literal

# suffix -> what it means
UNIT_SUFFIXES: dict[str, str] = {
    "_ms": "milliseconds",
    "_s": "seconds",
    "_minutes": "minutes",
    "_bytes": "bytes",
    "_mb": "megabytes (2^20 bytes)",
    "_per_s": "events per second",
    "_iops": "I/O operations per second",
    "_per_mailbox": "I/O operations per second per mailbox",
    "_percent": "percent (0-100)",
    "_w": "watts",
    "_amount": "money, with a sibling _currency column",
    "_rpm": "revolutions per minute",
}

LatencyUnit = Literal["ms", "s"]
LATENCY_TO_MS: dict[str, float] = {"ms": 1.0, "s": 1000.0}

BINARY_GB_BYTES = 2**30
DECIMAL_GB_BYTES = 10**9
MB_BYTES = 2**20


def latency_ms(value: float | None, unit: str) -> float | None:
    """Convert a latency printed in `unit` to milliseconds; unknown units are an error."""
    if value is None:
        return None
    try:
        factor = LATENCY_TO_MS[unit]
    except KeyError:
        raise ValueError(f"unknown latency unit {unit!r}; known: {', '.join(LATENCY_TO_MS)}") from None
    return value * factor


def gigabytes_to_bytes(gigabytes: float, *, base: Literal["binary", "decimal"]) -> int:
    if base not in ("binary", "decimal"):
        raise ValueError(f"unknown gigabyte base {base!r}; known: binary, decimal")
    return round(gigabytes * (BINARY_GB_BYTES if base == "binary" else DECIMAL_GB_BYTES))
