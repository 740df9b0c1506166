"""Move already-ingested runs to another solution: the mend for a wrong or missing `--solution`.

Re-ingesting a file only says "skipped" (its SHA-256 is known), so a run that landed in the
wrong solution, or in none, is moved here instead; each move is kept in `run_assignments`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.orm import Session

from ...schema import Run, RunAssignment, RunSource, Solution, SourceFile
from .known_files import sha256_of
from .rows import solution_id_for


class NothingToAssign(LookupError):
    """The target names no ingested file and no run."""


@dataclass
class Assignment:
    solution: str
    run_ids: list[int]
    moved_from: dict[int, str | None]  # run id -> the solution key it had


def _runs_named(session: Session, target: str) -> tuple[list[int], str]:
    if target.isdigit():
        run = session.get(Run, int(target))
        if run is None:
            raise NothingToAssign(f"no run {target} in the catalogue (see `esrpdb runs` for run ids)")
        return [run.id], f"run {target}"
    path = Path(target)
    source = None
    if path.is_file():
        source = session.scalars(select(SourceFile).where(SourceFile.sha256 == sha256_of(path))).first()
    if source is None:
        source = session.scalars(select(SourceFile).where(
            (SourceFile.path == str(path)) | (SourceFile.path == str(path.resolve())))).first()
    if source is None:
        raise NothingToAssign(f"{target}: no ingested file has this content or path (ingest it first)")
    # A report seen in several files is one run: any of its sources names it.
    seen_in = select(RunSource.run_id).where(RunSource.source_file_id == source.id)
    runs = list(session.scalars(select(Run.id).where((Run.source_file_id == source.id) | Run.id.in_(seen_in))
                                .order_by(Run.id)))
    if not runs:
        raise NothingToAssign(f"{target}: this ingested file holds no run")
    return runs, f"file {source.file_name} ({source.sha256})"


def _with_their_tests(session: Session, run_ids: list[int]) -> list[int]:
    """A test over several hosts moves whole: a host report brings its test, a test its host reports."""
    tests = select(Run.test_run_id).where(Run.id.in_(run_ids), Run.test_run_id.is_not(None))
    whole = select(Run.id).where(Run.id.in_(run_ids) | Run.id.in_(tests) | Run.test_run_id.in_(run_ids)
                                 | Run.test_run_id.in_(tests))
    return sorted(session.scalars(whole))


def assign(engine: Engine, target: str, solution_key: str, *, new_solution: bool = False) -> Assignment:
    """Every run of `target` (a run id, or an ingested file) now belongs to `solution_key`."""
    from ...schema.keys import require_solutions

    if not new_solution:
        require_solutions(engine, solution_key)
    with Session(engine) as session, session.begin():
        run_ids, reason = _runs_named(session, target)
        run_ids = _with_their_tests(session, run_ids)
        solution_id = solution_id_for(session, solution_key)
        previous = dict(session.execute(
            select(Run.id, Solution.key).outerjoin(Solution, Solution.id == Run.solution_id)
            .where(Run.id.in_(run_ids))).all())
        before = dict(session.execute(select(Run.id, Run.solution_id).where(Run.id.in_(run_ids))).all())
        moving = [run for run in run_ids if before[run] != solution_id]
        if moving:
            session.execute(update(Run).where(Run.id.in_(moving)).values(solution_id=solution_id, trial_id=None))
            session.execute(insert(RunAssignment), [
                {"run_id": run, "from_solution_id": before[run], "to_solution_id": solution_id, "reason": reason}
                for run in moving])
    if moving:
        from ...db.class_ranks import rebuild_class_ranks

        rebuild_class_ranks(engine)  # runs moved: the class ranks read stored rows again
    return Assignment(solution_key, moving, {run: previous.get(run) for run in moving})
