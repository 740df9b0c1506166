"""The old name of `log_events` (product code, not a test), kept for ingest/formats/document/log.py
until it imports `log_events`; then this module goes."""

from .log_events import extract_thresholds, parse_test_log, parse_test_log_lines

__all__ = ["extract_thresholds", "parse_test_log", "parse_test_log_lines"]
