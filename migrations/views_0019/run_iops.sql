-- title: Run IOPS
-- description: Achieved, log and total IOPS of every Performance or Stress run. Achieved IOPS is
--   the report's "Achieved (Transactional) I/O per Second" (database reads + writes per second);
--   log IOPS is the sum of the instances' (2010+) or log volumes' (2007) log writes per second;
--   total = achieved + log. Runs known only from a document's result table take that table's figures;
--   a test over several hosts (one report per host) takes its host reports' sums.
-- column solution: solution key (NULL when the run is not attached to a solution)
-- column achieved_iops: I/O operations per second
-- column log_iops: log writes per second
-- column total_iops: I/O operations per second
-- column iops_source: report (computed from the Jetstress report, or a test's host reports) or document_table (as printed)
-- Reads the per-run figures stored at ingest (run_figures, migration 0008): one table, no joins.
CREATE OR REPLACE VIEW run_iops AS
SELECT f.run_id, f.solution, f.trial, f.run_label, f.report_type,
       f.achieved_iops, f.log_iops, f.total_iops,
       CASE WHEN f.origin = 'document_table' THEN 'document_table' ELSE 'report' END AS iops_source,
       f.solution_id, f.trial_id
FROM run_figures f
WHERE f.report_type IN ('Performance', 'Stress');
