"""`--param column=value`: the value read as the column's own type, so the filter can use indexes.

Comparing `CAST(column AS text)` matched any type but hid every index behind the cast; a
value converted here is bound with its type and PostgreSQL pushes `column = value` down into
the view to the base table's index.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Callable

TRUE_WORDS = {"true", "t", "yes", "y", "on", "1"}
FALSE_WORDS = {"false", "f", "no", "n", "off", "0"}
INTEGER = re.compile(r"[+-]?[0-9]+")  # not Python's int(): no "1_000"


class BadValue(ValueError):
    """The text cannot be read as the column's type; the message says what was expected."""


def _boolean(value: str) -> bool:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise BadValue("a boolean (true/false, yes/no, 1/0)")


def _integer_within(bits: int) -> Callable[[str], int]:
    """An integer the column's type holds: a longer one matches nothing, and Python refuses to read
    one of over 4,300 digits with a ValueError of its own."""
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1

    def read(value: str) -> int:
        digits = value.strip()
        if not INTEGER.fullmatch(digits):
            raise BadValue("an integer")
        if len(digits.lstrip("+-").lstrip("0")) > len(str(high)) or not low <= int(digits) <= high:
            raise BadValue(f"an integer from {low:,} to {high:,}")
        return int(digits)

    return read


def _double(value: str) -> float:
    try:
        return float(value.strip())
    except ValueError:
        raise BadValue("a number") from None


def _numeric(value: str) -> Decimal:
    try:
        number = Decimal(value.strip())
    except InvalidOperation:
        raise BadValue("a number") from None
    if not number.is_finite():
        raise BadValue("a finite number")
    return number


def _timestamp(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadValue("a date and time (YYYY-MM-DD HH:MM:SS)") from None


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise BadValue("a date (YYYY-MM-DD)") from None


# PostgreSQL type OIDs (pg_type.oid, stable across versions) -> how to read the text.
CONVERTERS: dict[int, Callable[[str], Any]] = {
    16: _boolean,
    20: _integer_within(64), 21: _integer_within(16), 23: _integer_within(32),
    700: _double, 701: _double,
    1700: _numeric,
    1114: _timestamp, 1184: _timestamp,
    1082: _date,
}


def convert(type_oid: int | None, value: str) -> Any:
    """`value` as the Python object of the column's type; text and unknown types stay text."""
    reader = CONVERTERS.get(type_oid or 0)
    return value if reader is None else reader(value)
