"""The derived stores, declared once: what each one reads, the triggers that mark it stale, how it is rebuilt.

Five tables hold figures computed from others (run_figures, solution_disk_counts, solution_designs,
run_value_figures, mailbox_class_rank_rows). Each is kept by statement triggers on the tables it reads,
which note what a write touched (a `*_mark_*` function), and a refresh that recomputes it (at commit, or
when it is read). They were written revision by revision, each in its own hand (0008, 0011, 0022, 0023,
0025); this module says the same thing once per derived table, and `trigger_definitions` spells every
trigger as PostgreSQL prints it (`pg_get_triggerdef`), so tests/test_derived_stores.py holds the
catalogue's triggers to this declaration: a trigger added or changed by hand, and not declared here,
fails.

A revision that adds a derived store (or a table one reads) creates its triggers with
`create_triggers(store)` (frozen: it names the `DerivedStore` it declares in its own file, as a view's
revision names its frozen copy) and adds the same declaration here. Nothing here runs in a revision
written before this module, and importing it touches no database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

EVENTS = ("insert", "update", "delete")
# The transition tables each row-set event gives its function (statement triggers see the rows at once).
TRANSITIONS = {"insert": "NEW TABLE AS new_rows", "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
               "delete": "OLD TABLE AS old_rows"}


@dataclass(frozen=True)
class Reads:
    """One table a derived store reads: the function that marks it stale on each event (None: no trigger).

    `name` is the triggers' infix ("{table}_{name}_{event}"); `plain` declares a statement trigger without
    transition tables on every event given, named "{table}_{name}" (one trigger for several events)."""

    table: str
    insert: str | None = None
    update: str | None = None
    delete: str | None = None
    truncate: str | None = None
    name: str | None = None  # default: the store's tag
    plain: bool = False

    @staticmethod
    def each(table: str, function: str) -> Reads:
        """The same function on insert, update and delete (with transition tables)."""
        return Reads(table, function, function, function)

    @staticmethod
    def marks(table: str, new: str, changed: str, old: str) -> Reads:
        """What an insert, an update and a delete each mark (with transition tables)."""
        return Reads(table, insert=new, update=changed, delete=old)


@dataclass(frozen=True)
class DerivedStore:
    table: str  # the derived table
    tag: str  # the triggers' infix: "{table}_{tag}_{event}"
    rebuilt_by: str  # how it is recomputed: the function a refresh calls
    reads: tuple[Reads, ...] = field(default_factory=tuple)


_FIGURES = ("run_figures_mark_new()", "run_figures_mark_changed()", "run_figures_mark_old()")

STORES: tuple[DerivedStore, ...] = (
    DerivedStore("run_figures", "figures", "refresh_run_figures(run_ids) at commit (run_figures_stale)", (
        Reads.each("runs", "run_figures_mark_runs()"),
        Reads.marks("latencies", *_FIGURES),
        Reads.marks("perf_counters", *_FIGURES),
        Reads.marks("run_published_values", *_FIGURES),
        Reads("instances", update="run_figures_mark_changed()"),
        Reads("solutions", update="run_figures_mark_renamed()"),
        Reads("trials", update="run_figures_mark_renamed()"),
    )),
    DerivedStore("solution_disk_counts", "counts", "refresh_solution_disk_counts(solution_ids), in the statement", (
        Reads.marks("disks", "disks_mark_new()", "disks_mark_changed()", "disks_mark_old()"),
    )),
    DerivedStore("solution_designs", "designs", "refresh_solution_designs(solution_ids) at commit "
                 "(solution_designs_stale)", (
        Reads.each("runs", "solution_designs_mark_solutions()"),
        Reads.each("run_figures", "solution_designs_mark_solutions()"),
        Reads.each("solution_facts", "solution_designs_mark_solutions()"),
        Reads.each("claims", "solution_designs_mark_solutions()"),
        Reads.each("solutions", "solution_designs_mark_keys()"),
        Reads.each("documents", "solution_designs_mark_documents()"),
        Reads.each("run_sources", "solution_designs_mark_runs()"),
        Reads.each("test_configs", "solution_designs_mark_runs()"),
        Reads("source_files", update="solution_designs_mark_files()"),
    )),
    DerivedStore("run_value_figures", "values", "refresh_run_value_figures(run_ids), in the statement", (
        Reads.marks("run_figures", "run_value_figures_mark_new()", "run_value_figures_mark_new()",
                    "run_value_figures_mark_old()"),
        Reads.marks("run_power", "run_value_figures_mark_new()", "run_value_figures_mark_changed()",
                    "run_value_figures_mark_old()"),
        Reads("solutions", update="run_value_figures_mark_solutions()"),
    )),
    DerivedStore("mailbox_class_rank_rows", "class_ranks", "rebuild_mailbox_class_rank_rows() when read stale "
                 "(mailbox_class_ranks_freshness)", (
        Reads("solution_designs", "mailbox_class_ranks_mark_stale()", "mailbox_class_ranks_mark_stale()",
              "mailbox_class_ranks_mark_stale()", "mailbox_class_ranks_mark_stale()", plain=True),
        Reads("mailbox_classes", "mailbox_class_ranks_mark_stale()", "mailbox_class_ranks_mark_stale()",
              "mailbox_class_ranks_mark_stale()", "mailbox_class_ranks_mark_stale()", plain=True),
        Reads("recovery_stats", truncate="mailbox_class_ranks_mark_stale()", name="class_ranks_truncate", plain=True),
        # a run's log replay changes its solution's design, whose change marks the ranks (above)
        Reads.each("recovery_stats", "solution_designs_mark_runs()"),
    )),
)

# Triggers that keep no derived store: rows of a bulk table deleted with the file that brought them.
CLEANUP = (
    "CREATE TRIGGER perf_counters_delete_samples AFTER DELETE ON public.perf_counters REFERENCING OLD TABLE AS "
    "gone FOR EACH STATEMENT EXECUTE FUNCTION delete_perf_samples_of_counters()",
    "CREATE TRIGGER power_files_delete_samples AFTER DELETE ON public.power_files REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION delete_power_samples_of_files()",
)
# The refreshes at commit: a row in a `*_stale` table fires its store's refresh once the transaction ends.
AT_COMMIT = {"run_figures_stale": "refresh_stale_run_figures()",
             "solution_designs_stale": "refresh_stale_solution_designs()"}


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
    return out


def every_trigger() -> dict[str, str]:
    """Every trigger the catalogue holds, by name: the stores', the clean-ups and the refreshes at commit."""
    out: dict[str, str] = {}
    for store in STORES:
        out.update(trigger_definitions(store))
    for definition in CLEANUP:
        out[definition.split()[2]] = definition
    for table, function in AT_COMMIT.items():
        out[f"{table}_refresh"] = (f"CREATE CONSTRAINT TRIGGER {table}_refresh AFTER INSERT ON public.{table} "
                                   f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {function}")
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
