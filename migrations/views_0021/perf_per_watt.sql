-- title: Performance per watt
-- description: Total IOPS of each run divided by its average active power: measured from the
--   run's power log when it has one, else the power a document's table prints for that run, else
--   the solution's figure (a manifest's, or a provisional solution's as its document prints it).
--   The power boundary (enclosure and drives, drives only, system) is shown because figures with
--   different boundaries do not compare.
-- column total_iops_per_w: total IOPS per active watt
-- column power_source: power_log, document_table or manifest
CREATE OR REPLACE VIEW perf_per_watt AS
SELECT m.solution, m.trial, m.run_id, m.run_label, m.is_median_run, m.total_iops,
       COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w) AS active_power_w,
       COALESCE(rp.idle_power_w, pv.idle_power_w, s.idle_power_w) AS idle_power_w,
       COALESCE(rp.boundary, s.power_boundary) AS power_boundary,
       m.total_iops / NULLIF(COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w), 0) AS total_iops_per_w,
       CASE WHEN rp.active_power_w IS NOT NULL THEN 'power_log'
            WHEN pv.active_power_w IS NOT NULL THEN 'document_table'
            ELSE 'manifest' END AS power_source
FROM median_runs m
JOIN solutions s ON s.id = m.solution_id
LEFT JOIN run_power rp ON rp.run_id = m.run_id
LEFT JOIN (  -- every run's published power at once (a partial index holds just these rows), not one lookup a run
    SELECT v.run_id, max(v.value) FILTER (WHERE v.metric = 'active_power_w') AS active_power_w,
           max(v.value) FILTER (WHERE v.metric = 'idle_power_w') AS idle_power_w
    FROM run_published_values v
    WHERE v.metric IN ('active_power_w', 'idle_power_w')
    GROUP BY v.run_id
) pv ON pv.run_id = m.run_id
WHERE COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w) IS NOT NULL;
