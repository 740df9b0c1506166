"""Write planned manifests (load/plan.py) together: a document's drafted systems, or one person's manifest.

The plans are walked in order as the one-manifest-at-a-time writer wrote them (each run's report index
one below its file's lowest then, a later manifest naming a run replacing an earlier one's figures of
it, a claim's run as its solution held it then), and what that walk decides goes to the server in a
few statements for the whole batch: one upsert of the solutions, one of the trials, one DELETE of what
is replaced, one INSERT of the new runs, one UPDATE of the runs taken, one COPY per table. Statement-
level triggers fire per statement, so this is also the server's work it saves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from ...db.sessions import as_writer
from ...db.statements import Sql
from ..formats.manifest.records import ClaimSpec, SolutionManifest
from .plan import ManifestPlan, RunPlan
from .report_statement import dumps
from .rows import copy_dicts, solution_id_for

if TYPE_CHECKING:
    from ...db.sessions import WriterSession

Ref = tuple[int, int]  # (0, id) a run already in the catalogue; (1, n) the batch's nth new run: ids in that order
NEW_RUN_COLUMNS = ("source_file_id", "report_index", "solution_id", "trial_id", "run_label", "scenario", "origin",
                   "report_type", "product_title", "jetstress_version", "jetstress_release", "ese_version",
                   "machine_name", "test_description", "test_start", "test_end", "target_iops", "reported_verdict",
                   "achieved_iops")
# Every run the batch takes, in one statement: a run taken twice holds what its last taking set (and the
# test of the last taking that named one). The order the rows are written in changes no figure: a test
# adds its hosts in their id order (revision 0026).
_TAKE_RUNS = Sql(
    "UPDATE runs r SET solution_id = k.solution_id, trial_id = k.trial_id, run_label = k.run_label, "
    "scenario = k.scenario, test_run_id = CASE WHEN k.sets_test THEN k.test_run_id ELSE r.test_run_id END "
    "FROM unnest(CAST(:ids AS integer[]), CAST(:solution_ids AS integer[]), CAST(:trial_ids AS integer[]), "
    "CAST(:run_labels AS text[]), CAST(:scenarios AS text[]), CAST(:sets_test AS boolean[]), "
    "CAST(:test_run_ids AS integer[])) AS k(id, solution_id, trial_id, run_label, scenario, sets_test, test_run_id) "
    "WHERE r.id = k.id")
# The batch's solutions and new runs as text, each one JSON array in its order (load_document_tables' way: the
# server converts each value to its column's type): SQLAlchemy compiled their built statements once in the
# command's new process (~1-2 ms apiece). Ids come in the array's order, as its sorted insertmanyvalues had them.
# SOLUTION_COLUMNS: solution_values' keys (a key missing here would not be written).
SOLUTION_COLUMNS = ("vendor", "model", "label", "connectivity", "raid_level", "usable_capacity_bytes",
                    "usable_capacity_printed", "list_price_amount", "list_price_currency", "list_price_year",
                    "list_price_type", "list_price_includes", "list_price_source", "idle_power_w", "active_power_w",
                    "power_boundary", "power_source", "notes", "provisional", "derived_from_source_file_id")
_ROWS = "FROM jsonb_array_elements(CAST(:rows AS jsonb)) WITH ORDINALITY AS e(value, n) CROSS JOIN LATERAL "
_UPSERT_SOLUTIONS = Sql(
    f"INSERT INTO solutions (key, {', '.join(SOLUTION_COLUMNS)}) SELECT r.key, "
    f"{', '.join(f'r.{c}' for c in SOLUTION_COLUMNS)} {_ROWS}jsonb_populate_record(NULL::solutions, e.value) r "
    f"ORDER BY e.n ON CONFLICT (key) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in SOLUTION_COLUMNS)} "
    "RETURNING id, key, xmax = 0")  # a row the INSERT made has no deleting transaction yet (xmax 0)
_INSERT_RUNS = Sql(
    f"INSERT INTO runs ({', '.join(NEW_RUN_COLUMNS)}) SELECT {', '.join(f'r.{c}' for c in NEW_RUN_COLUMNS)} "
    f"{_ROWS}jsonb_populate_record(NULL::runs, e.value) r ORDER BY e.n RETURNING id")
_UPSERT_TRIALS = Sql(
    f"INSERT INTO trials (solution_id, label, description) SELECT r.solution_id, r.label, r.description "
    f"{_ROWS}jsonb_populate_record(NULL::trials, e.value) r ORDER BY e.n ON CONFLICT ON CONSTRAINT "
    "uq_trials_solution_label DO UPDATE SET description = excluded.description RETURNING id, solution_id, label")
# The labels as two arrays: one statement for any number of them (a tuple IN list compiled per length).
_LABELLED_RUNS = Sql(
    "SELECT runs.solution_id, runs.run_label, min(runs.id) FROM runs WHERE (runs.solution_id, runs.run_label) IN "
    "(SELECT * FROM unnest(CAST(:solution_ids AS integer[]), CAST(:labels AS text[]))) "
    "GROUP BY runs.solution_id, runs.run_label")


def solution_values(manifest: SolutionManifest, provisional_source: int | None) -> dict[str, Any]:
    """The solution's columns: a manifest confirms the solution of its key (a drafted one included)."""
    capacity, price, power = manifest.capacity, manifest.price, manifest.power
    return dict(
        provisional=provisional_source is not None, derived_from_source_file_id=provisional_source,
        vendor=manifest.vendor, model=manifest.model, label=manifest.label, connectivity=manifest.connectivity,
        raid_level=manifest.raid_level, notes=manifest.notes,
        usable_capacity_bytes=capacity.usable_bytes if capacity else None,
        usable_capacity_printed=f"{capacity.usable} {capacity.unit} ({capacity.base})" if capacity else None,
        list_price_amount=price.amount if price else None, list_price_currency=price.currency if price else None,
        list_price_year=price.year if price else None, list_price_type=price.type if price else None,
        list_price_includes=price.includes if price else None, list_price_source=price.source if price else None,
        idle_power_w=power.idle_w if power else None, active_power_w=power.active_w if power else None,
        power_boundary=power.boundary if power else None, power_source=power.source if power else None,
    )


