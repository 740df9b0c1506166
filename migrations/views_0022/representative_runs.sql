-- title: Representative runs
-- description: The one run that stands for each solution wherever one figure per solution is
--   shown (compare, the site's index and pages, the mailbox classes): a normal test before one
--   under an abnormal condition (a drive failure, a rebuild: runs.scenario), then the median run
--   of its largest trial, a Performance test before a Stress test, then the higher total IOPS,
--   then the earlier run. A run outside any trial is its own trial of one.
-- column run_id: the run that stands for the solution
-- column trial: its trial (none for a run outside any trial)
-- column runs_in_trial: how many runs that trial holds
-- The choice is stored per solution when its runs' figures are (solution_designs, revision 0022).
CREATE OR REPLACE VIEW representative_runs AS
SELECT d.solution, d.solution_id, d.representative_run_id AS run_id, d.run_label, d.trial,
       d.trial_run_count AS runs_in_trial
FROM solution_designs d
WHERE d.representative_run_id IS NOT NULL
ORDER BY d.solution;
