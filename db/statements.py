"""A fixed statement that runs on SQLAlchemy or on psycopg alone, written once with `:name` parameters.

`esrpdb ingest FILE` writes through psycopg alone (db/sessions.py): importing SQLAlchemy, its dialects
and the tables was ~0.2 s of a 0.5 s command (issue 46). The library and the tests write through
SQLAlchemy. Every statement of a document's write is therefore one `Sql`: SQLAlchemy gets it as `text()`
(made on first use, so psycopg's path never imports SQLAlchemy) and psycopg as `%(name)s` placeholders,
found by the very rule SQLAlchemy's `text()` uses, so both send the server the same statement.
"""

from __future__ import annotations

import re
from typing import Any

# SQLAlchemy's own rule for a bound parameter in text() (sqlalchemy.sql.elements.TextClause): a `:name`
# not after a colon, a word character or a backslash (`::` casts and `\:` escapes are not parameters).
_PARAMETER = re.compile(r"(?<![:\w\x5c]):(\w+)(?!:)", re.UNICODE)
_ESCAPED_COLON = re.compile(r"\\:")


class Sql:
    """One statement's text, with its SQLAlchemy and psycopg forms made on first use."""

    __slots__ = ("source", "_text", "_with_parameters", "_without_parameters")

    def __init__(self, source: str) -> None:
        self.source = source
        self._text: Any = None
        self._with_parameters: str | None = None
        self._without_parameters: str | None = None

    def __repr__(self) -> str:
        return f"Sql({self.source[:60]!r}…)" if len(self.source) > 60 else f"Sql({self.source!r})"

    def for_sqlalchemy(self) -> Any:
        """The statement as SQLAlchemy's `text()`."""
        if self._text is None:
            from sqlalchemy import text

            self._text = text(self.source)
        return self._text

    def for_psycopg(self, parameters: bool) -> str:
        """The statement as psycopg takes it: with parameters, `%(name)s` placeholders and `%` doubled;
        without, as written (psycopg reads no placeholder in a statement sent without parameters)."""
        if parameters:
            if self._with_parameters is None:
                escaped = self.source.replace("%", "%%")
                self._with_parameters = _ESCAPED_COLON.sub(":", _PARAMETER.sub(r"%(\1)s", escaped))
            return self._with_parameters
        if self._without_parameters is None:
            self._without_parameters = _ESCAPED_COLON.sub(":", self.source)
        return self._without_parameters

    def parameter_names(self) -> list[str]:
        return _PARAMETER.findall(self.source)
