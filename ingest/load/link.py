"""Match evidence files to the run they belong to, after every ingest batch.

A config, log, perfmon export or power log is linked when it sits in the same folder as a
run's report, or else by what it says: the machine and time window of a perfmon export,
the time window of a log or power log, the database paths of a config. Idempotent: only
unlinked rows are touched, and run power is recomputed from the linked samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...db.sessions import as_writer
from ...db.statements import Sql

if TYPE_CHECKING:
    from ...db.sessions import WriterSession

IDLE_WINDOW_S = 120

_FOLDER = r"regexp_replace({}, '[/\\][^/\\]*$', '')"
# A run's files (rf): the file it was read from, and every other file that prints the same report
# (run_sources); evidence beside any of them belongs to the run.
_RUN_FILES = """JOIN source_files rf ON rf.id = r.source_file_id
        OR rf.id IN (SELECT rs.source_file_id FROM run_sources rs WHERE rs.run_id = r.id)"""

_LINK_CONFIGS = Sql(f"""
UPDATE test_configs c SET run_id = pick.run_id
FROM (
    SELECT DISTINCT ON (c2.source_file_id) c2.source_file_id, r.id AS run_id
    FROM test_configs c2
    JOIN source_files cf ON cf.id = c2.source_file_id
    JOIN runs r ON TRUE
    {_RUN_FILES}
    WHERE c2.run_id IS NULL
      AND (
        {_FOLDER.format('cf.path')} = {_FOLDER.format('rf.path')}
        OR EXISTS (
            SELECT 1 FROM config_instances ci, unnest(ci.database_paths) AS cp(path),
                          instances i, unnest(i.database_paths) AS ip(path)
            WHERE ci.source_file_id = c2.source_file_id AND i.run_id = r.id
              AND lower(ip.path) LIKE lower(cp.path) || '%'
        )
      )
    ORDER BY c2.source_file_id, (r.solution_id IS NOT NULL) DESC, (r.report_type = c2.test_type) DESC, r.id
) pick
WHERE c.source_file_id = pick.source_file_id
""")



def _link_by_local_window(table: str, first: str, last: str) -> str:
    """Link files whose local-time span overlaps a run's test window (logs, power logs).

    Preference: a run attached to a solution, then one in the same folder, then the run whose
    start is nearest the file's first timestamp.
    """
    return f"""
