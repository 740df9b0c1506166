"""The derived stores' mechanism in SQL, generated from their declaration (derived_stores.py).

Every function that marks a store stale (`*_mark_*`) and the scaffolding of a refresh at commit
(`mark_{store}_stale`, `refresh_stale_{store}`) is spelt here from `STORES`, as PostgreSQL prints it
(`pg_get_functiondef`), so tests/test_derived_stores.py holds the catalogue to it and a hand edit fails.
Each store's own rebuild (`refresh_run_figures`, …: the SELECT that computes its rows) stays written by
hand: that is the store's content, not the mechanism.

A revision that changes the mechanism runs a frozen copy of `script()` (derived_stores_00NN.sql), as a
view's revision runs its frozen view: `python -m esrpdb.migrations.derived_sql > migrations/derived_stores_00NN.sql`.
"""

from __future__ import annotations

import zlib

from esrpdb.migrations.derived_stores import EVENTS, STORES, DerivedStore

Stores = tuple[DerivedStore, ...]

INDENT = "    "


def _definition(name: str, arguments: str, returns: str, body: str) -> str:
    return (f"CREATE OR REPLACE FUNCTION public.{name}({arguments})\n RETURNS {returns}\n LANGUAGE plpgsql\n"
            f"AS $function${body}$function$\n")


def _branches(subject: str, cases: list[tuple[list[str], list[str]]]) -> list[str]:
    """IF subject = … THEN … ELSIF … ELSE … END IF over (values, lines) cases; one case needs no IF."""
    if len(cases) == 1:
        return cases[0][1]
    out = []
    for number, (values, lines) in enumerate(cases):
        test = f"{subject} = '{values[0]}'" if len(values) == 1 else \
            f"{subject} IN ({', '.join(repr(v) for v in values)})"
        out.append(f"{'IF' if number == 0 else 'ELSIF'} {test} THEN" if number < len(cases) - 1 else "ELSE")
        out.extend(INDENT + line for line in lines)
    return [*out, "END IF;"]


