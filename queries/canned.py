"""Canned queries: named SQL views in `queries/*.sql`, readable without Python.

Each file opens with a comment block (`-- title:`, `-- description:`, `-- column NAME:`) and
then creates one view; each migration that changes a view runs a frozen copy of its file
(migrations/views_00NN/), so psql users and the CLI see the same numbers. The views read the
per-run figures stored at ingest, whose arithmetic lives beside them in `run_figures.sql` (frozen
the same way, as migrations/run_figures_00NN.sql). `esrpdb query NAME --param column=value` filters a view by equality,
the value read as the column's type (queries/params.py) so the filter reaches the indexes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..schema.vocabulary import DISK_BASES
from .params import BadValue, convert

if TYPE_CHECKING:  # `query --list` reads the files without a database library
    import psycopg
    from sqlalchemy import Engine

    from .adhoc import QueryResult

QUERIES_DIR = Path(__file__).resolve().parent

_META = re.compile(r"^--\s*(title|description|column\s+(\w+))\s*:\s*(.*)$")


class UnknownQuery(LookupError):
    pass


class BadParameter(ValueError):
    pass


@dataclass
class CannedQuery:
    name: str  # CLI name, e.g. "per-disk-iops"
    view: str  # SQL view, e.g. "per_disk_iops"
    title: str
    description: str
    columns: dict[str, str] = field(default_factory=dict)
    sql: str = ""


def _parse(path: Path) -> CannedQuery:
    """Name, title and column notes from the file's opening comment block."""
    query = CannedQuery(name=path.stem.replace("_", "-"), view=path.stem, title="", description="")
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("--"):
            break
        match = _META.match(line)
        if match:
            key, column, value = match.groups()
            if column:
                query.columns[column] = value.strip()
                current = None
            else:
                setattr(query, key, value.strip())
                current = key if key == "description" else None
        elif current == "description":
            query.description += " " + line.lstrip("- ").strip()
    query.sql = path.read_text(encoding="utf-8")
    return query


_TITLED = re.compile(r"^--\s*title\s*:", re.MULTILINE)
_COMMENT = re.compile(r"--[^\n]*")


