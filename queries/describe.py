"""`schema(engine, name)`: the tables and views a reader may select, with their columns, types, keys
and the words the catalogue stores for each (PostgreSQL COMMENTs, revision 0020).

Read from the server's own catalogue (pg_class, pg_attribute, pg_constraint), never from the models:
what it lists is what `\\d+` in psql shows on the same database, views included, as the reader sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI's fast path reads the schema on a psycopg connection, without SQLAlchemy
    import psycopg
    from sqlalchemy import Engine

KINDS = {"v": "view", "r": "table", "p": "table", "m": "view", "f": "table"}

RELATIONS_SQL = """
SELECT c.relname, c.relkind::text, obj_description(c.oid, 'pg_class')
FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'v', 'p', 'm', 'f')
  AND has_table_privilege(c.oid, 'SELECT')
ORDER BY c.relkind <> 'v', c.relname
"""

COLUMNS_SQL = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, col_description(c.oid, a.attnum)
FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY(%(names)s)
ORDER BY c.relname, a.attnum
"""

# Primary keys and the key each foreign key column joins to.
KEYS_SQL = """
SELECT c.relname, a.attname, k.contype::text, fc.relname, fa.attname
FROM pg_constraint k
JOIN pg_class c ON c.oid = k.conrelid
CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, n)
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = u.attnum
LEFT JOIN pg_class fc ON fc.oid = k.confrelid
LEFT JOIN pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = k.confkey[u.n]
WHERE k.contype IN ('p', 'f') AND c.relnamespace = current_schema()::regnamespace AND c.relname = ANY(%(names)s)
ORDER BY k.contype DESC, k.conname, u.n
"""


class UnknownRelation(LookupError):
    """A name that is no table or view the reader may select; the message names the closest."""


@dataclass
class SchemaColumn:
    name: str
    type: str  # as PostgreSQL spells it: integer, double precision, text[], timestamp with time zone ...
    nullable: bool
    key: str  # "primary key", "→ runs.id", both, or "" (views have none: their comments name the join)
    comment: str | None


@dataclass
class Relation:
    name: str
    kind: str  # table | view
    comment: str | None
    columns: list[SchemaColumn] = field(default_factory=list)


def schema(engine: Engine, name: str | None = None) -> list[Relation]:
    """Every table and view the engine's role may select (views first), each with its columns; with
    `name` (a relation, or a canned query's name: per-disk-iops), that one only."""
    raw = engine.raw_connection()
    try:
        return schema_on(raw.driver_connection, name)  # type: ignore[arg-type]
    finally:
        raw.close()


def schema_on(conn: psycopg.Connection, name: str | None = None) -> list[Relation]:
    """`schema` on a psycopg connection; leaves it rolled back."""
    try:
        relations = [Relation(rel, KINDS[kind], words) for rel, kind, words in conn.execute(RELATIONS_SQL)]
        if name is not None:
            relations = [_one(relations, name)]
        by_name = {r.name: r for r in relations}
        names = {"names": list(by_name)}
        keys: dict[tuple[str, str], list[str]] = {}
        for rel, column, kind, target, target_column in conn.execute(KEYS_SQL, names):
            keys.setdefault((rel, column), []).append("primary key" if kind == "p" else f"→ {target}.{target_column}")
        for rel, column, type_, not_null, words in conn.execute(COLUMNS_SQL, names):
            key = ", ".join(dict.fromkeys(keys.get((rel, column), [])))
            by_name[rel].columns.append(SchemaColumn(column, type_, not not_null, key, words))
        return relations
    finally:
        conn.rollback()


def _one(relations: list[Relation], name: str) -> Relation:
    known = {r.name: r for r in relations}
    for candidate in (name, name.replace("-", "_"), name.lower().replace("-", "_")):
        if candidate in known:
            return known[candidate]
    from ..schema.keys import unknown_message

    raise UnknownRelation(unknown_message("table or view", name, known))
