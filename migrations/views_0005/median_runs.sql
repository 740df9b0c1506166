-- title: Median runs
-- description: For each trial (repeated runs of one configuration), every run ranked by total
--   IOPS, with the trial's median run marked and the trial's minimum, maximum and spread. With
--   an even number of runs the lower of the two middle runs is the median. A run outside any
--   trial is its own trial of one.
-- column is_median_run: true for the run whose total IOPS is the trial's median
-- column spread_percent: (max - min) / median total IOPS x 100
CREATE OR REPLACE VIEW median_runs AS
WITH ranked AS (
    SELECT ri.*,
           COALESCE(ri.trial_id::text, 'run ' || ri.run_id) AS trial_key,
           row_number() OVER w AS rank_in_trial,
           count(*) OVER (PARTITION BY ri.solution_id, COALESCE(ri.trial_id::text, 'run ' || ri.run_id)) AS runs_in_trial
    FROM run_iops ri
    WHERE ri.total_iops IS NOT NULL
    WINDOW w AS (PARTITION BY ri.solution_id, COALESCE(ri.trial_id::text, 'run ' || ri.run_id) ORDER BY ri.total_iops, ri.run_id)
),
trial_stats AS (
    SELECT solution_id, trial_key,
           min(total_iops) AS trial_min_total_iops,
           max(total_iops) AS trial_max_total_iops,
           max(total_iops) FILTER (WHERE rank_in_trial = (runs_in_trial + 1) / 2) AS trial_median_total_iops
    FROM ranked
    GROUP BY solution_id, trial_key
)
SELECT r.solution, r.trial, r.run_id, r.run_label, r.total_iops, r.achieved_iops, r.log_iops,
       r.rank_in_trial, r.runs_in_trial,
       (r.rank_in_trial = (r.runs_in_trial + 1) / 2) AS is_median_run,
       ts.trial_min_total_iops, ts.trial_max_total_iops,
       (ts.trial_max_total_iops - ts.trial_min_total_iops) / NULLIF(ts.trial_median_total_iops, 0) * 100 AS spread_percent,
       r.iops_source, r.solution_id, r.trial_id
FROM ranked r
JOIN trial_stats ts ON ts.solution_id IS NOT DISTINCT FROM r.solution_id AND ts.trial_key = r.trial_key;
