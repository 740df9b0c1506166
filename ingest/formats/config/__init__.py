"""JetstressConfig.xml (and the ``XmlConfig_<ts>.xml`` copy Jetstress saves beside a run).

Why this shape: the config is a .NET ``XmlSerializer`` document that users edit by hand
and by script, so real files carry junk (``<Type>asfdsa</Type>``) and empty elements.
The parser reads every known element by name, collects *every* problem, and raises one
`ParseError` listing them all, so a user fixes the file in one pass.

Decisions (see docs/jetstress-formats.md §3):
- An empty ``<ThreadCount>`` is valid and means "let Jetstress auto-tune the thread
  count" (`thread_count=None`), unless ``<SuppressTuning>true`` says not to tune: then
  there would be no thread count at all, and that is reported as a problem.
- ``<MailboxCount>``, ``<MailboxQuota>``, ``<MailboxIops>`` and at least one
  ``<EseInstance>`` (each with a database path and a log path) are required: without them
  Jetstress cannot size or place the databases (ExchangeDsc refuses empty paths too).
- ``<Duration>`` is read with a real ``xs:duration`` parser (isodate), so hand-written
  spellings such as ``P0Y0M0DT1H90M0S`` are accepted, with their standard value (1 h +
  90 min = 9,000 s, even though JetEdit writes it for "5400s"); years or months are
  rejected because they have no fixed length in seconds.
- XML is parsed with defusedxml with DTDs forbidden: entity bombs and external entities
  never get expanded.

The reader is in reader.py, imported by `parse`: detecting a file (every ingest process does) needs
only `identify`, not the XML parser and isodate.
"""

from __future__ import annotations

import re
from typing import Any

from ...decoding import head_text
from ..reader_names import reader_name
from .records import JetstressConfig  # what `parse` returns (light: records only)

FORMAT = "jetstress_config"
MAX_BYTES = 16 * 1024 * 1024  # a real JetstressConfig.xml is a few kilobytes

_NAME_HINT = re.compile(r"(?:JetstressConfig|XmlConfig_)[^/\\]*\.xml$", re.IGNORECASE)
_ROOT_START = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<configuration[\s>/]", re.DOTALL)
_JETSTRESS_TAGS = ("<JetstressVersionGenerated", "<EseVersionGenerated", "<TestDesignInfo", "<ExchangeProfile")


def identify(name: str, head: bytes) -> bool:
    """A ``<configuration>`` root plus a Jetstress element (or a Jetstress file name)."""
    text = head_text(head, errors="replace")
    if not _ROOT_START.match(text):
        return False
    return any(tag in text for tag in _JETSTRESS_TAGS) or bool(_NAME_HINT.search(name))


def parse(name: str, data: bytes) -> JetstressConfig:
    """The file's configuration, every problem listed in one `ParseError` (reader.py, imported when read)."""
    from .reader import parse as read_config

    return read_config(name, data, max_bytes=MAX_BYTES)


def __getattr__(name: str) -> Any:
    """The reader's other names, as the package always gave them, loaded when first asked for."""
    return reader_name(__name__, name)