def _upsert_solutions(session: WriterSession, plans: list[ManifestPlan]) -> list[tuple[int, bool]]:
    """(id, whether new) per plan, in one statement (the keys are distinct: system_keys makes them so).
    A row the INSERT made has no deleting transaction yet (xmax 0); one the ON CONFLICT branch updated has
    this one's. A new solution has no disks, claims or runs to replace."""
    rows = [{"key": p.manifest.key, **solution_values(p.manifest, p.provisional_source)} for p in plans]
    found: dict[str, tuple[int, bool]] = {key: (solution_id, bool(new)) for solution_id, key, new in session.execute(
        _UPSERT_SOLUTIONS, {"rows": dumps(rows)})}
    return [found[p.manifest.key] for p in plans]


def _upsert_trials(session: WriterSession, plans: list[ManifestPlan], solution_ids: list[int]) -> dict[tuple[int, str], int]:
    rows = [{"solution_id": s, "label": t.key, "description": t.description}
            for p, s in zip(plans, solution_ids) for t in p.manifest.trials]
    if not rows:
        return {}
    return {(s, label): trial_id for trial_id, s, label in session.execute(_UPSERT_TRIALS, {"rows": dumps(rows)})}


class _Walk:
    """The one-at-a-time writer's decisions, replayed in order without writing."""

    def __init__(self, existing: dict[int, dict[int, tuple]]) -> None:
        # Per file the runs a host test or table run can replace: id -> (report index, origin, solution, label).
        self.existing = existing
        self.alive: dict[int, dict[Ref, int]] = {s: {(0, i): row[0] for i, row in rows.items()}
                                                 for s, rows in existing.items()}
        self.doomed: set[int] = set()
        self.new_runs: list[dict[str, Any]] = []
        self.taken: list[tuple[int, dict[str, Any]]] = []  # (run id, the columns set on it), in order
        self.held: dict[Ref, tuple[int, str | None]] = {}  # run -> (solution, label), for a claim's versus run

    def drop(self, source_id: int | None, matches, ids: Iterable[int] = ()) -> None:
        """Delete the existing runs of `source_id` that `matches` (index, origin, solution, label), and `ids`."""
        gone = set(ids)
        if source_id is not None:
            gone |= {i for i, row in self.existing.get(source_id, {}).items() if matches(*row)}
        for run_id in gone - self.doomed:
            self.doomed.add(run_id)
            self.held.pop((0, run_id), None)
            for alive in self.alive.values():
                alive.pop((0, run_id), None)

    def add(self, row: dict[str, Any]) -> Ref:
        """A new run one below the lowest report index its file holds now (and below zero)."""
        alive = self.alive.setdefault(row["source_file_id"], {})
        ref = (1, len(self.new_runs))
        alive[ref] = row["report_index"] = min(min(alive.values(), default=0), 0) - 1
        self.new_runs.append({column: row.get(column) for column in NEW_RUN_COLUMNS})
        self.held[ref] = (row["solution_id"], row["run_label"])
        return ref

    def take(self, run_id: int, columns: dict[str, Any]) -> None:
        self.taken.append((run_id, columns))
        self.held[(0, run_id)] = (columns["solution_id"], columns["run_label"])

    def labelled(self, solution_id: int, label: str) -> Ref | None:
        return min((ref for ref, held in self.held.items() if held == (solution_id, label)), default=None)


