-- title: Run throughput
-- description: Disk throughput of each run: from the perfmon samples linked to the run when it
--   has them (LogicalDisk(_Total) counters averaged over the export), else as a document's result
--   table prints it. MB = 2^20 bytes.
-- column transfer_mb_per_s: disk read + write megabytes per second
-- column throughput_source: perfmon or document_table
CREATE OR REPLACE VIEW run_throughput AS
WITH counter_means AS (
    SELECT c.run_id, lower(c.counter_name) AS counter, avg(ps.value) AS mean_value
    FROM perf_counters c
    JOIN perf_samples ps ON ps.source_file_id = c.source_file_id AND ps.counter_id = c.id
    WHERE c.run_id IS NOT NULL AND c.object_name = 'LogicalDisk' AND c.instance_name = '_Total'
    GROUP BY c.run_id, lower(c.counter_name)
),
perfmon AS (
    SELECT run_id,
           max(mean_value) FILTER (WHERE counter = 'disk transfers/sec') AS disk_transfers_per_s,
           max(mean_value) FILTER (WHERE counter = 'disk read bytes/sec') / 1048576.0 AS read_mb_per_s,
           max(mean_value) FILTER (WHERE counter = 'disk write bytes/sec') / 1048576.0 AS write_mb_per_s,
           max(mean_value) FILTER (WHERE counter = 'disk bytes/sec') / 1048576.0 AS bytes_mb_per_s,
           max(mean_value) FILTER (WHERE counter = 'avg. disk sec/read') * 1000 AS read_latency_ms,
           max(mean_value) FILTER (WHERE counter = 'avg. disk sec/write') * 1000 AS write_latency_ms
    FROM counter_means
    GROUP BY run_id
),
published AS (
    SELECT run_id, value AS transfer_mb_per_s FROM run_published_values WHERE metric = 'throughput_mb_per_s'
)
SELECT r.id AS run_id, s.key AS solution, r.run_label,
       p.disk_transfers_per_s, p.read_mb_per_s, p.write_mb_per_s,
       COALESCE(p.bytes_mb_per_s, p.read_mb_per_s + p.write_mb_per_s, pub.transfer_mb_per_s) AS transfer_mb_per_s,
       p.read_latency_ms, p.write_latency_ms,
       CASE WHEN p.run_id IS NOT NULL THEN 'perfmon' ELSE 'document_table' END AS throughput_source,
       r.solution_id
FROM runs r
LEFT JOIN perfmon p ON p.run_id = r.id
LEFT JOIN published pub ON pub.run_id = r.id
LEFT JOIN solutions s ON s.id = r.solution_id
WHERE p.run_id IS NOT NULL OR pub.run_id IS NOT NULL;
