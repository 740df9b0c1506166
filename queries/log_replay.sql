-- title: Log replay (soft recovery)
-- description: ESRP's soft-recovery test, the log playback the published ESRP catalogue ranked
--   systems by: transaction logs replayed per database and per server, per run, from the
--   SoftRecovery report's per-database rows.
-- column database_count: databases that replayed logs
-- column logs_replayed: logs replayed by all the run's databases
-- column elapsed_s: the databases' replay seconds added up
-- column seconds_per_log: elapsed seconds per log over all databases (the template's "average time to play one log file")
-- column logs_per_s_per_database: average over databases of logs replayed per second
-- column logs_per_s_per_server: the databases' logs per second added up
-- column log_mb_per_s_per_server: logs per second x 1 MB (Exchange 2007 and later write 1 MB log files)
CREATE OR REPLACE VIEW log_replay AS
SELECT s.key AS solution, t.label AS trial, r.id AS run_id, r.run_label,
       count(c.instance_id)::int AS database_count,
       sum(c.log_files_replayed)::int AS logs_replayed,
       sum(c.elapsed_s) AS elapsed_s,
       sum(c.elapsed_s) / NULLIF(sum(c.log_files_replayed), 0) AS seconds_per_log,
       avg(c.log_files_replayed / NULLIF(c.elapsed_s, 0)) AS logs_per_s_per_database,
       sum(c.log_files_replayed / NULLIF(c.elapsed_s, 0)) AS logs_per_s_per_server,
       sum(c.log_files_replayed / NULLIF(c.elapsed_s, 0)) * 1.0 AS log_mb_per_s_per_server
FROM recovery_stats c
JOIN runs r ON r.id = c.run_id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN trials t ON t.id = r.trial_id
GROUP BY s.key, t.label, r.id, r.run_label;
