"""Units as a closed vocabulary: every measure column ends in one of these suffixes.

Conversions take their base explicitly, because the seeds' "GB" is 2^30 bytes while
disk vendors' is 10^9: the catalogue records which one a figure used instead of guessing.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Literal, get_args

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
LATENCY_UNITS: tuple[str, ...] = get_args(LatencyUnit)
LATENCY_TO_MS: dict[str, float] = {"ms": 1.0, "s": 1000.0}

# Size prefixes: a unit is a power of its base, and the base is always said (GB of 2^30 or 10^9 bytes).
SIZE_UNITS: dict[str, int] = {"B": 0, "KB": 1, "MB": 2, "GB": 3, "TB": 4}  # unit -> power of the base
SIZE_BASES: dict[str, int] = {"binary": 1024, "decimal": 1000}


def latency_ms(value: float | None, unit: str) -> float | None:
    """Convert a latency printed in `unit` to milliseconds; unknown units are an error."""
    if value is None:
        return None
    try:
        factor = LATENCY_TO_MS[unit]
    except KeyError:
        raise ValueError(f"unknown latency unit {unit!r}; known: {', '.join(LATENCY_TO_MS)}") from None
    return value * factor


def size_factor(unit: str, base: str) -> int:
    """Bytes in one `unit` (B, KB, MB, GB, TB) of prefix `base` (binary: 2^10 steps; decimal: 10^3)."""
    return SIZE_BASES[base] ** SIZE_UNITS[unit]


def size_in_bytes(value: Decimal, unit: str, base: str) -> int:
    """``value`` ``unit`` in bytes, rounded half-even; the prefix base is an argument, never guessed."""
    return int((value * size_factor(unit, base)).to_integral_value(rounding=ROUND_HALF_EVEN))
