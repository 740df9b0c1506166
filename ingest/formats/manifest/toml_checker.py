"""Reading a TOML document into typed values while collecting every problem, not just the first.

Generic: knows TOML shapes (tables, arrays of tables, strings, integers, decimals, relative
paths), not what a manifest means; `ingest.formats.manifest` builds on it.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

_ABSOLUTE = re.compile(r"(?:[A-Za-z]:)?[\\/]")  # a path that is not relative to the manifest

def show_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return "a date/time"


class TomlChecker:
    """Reads a TOML document into records, noting every problem instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    # -- typed getters: return None (and note a problem) when a value is missing or wrong --

    def known_keys(self, table: dict[str, Any], path: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                where = f"{path}.{key}" if path else key
                self.problem(where, f"unknown key; allowed: {', '.join(sorted(allowed))}")

    def table(self, parent: dict[str, Any], key: str, path: str, *, required: bool = False) -> dict[str, Any] | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.problem(path, f"required table [{key}] is missing")
            return None
        if not isinstance(value, dict):
            self.problem(path, f"expected a table, got {kind_of(value)}")
            return None
        return value

    def array_of_tables(self, parent: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
        value = parent.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(key, f"expected an array of tables ([[{key}]]), got {kind_of(value)}")
            return []
        items = []
        for index, item in enumerate(value):
            if isinstance(item, dict):
                items.append((f"{key}[{index}]", item))
            else:
                self.problem(f"{key}[{index}]", f"expected a table, got {kind_of(item)}")
        return items

    def string(self, table: dict[str, Any], key: str, path: str, *, required: bool = False,
               choices: tuple[str, ...] | None = None) -> str | None:
        where = f"{path}.{key}"
        value = table.get(key)
        if value is None:
            if required:
                self.problem(where, "required")
            return None
        if not isinstance(value, str):
            self.problem(where, f"expected a string, got {kind_of(value)}")
            return None
        if not value.strip():
            self.problem(where, "must not be empty")
            return None
        if choices is not None and value not in choices:
            self.problem(where, f"{show_value(value)} is not one of {', '.join(choices)}")
            return None
        return value

    def integer(self, table: dict[str, Any], key: str, path: str, *, required: bool = False,
                minimum: int | None = None, maximum: int | None = None) -> int | None:
        where = f"{path}.{key}"
        value = table.get(key)
        if value is None:
            if required:
                self.problem(where, "required")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(where, f"expected an integer, got {kind_of(value)} {show_value(value)}")
            return None
        if minimum is not None and value < minimum or maximum is not None and value > maximum:
            bounds = f"at least {minimum}" if maximum is None else f"between {minimum} and {maximum}"
            self.problem(where, f"{value} is out of range; must be {bounds}")
            return None
        return value

    def decimal(self, table: dict[str, Any], key: str, path: str, *, required: bool = False,
                strings: bool = False, positive: bool = True) -> Decimal | None:
        """A TOML integer or float (or, with `strings`, a decimal string) as an exact Decimal."""
        where = f"{path}.{key}"
        value = table.get(key)
        if value is None:
            if required:
                self.problem(where, "required")
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) or isinstance(value, str) and not strings:
            wanted = "a number or a decimal string" if strings else "a number"
            self.problem(where, f"expected {wanted}, got {kind_of(value)} {show_value(value)}")
            return None
        try:
            if isinstance(value, str) and "_" in value:  # Decimal("1_000") is 1000: a typo read as a price
                raise InvalidOperation
            number = Decimal(value.strip() if isinstance(value, str) else str(value))
        except InvalidOperation:
            hint = " (write it without thousands separators or currency signs)" if isinstance(value, str) else ""
            self.problem(where, f"{show_value(value)} is not a decimal number{hint}")
            return None
        if not number.is_finite() or (number <= 0 if positive else number < 0):
            self.problem(where, f"{show_value(value)} must be {'greater than 0' if positive else 'at least 0'}")
            return None
        return number

    def path(self, table: dict[str, Any], key: str, path: str, *, required: bool = False,
             suffixes: tuple[str, ...] = ()) -> str | None:
        """A relative file path with forward slashes, as written."""
        value = self.string(table, key, path, required=required)
        if value is None:
            return None
        where = f"{path}.{key}"
        if "\\" in value:
            self.problem(where, f"{show_value(value)}: use forward slashes in paths")
        elif _ABSOLUTE.match(value):
            self.problem(where, f"{show_value(value)} is absolute; write the path relative to this manifest")
        elif suffixes and not value.lower().endswith(suffixes):
            self.problem(where, f"{show_value(value)} does not end in {' or '.join(suffixes)}")
        else:
            return value
        return None

    def labels(self, table: dict[str, Any], key: str, path: str) -> tuple[str, ...]:
        """A row label or a non-empty array of row labels."""
        value = table.get(key)
        if value is None:
            return ()
        where = f"{path}.{key}"
        items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
        if not items or not all(isinstance(item, str) and item.strip() for item in items):
            self.problem(where, "expected a row label as printed, or a non-empty array of row labels")
            return ()
        return tuple(items)

    # -- sections --
