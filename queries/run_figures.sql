-- The stored per-run figures, live: the functions that compute them and keep them current.
--
-- refresh_run_figures(run_ids) computes, for the runs named (all of them when NULL), what the
-- canned views read: IOPS and latencies per run and scope, perfmon means over the run's window,
-- throughput and its source, each trial's ranks and median run, per-disk figures on both disk
-- bases, per dollar and per watt. refresh_solution_disk_counts keeps each solution's disk counts
-- on both bases (all disks; active ones). The functions that mark the runs a transaction touches and
-- refresh them when it commits (run_figures_mark_*, disks_mark_*, mark_run_figures_stale,
-- refresh_stale_run_figures) are generated from migrations/derived_stores.py (revision 0030).
--
-- This is the one live home of the figures' arithmetic, as queries/*.sql is of the views: each
-- revision that changes a figure runs a frozen copy of this file (migrations/run_figures_00NN.sql;
-- now run_figures_0031.sql, with 0008's helpers and 0019's run_figures_mark_runs unchanged since),
-- never this file itself, and tests/test_migrations.py holds this file to what the newest revision
-- built. To change a figure: edit it here, copy it to migrations/run_figures_00NN.sql and add the
-- revision that runs it.
-- Every statement is CREATE OR REPLACE FUNCTION: running the file again changes nothing.

