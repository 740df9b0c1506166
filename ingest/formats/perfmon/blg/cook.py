"""Cooking raw PDH counter values into the numbers perfmon shows, one counter type at a time.

Only counter types whose formula was confirmed by reproducing the values that PowerShell's
`Export-Counter` wrote from the same raw samples (fixtures/perfmon/real) are cooked; any
other type is refused by its winperf.h name, never guessed (see docs/blg-format.md).
"""

from __future__ import annotations

from collections.abc import Callable

# winperf.h building blocks (public Windows SDK constants)
_LARGE, _TYPE_COUNTER, _DECIMAL = 0x100, 0x400, 0x10000
_RATE, _FRACTION, _BASE, _ELAPSED, _QUEUELEN, _PRECISION = 0x10000, 0x20000, 0x30000, 0x40000, 0x50000, 0x70000
_100NS, _OBJECT_TIMER, _DELTA, _DELTA_BASE, _INVERSE, _MULTI = 0x100000, 0x200000, 0x400000, 0x800000, 0x1000000, 0x2000000
_PER_SEC, _PERCENT, _SECONDS, _NOSHOW = 0x10000000, 0x20000000, 0x30000000, 0x40000000

COUNTER_TYPES: dict[int, str] = {
    _TYPE_COUNTER | _RATE | _DELTA | _PER_SEC: "PERF_COUNTER_COUNTER",
    _LARGE | _TYPE_COUNTER | _RATE | _DELTA | _PERCENT: "PERF_COUNTER_TIMER",
    _TYPE_COUNTER | _QUEUELEN | _DELTA: "PERF_COUNTER_QUEUELEN_TYPE",
    _LARGE | _TYPE_COUNTER | _QUEUELEN | _DELTA: "PERF_COUNTER_LARGE_QUEUELEN_TYPE",
    _LARGE | _TYPE_COUNTER | _QUEUELEN | _100NS | _DELTA: "PERF_COUNTER_100NS_QUEUELEN_TYPE",
    _LARGE | _TYPE_COUNTER | _QUEUELEN | _OBJECT_TIMER | _DELTA: "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE",
    _LARGE | _TYPE_COUNTER | _RATE | _DELTA | _PER_SEC: "PERF_COUNTER_BULK_COUNT",
    0x800 | 0x300: "PERF_COUNTER_TEXT",
    _DECIMAL: "PERF_COUNTER_RAWCOUNT",
    _LARGE | _DECIMAL: "PERF_COUNTER_LARGE_RAWCOUNT",
    0: "PERF_COUNTER_RAWCOUNT_HEX",
    _LARGE: "PERF_COUNTER_LARGE_RAWCOUNT_HEX",
    _TYPE_COUNTER | _FRACTION | _DELTA | _DELTA_BASE | _PERCENT: "PERF_SAMPLE_FRACTION",
    _TYPE_COUNTER | _RATE | _DELTA: "PERF_SAMPLE_COUNTER",
    0x200 | _NOSHOW: "PERF_COUNTER_NODATA",
    _LARGE | _TYPE_COUNTER | _RATE | _DELTA | _INVERSE | _PERCENT: "PERF_COUNTER_TIMER_INV",
    _TYPE_COUNTER | _BASE | _NOSHOW | 1: "PERF_SAMPLE_BASE",
    _TYPE_COUNTER | _FRACTION | _SECONDS: "PERF_AVERAGE_TIMER",
    _TYPE_COUNTER | _BASE | _NOSHOW | 2: "PERF_AVERAGE_BASE",
    _LARGE | _TYPE_COUNTER | _FRACTION | _NOSHOW: "PERF_AVERAGE_BULK",
    _LARGE | _TYPE_COUNTER | _RATE | _OBJECT_TIMER | _DELTA | _PERCENT: "PERF_OBJ_TIME_TIMER",
    _LARGE | _TYPE_COUNTER | _RATE | _100NS | _DELTA | _PERCENT: "PERF_100NSEC_TIMER",
    _LARGE | _TYPE_COUNTER | _RATE | _100NS | _DELTA | _INVERSE | _PERCENT: "PERF_100NSEC_TIMER_INV",
    _LARGE | _TYPE_COUNTER | _RATE | _DELTA | _MULTI | _PERCENT: "PERF_COUNTER_MULTI_TIMER",
    _LARGE | _TYPE_COUNTER | _RATE | _DELTA | _MULTI | _INVERSE | _PERCENT: "PERF_COUNTER_MULTI_TIMER_INV",
    _LARGE | _TYPE_COUNTER | _BASE | _MULTI | _NOSHOW: "PERF_COUNTER_MULTI_BASE",
    _LARGE | _TYPE_COUNTER | _RATE | _100NS | _DELTA | _MULTI | _PERCENT: "PERF_100NSEC_MULTI_TIMER",
    _LARGE | _TYPE_COUNTER | _RATE | _100NS | _DELTA | _MULTI | _INVERSE | _PERCENT: "PERF_100NSEC_MULTI_TIMER_INV",
    _TYPE_COUNTER | _FRACTION | _PERCENT: "PERF_RAW_FRACTION",
    _LARGE | _TYPE_COUNTER | _FRACTION | _PERCENT: "PERF_LARGE_RAW_FRACTION",
    _TYPE_COUNTER | _BASE | _NOSHOW | 3: "PERF_RAW_BASE",
    _LARGE | _TYPE_COUNTER | _BASE | _NOSHOW: "PERF_LARGE_RAW_BASE",
    _LARGE | _TYPE_COUNTER | _ELAPSED | _OBJECT_TIMER | _SECONDS: "PERF_ELAPSED_TIME",
    _TYPE_COUNTER | _DELTA: "PERF_COUNTER_DELTA",
    _LARGE | _TYPE_COUNTER | _DELTA: "PERF_COUNTER_LARGE_DELTA",
    _LARGE | _TYPE_COUNTER | _PRECISION | _DELTA | _PERCENT: "PERF_PRECISION_SYSTEM_TIMER",
    _LARGE | _TYPE_COUNTER | _PRECISION | _100NS | _DELTA | _PERCENT: "PERF_PRECISION_100NS_TIMER",
    _LARGE | _TYPE_COUNTER | _PRECISION | _OBJECT_TIMER | _DELTA | _PERCENT: "PERF_PRECISION_OBJECT_TIMER",
}


