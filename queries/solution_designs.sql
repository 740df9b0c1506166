-- Each solution's stored test design and representative run, live: the function that computes them
-- and the triggers that keep them current.
--
-- refresh_solution_designs(solution_ids) computes, for the solutions named (all of them when NULL),
-- what test_designs, representative_runs and mailbox_class_ranks read: the design figures chosen
-- from the documents' claims, the facts drafted from them and the runs' JetstressConfig.xml (each
-- with its file and line), the copies per database, the ESRP version and tested date, and the run
-- that stands for the solution with the figures the mailbox classes rank it by. The mailbox class is
-- not stored: the owner may change the bounds, so the views join mailbox_classes when read.
--
-- Statement triggers on the tables those come from list the solutions a write touched in
-- solution_designs_stale; a deferred trigger refreshes them when the transaction commits (their
-- functions, solution_designs_mark_*, mark_solution_designs_stale and refresh_stale_solution_designs,
-- are generated from migrations/derived_stores.py since revision 0030; after the
-- run figures a representative run is chosen from: a refresh of run_figures marks its runs'
-- solutions again). This file is the one live home of that arithmetic; each revision that changes
-- it runs a frozen copy (migrations/solution_designs_00NN.sql; now solution_designs_0022.sql), and
-- tests/test_stored_designs.py holds this file to what the newest revision built.
-- Every statement is CREATE OR REPLACE: running the file again changes nothing.

