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
-- Each solution's design is stored when what it comes from is written (solution_designs, revision
-- 0022, queries/solution_designs.sql); the class is joined here, so new bounds apply at once.
CREATE OR REPLACE VIEW test_designs AS
SELECT d.solution_id, d.solution, d.mailbox_count, d.mailbox_count_source, d.mailbox_size_mb,
       d.iops_per_mailbox, d.database_count, d.mailbox_count * d.iops_per_mailbox AS implied_target_iops,
       k.label AS mailbox_class, k.class_ordinal AS mailbox_class_order,
       d.database_copy_count AS database_copies, d.esrp_version, d.esrp_version_source, d.tested_on
FROM solution_designs d
LEFT JOIN mailbox_classes k
       ON d.mailbox_count >= k.min_mailbox_count AND (k.max_mailbox_count IS NULL OR d.mailbox_count <= k.max_mailbox_count);
