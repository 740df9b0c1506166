-- title: Disk counts
-- description: Each solution's disk count on both bases: all physical disks (every disk in
--   every shelf, hot spares included) and active disks only (hot spares and system disks left out).
-- column disk_basis: all | active
-- column disk_count: disks
CREATE OR REPLACE VIEW disk_counts AS
SELECT s.id AS solution_id, s.key AS solution, b.disk_basis,
       sum(d.disk_count) FILTER (WHERE b.disk_basis = 'all' OR d.role = 'active')::int AS disk_count
FROM solutions s
JOIN disks d ON d.solution_id = s.id
CROSS JOIN (VALUES ('all'), ('active')) AS b(disk_basis)
GROUP BY s.id, s.key, b.disk_basis;
