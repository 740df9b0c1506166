"""The check at the boundary between parsing and loading: are the records what they claim?

Parsers are pure and typed, but a bug (or a future parser) can still put "1234.5" in a
float field or a negative rate in a record. This walks a record's dataclass fields against
their annotations and the non-negative rule before any SQL is issued, so such a record is
refused with the field's path instead of surfacing as a database error halfway through a file.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import types
import typing
from datetime import datetime
from decimal import Decimal
from typing import Callable

from .errors import ParseError

# Numeric fields that may be negative (offsets, signed differences); everything else measured is >= 0.
SIGNED_FIELDS = {"bias_minutes", "report_index"}

_SCALARS = (bool, int, float, str, datetime, Decimal)


def _allowed_types(annotation) -> tuple[type, ...] | None:
    """The scalar types an annotation admits (None when it is not a plain scalar annotation)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        allowed: list[type] = []
        for arg in typing.get_args(annotation):
            if arg is type(None):
                allowed.append(type(None))
            elif arg in _SCALARS:
                allowed.append(arg)
            elif typing.get_origin(arg) is typing.Literal:
                allowed.append(str)
            else:
                return None
        return tuple(allowed)
    if annotation in _SCALARS:
        return (annotation,)
    if origin is typing.Literal:
        return (str,)
    return None


@functools.lru_cache(maxsize=None)
def _field_rules(cls: type) -> tuple[Callable[[object], tuple], tuple[tuple[str, tuple[type, ...] | None], ...]]:
    """(a getter of every checked field's value at once, (field name, admitted scalar types or None) per
    field), resolved once per record class."""
    hints = typing.get_type_hints(cls)
    rules = []
    for field in dataclasses.fields(cls):
        if field.metadata.get("loaded", True) is False:
            continue  # a parser's working material, not written as it is (see its field)
        allowed = _allowed_types(hints.get(field.name))
        if allowed is not None and float in allowed:
            allowed = (*allowed, int)  # an int is a fine float
        rules.append((field.name, allowed))
    names = [name for name, _ in rules]
    getter = operator.attrgetter(*names) if len(names) > 1 else (
        (lambda record: (getattr(record, names[0]),)) if names else (lambda record: ()))
    return getter, tuple(rules)


_RECORD_TYPES: dict[type, bool] = {}  # by a value's type: is it a record (a dataclass instance) to walk into


def _is_record(value) -> bool:
    """dataclasses.is_dataclass, decided once per type: a document holds ~12,000 records and lists."""
    kind = type(value)
    known = _RECORD_TYPES.get(kind)
    if known is None:
        if issubclass(kind, type):  # a class as a value: is_dataclass asks of the class itself
            return dataclasses.is_dataclass(value)
        known = _RECORD_TYPES[kind] = dataclasses.is_dataclass(kind)
    return known


def problems(record, path: str = "") -> list[str]:
    """Every field whose value contradicts its annotation, is a negative measure or is not finite."""
    found: list[str] = []
    if _is_record(record):
        _walk(record, (path,), found)
    return found


def _walk(record, path: tuple, found: list[str]) -> None:
    """The path is kept as parts and joined only for a problem: most records have none."""
    getter, rules = _field_rules(typing.cast(type, type(record)))
    for (name, allowed), value in zip(rules, getter(record)):
        kind = type(value)
        if allowed is not None:
            if kind in allowed:  # the common case, decided by exact type (a bool is not an int here)
                if kind is float and not math.isfinite(value):
                    found.append(f"{''.join(path)}{name}: {value!r} is not a finite number")
                elif (kind is int or kind is float) and value < 0 and name not in SIGNED_FIELDS:
                    found.append(f"{''.join(path)}{name}: {value!r} is negative")
                continue
            where = f"{''.join(path)}{name}"
            if isinstance(value, bool) and bool not in allowed:
                found.append(f"{where}: {value!r} is a boolean, expected {' or '.join(t.__name__ for t in allowed)}")
            elif not isinstance(value, allowed):
                names = " or ".join(t.__name__ for t in allowed if t is not type(None)) or "None"
                found.append(f"{where}: {value!r} is a {type(value).__name__}, expected {names}")
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0 \
                    and name not in SIGNED_FIELDS:
                found.append(f"{where}: {value!r} is negative")
        elif kind is list or kind is tuple or isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                if _is_record(item):
                    _walk(item, (*path, name, f"[{index}]."), found)
        elif _is_record(value):
            _walk(value, (*path, name, "."), found)


def check(name: str, record) -> None:
    """Raise one ParseError listing every problem; called before the loader opens a transaction."""
    found = problems(record)
    if found:
        shown = found[:10] + ([f"… and {len(found) - 10} more"] if len(found) > 10 else [])
        raise ParseError(name, "the parsed record fails its sanity check: " + "; ".join(shown))
