-- title: MB per dollar
-- description: Usable capacity in MB (2^20 bytes) divided by list price: the whitepapers'
--   "useable megabytes per dollar".
-- column usable_mb: usable capacity in MB (2^20 bytes)
-- column usable_mb_per_price_unit: usable MB per unit of list_price_currency
CREATE OR REPLACE VIEW mb_per_dollar AS
SELECT s.key AS solution, s.usable_capacity_bytes, (s.usable_capacity_bytes / 1048576.0)::float AS usable_mb,
       s.list_price_amount, s.list_price_currency, s.list_price_type,
       s.usable_capacity_bytes / 1048576.0 / NULLIF(s.list_price_amount, 0)::float AS usable_mb_per_price_unit
FROM solutions s
WHERE s.usable_capacity_bytes IS NOT NULL AND s.list_price_amount IS NOT NULL;