def type_name(counter_type: int) -> str:
    """``PERF_AVERAGE_TIMER (0x30020400)``, or ``unknown counter type 0x…`` for a value winperf.h lacks."""
    name = COUNTER_TYPES.get(counter_type)
    return f"{name} (0x{counter_type:08x})" if name else f"unknown counter type 0x{counter_type:08x}"


# (first, second) raw values now and at the previous sample, the counter's time base -> value or None
Cook = Callable[[tuple[int, int], "tuple[int, int] | None", int], "float | None"]


def _rate(now, before, frequency):
    """(N1 - N0) / ((D1 - D0) / F): events per second; D is the performance counter, F its frequency."""
    if before is None:
        return None
    ticks = now[1] - before[1]
    count = now[0] - before[0]
    if ticks <= 0 or count < 0:
        return None
    return count / (ticks / frequency)


def _timer_100ns(now, before, frequency):
    """(N1 - N0) / (D1 - D0) × 100: busy share, both in 100 ns units."""
    if before is None:
        return None
    elapsed = now[1] - before[1]
    busy = now[0] - before[0]
    if elapsed <= 0 or busy < 0:
        return None
    return busy / elapsed * 100  # this order reproduces PDH's doubles bit for bit


def _timer_100ns_inverse(now, before, frequency):
    """100 × (1 - (N1 - N0) / (D1 - D0)): N counts idle time."""
    if before is None:
        return None
    elapsed = now[1] - before[1]
    idle = now[0] - before[0]
    if elapsed <= 0 or idle < 0:
        return None
    return 100 * (1 - idle / elapsed)


def _fraction(now, before, frequency):
    """N / D × 100 of the current sample alone."""
    return None if now[1] == 0 else now[0] / now[1] * 100  # this order reproduces PDH's doubles bit for bit


def _raw(now, before, frequency):
    return float(now[0])


# Confirmed against the CSV twin: each formula reproduces every value Export-Counter printed.
COOKS: dict[int, Cook] = {
    0x10410400: _rate,  # PERF_COUNTER_COUNTER: memory\cache faults/sec
    0x10410500: _rate,  # PERF_COUNTER_BULK_COUNT: network interface(*)\bytes total/sec
    0x21510500: _timer_100ns_inverse,  # PERF_100NSEC_TIMER_INV: processor(_total)\% processor time
    0x20570500: _timer_100ns,  # PERF_PRECISION_100NS_TIMER: physicaldisk(_total)\% disk time
    0x20020400: _fraction,  # PERF_RAW_FRACTION: memory\% committed bytes in use
    0x00010000: _raw,  # PERF_COUNTER_RAWCOUNT: physicaldisk(_total)\current disk queue length
}