def _existing_runs(session: WriterSession, source_ids: set[int]) -> dict[int, dict[int, tuple]]:
    if not source_ids:
        return {}
    from sqlalchemy import select  # a manifest's alone: a document's own runs are all new (fresh_sources)

    from ...schema.tables import Run

    found: dict[int, dict[int, tuple]] = {s: {} for s in source_ids}
    for run_id, source_id, index, origin, solution_id, label in session.execute(
            select(Run.id, Run.source_file_id, Run.report_index, Run.origin, Run.solution_id, Run.run_label)
            .where(Run.source_file_id.in_(source_ids), (Run.origin != "report") | (Run.report_index < 0))):
        found[source_id][run_id] = (index, origin, solution_id, label)
    return found


def _twin_candidates(session: WriterSession, plans: list[ManifestPlan]) -> dict[int, set]:
    """Provisional document-table runs by the (table, metric, value) cells they publish: a person's table
    run replaces the run ingest drafted from the same cells."""
    tables = {v[3] for p in plans if p.provisional_source is None for r in p.runs if r.table_run for v in r.values}
    if not tables:
        return {}
    from sqlalchemy import select  # a person's manifest alone

    from ...schema.tables import PublishedValue, Run, Solution

    held: dict[int, set] = {}
    for other, table_id, metric, value in session.execute(
            select(PublishedValue.run_id, PublishedValue.document_table_id, PublishedValue.metric, PublishedValue.value)
            .join(Run, Run.id == PublishedValue.run_id).join(Solution, Solution.id == Run.solution_id)
            .where(Solution.provisional, Run.origin == "document_table", PublishedValue.document_table_id.in_(tables))):
        held.setdefault(other, set()).add((table_id, metric, float(value)))
    return held


