"""The derived stores, declared once: what each one reads, the key of its rows a write names, how it is rebuilt.

Five tables hold figures computed from others (run_figures, solution_disk_counts, solution_designs,
run_value_figures, mailbox_class_rank_rows). Each is kept by statement triggers on the tables it reads,
whose function (`*_mark_*`) names the store's rows a write touched (`Key`: SELECTs over the transition
tables), and a rebuild (`Rebuild`) that recomputes them: in the statement, at commit (the keys noted in
`{table}_stale`, a deferred trigger refreshing them), or when read stale (a write only counts itself).
Revisions 0008-0025 wrote that mechanism by hand, each store its own way; since 0030 derived_sql.py
generates it from this declaration, and only each rebuild's SQL (the store's content) is written by hand.

`trigger_definitions` spells every trigger as PostgreSQL prints it (`pg_get_triggerdef`), so
tests/test_derived_stores.py holds the catalogue's triggers (and the generated functions) to this
declaration: a trigger or marking function added or changed by hand, and not declared here, fails.

A revision that adds a derived store (or a table one reads) runs the generated functions frozen
(derived_stores_00NN.sql), creates its triggers with `create_triggers(store)` (frozen: it names the
`DerivedStore` it declares in its own file, as a view's revision names its frozen copy) and adds the same
declaration here. Nothing here runs in a revision written before this module, and importing it touches no
database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

EVENTS = ("insert", "update", "delete")
# The transition tables each row-set event gives its function (statement triggers see the rows at once).
TRANSITIONS = {"insert": "NEW TABLE AS new_rows", "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
               "delete": "OLD TABLE AS old_rows"}


@dataclass(frozen=True)
class Key:
    """The rows of a store a write to one table it reads touches: SELECTs of the store's key over the write's
    transition tables (`new` over new_rows for an insert, `old` over old_rows for a delete; an update's
    `changed` over both, by default the two unioned), given to `through` (a function of an array) if set."""

    new: str | None = None
    old: str | None = None
    changed: str | None = None
    through: str | None = None

    @staticmethod
    def column(name: str, through: str | None = None) -> Key:
        """The key is a column of the written rows."""
        return Key(f"SELECT DISTINCT {name} FROM new_rows", f"SELECT DISTINCT {name} FROM old_rows",
                   f"SELECT {name} FROM new_rows UNION SELECT {name} FROM old_rows", through)

    @staticmethod
    def via(select: str) -> Key:
        """The key is reached from the written rows (`{rows}`) by a join."""
        return Key(select.format(rows="new_rows"), select.format(rows="old_rows"))

    def on(self, event: str) -> str:
        """The array of keys an event's write touches, as the marking function passes it on."""
        select = {"insert": self.new, "delete": self.old, "update": self.changed}[event]
        if event == "update" and select is None and self.new and self.old:
            select = f"{self.new} UNION {self.old}"
        assert select is not None, (self, event)
        return f"{self.through}(ARRAY({select}))" if self.through else f"ARRAY({select})"


@dataclass(frozen=True)
class Reads:
    """One table a derived store reads: the function that marks it stale on each event (None: no trigger),
    and the key of the store's rows a write names (None: the store is marked stale whole).

    `name` is the triggers' infix ("{table}_{name}_{event}"); `plain` declares a statement trigger without
    transition tables on every event given, named "{table}_{name}" (one trigger for several events)."""

    table: str
    insert: str | None = None
    update: str | None = None
    delete: str | None = None
    truncate: str | None = None
    key: Key | None = None
    name: str | None = None  # default: the store's tag
    plain: bool = False

    @staticmethod
    def each(table: str, function: str, key: Key | None = None, name: str | None = None) -> Reads:
        """The same function on insert, update and delete (with transition tables)."""
        return Reads(table, function, function, function, key=key, name=name)

    @staticmethod
    def marks(table: str, new: str, changed: str, old: str, key: Key | None = None) -> Reads:
        """What an insert, an update and a delete each mark (with transition tables)."""
        return Reads(table, insert=new, update=changed, delete=old, key=key)


@dataclass(frozen=True)
class Rebuild:
    """How a store is recomputed: `function(keys integer[])` (the store's own SQL, kept by hand), called
    "statement" (by the marking function itself), "commit" (keys gathered in `{table}_stale`, rebuilt by a
    deferred trigger once the transaction ends) or "read" (a write only counts itself in `freshness`; the
    reader rebuilds, or computes, while the count says stale)."""

    function: str
    when: Literal["statement", "commit", "read"]
    key: str = ""  # the store's key column (run_id, solution_id): the stale table's and the function's argument
    per_transaction: bool = False  # the stale rows carry their transaction: writers of one key never wait
    freshness: str = ""  # "read": the one-row table counting writes


