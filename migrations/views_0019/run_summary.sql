-- title: Run summary
-- description: One line per run: what was tested, the verdict, and the ESRP "Storage Performance
--   Results" figures computed from the report's instances (sums of rates, averages of latencies).
--   A test run on several hosts (no machine name) sums its host reports' rates and instances and
--   weights their latencies by each host's achieved IOPS (database) or log IOPS (log).
-- column db_reads_per_s: sum over database instances/volumes
-- column db_read_latency_ms: average over database instances/volumes
-- column log_write_latency_ms: average over instances (2010+) or log volumes (2007)
-- Reads the per-run figures stored at ingest (run_figures, migration 0008): one table, no joins.
CREATE OR REPLACE VIEW run_summary AS
SELECT f.run_id, f.solution, f.trial, f.run_label, f.report_type, f.jetstress_release,
       f.machine_name, f.test_start, f.reported_verdict AS verdict, f.achieved_iops, f.log_iops, f.total_iops,
       f.target_iops, f.database_instance_count AS database_instances, f.db_reads_per_s, f.db_writes_per_s,
       f.db_read_latency_ms, f.db_write_latency_ms, f.log_iops AS log_writes_per_s, f.log_write_latency_ms,
       CASE WHEN f.report_type NOT IN ('Performance', 'Stress') THEN NULL
            WHEN f.origin = 'document_table' THEN 'document_table' ELSE 'report' END AS iops_source
FROM run_figures f;
