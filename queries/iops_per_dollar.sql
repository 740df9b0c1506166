-- title: IOPS per dollar
-- description: Total IOPS of each run divided by its solution's list price, and the SPC
--   orientation, price per thousand IOPS. The price's currency and type are shown.
-- column total_iops_per_price_unit: total IOPS per unit of list_price_currency
-- column price_per_kiops_amount: price per 1,000 total IOPS, in list_price_currency
-- Read from run_value_figures (revision 0023): the ranked runs of priced solutions, kept at commit.
CREATE OR REPLACE VIEW iops_per_dollar AS
SELECT v.solution, v.trial, v.run_id, v.run_label, v.is_median_run, v.total_iops,
       v.list_price_amount, v.list_price_currency, v.list_price_type,
       v.total_iops / NULLIF(v.list_price_amount, 0)::float AS total_iops_per_price_unit,
       v.list_price_amount::float / NULLIF(v.total_iops / 1000.0, 0) AS price_per_kiops_amount
FROM run_value_figures v
WHERE v.list_price_amount IS NOT NULL;
