-- The derived stores' marking functions and refresh scaffolding as revisions 0008-0029 left them, written
-- by hand one store at a time (frozen: revision 0030's downgrade puts them back exactly).

CREATE OR REPLACE FUNCTION public.disks_mark_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_solution_disk_counts(ARRAY(SELECT solution_id FROM new_rows UNION SELECT solution_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.disks_mark_new()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_solution_disk_counts(ARRAY(SELECT DISTINCT solution_id FROM new_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.disks_mark_old()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_solution_disk_counts(ARRAY(SELECT DISTINCT solution_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.mailbox_class_ranks_mark_stale()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF current_setting('esrpdb.class_ranks_marked', true) IS DISTINCT FROM 'on' THEN
        UPDATE mailbox_class_ranks_freshness SET write_count = write_count + 1;
        PERFORM set_config('esrpdb.class_ranks_marked', 'on', true);
    END IF;
    RETURN NULL;
END
$function$
;

CREATE OR REPLACE FUNCTION public.mark_run_figures_stale(run_ids integer[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF coalesce(cardinality(run_ids), 0) = 0 THEN
        RETURN;
    END IF;
    INSERT INTO run_figures_stale (run_id)
    SELECT DISTINCT id FROM unnest(run_ids) AS id WHERE id IS NOT NULL
    ON CONFLICT DO NOTHING;
    PERFORM set_config('esrpdb.run_figures_fresh', 'off', true);
END
$function$
;

CREATE OR REPLACE FUNCTION public.mark_solution_designs_stale(solution_ids integer[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF coalesce(cardinality(solution_ids), 0) = 0 THEN
        RETURN;
    END IF;
    INSERT INTO solution_designs_stale (xact_id, solution_id)
    SELECT DISTINCT pg_current_xact_id()::text::bigint, id FROM unnest(solution_ids) AS id WHERE id IS NOT NULL
    ON CONFLICT DO NOTHING;
    PERFORM set_config('esrpdb.solution_designs_fresh', 'off', true);
END
$function$
;

CREATE OR REPLACE FUNCTION public.refresh_stale_run_figures()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    ids integer[];
BEGIN
    IF current_setting('esrpdb.run_figures_fresh', true) = 'on' THEN
        RETURN NULL;
    END IF;
    -- One refresh at a time: the next one then sees this one's runs as trial peers.
    PERFORM pg_advisory_xact_lock(1702064754);  -- 'esrr'
    WITH gone AS (DELETE FROM run_figures_stale RETURNING run_id)
    SELECT array_agg(run_id) INTO ids FROM gone;
    IF ids IS NOT NULL THEN
        PERFORM refresh_run_figures(ids);
    END IF;
    PERFORM set_config('esrpdb.run_figures_fresh', 'on', true);
    RETURN NULL;
END
$function$
;

CREATE OR REPLACE FUNCTION public.refresh_stale_solution_designs()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    ids integer[];
BEGIN
    IF current_setting('esrpdb.solution_designs_fresh', true) = 'on' THEN
        RETURN NULL;
    END IF;
    -- The run figures' lock: one refresh of either at a time, so two writers of one solution take
    -- turns and the later one reads the earlier one's figures.
    PERFORM pg_advisory_xact_lock(1702064754);  -- 'esrr'
    WITH gone AS (DELETE FROM solution_designs_stale WHERE xact_id = pg_current_xact_id()::text::bigint
                  RETURNING solution_id)
    SELECT array_agg(solution_id) INTO ids FROM gone;
    IF ids IS NOT NULL THEN
        PERFORM refresh_solution_designs(ids);
    END IF;
    PERFORM set_config('esrpdb.solution_designs_fresh', 'on', true);
    RETURN NULL;
END
$function$
;

CREATE OR REPLACE FUNCTION public.run_figures_mark_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM mark_run_figures_stale(ARRAY(SELECT run_id FROM new_rows UNION SELECT run_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_figures_mark_new()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM mark_run_figures_stale(ARRAY(SELECT DISTINCT run_id FROM new_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_figures_mark_old()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM mark_run_figures_stale(ARRAY(SELECT DISTINCT run_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_figures_mark_renamed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_TABLE_NAME = 'solutions' THEN
        PERFORM mark_run_figures_stale(ARRAY(
            SELECT r.id FROM runs r JOIN new_rows n ON n.id = r.solution_id JOIN old_rows o ON o.id = n.id
            WHERE n.key IS DISTINCT FROM o.key));
    ELSE
        PERFORM mark_run_figures_stale(ARRAY(
            SELECT r.id FROM runs r JOIN new_rows n ON n.id = r.trial_id JOIN old_rows o ON o.id = n.id
            WHERE n.label IS DISTINCT FROM o.label));
    END IF;
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_figures_mark_runs()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM mark_run_figures_stale(ARRAY(SELECT id FROM new_rows));
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mark_run_figures_stale(ARRAY(
            SELECT p.id FROM (SELECT DISTINCT solution_id, trial_id FROM old_rows WHERE trial_id IS NOT NULL) o
            JOIN runs p ON p.trial_id = o.trial_id AND p.solution_id IS NOT DISTINCT FROM o.solution_id
            UNION
            SELECT test_run_id FROM old_rows WHERE test_run_id IS NOT NULL));
    END IF;
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_value_figures_mark_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_run_value_figures(ARRAY(SELECT run_id FROM new_rows UNION SELECT run_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_value_figures_mark_new()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_run_value_figures(ARRAY(SELECT DISTINCT run_id FROM new_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_value_figures_mark_old()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_run_value_figures(ARRAY(SELECT DISTINCT run_id FROM old_rows));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.run_value_figures_mark_solutions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM refresh_run_value_figures(ARRAY(
        SELECT f.run_id FROM run_figures f
        JOIN new_rows n ON n.id = f.solution_id JOIN old_rows o ON o.id = n.id
        WHERE (n.list_price_amount, n.list_price_currency, n.list_price_type, n.active_power_w, n.idle_power_w,
               n.power_boundary)
              IS DISTINCT FROM (o.list_price_amount, o.list_price_currency, o.list_price_type, o.active_power_w,
                                o.idle_power_w, o.power_boundary)));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.solution_designs_mark_documents()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM mark_solution_designs_stale(solution_designs_of_files(ARRAY(SELECT source_file_id FROM new_rows)));
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mark_solution_designs_stale(solution_designs_of_files(ARRAY(SELECT source_file_id FROM old_rows)));
    END IF;
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.solution_designs_mark_files()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM mark_solution_designs_stale(solution_designs_of_files(ARRAY(
        SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.file_name IS DISTINCT FROM o.file_name)));
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.solution_designs_mark_keys()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM mark_solution_designs_stale(ARRAY(SELECT id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM mark_solution_designs_stale(ARRAY(SELECT id FROM old_rows));
    ELSE
        PERFORM mark_solution_designs_stale(ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.key IS DISTINCT FROM o.key));
    END IF;
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.solution_designs_mark_runs()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM mark_solution_designs_stale(ARRAY(
            SELECT DISTINCT r.solution_id FROM runs r WHERE r.id IN (SELECT run_id FROM new_rows)));
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mark_solution_designs_stale(ARRAY(
            SELECT DISTINCT r.solution_id FROM runs r WHERE r.id IN (SELECT run_id FROM old_rows)));
    END IF;
    RETURN NULL;
END $function$
;

CREATE OR REPLACE FUNCTION public.solution_designs_mark_solutions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM mark_solution_designs_stale(ARRAY(SELECT DISTINCT solution_id FROM new_rows));
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mark_solution_designs_stale(ARRAY(SELECT DISTINCT solution_id FROM old_rows));
    END IF;
    RETURN NULL;
END $function$
;

