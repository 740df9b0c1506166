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
-- Reads the stored rows (mailbox_class_rank_rows, revision 0025) while they are fresh: each writer
-- rebuilds them once at the end of its batch. Until then (built_write_count short of write_count) the
-- ranks are computed here from the stored designs as before (mailbox_class_ranks_computed(), in
-- queries/mailbox_class_rank_rows.sql): slower, never different. The freshness is one row, read once.
CREATE OR REPLACE VIEW mailbox_class_ranks AS
SELECT r.mailbox_class, r.mailbox_class_order, r.solution, r.mailbox_count, r.run_id, r.jetstress_release,
       r.report_type, r.iops_per_mailbox, r.total_iops, r.total_iops_rank, r.db_read_latency_ms,
       r.db_read_latency_rank, r.logs_per_s_per_server, r.log_replay_rank, r.like_for_like
FROM mailbox_class_rank_rows r
WHERE coalesce((SELECT f.built_write_count = f.write_count FROM mailbox_class_ranks_freshness f), false)
UNION ALL
SELECT c.mailbox_class, c.mailbox_class_order, c.solution, c.mailbox_count, c.run_id, c.jetstress_release,
       c.report_type, c.iops_per_mailbox, c.total_iops, c.total_iops_rank, c.db_read_latency_ms,
       c.db_read_latency_rank, c.logs_per_s_per_server, c.log_replay_rank, c.like_for_like
FROM mailbox_class_ranks_computed() c
WHERE NOT coalesce((SELECT f.built_write_count = f.write_count FROM mailbox_class_ranks_freshness f), false);
