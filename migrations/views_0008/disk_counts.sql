-- title: Disk counts
-- description: Each solution's disk count on both bases: all physical disks (every disk in
--   every shelf, hot spares included) and active disks only (hot spares and system disks left out).
-- column disk_basis: all | active
-- column disk_count: disks
-- Counts stored per solution when its disks are written (table solution_disk_counts, migration 0008).
CREATE OR REPLACE VIEW disk_counts AS
SELECT s.id AS solution_id, s.key AS solution, b.disk_basis,
       (CASE b.disk_basis WHEN 'all' THEN c.all_disk_count ELSE c.active_disk_count END)::int AS disk_count
FROM solution_disk_counts c
JOIN solutions s ON s.id = c.solution_id
CROSS JOIN (VALUES ('all'), ('active')) AS b(disk_basis);