CREATE OR REPLACE FUNCTION refresh_run_figures(run_ids integer[] DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    targets integer[];
    host_ids integer[];  -- the host reports of the tests among the targets
    figure_ids integer[];  -- the targets and those host reports: whose latencies are read
    written bigint;
    plan_mode text := current_setting('plan_cache_mode');
BEGIN
    IF run_ids IS NULL THEN
        targets := ARRAY(SELECT id FROM runs);
    ELSE
        targets := ARRAY(
            WITH listed AS (
                SELECT r.id FROM runs r WHERE r.id = ANY(run_ids)
                UNION
                SELECT r.test_run_id FROM runs r WHERE r.id = ANY(run_ids) AND r.test_run_id IS NOT NULL
            )
            SELECT l.id FROM listed l
            UNION
            SELECT p.id FROM listed l
            JOIN runs r ON r.id = l.id
            JOIN runs p ON p.trial_id = r.trial_id AND p.solution_id IS NOT DISTINCT FROM r.solution_id);
    END IF;
    host_ids := ARRAY(SELECT h.id FROM runs h WHERE h.test_run_id = ANY(targets));
    figure_ids := targets || host_ids;
    -- Planned for the runs it refreshes (the listed ones and their trial peers): a custom plan
    -- when they are many (it hashes the constant arrays), the session's generic plan otherwise.
    -- More than 500 is many; the setting esrpdb.custom_plan_runs changes that (tests set it).
    PERFORM set_config('plan_cache_mode',
                       CASE WHEN cardinality(targets) > COALESCE(NULLIF(current_setting('esrpdb.custom_plan_runs', true), '')::integer, 500)
                            THEN 'force_custom_plan' ELSE 'force_generic_plan' END,
                       true);
    IF run_ids IS NOT NULL THEN
        DELETE FROM run_figures WHERE run_id = ANY(run_ids) AND run_id <> ALL(targets);
    END IF;

    -- Sums and counts of each linked counter's samples over its run's window [test_start, test_end],
    -- or over the whole export when the run has no window or no sample falls in it (sample_window
    -- says which). The window is the run's local wall-clock time read with the export's bias, the
    -- convention ingest/link.py matches exports to runs by (local = UTC - bias minutes), turned
    -- around so that the samples' index is used: UTC = local + bias. A counter is recomputed when it
    -- has no row yet or its run's window is no longer the one its row was computed for (relinked
    -- to another run, or the run's times changed); otherwise its sums are kept.
    WITH linked AS (
            SELECT c.id AS counter_id, c.source_file_id,
                   CASE WHEN r.test_start IS NOT NULL AND r.test_end IS NOT NULL THEN
                       (r.test_start + make_interval(mins => COALESCE(f.bias_minutes, 0))) AT TIME ZONE 'UTC'
                   END AS run_window_start_at,
                   CASE WHEN r.test_start IS NOT NULL AND r.test_end IS NOT NULL THEN
                       (r.test_end + make_interval(mins => COALESCE(f.bias_minutes, 0))) AT TIME ZONE 'UTC'
                   END AS run_window_end_at
            FROM perf_counters c
            JOIN runs r ON r.id = c.run_id
            LEFT JOIN perf_files f ON f.source_file_id = c.source_file_id
            WHERE c.run_id IS NOT NULL AND c.run_id = ANY(targets)
        ),
        stale AS (
            SELECT l.* FROM linked l
            LEFT JOIN perf_counter_means m ON m.counter_id = l.counter_id
            WHERE m.counter_id IS NULL
               OR m.run_window_start_at IS DISTINCT FROM l.run_window_start_at
               OR m.run_window_end_at IS DISTINCT FROM l.run_window_end_at
        ),
        sums AS (
            SELECT s.counter_id, s.run_window_start_at, s.run_window_end_at,
                   count(ps.counter_id) AS export_sample_count, count(ps.value) AS export_value_count,
                   sum(ps.value ORDER BY ps.sampled_at) AS export_value_sum,
                   count(ps.counter_id) FILTER (WHERE ps.sampled_at BETWEEN s.run_window_start_at AND s.run_window_end_at)
                       AS run_sample_count,
                   count(ps.value) FILTER (WHERE ps.sampled_at BETWEEN s.run_window_start_at AND s.run_window_end_at)
                       AS run_value_count,
                   sum(ps.value ORDER BY ps.sampled_at)
                       FILTER (WHERE ps.sampled_at BETWEEN s.run_window_start_at AND s.run_window_end_at)
                       AS run_value_sum
            FROM stale s
            LEFT JOIN perf_samples ps ON ps.source_file_id = s.source_file_id AND ps.counter_id = s.counter_id
            GROUP BY s.counter_id, s.run_window_start_at, s.run_window_end_at
        )
        INSERT INTO perf_counter_means (counter_id, sample_window, run_window_start_at, run_window_end_at,
                                        sample_count, value_count, value_sum)
        SELECT counter_id, CASE WHEN run_sample_count > 0 THEN 'run' ELSE 'export' END,
               run_window_start_at, run_window_end_at,
               CASE WHEN run_sample_count > 0 THEN run_sample_count ELSE export_sample_count END,
               CASE WHEN run_sample_count > 0 THEN run_value_count ELSE export_value_count END,
               CASE WHEN run_sample_count > 0 THEN run_value_sum ELSE export_value_sum END
        FROM sums
        ON CONFLICT (counter_id) DO UPDATE SET
            sample_window = EXCLUDED.sample_window, run_window_start_at = EXCLUDED.run_window_start_at,
            run_window_end_at = EXCLUDED.run_window_end_at, sample_count = EXCLUDED.sample_count,
            value_count = EXCLUDED.value_count, value_sum = EXCLUDED.value_sum;

    INSERT INTO run_scope_latencies AS t (
            run_id, scope, solution, run_label, threshold_db_read_avg_ms, threshold_log_write_avg_ms,
            instance_row_count, avg_db_read_latency_ms, min_db_read_latency_ms,
            max_db_read_latency_ms, avg_db_write_latency_ms, avg_log_write_latency_ms,
            max_log_write_latency_ms, over_read_threshold_count, over_log_threshold_count)
        SELECT r.id, l.scope, s.key, r.run_label, r.threshold_db_read_avg_ms, r.threshold_log_write_avg_ms,
               count(*),
               avg(l.db_read_latency_ms ORDER BY l.instance_id), min(l.db_read_latency_ms),
               max(l.db_read_latency_ms), avg(l.db_write_latency_ms ORDER BY l.instance_id),
               avg(l.log_write_latency_ms ORDER BY l.instance_id), max(l.log_write_latency_ms),
               count(*) FILTER (WHERE l.db_read_latency_ms > r.threshold_db_read_avg_ms),
               count(*) FILTER (WHERE l.log_write_latency_ms > r.threshold_log_write_avg_ms)
        FROM latencies l
        JOIN runs r ON r.id = l.run_id
        LEFT JOIN solutions s ON s.id = r.solution_id
        WHERE l.run_id = ANY(targets)
        GROUP BY r.id, l.scope, s.key
        ON CONFLICT (run_id, scope) DO UPDATE SET
            solution = EXCLUDED.solution, run_label = EXCLUDED.run_label,
            threshold_db_read_avg_ms = EXCLUDED.threshold_db_read_avg_ms,
            threshold_log_write_avg_ms = EXCLUDED.threshold_log_write_avg_ms,
            instance_row_count = EXCLUDED.instance_row_count,
            avg_db_read_latency_ms = EXCLUDED.avg_db_read_latency_ms,
            min_db_read_latency_ms = EXCLUDED.min_db_read_latency_ms,
            max_db_read_latency_ms = EXCLUDED.max_db_read_latency_ms,
            avg_db_write_latency_ms = EXCLUDED.avg_db_write_latency_ms,
            avg_log_write_latency_ms = EXCLUDED.avg_log_write_latency_ms,
            max_log_write_latency_ms = EXCLUDED.max_log_write_latency_ms,
            over_read_threshold_count = EXCLUDED.over_read_threshold_count,
            over_log_threshold_count = EXCLUDED.over_log_threshold_count;
    DELETE FROM run_scope_latencies s
        WHERE s.run_id = ANY(targets) AND NOT EXISTS (SELECT 1 FROM latencies l WHERE l.run_id = s.run_id AND l.scope = s.scope);

    INSERT INTO run_figures AS t (
            run_id, solution_id, trial_id, run_label, report_type, origin, solution, trial, jetstress_release,
            machine_name, test_start, reported_verdict, target_iops,
            achieved_iops, log_iops, total_iops, trial_rank_ordinal, trial_run_count, is_median_run,
            trial_min_total_iops, trial_max_total_iops, spread_percent, database_instance_count, db_reads_per_s,
            db_writes_per_s, db_read_latency_ms, db_write_latency_ms, log_write_latency_ms, disk_transfers_per_s,
            read_mb_per_s, write_mb_per_s, transfer_mb_per_s, read_latency_ms, write_latency_ms, throughput_source,
            perfmon_sample_window)
        WITH target AS (
            SELECT r.* FROM runs r WHERE r.id = ANY(targets)
        ),
        report_log AS (
            SELECT l.run_id, sum(l.log_writes_per_s ORDER BY l.instance_id, l.scope) AS log_iops
            FROM latencies l
            WHERE l.scope IN ('transactional', 'disk_subsystem') AND l.run_id = ANY(figure_ids)
            GROUP BY l.run_id
        ),
        published AS (
            SELECT run_id,
                   max(value) FILTER (WHERE metric = 'achieved_iops') AS achieved_iops,
                   max(value) FILTER (WHERE metric = 'log_iops') AS log_iops,
                   max(value) FILTER (WHERE metric = 'total_iops') AS total_iops,
                   max(value) FILTER (WHERE metric = 'throughput_mb_per_s') AS throughput_mb_per_s,
                   bool_or(metric = 'throughput_mb_per_s') AS has_throughput
            FROM run_published_values
            WHERE run_id = ANY(targets)
            GROUP BY run_id
        ),
        io AS (
            SELECT l.run_id,
                   count(DISTINCT l.instance_id) FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS database_instances,
                   sum(l.db_reads_per_s ORDER BY l.instance_id, l.scope) AS db_reads_per_s,
                   sum(l.db_writes_per_s ORDER BY l.instance_id, l.scope) AS db_writes_per_s,
                   avg(l.db_read_latency_ms ORDER BY l.instance_id, l.scope)
                       FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS db_read_latency_ms,
                   avg(l.db_write_latency_ms ORDER BY l.instance_id, l.scope)
                       FILTER (WHERE i.volume_role IS DISTINCT FROM 'log') AS db_write_latency_ms,
                   avg(l.log_write_latency_ms ORDER BY l.instance_id, l.scope)
                       FILTER (WHERE i.volume_role IS DISTINCT FROM 'database') AS log_write_latency_ms
            FROM latencies l
            JOIN instances i ON i.id = l.instance_id
            WHERE l.scope IN ('transactional', 'disk_subsystem') AND l.run_id = ANY(figure_ids)
            GROUP BY l.run_id
        ),
        host_sums AS (
            -- A test over hosts: its host reports' sums (a sum only when every host gives the figure),
            -- latencies weighted by each host's achieved IOPS (database) or log IOPS (log). Floats are
            -- added in the host reports' id order: a host report is UPDATEd when a manifest takes it,
            -- so the rows' physical order is the order they were last written (revision 0026).
            SELECT h.test_run_id AS run_id,
                   CASE WHEN count(h.achieved_iops) = count(*) THEN sum(h.achieved_iops ORDER BY h.id) END
                       AS achieved_iops,
                   CASE WHEN count(rl.log_iops) = count(*) THEN sum(rl.log_iops ORDER BY h.id) END AS log_iops,
                   CASE WHEN count(io.database_instances) = count(*) THEN sum(io.database_instances) END
                       AS database_instances,
                   CASE WHEN count(io.db_reads_per_s) = count(*) THEN sum(io.db_reads_per_s ORDER BY h.id) END
                       AS db_reads_per_s,
                   CASE WHEN count(io.db_writes_per_s) = count(*) THEN sum(io.db_writes_per_s ORDER BY h.id) END
                       AS db_writes_per_s,
                   sum(io.db_read_latency_ms * h.achieved_iops ORDER BY h.id)
                       / NULLIF(sum(h.achieved_iops ORDER BY h.id)
                                    FILTER (WHERE io.db_read_latency_ms IS NOT NULL), 0)
                       AS db_read_latency_ms,
                   sum(io.db_write_latency_ms * h.achieved_iops ORDER BY h.id)
                       / NULLIF(sum(h.achieved_iops ORDER BY h.id)
                                    FILTER (WHERE io.db_write_latency_ms IS NOT NULL), 0)
                       AS db_write_latency_ms,
                   sum(io.log_write_latency_ms * rl.log_iops ORDER BY h.id)
                       / NULLIF(sum(rl.log_iops ORDER BY h.id)
                                    FILTER (WHERE io.log_write_latency_ms IS NOT NULL), 0)
                       AS log_write_latency_ms
            FROM runs h
            LEFT JOIN report_log rl ON rl.run_id = h.id
            LEFT JOIN io ON io.run_id = h.id
            WHERE h.id = ANY(host_ids)
            GROUP BY h.test_run_id
        ),
        iops AS (
            SELECT r.id AS run_id, r.solution_id, r.test_run_id IS NOT NULL AS is_host_report,
                   COALESCE(r.trial_id::text, 'run ' || r.id) AS trial_key,
                   CASE WHEN r.origin = 'report' THEN r.achieved_iops
                        WHEN r.origin = 'hosts' THEN hs.achieved_iops ELSE p.achieved_iops END AS achieved_iops,
                   CASE WHEN r.origin = 'report' THEN rl.log_iops
                        WHEN r.origin = 'hosts' THEN hs.log_iops
                        ELSE COALESCE(p.log_iops, p.total_iops - p.achieved_iops) END AS log_iops,
                   CASE WHEN r.origin = 'report' THEN r.achieved_iops + rl.log_iops
                        WHEN r.origin = 'hosts' THEN hs.achieved_iops + hs.log_iops
                        ELSE COALESCE(p.total_iops, p.achieved_iops + p.log_iops) END AS total_iops
            FROM target r
            LEFT JOIN report_log rl ON rl.run_id = r.id
            LEFT JOIN published p ON p.run_id = r.id
            LEFT JOIN host_sums hs ON hs.run_id = r.id
            WHERE r.report_type IN ('Performance', 'Stress')
        ),
        ranked AS (
            SELECT run_id, total_iops,
                   row_number() OVER (PARTITION BY solution_id, trial_key ORDER BY total_iops, run_id) AS rank_in_trial,
                   count(*) OVER (PARTITION BY solution_id, trial_key) AS runs_in_trial,
                   min(total_iops) OVER (PARTITION BY solution_id, trial_key) AS trial_min_total_iops,
                   max(total_iops) OVER (PARTITION BY solution_id, trial_key) AS trial_max_total_iops,
                   solution_id, trial_key
            FROM iops
            WHERE total_iops IS NOT NULL AND NOT is_host_report  -- a host report is one part of a test
        ),
        medians AS (
            SELECT *, max(total_iops) FILTER (WHERE rank_in_trial = (runs_in_trial + 1) / 2)
                          OVER (PARTITION BY solution_id, trial_key) AS trial_median_total_iops
            FROM ranked
        ),
        counter_means AS (
            -- Counter paths are matched without regard to case (Export-Counter writes them in lower
            -- case); LogicalDisk(_Total) is Jetstress's own, PhysicalDisk(_Total) stands in without it.
            -- A run's exports are added in their counters' id order: linking UPDATEs perf_counters and
            -- a refresh rewrites perf_counter_means, so their physical order is write order (0026).
            SELECT c.run_id, lower(c.object_name) AS object, lower(c.counter_name) AS counter,
                   sum(m.value_sum ORDER BY c.id) / NULLIF(sum(m.value_count), 0) AS mean_value,
                   CASE WHEN bool_and(m.sample_window = 'run') THEN 'run'
                        WHEN bool_and(m.sample_window = 'export') THEN 'export' ELSE 'mixed' END AS sample_window
            FROM perf_counters c
            JOIN perf_counter_means m ON m.counter_id = c.id AND m.sample_count > 0
            WHERE c.run_id IS NOT NULL AND lower(c.object_name) IN ('logicaldisk', 'physicaldisk')
              AND lower(c.instance_name) = '_total' AND c.run_id = ANY(targets)
            GROUP BY c.run_id, lower(c.object_name), lower(c.counter_name)
        ),
        chosen AS (
            SELECT DISTINCT ON (run_id, counter) run_id, counter, mean_value, sample_window,
                   mean_value IS NOT NULL AND counter IN ('disk transfers/sec', 'disk read bytes/sec',
                       'disk write bytes/sec', 'disk bytes/sec', 'avg. disk sec/read', 'avg. disk sec/write') AS is_figure
            FROM counter_means
            ORDER BY run_id, counter, (object = 'logicaldisk') DESC
        ),
        perfmon AS (
            SELECT run_id,
                   max(mean_value) FILTER (WHERE counter = 'disk transfers/sec') AS disk_transfers_per_s,
                   max(mean_value) FILTER (WHERE counter = 'disk read bytes/sec') / 1048576.0 AS read_mb_per_s,
                   max(mean_value) FILTER (WHERE counter = 'disk write bytes/sec') / 1048576.0 AS write_mb_per_s,
                   max(mean_value) FILTER (WHERE counter = 'disk bytes/sec') / 1048576.0 AS bytes_mb_per_s,
                   max(mean_value) FILTER (WHERE counter = 'avg. disk sec/read') * 1000 AS read_latency_ms,
                   max(mean_value) FILTER (WHERE counter = 'avg. disk sec/write') * 1000 AS write_latency_ms,
                   CASE WHEN bool_and(sample_window = 'run') FILTER (WHERE is_figure) THEN 'run'
                        WHEN bool_and(sample_window = 'export') FILTER (WHERE is_figure) THEN 'export'
                        WHEN bool_or(is_figure) THEN 'mixed' END AS sample_window
            FROM chosen
            GROUP BY run_id
        )
        SELECT r.id, r.solution_id, r.trial_id, r.run_label, r.report_type, r.origin, s.key, tr.label,
               r.jetstress_release, r.machine_name, r.test_start, r.reported_verdict, r.target_iops,
               f.achieved_iops, f.log_iops, f.total_iops,
               m.rank_in_trial, m.runs_in_trial, m.rank_in_trial = (m.runs_in_trial + 1) / 2,
               m.trial_min_total_iops, m.trial_max_total_iops,
               (m.trial_max_total_iops - m.trial_min_total_iops) / NULLIF(m.trial_median_total_iops, 0) * 100,
               CASE WHEN r.origin = 'hosts' THEN hs.database_instances ELSE io.database_instances END,
               CASE WHEN r.origin = 'hosts' THEN hs.db_reads_per_s ELSE io.db_reads_per_s END,
               CASE WHEN r.origin = 'hosts' THEN hs.db_writes_per_s ELSE io.db_writes_per_s END,
               CASE WHEN r.origin = 'hosts' THEN hs.db_read_latency_ms ELSE io.db_read_latency_ms END,
               CASE WHEN r.origin = 'hosts' THEN hs.db_write_latency_ms ELSE io.db_write_latency_ms END,
               CASE WHEN r.origin = 'hosts' THEN hs.log_write_latency_ms ELSE io.log_write_latency_ms END,
               pm.disk_transfers_per_s, pm.read_mb_per_s, pm.write_mb_per_s,
               COALESCE(pm.bytes_mb_per_s, pm.read_mb_per_s + pm.write_mb_per_s, p.throughput_mb_per_s),
               pm.read_latency_ms, pm.write_latency_ms,
               CASE WHEN COALESCE(pm.bytes_mb_per_s, pm.read_mb_per_s + pm.write_mb_per_s) IS NOT NULL
                         THEN 'perfmon'
                    WHEN p.has_throughput THEN 'document_table'
                    WHEN num_nonnulls(pm.disk_transfers_per_s, pm.read_mb_per_s, pm.write_mb_per_s,
                                      pm.read_latency_ms, pm.write_latency_ms) > 0 THEN 'perfmon' END,
               pm.sample_window
        FROM target r
        LEFT JOIN solutions s ON s.id = r.solution_id
        LEFT JOIN trials tr ON tr.id = r.trial_id
        LEFT JOIN iops f ON f.run_id = r.id
        LEFT JOIN medians m ON m.run_id = r.id
        LEFT JOIN io ON io.run_id = r.id
        LEFT JOIN host_sums hs ON hs.run_id = r.id
        LEFT JOIN perfmon pm ON pm.run_id = r.id
        LEFT JOIN published p ON p.run_id = r.id
        ON CONFLICT (run_id) DO UPDATE SET
            solution_id = EXCLUDED.solution_id, trial_id = EXCLUDED.trial_id, run_label = EXCLUDED.run_label,
            report_type = EXCLUDED.report_type, origin = EXCLUDED.origin, solution = EXCLUDED.solution,
            trial = EXCLUDED.trial, jetstress_release = EXCLUDED.jetstress_release,
            machine_name = EXCLUDED.machine_name, test_start = EXCLUDED.test_start,
            reported_verdict = EXCLUDED.reported_verdict, target_iops = EXCLUDED.target_iops,
            achieved_iops = EXCLUDED.achieved_iops, log_iops = EXCLUDED.log_iops, total_iops = EXCLUDED.total_iops,
            trial_rank_ordinal = EXCLUDED.trial_rank_ordinal, trial_run_count = EXCLUDED.trial_run_count,
            is_median_run = EXCLUDED.is_median_run, trial_min_total_iops = EXCLUDED.trial_min_total_iops,
            trial_max_total_iops = EXCLUDED.trial_max_total_iops, spread_percent = EXCLUDED.spread_percent,
            database_instance_count = EXCLUDED.database_instance_count, db_reads_per_s = EXCLUDED.db_reads_per_s,
            db_writes_per_s = EXCLUDED.db_writes_per_s, db_read_latency_ms = EXCLUDED.db_read_latency_ms,
            db_write_latency_ms = EXCLUDED.db_write_latency_ms, log_write_latency_ms = EXCLUDED.log_write_latency_ms,
            disk_transfers_per_s = EXCLUDED.disk_transfers_per_s, read_mb_per_s = EXCLUDED.read_mb_per_s,
            write_mb_per_s = EXCLUDED.write_mb_per_s, transfer_mb_per_s = EXCLUDED.transfer_mb_per_s,
            read_latency_ms = EXCLUDED.read_latency_ms, write_latency_ms = EXCLUDED.write_latency_ms,
            throughput_source = EXCLUDED.throughput_source, perfmon_sample_window = EXCLUDED.perfmon_sample_window;
    GET DIAGNOSTICS written = ROW_COUNT;

    -- per_disk_iops as it is read: each ranked run on both disk bases (solution_disk_counts is
    -- current: disks are counted by the statement that writes them, which marks the runs stale).
    DELETE FROM run_disk_figures WHERE run_id = ANY(targets);
    INSERT INTO run_disk_figures (
            run_id, disk_basis, solution, trial, run_label, is_median_run, disk_count, achieved_iops, log_iops,
            total_iops, per_disk_achieved_iops, per_disk_log_iops, per_disk_total_iops, iops_source)
        SELECT m.run_id, b.disk_basis, m.solution, m.trial, m.run_label, m.is_median_run, b.disk_count,
               m.achieved_iops, m.log_iops, m.total_iops,
               m.achieved_iops / NULLIF(b.disk_count, 0), m.log_iops / NULLIF(b.disk_count, 0),
               m.total_iops / NULLIF(b.disk_count, 0),
               CASE WHEN m.origin = 'document_table' THEN 'document_table' ELSE 'report' END
        FROM run_figures m
        JOIN (SELECT solution_id, 'all' AS disk_basis, all_disk_count::int AS disk_count FROM solution_disk_counts
              UNION ALL
              SELECT solution_id, 'active', active_disk_count::int FROM solution_disk_counts) b
          ON b.solution_id = m.solution_id
        WHERE m.trial_rank_ordinal IS NOT NULL AND m.run_id = ANY(targets);
    PERFORM set_config('plan_cache_mode', plan_mode, true);
    RETURN written;
END
$fn$;

-- Disk counts per solution on both bases, recomputed by the statement that changes a solution's
-- disks (a handful of rows; no need to wait for commit).
CREATE OR REPLACE FUNCTION refresh_solution_disk_counts(solution_ids integer[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM solution_disk_counts WHERE solution_ids IS NULL OR solution_id = ANY(solution_ids);
    INSERT INTO solution_disk_counts (solution_id, all_disk_count, active_disk_count)
    SELECT d.solution_id, sum(d.disk_count), sum(d.disk_count) FILTER (WHERE d.role = 'active')
    FROM disks d
    JOIN solutions s ON s.id = d.solution_id
    WHERE solution_ids IS NULL OR d.solution_id = ANY(solution_ids)
    GROUP BY d.solution_id;
    IF solution_ids IS NOT NULL THEN  -- their runs' per-disk rows, at commit
        PERFORM mark_run_figures_stale(ARRAY(SELECT id FROM runs WHERE solution_id = ANY(solution_ids)));
    END IF;
END
$fn$;
