-- title: Run summary
-- description: One line per run: what was tested, the verdict, and the ESRP "Storage Performance
--   Results" figures computed from the report's instances (sums of rates, averages of latencies).
-- column db_reads_per_s: sum over database instances/volumes
-- column db_read_latency_ms: average over database instances/volumes
-- column log_write_latency_ms: average over instances (2010+) or log volumes (2007)
CREATE OR REPLACE VIEW run_summary AS
WITH io AS (
    SELECT l.run_id,
           count(DISTINCT l.instance_id) FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS database_instances,
           sum(l.db_reads_per_s) AS db_reads_per_s,
           sum(l.db_writes_per_s) AS db_writes_per_s,
           avg(l.db_read_latency_ms) FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS db_read_latency_ms,
           avg(l.db_write_latency_ms) FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS db_write_latency_ms,
           avg(l.log_write_latency_ms) FILTER (WHERE i.volume_role IS DISTINCT FROM 'database') AS log_write_latency_ms
    FROM latencies l
    JOIN instances i ON i.id = l.instance_id
    WHERE l.scope IN ('transactional', 'disk_subsystem')
    GROUP BY l.run_id
)
SELECT r.id AS run_id, s.key AS solution, t.label AS trial, r.run_label, r.report_type, r.jetstress_release,
       r.machine_name, r.test_start, r.reported_verdict AS verdict, ri.achieved_iops, ri.log_iops, ri.total_iops,
       r.target_iops, io.database_instances, io.db_reads_per_s, io.db_writes_per_s,
       io.db_read_latency_ms, io.db_write_latency_ms, ri.log_iops AS log_writes_per_s, io.log_write_latency_ms,
       ri.iops_source
FROM runs r
LEFT JOIN run_iops ri ON ri.run_id = r.id
LEFT JOIN io ON io.run_id = r.id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN trials t ON t.id = r.trial_id;