@dataclass(frozen=True)
class DerivedStore:
    table: str  # the derived table
    tag: str  # the triggers' infix: "{table}_{tag}_{event}"
    rebuild: Rebuild
    reads: tuple[Reads, ...] = field(default_factory=tuple)


_FIGURES = ("run_figures_mark_new()", "run_figures_mark_changed()", "run_figures_mark_old()")
_RUN = Key.column("run_id")
_SOLUTION = Key.column("solution_id")
# A run written names itself; a run gone (or moved) names the peers of its trial, which rank against it.
_RUNS = Key("SELECT id FROM new_rows", "SELECT p.id FROM (SELECT DISTINCT solution_id, trial_id FROM old_rows "
            "WHERE trial_id IS NOT NULL) o JOIN runs p ON p.trial_id = o.trial_id AND p.solution_id IS NOT "
            "DISTINCT FROM o.solution_id UNION SELECT test_run_id FROM old_rows WHERE test_run_id IS NOT NULL")
_RENAMED = "SELECT r.id FROM runs r JOIN new_rows n ON n.id = r.{fk} JOIN old_rows o ON o.id = n.id WHERE n.{col} " \
           "IS DISTINCT FROM o.{col}"
_PRICED = ("SELECT f.run_id FROM run_figures f JOIN new_rows n ON n.id = f.solution_id JOIN old_rows o ON o.id = n.id "
           "WHERE (n.list_price_amount, n.list_price_currency, n.list_price_type, n.active_power_w, n.idle_power_w, "
           "n.power_boundary) IS DISTINCT FROM (o.list_price_amount, o.list_price_currency, o.list_price_type, "
           "o.active_power_w, o.idle_power_w, o.power_boundary)")
_FILES = "solution_designs_of_files"  # a source file's solutions, through every table that cites it
_OF_RUNS = Key.via("SELECT DISTINCT r.solution_id FROM runs r WHERE r.id IN (SELECT run_id FROM {rows})")
_STALE = "mailbox_class_ranks_mark_stale()"

STORES: tuple[DerivedStore, ...] = (
    DerivedStore("run_figures", "figures", Rebuild("refresh_run_figures", "commit", "run_id"), (
        Reads.each("runs", "run_figures_mark_runs()", _RUNS),
        Reads.marks("latencies", *_FIGURES, key=_RUN),
        Reads.marks("perf_counters", *_FIGURES, key=_RUN),
        Reads.marks("run_published_values", *_FIGURES, key=_RUN),
        Reads("instances", update="run_figures_mark_changed()", key=_RUN),
        Reads("solutions", update="run_figures_mark_renamed()", key=Key(changed=_RENAMED.format(fk="solution_id",
                                                                                                 col="key"))),
        Reads("trials", update="run_figures_mark_renamed()", key=Key(changed=_RENAMED.format(fk="trial_id",
                                                                                              col="label"))),
    )),
    DerivedStore("solution_disk_counts", "counts", Rebuild("refresh_solution_disk_counts", "statement", "solution_id"), (
        Reads.marks("disks", "disks_mark_new()", "disks_mark_changed()", "disks_mark_old()", key=_SOLUTION),
    )),
    DerivedStore("solution_designs", "designs",
                 Rebuild("refresh_solution_designs", "commit", "solution_id", per_transaction=True), (
        Reads.each("runs", "solution_designs_mark_solutions()", _SOLUTION),
        Reads.each("run_figures", "solution_designs_mark_solutions()", _SOLUTION),
        Reads.each("solution_facts", "solution_designs_mark_solutions()", _SOLUTION),
        Reads.each("claims", "solution_designs_mark_solutions()", _SOLUTION),
        Reads.each("solutions", "solution_designs_mark_keys()", Key(
            "SELECT id FROM new_rows", "SELECT id FROM old_rows",
            "SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.key IS DISTINCT FROM o.key")),
        Reads.each("documents", "solution_designs_mark_documents()", Key.column("source_file_id", _FILES)),
        Reads.each("run_sources", "solution_designs_mark_runs()", _OF_RUNS),
        Reads.each("test_configs", "solution_designs_mark_runs()", _OF_RUNS),
        # a run's log replay changes its solution's design, whose change marks the class ranks (below)
        Reads.each("recovery_stats", "solution_designs_mark_runs()", _OF_RUNS, name="class_ranks"),
        Reads("source_files", update="solution_designs_mark_files()", key=Key(
            changed="SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.file_name IS DISTINCT FROM "
                    "o.file_name", through=_FILES)),
    )),
    DerivedStore("run_value_figures", "values", Rebuild("refresh_run_value_figures", "statement", "run_id"), (
        Reads.marks("run_figures", "run_value_figures_mark_new()", "run_value_figures_mark_new()",
                    "run_value_figures_mark_old()", key=_RUN),
        Reads.marks("run_power", "run_value_figures_mark_new()", "run_value_figures_mark_changed()",
                    "run_value_figures_mark_old()", key=_RUN),
        Reads("solutions", update="run_value_figures_mark_solutions()", key=Key(changed=_PRICED)),
    )),
    DerivedStore("mailbox_class_rank_rows", "class_ranks",
                 Rebuild("rebuild_mailbox_class_rank_rows", "read", freshness="mailbox_class_ranks_freshness"), (
        Reads("solution_designs", _STALE, _STALE, _STALE, _STALE, plain=True),
        Reads("mailbox_classes", _STALE, _STALE, _STALE, _STALE, plain=True),
        Reads("recovery_stats", truncate=_STALE, name="class_ranks_truncate", plain=True),
    )),
)

