-- The rows of mailbox_class_ranks stored, rebuilt once after a batch of writes (revision 0025).
--
-- A rank needs its whole class, so one ingested document may re-rank up to a class (20,000 rows at 50,000
-- solutions): storing ranks as each write commits would make ingest pay that per document. Instead a write
-- that can change a rank only counts itself in mailbox_class_ranks_freshness.write_count (once per
-- transaction), and the writer rebuilds the stored rows once at the end of its batch
-- (rebuild_mailbox_class_rank_rows, called by db/class_ranks.py after ingest_paths, delete and assign).
-- The view reads the stored rows while built_write_count = write_count and computes the ranks as before
-- otherwise (mailbox_class_ranks_computed), so a missed rebuild is only slower, never wrong; a reader never
-- writes.
--
-- What a rank reads: solution_designs (the design, the representative run's figures, the key), mailbox_classes
-- (the bounds) and the log replay rate (recovery_stats of the solution's runs: its writes mark the runs'
-- solutions in solution_designs_stale, whose refresh at commit writes solution_designs). So statement
-- triggers on solution_designs and mailbox_classes count the writes, and recovery_stats' mark the designs
-- (mailbox_class_ranks_mark_stale is generated from migrations/derived_stores.py since revision 0030).
-- This file is the live definition; revision 0025 runs a frozen copy (migrations/mailbox_class_rank_rows_0025.sql).

-- mailbox_class_ranks as revision 0022 computed it: three rank windows over each class.
CREATE OR REPLACE FUNCTION mailbox_class_ranks_computed() RETURNS SETOF mailbox_class_rank_rows
LANGUAGE sql STABLE AS $fn$
WITH ranked AS (
    SELECT k.label AS mailbox_class, k.class_ordinal AS mailbox_class_order, d.solution, d.mailbox_count,
           d.iops_per_mailbox, d.representative_run_id AS run_id, d.jetstress_release, d.report_type, d.total_iops,
           d.db_read_latency_ms, e.logs_per_s_per_server
    FROM solution_designs d
    JOIN mailbox_classes k
      ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count)
    LEFT JOIN esrp_tests e ON e.solution = d.solution
), classes AS (  -- one release, test type and IOPS per mailbox at most (min = max: no sort of each class)
    SELECT k.class_ordinal AS mailbox_class_order,
           coalesce(min(d.jetstress_release) = max(d.jetstress_release), true)
             AND coalesce(min(d.report_type) = max(d.report_type), true)
             AND coalesce(min(d.iops_per_mailbox) = max(d.iops_per_mailbox), true) AS like_for_like
    FROM solution_designs d
    JOIN mailbox_classes k
      ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count)
    GROUP BY k.class_ordinal
)
SELECT mailbox_class, mailbox_class_order, solution, mailbox_count, run_id, jetstress_release, report_type,
       iops_per_mailbox, total_iops,
       CASE WHEN total_iops IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY total_iops DESC NULLS LAST) END
           AS total_iops_rank,
       db_read_latency_ms,
       CASE WHEN db_read_latency_ms IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY db_read_latency_ms ASC NULLS LAST) END
           AS db_read_latency_rank,
       logs_per_s_per_server,
       CASE WHEN logs_per_s_per_server IS NOT NULL
            THEN rank() OVER (PARTITION BY mailbox_class_order ORDER BY logs_per_s_per_server DESC NULLS LAST) END
           AS log_replay_rank,
       c.like_for_like
FROM ranked
JOIN classes c USING (mailbox_class_order)
$fn$;

