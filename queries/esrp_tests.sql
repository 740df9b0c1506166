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
WITH backup AS (
    SELECT solution,
           avg(mb_per_s_per_database) FILTER (WHERE report_type = 'DatabaseBackup') AS backup_mb_per_s_per_database,
           avg(mb_per_s_per_server) FILTER (WHERE report_type = 'DatabaseBackup') AS backup_mb_per_s_per_server,
           avg(mb_per_s_per_database) FILTER (WHERE report_type = 'DBChecksum') AS checksum_mb_per_s_per_database,
           avg(mb_per_s_per_server) FILTER (WHERE report_type = 'DBChecksum') AS checksum_mb_per_s_per_server
    FROM backup_throughput WHERE solution IS NOT NULL GROUP BY solution
), replay AS (
    SELECT solution, avg(logs_per_s_per_server) AS logs_per_s_per_server, avg(seconds_per_log) AS seconds_per_log
    FROM log_replay WHERE solution IS NOT NULL GROUP BY solution
)
SELECT solution, b.backup_mb_per_s_per_database, b.backup_mb_per_s_per_server,
       b.checksum_mb_per_s_per_database, b.checksum_mb_per_s_per_server,
       r.logs_per_s_per_server, r.seconds_per_log
FROM backup b
FULL JOIN replay r USING (solution);
