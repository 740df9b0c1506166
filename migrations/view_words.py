"""A canned view created from its frozen copy, with the words its own header gives (a revision's helper).

A canned view's file opens with `-- title:`, `-- description:` (continued on `--   ` lines) and a
`-- column NAME:` note per column. A revision that creates a view newer than revision 0020's words
(schema/comments.py VIEWS) runs `create_view(MIGRATIONS / "views_00NN" / "name.sql")`: the view, then
COMMENT ON the view (its description) and on each column (its note), all from the frozen copy, so what
the revision writes never changes after it is written. schema.comments gives the same words for such a
view from the live file. Imported by revisions: nothing here but the standard library and alembic.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

_META = re.compile(r"^--\s*(title|description|column\s+(\w+))\s*:\s*(.*)$")


def header_words(sql: str) -> tuple[str | None, dict[str, str]]:
    """(the view's words: its description, else its title; each column's note) from the comment block."""
    title = description = None
    columns: dict[str, str] = {}
    current = None
    for line in sql.splitlines():
        if not line.startswith("--"):
            break
        match = _META.match(line)
        if match:
            key, column, value = match.groups()
            current = None
            if column:
                columns[column] = value.strip()
            elif key == "title":
                title = value.strip()
            else:
                description, current = value.strip(), "description"
        elif current == "description" and description is not None:
            description += " " + line.lstrip("- ").strip()
    return description or title, columns


def _literal(words: str) -> str:
    """A SQL string literal, colons escaped for SQLAlchemy's text() (which reads `:name` as a parameter)."""
    return "'" + words.replace("'", "''").replace(":", "\\:") + "'"


def statements(path: Path) -> list[str]:
    """The view's CREATE, then a COMMENT for it and for each column its header notes."""
    sql = path.read_text(encoding="utf-8")
    words, columns = header_words(sql)
    if words is None:
        raise ValueError(f"{path}: a canned view's file opens with its title and description")
    name = path.stem
    return [sql, f"COMMENT ON VIEW {name} IS {_literal(words)}",
            *(f"COMMENT ON COLUMN {name}.{column} IS {_literal(note)}" for column, note in columns.items())]


def create_view(path: Path, execute: Callable[..., Any] | None = None) -> None:
    """Run `statements(path)` through alembic's `op.execute` (or `execute`, given)."""
    import sqlalchemy as sa

    if execute is None:
        from alembic import op

        execute = op.execute
    sql, *comments = statements(path)
    execute(sa.text(sql.replace(":", "\\:")))
    for comment in comments:
        execute(sa.text(comment))
