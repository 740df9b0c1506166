-- run_figures_mark_runs as revision 0008 created it (frozen; run_figures_0008.sql): what 0019's
-- downgrade puts back.

-- A run written, moved or deleted: itself, and the trial it left (whose median may change).
CREATE OR REPLACE FUNCTION run_figures_mark_runs() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM mark_run_figures_stale(ARRAY(SELECT id FROM new_rows));
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mark_run_figures_stale(ARRAY(
            SELECT p.id FROM (SELECT DISTINCT solution_id, trial_id FROM old_rows WHERE trial_id IS NOT NULL) o
            JOIN runs p ON p.trial_id = o.trial_id AND p.solution_id IS NOT DISTINCT FROM o.solution_id));
    END IF;
    RETURN NULL;
END $fn$;
