-- Each ranked run's price and power, live: the functions that keep run_value_figures current.
--
-- iops_per_dollar (and dollars_per_kiops over it) and perf_per_watt read one row per ranked run of
-- a solution with a list price or a power figure: the run's figures from run_figures, its
-- solution's price, and its power resolved as perf_per_watt resolves it (the run's power log, else
-- the power a document's table prints for it, else the solution's). Before revision 0023 each call
-- read every ranked run, every solution and every run's power to keep the few with a price or a
-- power figure (at 50,000 solutions 375,000 runs and 78 MB of solutions for 90,000 rows).
--
-- Kept by statement triggers, at once (a run's row is a few index lookups): on run_figures (which
-- refresh_run_figures rewrites at commit for every run a write touches: runs, their trials,
-- published values, renames), on run_power, and on an update of a solution's price or power
-- (run_value_figures_mark_*, generated from migrations/derived_stores.py since revision 0030).
-- Revision 0023 runs a frozen copy of this file (migrations/run_value_figures_0023.sql);
-- tests/test_money_and_power_views.py holds this file to what the newest revision built.
-- Every statement is CREATE OR REPLACE FUNCTION: running the file again changes nothing.

CREATE OR REPLACE FUNCTION refresh_run_value_figures(run_ids integer[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF run_ids IS NULL THEN  -- every run: the migration, or a repair
        DELETE FROM run_value_figures;
        INSERT INTO run_value_figures AS t (
                run_id, solution_id, solution, trial, run_label, is_median_run, total_iops, list_price_amount,
                list_price_currency, list_price_type, active_power_w, idle_power_w, power_boundary, power_source)
            SELECT f.run_id, f.solution_id, f.solution, f.trial, f.run_label, f.is_median_run, f.total_iops,
                   s.list_price_amount, s.list_price_currency, s.list_price_type,
                   COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w),
                   COALESCE(rp.idle_power_w, pv.idle_power_w, s.idle_power_w),
                   COALESCE(rp.boundary, s.power_boundary),
                   CASE WHEN rp.active_power_w IS NOT NULL THEN 'power_log'
                        WHEN pv.active_power_w IS NOT NULL THEN 'document_table'
                        ELSE 'manifest' END
            FROM run_figures f
            JOIN solutions s ON s.id = f.solution_id
            LEFT JOIN run_power rp ON rp.run_id = f.run_id
            LEFT JOIN (
                SELECT v.run_id, max(v.value) FILTER (WHERE v.metric = 'active_power_w') AS active_power_w,
                       max(v.value) FILTER (WHERE v.metric = 'idle_power_w') AS idle_power_w
                FROM run_published_values v
                WHERE v.metric IN ('active_power_w', 'idle_power_w')
                GROUP BY v.run_id
            ) pv ON pv.run_id = f.run_id
            WHERE f.trial_rank_ordinal IS NOT NULL
              AND (s.list_price_amount IS NOT NULL
                   OR COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w) IS NOT NULL);
        RETURN;
    END IF;
    IF coalesce(cardinality(run_ids), 0) = 0 THEN
        RETURN;
    END IF;
    -- Upserted, and only the rows that no longer qualify deleted: two writers refreshing one run
    -- (a power log and a price edit, say) never both insert it.
    WITH fresh AS (
        SELECT f.run_id, f.solution_id, f.solution, f.trial, f.run_label, f.is_median_run, f.total_iops,
               s.list_price_amount, s.list_price_currency, s.list_price_type,
               COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w) AS active_power_w,
               COALESCE(rp.idle_power_w, pv.idle_power_w, s.idle_power_w) AS idle_power_w,
               COALESCE(rp.boundary, s.power_boundary) AS power_boundary,
               CASE WHEN rp.active_power_w IS NOT NULL THEN 'power_log'
                    WHEN pv.active_power_w IS NOT NULL THEN 'document_table'
                    ELSE 'manifest' END AS power_source
        FROM run_figures f
        JOIN solutions s ON s.id = f.solution_id
        LEFT JOIN run_power rp ON rp.run_id = f.run_id
        LEFT JOIN (
            SELECT v.run_id, max(v.value) FILTER (WHERE v.metric = 'active_power_w') AS active_power_w,
                   max(v.value) FILTER (WHERE v.metric = 'idle_power_w') AS idle_power_w
            FROM run_published_values v
            WHERE v.metric IN ('active_power_w', 'idle_power_w') AND v.run_id = ANY(run_ids)
            GROUP BY v.run_id
        ) pv ON pv.run_id = f.run_id
        WHERE f.run_id = ANY(run_ids) AND f.trial_rank_ordinal IS NOT NULL
          AND (s.list_price_amount IS NOT NULL
               OR COALESCE(rp.active_power_w, pv.active_power_w, s.active_power_w) IS NOT NULL)
    ),
    gone AS (
        DELETE FROM run_value_figures t
        WHERE t.run_id = ANY(run_ids) AND NOT EXISTS (SELECT 1 FROM fresh WHERE fresh.run_id = t.run_id)
    )
    INSERT INTO run_value_figures AS t (
            run_id, solution_id, solution, trial, run_label, is_median_run, total_iops, list_price_amount,
            list_price_currency, list_price_type, active_power_w, idle_power_w, power_boundary, power_source)
        SELECT * FROM fresh
        ON CONFLICT (run_id) DO UPDATE SET
            solution_id = EXCLUDED.solution_id, solution = EXCLUDED.solution, trial = EXCLUDED.trial,
            run_label = EXCLUDED.run_label, is_median_run = EXCLUDED.is_median_run,
            total_iops = EXCLUDED.total_iops, list_price_amount = EXCLUDED.list_price_amount,
            list_price_currency = EXCLUDED.list_price_currency, list_price_type = EXCLUDED.list_price_type,
            active_power_w = EXCLUDED.active_power_w, idle_power_w = EXCLUDED.idle_power_w,
            power_boundary = EXCLUDED.power_boundary, power_source = EXCLUDED.power_source;
END
$fn$;