-- The stored rows made equal to the computed ones (only the rows that differ are written), fresh if no write
-- came after. write_count is read before the rows, in an earlier statement (an older snapshot): a write
-- committed after that read raised write_count past what is recorded here, so the rows stay stale; one
-- committed before it is in the rows. Returns the rows written or deleted; -1 when already fresh.
CREATE OR REPLACE FUNCTION rebuild_mailbox_class_rank_rows() RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    writes bigint;
    built bigint;
    changed bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(1702063467);  -- 'esrk': one rebuild at a time; the next finds them fresh
    SELECT write_count, built_write_count INTO writes, built FROM mailbox_class_ranks_freshness;
    IF NOT FOUND THEN  -- the marker row deleted by hand: put it back, stale
        INSERT INTO mailbox_class_ranks_freshness (write_count, built_write_count) VALUES (1, 0);
        writes := 1;
    ELSIF writes = built THEN
        RETURN -1;
    END IF;
    -- The rows that differ, in one pass (a full join of the computed rows and the stored ones by key):
    -- rebuilding with nothing changed costs the ranks once and a hash join, and writes nothing.
    WITH diff AS MATERIALIZED (
        SELECT c.mailbox_class, c.mailbox_class_order, c.solution, c.mailbox_count, c.run_id, c.jetstress_release,
               c.report_type, c.iops_per_mailbox, c.total_iops, c.total_iops_rank, c.db_read_latency_ms,
               c.db_read_latency_rank, c.logs_per_s_per_server, c.log_replay_rank, c.like_for_like,
               s.mailbox_class_order AS stored_order, s.solution AS stored_solution
        FROM mailbox_class_ranks_computed() c
        FULL JOIN mailbox_class_rank_rows s ON s.mailbox_class_order = c.mailbox_class_order AND s.solution = c.solution
        WHERE c.solution IS NULL OR s.solution IS NULL
           OR (s.mailbox_class, s.mailbox_count, s.run_id, s.jetstress_release, s.report_type, s.iops_per_mailbox,
               s.total_iops, s.total_iops_rank, s.db_read_latency_ms, s.db_read_latency_rank,
               s.logs_per_s_per_server, s.log_replay_rank, s.like_for_like)
              IS DISTINCT FROM
              (c.mailbox_class, c.mailbox_count, c.run_id, c.jetstress_release, c.report_type, c.iops_per_mailbox,
               c.total_iops, c.total_iops_rank, c.db_read_latency_ms, c.db_read_latency_rank,
               c.logs_per_s_per_server, c.log_replay_rank, c.like_for_like)
    ), gone AS (
        DELETE FROM mailbox_class_rank_rows s USING diff d
        WHERE d.solution IS NULL AND s.mailbox_class_order = d.stored_order AND s.solution = d.stored_solution
        RETURNING 1
    ), put AS (
        INSERT INTO mailbox_class_rank_rows
        SELECT mailbox_class, mailbox_class_order, solution, mailbox_count, run_id, jetstress_release, report_type,
               iops_per_mailbox, total_iops, total_iops_rank, db_read_latency_ms, db_read_latency_rank,
               logs_per_s_per_server, log_replay_rank, like_for_like
        FROM diff WHERE solution IS NOT NULL
        ON CONFLICT (mailbox_class_order, solution) DO UPDATE SET
            mailbox_class = EXCLUDED.mailbox_class, mailbox_count = EXCLUDED.mailbox_count, run_id = EXCLUDED.run_id,
            jetstress_release = EXCLUDED.jetstress_release, report_type = EXCLUDED.report_type,
            iops_per_mailbox = EXCLUDED.iops_per_mailbox, total_iops = EXCLUDED.total_iops,
            total_iops_rank = EXCLUDED.total_iops_rank, db_read_latency_ms = EXCLUDED.db_read_latency_ms,
            db_read_latency_rank = EXCLUDED.db_read_latency_rank,
            logs_per_s_per_server = EXCLUDED.logs_per_s_per_server, log_replay_rank = EXCLUDED.log_replay_rank,
            like_for_like = EXCLUDED.like_for_like
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM put) INTO changed;
    UPDATE mailbox_class_ranks_freshness SET built_write_count = writes;
    PERFORM set_config('esrpdb.class_ranks_marked', 'off', true);  -- a later write of this transaction counts
    RETURN changed;
END
$fn$;
