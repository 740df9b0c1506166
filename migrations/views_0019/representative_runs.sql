-- title: Representative runs
-- description: The one run that stands for each solution wherever one figure per solution is
--   shown (compare, the site's index and pages, the mailbox classes): a normal test before one
--   under an abnormal condition (a drive failure, a rebuild: runs.scenario), then the median run
--   of its largest trial, a Performance test before a Stress test, then the higher total IOPS,
--   then the earlier run. A run outside any trial is its own trial of one.
-- column run_id: the run that stands for the solution
-- column trial: its trial (none for a run outside any trial)
-- column runs_in_trial: how many runs that trial holds
CREATE OR REPLACE VIEW representative_runs AS
SELECT DISTINCT ON (m.solution) m.solution, m.solution_id, m.run_id, m.run_label, m.trial, m.runs_in_trial
FROM median_runs m
JOIN runs r ON r.id = m.run_id
WHERE m.is_median_run AND m.solution IS NOT NULL
ORDER BY m.solution, (r.scenario IS NULL) DESC, m.runs_in_trial DESC, (r.report_type = 'Performance') DESC,
         m.total_iops DESC NULLS LAST, m.run_id;