def write_plans(session: WriterSession, plans: list[ManifestPlan], *, fresh_sources: Iterable[int] = ()) -> list[int]:
    """Write the plans; their solutions' ids, in order. `fresh_sources`: files written in this transaction
    (the document whose systems these are), which hold no host test or table run to replace yet."""
    if not plans:
        return []
    session = as_writer(session)
    solutions = _upsert_solutions(session, plans)
    solution_ids = [s for s, _ in solutions]
    trial_ids = _upsert_trials(session, plans, solution_ids)
    twins = _twin_candidates(session, plans)
    inserting = {r.source_id for p in plans for r in p.runs if r.hosts or r.table_run}
    walk = _Walk(_existing_runs(session, inserting - set(fresh_sources)))
    batch_keys = {p.manifest.key: (n, s, new) for n, (p, (s, new)) in enumerate(zip(plans, solutions))}
    published: list[tuple[Ref, dict[str, Any]]] = []
    clear_published: set[int] = set()
    evidence: list[tuple[Ref, RunPlan]] = []
    claims: list[dict[str, Any]] = []
    asked: list[tuple[dict[str, Any], int, str]] = []  # claims whose versus run is read back after the writes
    for n, (plan, (solution_id, new)) in enumerate(zip(plans, solutions)):
        refs: dict[str, Ref] = {}
        host_refs: dict[tuple[str, str], Ref] = {}
        figures: list[tuple[Ref, dict[str, Any]]] = []
        attached: list[tuple[int, dict[str, Any]]] = []  # report runs taken, after the manifest's other runs
        for run in plan.runs:
            ref = _walk_run(walk, plan, run, solution_id, new, trial_ids, twins, attached)
            refs[run.spec.label] = ref
            for report in run.hosts.reports if run.hosts is not None else ():
                if report.machine_name:  # a host's own figure is its report's (a claim's `host`)
                    host_refs[run.spec.label, report.machine_name.strip().casefold()] = (0, report.id)
            if run.perf_sources or run.power_source is not None:
                evidence.append((ref, run))
            figures += [(ref, row) for row in _published_rows(run.values)]
        for run_id_taken, columns in attached:
            walk.take(run_id_taken, columns)
        mine = set(refs.values())  # a run's figures are those the last manifest naming it gives
        published = [(ref, row) for ref, row in published if ref not in mine] + figures
        clear_published |= {i for kind, i in mine if kind == 0}
        for claim in plan.claims:
            spec = claim.spec
            other_solution, other_run = None, None
            batch = batch_keys.get(spec.versus) if spec.versus else None
            if spec.versus:
                other_solution = batch[1] if batch else solution_id_for(session, spec.versus)
            made_here = batch is not None and batch[2]  # a solution this batch made holds only what it gave
            if spec.versus_run and made_here and batch is not None and batch[0] <= n:
                other_run = walk.labelled(batch[1], spec.versus_run)  # (a later system's is bare as yet: none)
            row = {"manifest_file_id": plan.manifest_file_id, "source_file_id": claim.document_id,
                   "solution_id": solution_id, "subject": spec.subject,
                   "run_id": _claim_run(spec, refs, host_refs), "other_solution_id": other_solution,
                   "other_run_id": other_run, "other_metric": spec.versus_metric,
                   "other_value_printed": spec.versus_value, "metric": spec.metric,
                   "value_printed": spec.value, "unit": spec.unit, "disk_basis": spec.disk_basis,
                   "qualifier": spec.qualifier, "location": spec.location, "line": spec.line, "quote": spec.quote}
            if spec.versus_run and other_solution is not None and not made_here:
                asked.append((row, other_solution, spec.versus_run))
            claims.append(row)

    _clear(session, plans, solutions, walk.doomed, clear_published)
    ids = sorted(session.execute(_INSERT_RUNS, {"rows": dumps(walk.new_runs)}).scalars()) if walk.new_runs else []

    def run_id(ref: Ref | None) -> int | None:
        return None if ref is None else ids[ref[1]] if ref[0] else ref[1]

    if walk.taken:
        session.execute(_TAKE_RUNS, _taken_columns(walk.taken, run_id))
    for ref, run in evidence:
        _attach_evidence(session, run_id(ref), run)
    copy_dicts(session, "run_published_values", [{**row, "run_id": run_id(ref)} for ref, row in published])
    take_over(session, {i for p in plans if p.provisional_source is None for i in p.source_ids})
    labelled = _labelled_runs(session, {(s, label) for _, s, label in asked})
    for row, other_solution, label in asked:
        found = labelled.get((other_solution, label))
        row["other_run_id"] = None if found is None else (0, found)
    copy_dicts(session, "disks", [
        {"solution_id": s, "disk_count": d.count, "model": d.model, "media": d.media, "speed_rpm": d.rpm,
         "raw_capacity_bytes": d.raw_capacity_bytes, "interface": d.interface, "firmware": d.firmware, "role": d.role}
        for p, s in zip(plans, solution_ids) for d in p.manifest.disks])
    copy_dicts(session, "claims", [{**row, "run_id": run_id(row["run_id"]), "other_run_id": run_id(row["other_run_id"])}
                                for row in claims])
    copy_dicts(session, "solution_facts", [  # a system holds dozens of facts, one statement each was a tenth of its write
        {"solution_id": s, "ordinal": n, "fact": f.fact, "value_printed": f.value, "value_number": f.number,
         "unit": f.unit, "source_file_id": p.provisional_source, "source_line": f.line, "quote": f.quote}
        for p, s in zip(plans, solution_ids) for n, f in enumerate(p.facts, 1)])
    return solution_ids


