-- title: Backup and checksum throughput
-- description: ESRP's database backup and database read-only (checksum) tests: the MB per second
--   read per database and per server, per run, from the DatabaseBackup and DBChecksum reports'
--   per-database rows (MB as Jetstress prints it: 2^20 bytes).
-- column database_count: databases (instances) the report lists
-- column mb_per_s_per_database: average over the run's databases of their MB/s
-- column mb_per_s_per_server: sum over the run's databases: what the server read
-- column database_size_mb: the databases' sizes added up, MB
-- column elapsed_s: the longest database's elapsed seconds
CREATE OR REPLACE VIEW backup_throughput AS
SELECT s.key AS solution, t.label AS trial, r.id AS run_id, r.run_label, r.report_type,
       count(b.instance_id)::int AS database_count,
       avg(b.transfer_mb_per_s) AS mb_per_s_per_database,
       sum(b.transfer_mb_per_s) AS mb_per_s_per_server,
       sum(b.database_size_mb) AS database_size_mb,
       max(b.elapsed_s) AS elapsed_s
FROM backup_stats b
JOIN runs r ON r.id = b.run_id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN trials t ON t.id = r.trial_id
GROUP BY s.key, t.label, r.id, r.run_label, r.report_type;