def view_order(folder: Path = QUERIES_DIR) -> tuple[str, ...]:
    """Every canned view, each after the views its SQL reads, else by name: derived from the files, so a
    new canned query is its file alone. A canned view is a `*.sql` file here whose comment block gives
    a title (run_figures.sql and the other stored figures' functions give none)."""
    texts = {path.stem: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.sql"))}
    bodies = {name: _COMMENT.sub("", text) for name, text in texts.items() if _TITLED.search(text)}
    reads = {name: {other for other in bodies if other != name and re.search(rf"\b{other}\b", body)}
             for name, body in bodies.items()}
    order: list[str] = []
    while len(order) < len(reads):
        ready = [name for name in sorted(reads) if name not in order and reads[name] <= set(order)]
        if not ready:
            raise ValueError(f"canned views that read each other: {sorted(set(reads) - set(order))}")
        order.append(ready[0])
    return tuple(order)


def all_queries() -> dict[str, CannedQuery]:
    """Every canned query, in view creation order (view_order)."""
    return {q.name: q for q in (_parse(QUERIES_DIR / f"{view}.sql") for view in view_order())}


def get(name: str) -> CannedQuery:
    queries = all_queries()
    key = name.replace("_", "-")
    if key not in queries:
        from ..schema.keys import unknown_message

        raise UnknownQuery(unknown_message("canned query", name, queries))
    return queries[key]


def query(engine: Engine, name: str, params: dict[str, str] | None = None) -> QueryResult:
    """Rows of a canned query, filtered by `column = value` (typed) for each parameter."""
    raw = engine.raw_connection()
    try:
        return query_on(raw.driver_connection, name, params)  # type: ignore[arg-type]
    finally:
        raw.close()


def query_on(conn: psycopg.Connection, name: str, params: dict[str, str] | None = None) -> QueryResult:
    """`query` on a psycopg connection (the CLI's fast path needs no SQLAlchemy); leaves it rolled back."""
    from .adhoc import QueryResult

    canned = get(name)
    try:
        # The columns and their types; a one-solution function has the view's (planning it costs less).
        function = _one_solution(canned, params or {})
        probe = conn.execute(f"SELECT * FROM {function}(NULL) LIMIT 0" if function else
                             f"SELECT * FROM {canned.view} LIMIT 0")
        sql, values = _filtered(canned, [(d.name, d.type_code) for d in probe.description], params or {})
        result = conn.execute(sql, values)
        rows = [tuple(r) for r in result]
        if not rows:
            _check_keys(conn, canned, params or {})
        return QueryResult(columns=[d.name for d in result.description], rows=rows)
    finally:
        conn.rollback()


# Columns whose values name something: a value that names nothing is a mistake, not "no rows".
KEY_DOMAINS = {
    "solution": "SELECT key FROM solutions",
    "trial": "SELECT DISTINCT label FROM trials",
    "disk_basis": f"SELECT unnest(ARRAY[{', '.join(repr(basis) for basis in DISK_BASES)}])",
    "scope": "SELECT DISTINCT scope FROM latencies",
    "run_id": "SELECT id::text FROM runs",
    "mailbox_class": "SELECT label FROM mailbox_classes",
}


def _check_keys(conn: psycopg.Connection, canned: CannedQuery, params: dict[str, str]) -> None:
    """Only when a filter found no row (no cost otherwise): an unknown key is an error naming the closest."""
    for column, value in params.items():
        domain = KEY_DOMAINS.get(column)
        if domain is None:
            continue
        # the value alone first (the solutions' key index answers it); every key only to name the closest
        if conn.execute(f"SELECT EXISTS (SELECT 1 FROM ({domain}) AS d (v) WHERE v::text = %s)", (value,)).fetchone()[0]:
            continue
        known = [str(v) for (v,) in conn.execute(domain)]
        if value not in known:
            from ..schema.keys import unknown_message  # the error path only: the fast path stays light

            raise BadParameter(f"{canned.name}: " + unknown_message(column.replace("_", " "), value, known))


# Views whose rows for one solution a function computes without reading the whole view (a rank in a
# class is 1 + the count of better rows, read from an index: queries/mailbox_class_ranks_of.sql, revision 0024).
ONE_SOLUTION = {"mailbox_class_ranks": "mailbox_class_ranks_of"}


def _one_solution(canned: CannedQuery, params: dict[str, str]) -> str | None:
    """The function that gives the view's rows of the solution filtered on, if the view has one."""
    return ONE_SOLUTION.get(canned.view) if "solution" in params else None

# Rows in the order a person reads them: classes smallest first and best first within one, then by key.
LISTING_ORDER = ("mailbox_class_order", "total_iops_rank", "solution", "trial", "run_label", "run_id", "disk_basis",
                 "scope")


def _filtered(canned: CannedQuery, description: list[tuple[str, int]], params: dict[str, str]) -> tuple[str, dict]:
    """The view's SELECT with one typed `column = value` per parameter, in the listing order."""
    types = dict(description)
    columns = [name for name, _ in description]
    unknown = [p for p in params if p not in columns]
    if unknown:
        raise BadParameter(f"{canned.name} has no column {', '.join(unknown)}; columns: {', '.join(columns)}")
    values = {}
    for n, (column, value) in enumerate(params.items()):
        try:
            values[f"p{n}"] = convert(types.get(column), value)
        except BadValue as error:
            shown = repr(value) if len(value) <= 40 else f"{value[:40]!r}… ({len(value):,} characters)"
            raise BadParameter(f"{canned.name}: {column} is {error}; got {shown}") from None
    where = " AND ".join(f"{c} = %(p{n})s" for n, c in enumerate(params))
    function = _one_solution(canned, params)  # the same rows, without ranking every class
    source = f"{function}(%(p{list(params).index('solution')})s)" if function else canned.view
    sql = f"SELECT * FROM {source}" + (f" WHERE {where}" if where else "")
    order = [c for c in LISTING_ORDER if c in columns]
    if order:
        sql += " ORDER BY " + ", ".join(f"{c} NULLS LAST" for c in order)
    return sql, values