def _taken_columns(taken: list[tuple[int, dict[str, Any]]],
                   run_id: Callable[[Ref | None], int | None]) -> dict[str, list]:
    """The runs taken, one each, as the arrays _TAKE_RUNS reads: what the takings set, in order."""
    merged: dict[int, dict[str, Any]] = {}
    for taken_id, columns in taken:
        merged.setdefault(taken_id, {}).update(columns)
    return {"ids": list(merged), **{f"{name}s": [columns[name] for columns in merged.values()]
                                     for name in ("solution_id", "trial_id", "run_label", "scenario")},
            "sets_test": ["test_run_id" in columns for columns in merged.values()],
            "test_run_ids": [run_id(columns.get("test_run_id")) for columns in merged.values()]}


def _claim_run(spec: ClaimSpec, refs: dict[str, Ref], host_refs: dict[tuple[str, str], Ref]) -> Ref | None:
    """The run a claim is judged on: its run, or one host's report of that run's test (none when the test has
    no such host: a host's figure is never the test's sum)."""
    if not spec.run:
        return None
    if spec.host and any(label == spec.run for label, _ in host_refs):
        return host_refs.get((spec.run, spec.host.strip().casefold()))
    return refs.get(spec.run)


def _walk_run(walk: _Walk, plan: ManifestPlan, run: RunPlan, solution_id: int, new: bool,
              trial_ids: dict[tuple[int, str], int], twins: dict[int, set],
              attached: list[tuple[int, dict[str, Any]]]) -> Ref:
    """One run as the one-at-a-time writer made it: what it replaced, what it added or took."""
    spec = run.spec
    attach = {"solution_id": solution_id, "trial_id": trial_ids.get((solution_id, spec.trial)) if spec.trial else None,
              "run_label": spec.label, "scenario": spec.scenario}
    if run.hosts is not None:  # the test is made again on every load: its earlier self goes
        walk.drop(run.source_id, lambda _, origin, s, label: origin == "hosts" and s == solution_id
                  and label == spec.label, ids=run.hosts.earlier)
        ref = walk.add({"source_file_id": run.source_id, **run.hosts.columns, **attach})
        for report in run.hosts.reports:
            walk.take(report.id, {
                "test_run_id": ref, "solution_id": solution_id, "trial_id": None, "scenario": spec.scenario,
                "run_label": f"{spec.label} – {report.machine_name}" if report.machine_name else report.run_label})
        return ref
    if run.report_run is not None:
        attached.append((run.report_run, attach))
        return (0, run.report_run)
    if not new and not run.in_this_document:  # a run an earlier version of the manifest made from the table
        walk.drop(run.source_id, lambda _, origin, s, label: origin == "document_table" and s == solution_id
                  and label == spec.label)
    ref = walk.add({"source_file_id": run.source_id, "origin": "document_table", "report_type": "Performance",
                    "achieved_iops": None, "test_description": spec.description, **attach})
    if plan.provisional_source is None:  # a person's table run replaces the run ingest drafted from the same cells
        wanted = {(table_id, metric, float(value)) for metric, value, _, table_id, _ in run.values
                  if metric in ("total_iops", "achieved_iops")}  # the figures that make a run that run
        walk.drop(None, None, ids=[other for other, cells in twins.items() if wanted & cells])
    return ref


