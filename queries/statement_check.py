"""An ad-hoc statement read by PostgreSQL's own parser (pglast) before it is sent: what it is, what it may not do.

The server is the boundary: the reader's limits are its role's, and the functions and languages that
could change them are not the reader's to call (db/roles.py). This check answers first, in words, and
holds on a server esrpdb does not administer too, where those grants may be missing. pglast is
imported by `check` alone, so only `esrpdb sql` pays for it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator

COPY_REFUSED = ("COPY is not run by `esrpdb sql`: select the rows with `--format csv` (CSV of every row), or use "
                "psql's \\copy with the URL `esrpdb db url --reader` prints")
WHAT_RUNS = "`esrpdb sql` runs one query that returns rows (SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN)"
FIXED = "the reader's role and limits (memory, temporary files, time) are fixed for every statement"

# Statements that return rows, and those the read-only transaction refuses in words of its own.
QUERY, EXPLAIN, SHOW, WRITE = "query", "explain", "show", "write"
KINDS = {"SelectStmt": QUERY, "ExplainStmt": EXPLAIN, "VariableShowStmt": SHOW,
         "InsertStmt": WRITE, "UpdateStmt": WRITE, "DeleteStmt": WRITE, "MergeStmt": WRITE}

# Functions no ad-hoc statement calls, anywhere in it, and why.
SETS = "it changes a setting, and " + FIXED
LOCKS = "advisory locks are how esrpdb's migrations and ingests wait for each other; the reader takes none"
RUNS_TEXT = "it runs SQL given as text, which this check cannot read; write that query itself"
WRITES_SERVER = "it writes the server's journal or shared state, which no reader may fill"
REFUSED_FUNCTIONS = {"set_config": SETS, "query_to_xml": RUNS_TEXT, "query_to_xmlschema": RUNS_TEXT,
                     "query_to_xml_and_xmlschema": RUNS_TEXT, "ts_stat": RUNS_TEXT, "ts_rewrite": RUNS_TEXT,
                     "pg_logical_emit_message": WRITES_SERVER, "pg_notify": WRITES_SERVER,
                     "pg_export_snapshot": WRITES_SERVER}
ADVISORY_LOCK = re.compile(r"pg_(try_)?advisory_(?!unlock)")


class Refused(ValueError):
    """The statement is not sent; the message says what was refused and why, on one line."""


@dataclass(frozen=True)
class Statement:
    text: str  # the statement alone: no ';' or comment after it, so it can stand inside a subquery
    kind: str  # QUERY, EXPLAIN, SHOW or WRITE
    measurable: bool  # a plain query: its values can be measured on the server before they are sent


def check(statement: str) -> Statement:
    """The one statement in `statement`, or Refused with the reason."""
    from pglast.parser import ParseError, parse_sql_json

    try:
        tree = json.loads(parse_sql_json(statement))
    except ParseError as error:
        raise Refused(str(error.args[0] if error.args else error).split(", at index")[0]) from None
    statements = tree.get("stmts", [])
    if not statements:
        raise Refused("no statement: " + WHAT_RUNS)
    if len(statements) > 1:
        raise Refused("exactly one statement, please: the text holds more than one (separated by ';')")
    raw = statements[0]
    encoded = statement.encode()  # the parser's locations count bytes
    start = raw.get("stmt_location", 0)
    length = raw.get("stmt_len", 0)
    text = (encoded[start:start + length] if length else encoded[start:]).decode()
    (node, body), = raw["stmt"].items()
    kind = KINDS.get(node)
    if kind is None:
        raise Refused(_refusal(node, body, text))
    for name in _called_functions(body):
        if name in REFUSED_FUNCTIONS:
            raise Refused(f"{name} is refused: {REFUSED_FUNCTIONS[name]}")
        if ADVISORY_LOCK.match(name):
            raise Refused(f"{name} is refused: {LOCKS}")
        if name.startswith("dblink"):
            raise Refused(f"{name} is refused: {RUNS_TEXT}")
    measurable = kind == QUERY and not body.get("intoClause") and not body.get("lockingClause") and all(
        "SelectStmt" in cte["CommonTableExpr"]["ctequery"]
        for cte in body.get("withClause", {}).get("ctes", []))
    return Statement(text=text, kind=kind, measurable=measurable)


def _refusal(node: str, body: dict[str, Any], text: str) -> str:
    """One line for a statement that returns no rows: what it is and why it is not run."""
    if node == "CopyStmt":
        return COPY_REFUSED
    if node == "VariableSetStmt":
        word = "RESET" if body.get("kind", "").startswith("VAR_RESET") else "SET"
        return f"{word} is refused: {FIXED}; {WHAT_RUNS}"
    if node == "DoStmt":
        return f"DO is refused: it runs procedural code, which could change what the reader may do; {WHAT_RUNS}"
    if node == "VacuumStmt":
        word = "VACUUM" if body.get("is_vacuumcmd") else "ANALYZE"
        return f"{word} is refused: it writes the tables' statistics, which is the owner's work; {WHAT_RUNS}"
    if node == "TransactionStmt":
        return f"{_first_word(text)} is refused: each statement runs in a read-only transaction of its own"
    return f"{_first_word(text)} is refused: it returns no rows, and the reader only reads; {WHAT_RUNS}"


def _first_word(text: str) -> str:
    words = text.split()
    return words[0].upper() if words else "the statement"


def _called_functions(tree: Any) -> Iterator[str]:
    """The name (without its schema) of every function the parse tree calls."""
    if isinstance(tree, dict):
        call = tree.get("FuncCall")
        if isinstance(call, dict):
            yield call["funcname"][-1]["String"]["sval"]
        for value in tree.values():
            yield from _called_functions(value)
    elif isinstance(tree, list):
        for item in tree:
            yield from _called_functions(item)