UPDATE {table} f SET run_id = pick.run_id
FROM (
    SELECT DISTINCT ON (f2.source_file_id) f2.source_file_id, r.id AS run_id
    FROM {table} f2
    JOIN source_files ff ON ff.id = f2.source_file_id
    JOIN runs r ON r.test_start IS NOT NULL AND r.test_end IS NOT NULL
    {_RUN_FILES}
    WHERE f2.run_id IS NULL
      AND f2.{first} <= r.test_end AND f2.{last} >= r.test_start
    ORDER BY f2.source_file_id, (r.solution_id IS NOT NULL) DESC,
             ({_FOLDER.format('ff.path')} = {_FOLDER.format('rf.path')}) DESC,
             abs(extract(epoch FROM f2.{first} - r.test_start)), r.id
) pick
WHERE f.source_file_id = pick.source_file_id
"""


_LINK_LOGS = Sql(_link_by_local_window("test_logs", "first_event_at", "last_event_at"))

# perfmon timestamps are UTC; runs print local time: local = UTC - bias minutes.
_LINK_PERF = Sql(f"""
UPDATE perf_files p SET run_id = pick.run_id
FROM (
    SELECT DISTINCT ON (p2.source_file_id) p2.source_file_id, r.id AS run_id
    FROM perf_files p2
    JOIN source_files pf ON pf.id = p2.source_file_id
    JOIN runs r ON r.test_start IS NOT NULL AND r.test_end IS NOT NULL
    {_RUN_FILES}
    WHERE p2.run_id IS NULL
      AND (p2.machine IS NULL OR r.machine_name IS NULL OR lower(p2.machine) = lower(r.machine_name))
      AND (p2.first_sample_at AT TIME ZONE 'UTC') - make_interval(mins => COALESCE(p2.bias_minutes, 0)) <= r.test_end
      AND (p2.last_sample_at AT TIME ZONE 'UTC') - make_interval(mins => COALESCE(p2.bias_minutes, 0)) >= r.test_start
    ORDER BY p2.source_file_id, (r.solution_id IS NOT NULL) DESC,
             (lower(p2.machine) = lower(r.machine_name)) DESC NULLS LAST,
             ({_FOLDER.format('pf.path')} = {_FOLDER.format('rf.path')}) DESC, r.id
) pick
WHERE p.source_file_id = pick.source_file_id
""")

_PROPAGATE_PERF = Sql("""
UPDATE perf_counters c SET run_id = p.run_id
FROM perf_files p WHERE p.source_file_id = c.source_file_id AND c.run_id IS DISTINCT FROM p.run_id
""")

_LINK_POWER = Sql(_link_by_local_window("power_files", "first_sample_at", "last_sample_at"))

# Idle: the window just before the run; active: the run itself (DESIGN: performance per watt).
_RUN_POWER = Sql("""
INSERT INTO run_power (run_id, source_file_id, idle_power_w, active_power_w, boundary)
SELECT r.id, w.source_file_id,
       (SELECT avg(s.power_w) FROM power_samples s WHERE s.source_file_id = w.source_file_id
          AND s.sampled_at >= r.test_start - make_interval(secs => :idle_window_s) AND s.sampled_at < r.test_start),
       (SELECT avg(s.power_w) FROM power_samples s WHERE s.source_file_id = w.source_file_id
          AND s.sampled_at >= r.test_start AND s.sampled_at < r.test_end),
       sol.power_boundary
FROM power_files w
JOIN runs r ON r.id = w.run_id
LEFT JOIN solutions sol ON sol.id = r.solution_id
ON CONFLICT (run_id) DO UPDATE SET
    source_file_id = EXCLUDED.source_file_id, idle_power_w = EXCLUDED.idle_power_w,
    active_power_w = EXCLUDED.active_power_w, boundary = EXCLUDED.boundary
""")


def _rowcount(session: WriterSession, sql: Sql) -> int:
    return session.execute(sql).rowcount


# Which statements below can touch a row at all: each is skipped when its driving rows do not exist (a
# catalogue of documents alone has no evidence, and the six statements cost ~30 ms of every ingest).
_WORK = Sql("""
SELECT EXISTS (SELECT 1 FROM test_configs WHERE run_id IS NULL) AS configs,
       EXISTS (SELECT 1 FROM test_logs WHERE run_id IS NULL) AS logs,
       EXISTS (SELECT 1 FROM perf_files WHERE run_id IS NULL) AS perfmon,
       EXISTS (SELECT 1 FROM power_files WHERE run_id IS NULL) AS power,
       EXISTS (SELECT 1 FROM perf_files) AS any_perfmon,
       EXISTS (SELECT 1 FROM power_files) AS any_power
""")


def link_evidence(session: WriterSession, *, idle_window_s: int = IDLE_WINDOW_S) -> dict[str, int]:
    """Link what can be linked; returns how many files of each kind were linked now."""
    session = as_writer(session)
    work = session.execute(_WORK).one()
    linked = {kind: _rowcount(session, sql) if getattr(work, kind) else 0
              for kind, sql in (("configs", _LINK_CONFIGS), ("logs", _LINK_LOGS), ("perfmon", _LINK_PERF),
                                ("power", _LINK_POWER))}
    if work.any_perfmon:
        session.execute(_PROPAGATE_PERF)
    if work.any_power:
        session.execute(_RUN_POWER, {"idle_window_s": idle_window_s})
    return linked