def _grouped(pairs: list[tuple[str, str]]) -> list[tuple[list[str], str]]:
    """(name, value) pairs -> the names sharing each value, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for name, value in pairs:
        groups.setdefault(value, []).append(name)
    return [(names, value) for value, names in groups.items()]


def marking_functions(stores: Stores = STORES) -> dict[str, tuple[DerivedStore, list[tuple[str, str, str]]]]:
    """Each marking function -> its store and the (event, table, keys) it is called for."""
    out: dict[str, tuple[DerivedStore, list[tuple[str, str, str]]]] = {}
    for store in stores:
        for reads in store.reads:
            for event in (*EVENTS, "truncate"):
                function = getattr(reads, event)
                if function is None:
                    continue
                name = function.removesuffix("()")
                owner, calls = out.setdefault(name, (store, []))
                assert owner is store, f"{name} marks two stores"
                keys = reads.key.on(event) if reads.key is not None else ""
                calls.append((event, reads.table, keys))
    return out


def _mark_body(store: DerivedStore, calls: list[tuple[str, str, str]]) -> list[str]:
    rebuild = store.rebuild
    if rebuild.when == "read":  # counted once per transaction; the reader rebuilds
        flag = f"'esrpdb.{store.tag}_marked'"
        return [f"IF current_setting({flag}, true) IS DISTINCT FROM 'on' THEN",
                f"{INDENT}UPDATE {rebuild.freshness} SET write_count = write_count + 1;",
                f"{INDENT}PERFORM set_config({flag}, 'on', true);", "END IF;"]
    target = f"mark_{store.table}_stale" if rebuild.when == "commit" else rebuild.function
    cases = []
    for event in EVENTS:
        tables = [(table, keys) for e, table, keys in calls if e == event]
        if tables:
            by_table = _grouped(tables)
            cases.append(([event.upper()], _branches("TG_TABLE_NAME", [
                (names, [f"PERFORM {target}({keys});"]) for names, keys in by_table])))
    return _branches("TG_OP", cases)


def _body(lines: list[str], declare: str = "") -> str:
    return "\n" + declare + "BEGIN\n" + "".join(f"{INDENT}{line}\n" for line in lines) + "END\n"


def lock_groups(stores: Stores = STORES) -> list[Stores]:
    """Stores rebuilt at commit, grouped by what they read of one another: a store that reads another's rows
    refreshes under that store's lock. Two locks would deadlock: a transaction whose designs were queued
    first takes designs' lock, then the run figures' (whose rows mark the designs again), while another
    takes them the other way round. Stores reading no other share no lock."""
    at_commit = [store for store in stores if store.rebuild.when == "commit"]
    group = {store.table: store.table for store in at_commit}

    def root(table: str) -> str:
        while group[table] != table:
            table = group[table]
        return table

    for store in at_commit:
        for reads in store.reads:
            if reads.table in group:
                group[root(store.table)] = root(reads.table)
    roots: dict[str, list[DerivedStore]] = {}
    for store in at_commit:
        roots.setdefault(root(store.table), []).append(store)
    return [tuple(group) for group in roots.values()]


def lock_key(store: DerivedStore, stores: Stores = STORES) -> int:
    """The advisory lock a store's refresh at commit takes: one per lock group, from its first store's name."""
    (group,) = [g for g in lock_groups(stores) if store in g]
    return zlib.crc32(f"esrpdb refresh {group[0].table}".encode())


def _at_commit(store: DerivedStore, stores: Stores) -> dict[str, str]:
    """mark_{table}_stale(keys): the keys noted; refresh_stale_{table}(): the deferred trigger's refresh."""
    table, key = store.table, store.rebuild.key
    keys = f"{key.removesuffix('_id')}_ids"
    fresh = f"'esrpdb.{table}_fresh'"
    if store.rebuild.per_transaction:  # each writer's own rows: two writers of one key never wait on each other
        xact = "pg_current_xact_id()::text::bigint"
        insert = [f"INSERT INTO {table}_stale (xact_id, {key})",
                  f"SELECT DISTINCT {xact}, id FROM unnest({keys}) AS id WHERE id IS NOT NULL"]
        taken = f"DELETE FROM {table}_stale WHERE xact_id = {xact} RETURNING {key}"
    else:
        insert = [f"INSERT INTO {table}_stale ({key})", f"SELECT DISTINCT id FROM unnest({keys}) AS id WHERE id IS NOT NULL"]
        taken = f"DELETE FROM {table}_stale RETURNING {key}"
    shared = [s.table for g in lock_groups(stores) if store in g for s in g]
    mark = _body([f"IF coalesce(cardinality({keys}), 0) = 0 THEN", f"{INDENT}RETURN;", "END IF;", *insert,
                  "ON CONFLICT DO NOTHING;", f"PERFORM set_config({fresh}, 'off', true);"])
    refresh = _body([f"IF current_setting({fresh}, true) = 'on' THEN", f"{INDENT}RETURN NULL;", "END IF;",
                     f"-- one refresh of {', '.join(shared)} at a time: the later reads the earlier's rows",
                     f"PERFORM pg_advisory_xact_lock({lock_key(store, stores)});",
                     f"WITH gone AS ({taken})", f"SELECT array_agg({key}) INTO ids FROM gone;",
                     "IF ids IS NOT NULL THEN", f"{INDENT}PERFORM {store.rebuild.function}(ids);", "END IF;",
                     f"PERFORM set_config({fresh}, 'on', true);", "RETURN NULL;"], declare=f"DECLARE\n{INDENT}ids integer[];\n")
    return {f"mark_{table}_stale": _definition(f"mark_{table}_stale", f"{keys} integer[]", "void", mark),
            f"refresh_stale_{table}": _definition(f"refresh_stale_{table}", "", "trigger", refresh)}


def function_definitions(stores: Stores = STORES) -> dict[str, str]:
    """Every generated function, by name, as `pg_get_functiondef` prints it (and as CREATE OR REPLACE runs)."""
    out = {}
    for store in stores:
        if store.rebuild.when == "commit":
            out.update(_at_commit(store, stores))
    for name, (store, calls) in marking_functions(stores).items():
        out[name] = _definition(name, "", "trigger", _body([*_mark_body(store, calls), "RETURN NULL;"]))
    return dict(sorted(out.items()))


def script() -> str:
    """The generated functions as one SQL script (a revision's frozen copy)."""
    return "".join(f"{definition};\n\n" for definition in function_definitions().values())


if __name__ == "__main__":
    print(script(), end="")
