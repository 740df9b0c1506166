-- One solution's rows of mailbox_class_ranks, without ranking its whole class (revision 0024).
--
-- A rank in the view is rank() over the class, best first, rows without the figure last; for a row
-- with the figure that is 1 + the count of the class's rows with a better one, and like_for_like is
-- the class's min = max. So one solution needs its class counted, not sorted three ways: the class's
-- rows are an index range of solution_designs (ix_solution_designs_mailbox_count, which carries the
-- figures counted), read once. Same columns and rows as
--   SELECT * FROM mailbox_class_ranks WHERE solution = solution_key
-- (a solution in two classes, if the owner's bounds overlap, has a row in each, as in the view).
-- The log replay rate is esrp_tests' (the average of the solution's log_replay rows) read from
-- log_replay with the solution's filter, which reaches its indexes; esrp_tests' full join would read
-- every solution's backup and replay rows first. Only a solution with a rate counts its class's rates.
-- `esrpdb query mailbox-class-ranks -p solution=KEY` reads it (queries/canned.py, ONE_SOLUTION).
-- Revision 0025: while the stored rows are fresh (mailbox_class_rank_rows, queries/mailbox_class_rank_rows.sql)
-- the solution's rows are read from them by their key; the count below runs only while they are stale.
-- This file is the live definition; revisions 0024 and 0025 run frozen copies (migrations/views_0024/,
-- views_0025/), and tests/test_views_at_their_rows.py holds this file to what the newest revision built.
CREATE OR REPLACE FUNCTION mailbox_class_ranks_of(solution_key text) RETURNS SETOF mailbox_class_ranks
LANGUAGE sql STABLE AS $fn$
SELECT r.mailbox_class, r.mailbox_class_order, r.solution, r.mailbox_count, r.run_id, r.jetstress_release,
       r.report_type, r.iops_per_mailbox, r.total_iops, r.total_iops_rank, r.db_read_latency_ms,
       r.db_read_latency_rank, r.logs_per_s_per_server, r.log_replay_rank, r.like_for_like
FROM mailbox_class_rank_rows r
WHERE r.solution = solution_key
  AND coalesce((SELECT f.built_write_count = f.write_count FROM mailbox_class_ranks_freshness f), false)
UNION ALL
(WITH mine AS (
    SELECT k.label AS mailbox_class, k.class_ordinal AS mailbox_class_order, k.min_mailbox_count,
           coalesce(k.max_mailbox_count, 2147483647) AS max_mailbox_count, d.solution, d.mailbox_count,
           d.representative_run_id AS run_id, d.jetstress_release, d.report_type, d.iops_per_mailbox, d.total_iops,
           d.db_read_latency_ms,
           (SELECT avg(l.logs_per_s_per_server) FROM log_replay l WHERE l.solution = d.solution) AS logs_per_s_per_server
    FROM solution_designs d
    JOIN mailbox_classes k
      ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count)
    WHERE d.solution = solution_key
)
SELECT m.mailbox_class, m.mailbox_class_order, m.solution, m.mailbox_count, m.run_id, m.jetstress_release,
       m.report_type, m.iops_per_mailbox, m.total_iops,
       CASE WHEN m.total_iops IS NOT NULL THEN 1 + c.better_iops END AS total_iops_rank,
       m.db_read_latency_ms,
       CASE WHEN m.db_read_latency_ms IS NOT NULL THEN 1 + c.better_latency END AS db_read_latency_rank,
       m.logs_per_s_per_server,
       CASE WHEN m.logs_per_s_per_server IS NOT NULL THEN 1 + (  -- only the class's solutions with a replay figure
           SELECT count(*) FROM (
               SELECT avg(l.logs_per_s_per_server) AS logs_per_s_per_server
               FROM log_replay l
               JOIN solution_designs o ON o.solution = l.solution
               WHERE o.mailbox_count >= m.min_mailbox_count AND o.mailbox_count <= m.max_mailbox_count
               GROUP BY l.solution) e
           WHERE e.logs_per_s_per_server > m.logs_per_s_per_server) END AS log_replay_rank,
       c.like_for_like
FROM mine m
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE o.total_iops > m.total_iops) AS better_iops,
           count(*) FILTER (WHERE o.db_read_latency_ms < m.db_read_latency_ms) AS better_latency,
           coalesce(min(o.jetstress_release) = max(o.jetstress_release), true)
             AND coalesce(min(o.report_type) = max(o.report_type), true)
             AND coalesce(min(o.iops_per_mailbox) = max(o.iops_per_mailbox), true) AS like_for_like
    FROM solution_designs o
    WHERE o.mailbox_count >= m.min_mailbox_count AND o.mailbox_count <= m.max_mailbox_count
) c
WHERE NOT coalesce((SELECT f.built_write_count = f.write_count FROM mailbox_class_ranks_freshness f), false))
$fn$;
