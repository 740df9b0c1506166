"""The code of dataclasses' methods, compiled once and kept for the next command.

Python makes each dataclass's `__init__`, `__repr__`, `__eq__` (and a frozen one's `__setattr__`, ...)
by writing their source text and compiling it (`exec` of a string in the dataclasses module): about
1.5 ms a class, and `esrpdb ingest FILE` defines some 80 in each of its two processes, a tenth of a
second of its start-up spent compiling the very text the last command compiled (issue 46).

`install` gives the dataclasses module an `exec` of its own (a module global shadows the builtin there
alone): a text seen before runs as the code compiled from it, kept in the user's cache (marshal, one file
a Python version; read only when trusted, cache_files.py); a new text is compiled as `exec` would
compile it (no flags inherited: dataclasses.py has no `__future__` import) and kept. The same text
gives the same code, so the classes are the ones Python makes (tests/test_dataclass_code.py). Only a
command's own process installs it (cli/main.py `run`): a library caller's Python is left as it is.
`save` writes what a process compiled new: at exit, and by a forked reader once its result is sent
(ingest/parallel: it ends with os._exit, running no exit handler; kept_code.py saves both caches).
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import sys
from types import CodeType
from typing import Any

from .cache_files import KeptCodes

MAX_TEXTS = 5_000  # past this many (old releases' texts piling up), the file keeps this command's alone


def cache_name() -> str:
    """One file a Python (marshal's format and the compiler's output are both Python's own)."""
    return f"dataclass-code-{sys.implementation.cache_tag}-{marshal.version}-{sys.hexversion:x}.marshal"


_kept = KeptCodes(cache_name(), lambda text, code: isinstance(text, str) and isinstance(code, CodeType), MAX_TEXTS)
_codes: dict[str, CodeType] = _kept.entries
_compiled_here: set[str] = _kept.added  # texts compiled by this process, not found in the cache


def install() -> None:
    """The dataclasses module's `exec` replaced, once a process (the cache is read when it first runs)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global: the builtin stays as it was
    import atexit

    atexit.register(save)


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002 - exec's own names
    if isinstance(source, str):
        code = _kept.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _kept.add(source, code)
        source = code
    builtins.exec(source, globals, locals)


def save() -> None:
    """What this process compiled, added to the cache as it is now on disk; nothing written when nothing is new."""
    _kept.save()