def _published_rows(values) -> list[dict[str, Any]]:
    return [{"metric": metric, "value": value, "value_printed": printed, "document_table_id": table_id,
             "row_labels": labels} for metric, value, printed, table_id, labels in values]


def _clear(session: WriterSession, plans: list[ManifestPlan], solutions: list[tuple[int, bool]], runs: set[int],
           published: set[int]) -> None:
    """Everything the batch replaces, in one statement: the disks and claims of solutions it did not make
    (and the facts of those a person's manifest confirms), the figures of runs it names, runs it replaces."""
    old = [s for s, new in solutions if not new]
    confirmed = [s for p, (s, new) in zip(plans, solutions) if not new and p.provisional_source is None]
    parts = [("solution_facts", "solution_id", confirmed), ("disks", "solution_id", old),
             ("claims", "solution_id", old), ("run_published_values", "run_id", sorted(published)), ("runs", "id", sorted(runs))]
    # Text, each id list an array: the parts vary, and SQLAlchemy compiled each set of them (and IN list length)
    # once in the command's new process. The statement the built one was: the last part, the others its CTEs.
    statements = [(f"DELETE FROM {table} WHERE {column} = ANY(CAST(:ids_{n} AS integer[]))", ids)
                  for n, (table, column, ids) in enumerate(parts) if ids]
    if not statements:
        return
    ctes = [f"cleared_{n} AS ({sql})" for n, (sql, _) in enumerate(statements[:-1])]
    session.execute(Sql(f"WITH {', '.join(ctes)} {statements[-1][0]}" if ctes else statements[-1][0]),
                    {f"ids_{n}": ids for n, (*_, ids) in enumerate(parts) if ids})


def _attach_evidence(session: WriterSession, run_id: int | None, run: RunPlan) -> None:
    """The manifest says which perfmon exports and power log belong to the run: link them directly."""
    from sqlalchemy import update  # a manifest naming evidence files alone

    from ...schema.tables import PerfCounter, PerfFile, PowerFile

    if run.perf_sources:
        session.execute(update(PerfFile).where(PerfFile.source_file_id.in_(run.perf_sources)).values(run_id=run_id))
        session.execute(update(PerfCounter).where(PerfCounter.source_file_id.in_(run.perf_sources))
                        .values(run_id=run_id))
    if run.power_source is not None:
        session.execute(update(PowerFile).where(PowerFile.source_file_id == run.power_source).values(run_id=run_id))


def _labelled_runs(session: WriterSession, wanted: set[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """The first run (by id) each solution holds under each label, as the catalogue holds them now."""
    if not wanted:
        return {}
    ordered = sorted(wanted)
    return {(s, label): run_id for s, label, run_id in session.execute(
        _LABELLED_RUNS, {"solution_ids": [s for s, _ in ordered], "labels": [label for _, label in ordered]})}


def take_over(session: WriterSession, source_file_ids: Iterable[int]) -> int:
    """Remove the provisional solutions of these documents that no run belongs to any more; how many.

    What a manifest does once it has taken the runs of the documents it names (ingest/load/provisional.py).
    """
    ids = list(source_file_ids)
    if not ids:
        return 0
    from sqlalchemy import CursorResult, delete, exists, select  # a person's manifest alone

    from ...schema.tables import Run, Solution

    orphaned = delete(Solution).where(
        Solution.provisional, Solution.derived_from_source_file_id.in_(ids),
        ~exists(select(Run.id).where(Run.solution_id == Solution.id)))
    return cast(CursorResult, session.execute(orphaned)).rowcount or 0
