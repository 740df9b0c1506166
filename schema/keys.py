"""Keys a person types (solutions, queries, metrics): checked against the catalogue, closest first.

A misspelt key must never look like an empty answer: `compare nosuch hp-eva4400` is an error
naming what was given and what exists, not a table of blanks.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:  # the fast paths (sql, query) check keys without importing SQLAlchemy
    from sqlalchemy import Engine


class UnknownKey(LookupError):
    """A key that names nothing; the message lists the closest existing keys first."""


def closest(given: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """Keys containing what was typed first (`md1220` → `dell-powervault-md1220`), then similar ones."""
    known = list(known)
    lowered = given.casefold()
    containing = [k for k in known if lowered and lowered in k.casefold()]
    similar = difflib.get_close_matches(given, known, n=limit, cutoff=0.5)
    return list(dict.fromkeys(containing + similar))[:limit]


def unknown_message(kind: str, given: str, known: Iterable[str], *, shown: int = 12) -> str:
    known = sorted(known)
    if not known:
        return f"unknown {kind} {given!r}; the catalogue has none yet"
    near = closest(given, known)
    ordered = near + [k for k in known if k not in near]
    listed = ", ".join(ordered[:shown]) + (f", … ({len(ordered) - shown} more)" if len(ordered) > shown else "")
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return f"unknown {kind} {given!r}{hint}; known: {listed}"


def require(kind: str, given: str, known: Iterable[str]) -> None:
    known = list(known)
    if given not in known:
        raise UnknownKey(unknown_message(kind, given, known))


def solution_keys(engine: Engine) -> list[str]:
    from sqlalchemy import text

    with engine.connect() as conn:
        return list(conn.execute(text("SELECT key FROM solutions ORDER BY key")).scalars())


def require_solutions(engine: Engine, *keys: str) -> None:
    """Every key names a solution, else UnknownKey for the first that does not."""
    known = solution_keys(engine)
    for key in keys:
        require("solution", key, known)
