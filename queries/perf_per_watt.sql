-- title: Performance per watt
-- description: Total IOPS of each run divided by its average active power: measured from the
--   run's power log when it has one, else the power a document's table prints for that run, else
--   the solution's figure (a manifest's, or a provisional solution's as its document prints it).
--   The power boundary (enclosure and drives, drives only, system) is shown because figures with
--   different boundaries do not compare.
-- column total_iops_per_w: total IOPS per active watt
-- column power_source: power_log, document_table or manifest
-- Read from run_value_figures (revision 0023): each ranked run's power resolved as above, kept at commit.
CREATE OR REPLACE VIEW perf_per_watt AS
SELECT v.solution, v.trial, v.run_id, v.run_label, v.is_median_run, v.total_iops,
       v.active_power_w, v.idle_power_w, v.power_boundary,
       v.total_iops / NULLIF(v.active_power_w, 0) AS total_iops_per_w,
       v.power_source
FROM run_value_figures v
WHERE v.active_power_w IS NOT NULL;
