-- title: Dollars per thousand IOPS
-- description: The SPC orientation of IOPS per dollar: list price divided by total IOPS / 1,000
--   (lower is better), per run, in the price's own currency.
-- column price_per_kiops_amount: price per 1,000 total IOPS, in list_price_currency
CREATE OR REPLACE VIEW dollars_per_kiops AS
SELECT solution, trial, run_id, run_label, is_median_run, total_iops, list_price_amount, list_price_currency,
       list_price_type, price_per_kiops_amount
FROM iops_per_dollar;
