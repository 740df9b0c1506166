-- title: Median runs
-- description: For each trial (repeated runs of one configuration), every run ranked by total
--   IOPS, with the trial's median run marked and the trial's minimum, maximum and spread. With
--   an even number of runs the lower of the two middle runs is the median. A run outside any
--   trial is its own trial of one. A test run on several hosts is ranked as one run (its host
--   reports' sums); its host reports are not ranked.
-- column is_median_run: true for the run whose total IOPS is the trial's median
-- column spread_percent: (max - min) / median total IOPS x 100
-- The ranking is stored per run at ingest (run_figures, migration 0008), not recomputed per call.
CREATE OR REPLACE VIEW median_runs AS
SELECT f.solution, f.trial, f.run_id, f.run_label, f.total_iops, f.achieved_iops, f.log_iops,
       f.trial_rank_ordinal AS rank_in_trial, f.trial_run_count AS runs_in_trial, f.is_median_run,
       f.trial_min_total_iops, f.trial_max_total_iops, f.spread_percent,
       CASE WHEN f.origin = 'document_table' THEN 'document_table' ELSE 'report' END AS iops_source,
       f.solution_id, f.trial_id
FROM run_figures f
WHERE f.trial_rank_ordinal IS NOT NULL;
