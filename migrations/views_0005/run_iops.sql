-- title: Run IOPS
-- description: Achieved, log and total IOPS of every Performance or Stress run. Achieved IOPS is
--   the report's "Achieved (Transactional) I/O per Second" (database reads + writes per second);
--   log IOPS is the sum of the instances' (2010+) or log volumes' (2007) log writes per second;
--   total = achieved + log. Runs known only from a document's result table take that table's figures.
-- column solution: solution key (NULL when the run is not attached to a solution)
-- column achieved_iops: I/O operations per second
-- column log_iops: log writes per second
-- column total_iops: I/O operations per second
-- column iops_source: report (computed from the Jetstress report) or document_table (as printed)
CREATE OR REPLACE VIEW run_iops AS
WITH report_log AS (
    SELECT run_id, sum(log_writes_per_s) AS log_iops
    FROM latencies
    WHERE scope IN ('transactional', 'disk_subsystem')
    GROUP BY run_id
),
published AS (
    SELECT run_id,
           max(value) FILTER (WHERE metric = 'achieved_iops') AS achieved_iops,
           max(value) FILTER (WHERE metric = 'log_iops') AS log_iops,
           max(value) FILTER (WHERE metric = 'total_iops') AS total_iops
    FROM run_published_values
    GROUP BY run_id
),
figures AS (
    SELECT r.id AS run_id,
           CASE WHEN r.origin = 'report' THEN r.achieved_iops ELSE p.achieved_iops END AS achieved_iops,
           CASE WHEN r.origin = 'report' THEN rl.log_iops
                ELSE COALESCE(p.log_iops, p.total_iops - p.achieved_iops) END AS log_iops,
           CASE WHEN r.origin = 'report' THEN r.achieved_iops + rl.log_iops
                ELSE COALESCE(p.total_iops, p.achieved_iops + p.log_iops) END AS total_iops
    FROM runs r
    LEFT JOIN report_log rl ON rl.run_id = r.id
    LEFT JOIN published p ON p.run_id = r.id
)
SELECT r.id AS run_id, s.key AS solution, t.label AS trial, r.run_label, r.report_type,
       f.achieved_iops, f.log_iops, f.total_iops,
       CASE WHEN r.origin = 'report' THEN 'report' ELSE 'document_table' END AS iops_source,
       r.solution_id, r.trial_id
FROM runs r
JOIN figures f ON f.run_id = r.id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN trials t ON t.id = r.trial_id
WHERE r.report_type IN ('Performance', 'Stress');
