-- title: MB per dollar
-- description: Usable capacity in MB (2^20 bytes) divided by list price: the whitepapers'
--   "useable megabytes per dollar".
-- column usable_mb: usable capacity in MB (2^20 bytes)
-- column usable_mb_per_price_unit: usable MB per unit of list_price_currency
-- The priced solutions' columns come from ix_solutions_priced_capacity alone (revision 0024). usable_mb
-- is the double nearest bytes / 2^20, as (usable_capacity_bytes / 1048576.0)::float gave it, without
-- that numeric division and its cast (which goes through text): below 2^53 bytes the integer is exact
-- as a double and dividing by a power of two is exact, while the numeric quotient has at least 17
-- significant digits, which read back as that same double; from 2^53 on, the numeric expression itself.
CREATE OR REPLACE VIEW mb_per_dollar AS
SELECT s.key AS solution, s.usable_capacity_bytes, m.usable_mb,
       s.list_price_amount, s.list_price_currency, s.list_price_type,
       m.usable_mb / NULLIF(s.list_price_amount, 0)::float AS usable_mb_per_price_unit
FROM solutions s
CROSS JOIN LATERAL (
    SELECT CASE WHEN s.usable_capacity_bytes < 9007199254740992 THEN s.usable_capacity_bytes::float / 1048576
                ELSE (s.usable_capacity_bytes / 1048576.0)::float END AS usable_mb) m
WHERE s.usable_capacity_bytes IS NOT NULL AND s.list_price_amount IS NOT NULL;
