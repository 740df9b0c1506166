"""What Jetstress prints, shared by every format that reads it: records, labels, values, log lines."""
