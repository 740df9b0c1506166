-- title: ESRP tests per solution
-- description: One line per solution with ESRP's other tests as compare and the mailbox classes
--   use them: database backup and read-only (checksum) MB per second per database and per server,
--   and log replay (soft recovery) logs per second per server and seconds per log. A solution
--   with several runs of one test gets their average. MB = 2^20 bytes.
-- column backup_mb_per_s_per_database: DatabaseBackup: average MB/s per database
-- column backup_mb_per_s_per_server: DatabaseBackup: MB/s of all the server's databases
-- column checksum_mb_per_s_per_database: DBChecksum: average MB/s per database
-- column checksum_mb_per_s_per_server: DBChecksum: MB/s of all the server's databases
-- column logs_per_s_per_server: SoftRecovery: logs replayed per second by all the databases
-- column seconds_per_log: SoftRecovery: seconds to replay one log
CREATE OR REPLACE VIEW esrp_tests AS
SELECT s.key AS solution, b.backup_mb_per_s_per_database, b.backup_mb_per_s_per_server,
       b.checksum_mb_per_s_per_database, b.checksum_mb_per_s_per_server,
       l.logs_per_s_per_server, l.seconds_per_log
FROM solutions s
LEFT JOIN LATERAL (
    SELECT avg(t.mb_per_s_per_database) FILTER (WHERE t.report_type = 'DatabaseBackup') AS backup_mb_per_s_per_database,
           avg(t.mb_per_s_per_server) FILTER (WHERE t.report_type = 'DatabaseBackup') AS backup_mb_per_s_per_server,
           avg(t.mb_per_s_per_database) FILTER (WHERE t.report_type = 'DBChecksum') AS checksum_mb_per_s_per_database,
           avg(t.mb_per_s_per_server) FILTER (WHERE t.report_type = 'DBChecksum') AS checksum_mb_per_s_per_server
    FROM backup_throughput t WHERE t.solution = s.key
) b ON true
LEFT JOIN LATERAL (
    SELECT avg(r.logs_per_s_per_server) AS logs_per_s_per_server, avg(r.seconds_per_log) AS seconds_per_log
    FROM log_replay r WHERE r.solution = s.key
) l ON true
WHERE num_nonnulls(b.backup_mb_per_s_per_database, b.checksum_mb_per_s_per_database, l.logs_per_s_per_server) > 0;
