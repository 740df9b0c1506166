"""A format package's other names, from its reader.py, loaded when first asked for.

A format package's `__init__` holds what detection needs, its face (FORMAT, MAX_BYTES, identify, a thin
parse or open_perfmon); the reader itself is reader.py, loaded by parse, so that detecting one file
loads no format's reader (issue 46: lxml, the DOM code, the checkers, the binary perfmon layout). The
names callers took from the package (`manifest.ManifestError`, `perfmon.iter_samples`) still come from
it, through its `__getattr__`, which asks here. Three kinds of name are never forwarded: a dunder; a
submodule of the package, which the import system loads as itself (`from ..jetstress_html import
tables` must not load the HTML reader); and a name of the face, which `__init__` declares or the format
does not have (a probe such as the pipeline's `getattr(module, "open_perfmon", None)` or the registry's
`hasattr(module, "identify_rest")` must not load a reader).
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

FACE = frozenset({"FORMAT", "MAX_BYTES", "identify", "identify_rest", "parse", "open_perfmon"})


def reader_name(package: str, name: str) -> Any:
    """`package.name` from `package.reader`; AttributeError for the three kinds above or a name it lacks."""
    if name.startswith("__") or name in FACE or find_spec(f"{package}.{name}") is not None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(import_module(".reader", package), name)