# Triggers that keep no derived store: rows of a bulk table deleted with the file that brought them.
CLEANUP = (
    "CREATE TRIGGER perf_counters_delete_samples AFTER DELETE ON public.perf_counters REFERENCING OLD TABLE AS "
    "gone FOR EACH STATEMENT EXECUTE FUNCTION delete_perf_samples_of_counters()",
    "CREATE TRIGGER power_files_delete_samples AFTER DELETE ON public.power_files REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION delete_power_samples_of_files()",
)


def trigger_definitions(store: DerivedStore) -> dict[str, str]:
    """Trigger name -> its definition, as `pg_get_triggerdef` prints it."""
    out = {}
    for reads in store.reads:
        infix = reads.name or store.tag
        if reads.plain:
            # PostgreSQL prints a trigger's events in this order, whatever order they were created in
            events = [e for e in ("insert", "delete", "update", "truncate") if getattr(reads, e)]
            functions = {getattr(reads, e) for e in events}
            assert len(functions) == 1, reads
            out[f"{reads.table}_{infix}"] = (
                f"CREATE TRIGGER {reads.table}_{infix} AFTER {' OR '.join(e.upper() for e in events)} ON "
                f"public.{reads.table} FOR EACH STATEMENT EXECUTE FUNCTION {functions.pop()}")
            continue
        for event in EVENTS:
            function = getattr(reads, event)
            if function is not None:
                name = f"{reads.table}_{infix}_{event}"
                out[name] = (f"CREATE TRIGGER {name} AFTER {event.upper()} ON public.{reads.table} REFERENCING "
                             f"{TRANSITIONS[event]} FOR EACH STATEMENT EXECUTE FUNCTION {function}")
    if store.rebuild.when == "commit":  # a row in the `*_stale` table fires the refresh once the transaction ends
        stale = f"{store.table}_stale"
        out[f"{stale}_refresh"] = (f"CREATE CONSTRAINT TRIGGER {stale}_refresh AFTER INSERT ON public.{stale} "
                                   f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "
                                   f"refresh_stale_{store.table}()")
    return out


def every_trigger() -> dict[str, str]:
    """Every trigger the catalogue holds, by name: the stores' (their refreshes at commit too) and the clean-ups."""
    out: dict[str, str] = {}
    for store in STORES:
        out.update(trigger_definitions(store))
    for definition in CLEANUP:
        out[definition.split()[2]] = definition
    return out


def create_triggers(store: DerivedStore, execute: Callable[[str], object] | None = None) -> None:
    """A revision's helper: create the store's triggers (its functions exist already)."""
    if execute is None:
        from alembic import op

        execute = op.execute
    for definition in trigger_definitions(store).values():
        execute(definition)


def drop_triggers(store: DerivedStore, execute: Callable[[str], object] | None = None) -> None:
    if execute is None:
        from alembic import op

        execute = op.execute
    for name, definition in trigger_definitions(store).items():
        table = definition.split(" ON public.", 1)[1].split()[0]
        execute(f"DROP TRIGGER {name} ON {table}")
