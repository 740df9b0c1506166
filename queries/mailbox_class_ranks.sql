-- title: Ranks within mailbox classes
-- description: Systems ranked within classes of mailbox count (test-design, bounds in table
--   mailbox_classes), as the published ESRP catalogue compared them: by total IOPS of the
--   solution's representative run (representative-runs), by
--   database read latency of that run (lowest first) and by log replay rate (esrp-tests). Rank 1 is
--   best; a solution without the figure has no rank. like_for_like is false when the class mixes
--   Jetstress releases, test types or IOPS per mailbox, as compare warns for two solutions.
-- column mailbox_class: the class of the solution's mailbox count
-- column total_iops: the median run's achieved + log IOPS
-- column total_iops_rank: rank in the class by total_iops, highest first
-- column db_read_latency_ms: the median run's average database read latency, ms
-- column db_read_latency_rank: rank in the class by read latency, lowest first
-- column logs_per_s_per_server: log replay rate (esrp-tests)
-- column log_replay_rank: rank in the class by log replay rate, highest first
-- column like_for_like: every solution in the class ran the same release, test type and IOPS per mailbox
-- Reads each solution's stored design and representative run (solution_designs, revision 0022); only
-- the class (its bounds may change) and the ranks within it are computed here.
CREATE OR REPLACE VIEW mailbox_class_ranks AS
WITH ranked AS (
    SELECT k.label AS mailbox_class, k.class_ordinal AS mailbox_class_order, d.solution, d.mailbox_count,
           d.iops_per_mailbox, d.representative_run_id AS run_id, d.jetstress_release, d.report_type, d.total_iops,
           d.db_read_latency_ms, e.logs_per_s_per_server
    FROM solution_designs d
    JOIN mailbox_classes k
      ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count)
    LEFT JOIN esrp_tests e ON e.solution = d.solution
), classes AS (  -- one release, test type and IOPS per mailbox at most (min = max: no sort of each class)
    SELECT k.class_ordinal AS mailbox_class_order,
           coalesce(min(d.jetstress_release) = max(d.jetstress_release), true)
             AND coalesce(min(d.report_type) = max(d.report_type), true)
             AND coalesce(min(d.iops_per_mailbox) = max(d.iops_per_mailbox), true) AS like_for_like
    FROM solution_designs d
    JOIN mailbox_classes k
      ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count)
    GROUP BY k.class_ordinal
)
SELECT mailbox_class, mailbox_class_order, solution, mailbox_count, run_id, jetstress_release, report_type,
       iops_per_mailbox, total_iops,
       CASE WHEN total_iops IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY total_iops DESC NULLS LAST) END
           AS total_iops_rank,
       db_read_latency_ms,
       CASE WHEN db_read_latency_ms IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY db_read_latency_ms ASC NULLS LAST) END
           AS db_read_latency_rank,
       logs_per_s_per_server,
       CASE WHEN logs_per_s_per_server IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY logs_per_s_per_server DESC NULLS LAST) END
           AS log_replay_rank,
       c.like_for_like
FROM ranked
JOIN classes c USING (mailbox_class_order);
