"""The old name of `ingest.jetstress.rules`, kept for ingest/load/__init__.py until it imports
`rules`; then this module goes."""

from .jetstress.rules import Finding, check_report

__all__ = ["Finding", "check_report"]
