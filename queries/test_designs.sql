-- title: Test design
-- description: What each solution's test simulated: mailbox count, mailbox size, IOPS per mailbox
--   (and the target IOPS they imply), database count and copies, the ESRP program version and
--   tested date its document prints, and the mailbox class the count falls in
--   (bounds in table mailbox_classes). Each figure is taken from the document that prints it
--   (its published figures first, then the figures drafted from it), else from the Jetstress
--   configuration (JetstressConfig.xml) of the solution's runs; the *_source columns say which
--   file and line. The audit checks a printed mailbox count against the configuration.
-- column mailbox_count: mailboxes simulated
-- column mailbox_count_source: file and line the count is printed on (or the JetstressConfig.xml file)
-- column mailbox_size_mb: mailbox size (quota), MB
-- column iops_per_mailbox: the test's I/O operations per second per mailbox
-- column database_count: databases in the test
-- column implied_target_iops: mailbox_count x iops_per_mailbox (the Jetstress target)
-- column mailbox_class: the class of mailbox_count (table mailbox_classes)
-- column mailbox_class_order: the class's order, smallest first
-- column database_copies: copies of each database (the reports' "Number of Copies per Database")
-- column esrp_version: the ESRP program version the document was tested with ("ESRP - Storage Version 3.0")
-- column esrp_version_source: file and line the version is printed on
-- column tested_on: the tested date the document prints
CREATE OR REPLACE VIEW test_designs AS
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
    WHERE c.subject = 'solution' AND c.solution_id IS NOT NULL
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
    WHERE sf.fact IN ('mailboxes', 'mailbox_size', 'iops_per_mailbox') AND sf.value_number IS NOT NULL
      AND (sf.fact <> 'mailbox_size' OR upper(coalesce(sf.unit, 'MB')) IN ('MB', 'GB', 'TB'))
    UNION ALL
    -- A document that states databases per server: times its servers (stated, else the hosts its reports name).
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
    WHERE sf.fact = 'databases_per_server' AND sf.value_number IS NOT NULL AND COALESCE(sv.servers, h.hosts) IS NOT NULL
    UNION ALL
    SELECT sf.solution_id, 'database_count', sf.value_number, f.file_name || coalesce(' line ' || sf.source_line, ''),
           2, sf.source_file_id, sf.source_line
    FROM solution_facts sf
    JOIN source_files f ON f.id = sf.source_file_id
    WHERE sf.fact = 'databases' AND sf.value_number IS NOT NULL
    UNION ALL
    SELECT r.solution_id, x.item, x.value, f.file_name, 3, tc.source_file_id, 0
    FROM test_configs tc
    JOIN runs r ON r.id = tc.run_id
    JOIN source_files f ON f.id = tc.source_file_id
    CROSS JOIN LATERAL (VALUES ('mailbox_count', tc.mailbox_count::float8),
                               ('mailbox_size_mb', tc.mailbox_quota_mb::float8),
                               ('iops_per_mailbox', tc.iops_per_mailbox::float8),
                               ('database_count', tc.database_count::float8)) AS x (item, value)
    WHERE x.value IS NOT NULL
), chosen AS (
    SELECT DISTINCT ON (solution_id, item) solution_id, item, value, source
    FROM candidates
    ORDER BY solution_id, item, preference, file_order, line_order
), documents_said AS (  -- the ESRP program each solution's documents print (few documents print one)
    SELECT DISTINCT ON (x.solution_id) x.solution_id, d.esrp_version,
           f.file_name || coalesce(' line ' || d.esrp_version_line, '') AS esrp_version_source, d.tested_on
    FROM documents d
    JOIN source_files f ON f.id = d.source_file_id
    CROSS JOIN LATERAL (
        SELECT cl.solution_id FROM claims cl WHERE cl.source_file_id = d.source_file_id AND cl.solution_id IS NOT NULL
        UNION
        SELECT r.solution_id FROM run_sources rs JOIN runs r ON r.id = rs.run_id
        WHERE rs.source_file_id = d.source_file_id AND r.solution_id IS NOT NULL
    ) AS x
    WHERE d.esrp_version IS NOT NULL OR d.tested_on IS NOT NULL
    ORDER BY x.solution_id, d.source_file_id
), copies AS (
    SELECT solution_id, max(copies_per_database) AS database_copies
    FROM runs WHERE solution_id IS NOT NULL AND copies_per_database IS NOT NULL GROUP BY solution_id
), designs AS (
    SELECT s.id AS solution_id, s.key AS solution,
           round(max(c.value) FILTER (WHERE c.item = 'mailbox_count'))::int AS mailbox_count,
           max(c.source) FILTER (WHERE c.item = 'mailbox_count') AS mailbox_count_source,
           max(c.value) FILTER (WHERE c.item = 'mailbox_size_mb') AS mailbox_size_mb,
           max(c.value) FILTER (WHERE c.item = 'iops_per_mailbox') AS iops_per_mailbox,
           round(max(c.value) FILTER (WHERE c.item = 'database_count'))::int AS database_count
    FROM solutions s
    LEFT JOIN chosen c ON c.solution_id = s.id
    GROUP BY s.id, s.key
)
SELECT d.solution_id, d.solution, d.mailbox_count, d.mailbox_count_source, d.mailbox_size_mb,
       d.iops_per_mailbox, d.database_count, d.mailbox_count * d.iops_per_mailbox AS implied_target_iops,
       k.label AS mailbox_class, k.class_ordinal AS mailbox_class_order,
       c.database_copies, e.esrp_version, e.esrp_version_source, e.tested_on
FROM designs d
LEFT JOIN copies c ON c.solution_id = d.solution_id
LEFT JOIN documents_said e ON e.solution_id = d.solution_id
LEFT JOIN mailbox_classes k
       ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count);
