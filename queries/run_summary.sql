-- title: Run summary
-- description: One line per run: what was tested, the verdict, and the ESRP "Storage Performance
--   Results" figures computed from the report's instances (sums of rates, averages of latencies).
-- column db_reads_per_s: sum over database instances/volumes
-- column db_read_latency_ms: average over database instances/volumes
-- column log_write_latency_ms: average over instances (2010+) or log volumes (2007)
-- Figures stored per run at ingest (table run_figures, migration 0008).
CREATE OR REPLACE VIEW run_summary AS
SELECT r.id AS run_id, s.key AS solution, t.label AS trial, r.run_label, r.report_type, r.jetstress_release,
       r.machine_name, r.test_start, r.reported_verdict AS verdict, f.achieved_iops, f.log_iops, f.total_iops,
       r.target_iops, f.database_instance_count AS database_instances, f.db_reads_per_s, f.db_writes_per_s,
       f.db_read_latency_ms, f.db_write_latency_ms, f.log_iops AS log_writes_per_s, f.log_write_latency_ms,
       CASE WHEN r.report_type NOT IN ('Performance', 'Stress') THEN NULL
            WHEN r.origin = 'report' THEN 'report' ELSE 'document_table' END AS iops_source
FROM runs r
LEFT JOIN run_figures f ON f.run_id = r.id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN trials t ON t.id = r.trial_id;
