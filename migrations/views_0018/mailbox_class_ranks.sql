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
CREATE OR REPLACE VIEW mailbox_class_ranks AS
WITH representative AS (
    SELECT solution, run_id FROM representative_runs
), ranked AS (
    SELECT d.mailbox_class, d.mailbox_class_order, d.solution, d.mailbox_count, d.iops_per_mailbox,
           rs.run_id, rs.jetstress_release, rs.report_type, rs.total_iops, rs.db_read_latency_ms,
           e.logs_per_s_per_server
    FROM test_designs d
    LEFT JOIN representative p ON p.solution = d.solution
    LEFT JOIN run_summary rs ON rs.run_id = p.run_id
    LEFT JOIN esrp_tests e ON e.solution = d.solution
    WHERE d.mailbox_class IS NOT NULL
), classes AS (
    SELECT mailbox_class_order, count(DISTINCT jetstress_release) <= 1 AND count(DISTINCT report_type) <= 1
               AND count(DISTINCT iops_per_mailbox) <= 1 AS like_for_like
    FROM ranked GROUP BY mailbox_class_order
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
