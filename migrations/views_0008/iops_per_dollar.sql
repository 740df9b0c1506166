-- title: IOPS per dollar
-- description: Total IOPS of each run divided by its solution's list price, and the SPC
--   orientation, price per thousand IOPS. The price's currency and type are shown.
-- column total_iops_per_price_unit: total IOPS per unit of list_price_currency
-- column price_per_kiops_amount: price per 1,000 total IOPS, in list_price_currency
CREATE OR REPLACE VIEW iops_per_dollar AS
SELECT m.solution, m.trial, m.run_id, m.run_label, m.is_median_run, m.total_iops,
       s.list_price_amount, s.list_price_currency, s.list_price_type,
       m.total_iops / NULLIF(s.list_price_amount, 0)::float AS total_iops_per_price_unit,
       s.list_price_amount::float / NULLIF(m.total_iops / 1000.0, 0) AS price_per_kiops_amount
FROM median_runs m
JOIN solutions s ON s.id = m.solution_id
WHERE s.list_price_amount IS NOT NULL;
