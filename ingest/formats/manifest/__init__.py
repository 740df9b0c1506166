"""Solution manifest (TOML) -> `SolutionManifest`: the format module for ``fixtures/catalog/*.toml``.

Pure: bytes in, a typed manifest out; no file access, paths stay as written (relative to the
manifest) for the loader to resolve. Validation collects every problem and raises one
`ManifestError` listing them, each as ``key.path: problem``, so one run of the checker fixes a
whole file. The format is documented in docs/manifests.md.

The reader is in reader.py, imported by `parse`: detecting a file (every ingest process does) needs
only `identify`, not tomllib and the checkers.
"""

from __future__ import annotations

import re
from typing import Any

from ..reader_names import reader_name
from .records import SolutionManifest  # what `parse` returns (light: records only)

FORMAT = "solution_manifest"
MAX_BYTES = 1024 * 1024  # a manifest is a few kilobytes; a megabyte is not a manifest

_SOLUTION_TABLE = re.compile(r"^[ \t]*\[[ \t]*solution[ \t]*\][ \t]*(?:#.*)?$", re.MULTILINE)


def identify(name: str, head: bytes) -> bool:
    """A ``.toml`` file whose first bytes hold a ``[solution]`` table header."""
    if not name.lower().endswith(".toml"):
        return False
    return _SOLUTION_TABLE.search(head.decode("utf-8", errors="replace")) is not None


def parse(name: str, data: bytes) -> SolutionManifest:
    """The manifest, or one `ManifestError` listing every problem (reader.py, imported when one is read)."""
    from .reader import parse as read_manifest

    return read_manifest(name, data, max_bytes=MAX_BYTES)


def __getattr__(name: str) -> Any:
    """The reader's other names (`ManifestError`, the key lists, ...), as the package always gave them,
    loaded when first asked for."""
    return reader_name(__name__, name)
