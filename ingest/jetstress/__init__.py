"""What Jetstress prints, shared by every format that reads it: records, labels, values, log lines
(`log_events`), and the rules a report must satisfy (`rules`: pass thresholds, sums)."""