CREATE OR REPLACE FUNCTION refresh_solution_designs(solution_ids integer[] DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    targets integer[];
    written bigint;
    plan_mode text := current_setting('plan_cache_mode');
BEGIN
    targets := ARRAY(SELECT s.id FROM solutions s WHERE solution_ids IS NULL OR s.id = ANY(solution_ids));
    -- As refresh_run_figures: the session's generic plan for a few solutions (every commit), a plan
    -- for the actual list when it is many (more than 500, or esrpdb.custom_plan_solutions).
    PERFORM set_config('plan_cache_mode',
                       CASE WHEN cardinality(targets) > COALESCE(NULLIF(current_setting('esrpdb.custom_plan_solutions', true), '')::integer, 500)
                            THEN 'force_custom_plan' ELSE 'force_generic_plan' END,
                       true);
    IF solution_ids IS NOT NULL THEN  -- the solutions gone (no foreign key: their rows go here, at commit)
        DELETE FROM solution_designs WHERE solution_id = ANY(solution_ids) AND solution_id <> ALL(targets);
    ELSE
        DELETE FROM solution_designs d WHERE NOT EXISTS (SELECT 1 FROM solutions s WHERE s.id = d.solution_id);
    END IF;
    -- test_designs as revision 0019 computed it, for the targets: each figure from the document that
    -- prints it (its claims, then the facts drafted from it), else the runs' JetstressConfig.xml.
    INSERT INTO solution_designs AS t (
            solution_id, solution, mailbox_count, mailbox_count_source, mailbox_size_mb, iops_per_mailbox,
            database_count, database_copy_count, esrp_version, esrp_version_source, tested_on,
            representative_run_id, run_label, trial, trial_run_count, jetstress_release, report_type, total_iops,
            db_read_latency_ms)
        WITH candidates AS (
            SELECT c.solution_id,
                   CASE c.metric WHEN 'mailboxes' THEN 'mailbox_count' WHEN 'mailbox_size' THEN 'mailbox_size_mb'
                                 WHEN 'databases' THEN 'database_count' ELSE c.metric END AS item,
                   replace(c.value_printed, ',', '')::float8
                     * CASE upper(coalesce(c.unit, '')) WHEN 'GB' THEN 1024 WHEN 'TB' THEN 1048576 ELSE 1 END AS value,
                   f.file_name || coalesce(' line ' || c.line, '') AS source,
                   1 AS preference, c.source_file_id AS file_order, c.line AS line_order
            FROM claims c
            JOIN source_files f ON f.id = c.source_file_id
            WHERE c.solution_id = ANY(targets) AND c.subject = 'solution'
              AND c.metric IN ('mailboxes', 'mailbox_size', 'iops_per_mailbox', 'databases')
              AND c.value_printed ~ '^[0-9][0-9,]*(\.[0-9]+)?$'
              AND (c.metric <> 'mailbox_size' OR upper(coalesce(c.unit, 'MB')) IN ('MB', 'GB', 'TB'))
            UNION ALL
            SELECT sf.solution_id,
                   CASE sf.fact WHEN 'mailboxes' THEN 'mailbox_count' WHEN 'mailbox_size' THEN 'mailbox_size_mb'
                                ELSE sf.fact END,
                   sf.value_number
                     * CASE upper(coalesce(sf.unit, '')) WHEN 'GB' THEN 1024 WHEN 'TB' THEN 1048576 ELSE 1 END,
                   f.file_name || coalesce(' line ' || sf.source_line, ''),
                   2, sf.source_file_id, sf.source_line
            FROM solution_facts sf
            JOIN source_files f ON f.id = sf.source_file_id
            WHERE sf.solution_id = ANY(targets)
              AND sf.fact IN ('mailboxes', 'mailbox_size', 'iops_per_mailbox') AND sf.value_number IS NOT NULL
              AND (sf.fact <> 'mailbox_size' OR upper(coalesce(sf.unit, 'MB')) IN ('MB', 'GB', 'TB'))
            UNION ALL
            -- Databases per server: times its servers (stated, else the hosts its reports name).
            SELECT sf.solution_id, 'database_count', sf.value_number * COALESCE(sv.servers, h.hosts),
                   f.file_name || coalesce(' line ' || sf.source_line, '') || ' × ' ||
                       COALESCE(sv.servers || ' servers (line ' || sv.source_line || ')', h.hosts || ' hosts of its reports'),
                   2, sf.source_file_id, sf.source_line
            FROM solution_facts sf
            JOIN source_files f ON f.id = sf.source_file_id
            LEFT JOIN LATERAL (SELECT x.value_number AS servers, x.source_line FROM solution_facts x
                               WHERE x.solution_id = sf.solution_id AND x.fact = 'servers' AND x.value_number >= 1
                               ORDER BY x.ordinal LIMIT 1) sv ON true
            LEFT JOIN LATERAL (SELECT count(DISTINCT lower(r.machine_name)) AS hosts FROM runs r
                               WHERE r.solution_id = sf.solution_id AND r.origin = 'report' AND r.machine_name IS NOT NULL
                               HAVING count(DISTINCT lower(r.machine_name)) > 0) h ON true
            WHERE sf.solution_id = ANY(targets)
              AND sf.fact = 'databases_per_server' AND sf.value_number IS NOT NULL
              AND COALESCE(sv.servers, h.hosts) IS NOT NULL
            UNION ALL
            SELECT sf.solution_id, 'database_count', sf.value_number,
                   f.file_name || coalesce(' line ' || sf.source_line, ''), 2, sf.source_file_id, sf.source_line
            FROM solution_facts sf
            JOIN source_files f ON f.id = sf.source_file_id
            WHERE sf.solution_id = ANY(targets) AND sf.fact = 'databases' AND sf.value_number IS NOT NULL
            UNION ALL
            SELECT r.solution_id, x.item, x.value, f.file_name, 3, tc.source_file_id, 0
            FROM runs r
            JOIN test_configs tc ON tc.run_id = r.id
            JOIN source_files f ON f.id = tc.source_file_id
            CROSS JOIN LATERAL (VALUES ('mailbox_count', tc.mailbox_count::float8),
                                       ('mailbox_size_mb', tc.mailbox_quota_mb::float8),
                                       ('iops_per_mailbox', tc.iops_per_mailbox::float8),
                                       ('database_count', tc.database_count::float8)) AS x (item, value)
            WHERE r.solution_id = ANY(targets) AND x.value IS NOT NULL
        ),
        chosen AS (
            SELECT DISTINCT ON (solution_id, item) solution_id, item, value, source
            FROM candidates
            ORDER BY solution_id, item, preference, file_order, line_order
        ),
        linked AS (  -- the files that speak of each target: its claims' documents and its runs' sources
            SELECT cl.solution_id, cl.source_file_id FROM claims cl WHERE cl.solution_id = ANY(targets)
            UNION
            SELECT r.solution_id, rs.source_file_id FROM runs r JOIN run_sources rs ON rs.run_id = r.id
            WHERE r.solution_id = ANY(targets)
        ),
        documents_said AS (  -- the ESRP program and tested date of the first such document that prints one
            SELECT DISTINCT ON (x.solution_id) x.solution_id, d.esrp_version,
                   f.file_name || coalesce(' line ' || d.esrp_version_line, '') AS esrp_version_source, d.tested_on
            FROM documents d
            JOIN source_files f ON f.id = d.source_file_id
            JOIN linked x ON x.source_file_id = d.source_file_id
            WHERE d.esrp_version IS NOT NULL OR d.tested_on IS NOT NULL
            ORDER BY x.solution_id, d.source_file_id
        ),
        copies AS (
            SELECT r.solution_id, max(r.copies_per_database) AS database_copy_count
            FROM runs r WHERE r.solution_id = ANY(targets) AND r.copies_per_database IS NOT NULL
            GROUP BY r.solution_id
        ),
        designs AS (
            SELECT s.id AS solution_id, s.key AS solution,
                   round(max(c.value) FILTER (WHERE c.item = 'mailbox_count'))::int AS mailbox_count,
                   max(c.source) FILTER (WHERE c.item = 'mailbox_count') AS mailbox_count_source,
                   max(c.value) FILTER (WHERE c.item = 'mailbox_size_mb') AS mailbox_size_mb,
                   max(c.value) FILTER (WHERE c.item = 'iops_per_mailbox') AS iops_per_mailbox,
                   round(max(c.value) FILTER (WHERE c.item = 'database_count'))::int AS database_count
            FROM solutions s
            LEFT JOIN chosen c ON c.solution_id = s.id
            WHERE s.id = ANY(targets)
            GROUP BY s.id, s.key
        ),
        -- representative_runs as revision 0019 chose it: a normal test before an abnormal one, then the
        -- median run of the largest trial, a Performance test before a Stress test, the higher total
        -- IOPS, the earlier run.
        representative AS (
            SELECT DISTINCT ON (m.solution_id) m.solution_id, m.run_id, m.run_label, m.trial, m.trial_run_count,
                   m.jetstress_release, m.report_type, m.total_iops, m.db_read_latency_ms
            FROM run_figures m
            JOIN runs r ON r.id = m.run_id
            WHERE m.solution_id = ANY(targets) AND m.trial_rank_ordinal IS NOT NULL AND m.is_median_run
              AND m.solution IS NOT NULL
            ORDER BY m.solution_id, (r.scenario IS NULL) DESC, m.trial_run_count DESC,
                     (r.report_type = 'Performance') DESC, m.total_iops DESC NULLS LAST, m.run_id
        )
        SELECT d.solution_id, d.solution, d.mailbox_count, d.mailbox_count_source, d.mailbox_size_mb,
               d.iops_per_mailbox, d.database_count, c.database_copy_count, e.esrp_version, e.esrp_version_source,
               e.tested_on, p.run_id, p.run_label, p.trial, p.trial_run_count, p.jetstress_release, p.report_type,
               p.total_iops, p.db_read_latency_ms
        FROM designs d
        LEFT JOIN copies c ON c.solution_id = d.solution_id
        LEFT JOIN documents_said e ON e.solution_id = d.solution_id
        LEFT JOIN representative p ON p.solution_id = d.solution_id
        ON CONFLICT (solution_id) DO UPDATE SET
            solution = EXCLUDED.solution, mailbox_count = EXCLUDED.mailbox_count,
            mailbox_count_source = EXCLUDED.mailbox_count_source, mailbox_size_mb = EXCLUDED.mailbox_size_mb,
            iops_per_mailbox = EXCLUDED.iops_per_mailbox, database_count = EXCLUDED.database_count,
            database_copy_count = EXCLUDED.database_copy_count, esrp_version = EXCLUDED.esrp_version,
            esrp_version_source = EXCLUDED.esrp_version_source, tested_on = EXCLUDED.tested_on,
            representative_run_id = EXCLUDED.representative_run_id, run_label = EXCLUDED.run_label,
            trial = EXCLUDED.trial, trial_run_count = EXCLUDED.trial_run_count,
            jetstress_release = EXCLUDED.jetstress_release, report_type = EXCLUDED.report_type,
            total_iops = EXCLUDED.total_iops, db_read_latency_ms = EXCLUDED.db_read_latency_ms;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM set_config('plan_cache_mode', plan_mode, true);
    RETURN written;
END
$fn$;

-- The solutions a file speaks of: its claims, the runs it prints, the facts drafted from it and the
-- runs its JetstressConfig.xml configured.
CREATE OR REPLACE FUNCTION solution_designs_of_files(file_ids integer[]) RETURNS integer[]
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    IF coalesce(cardinality(file_ids), 0) = 0 THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(
        SELECT c.solution_id FROM claims c WHERE c.source_file_id = ANY(file_ids)
        UNION
        SELECT r.solution_id FROM run_sources rs JOIN runs r ON r.id = rs.run_id WHERE rs.source_file_id = ANY(file_ids)
        UNION
        SELECT sf.solution_id FROM solution_facts sf WHERE sf.source_file_id = ANY(file_ids)
        UNION
        SELECT r.solution_id FROM test_configs tc JOIN runs r ON r.id = tc.run_id WHERE tc.source_file_id = ANY(file_ids));
END
$fn$;
