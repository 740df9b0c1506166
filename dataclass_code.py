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
(ingest/parallel: it ends with os._exit, running no exit handler).
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import sys
from types import CodeType
from typing import Any

from .cache_files import cache_folder, read_trusted, write_whole

MAX_TEXTS = 5_000  # past this many (old releases' texts piling up), the file keeps this command's alone

_codes: dict[str, CodeType] = {}
_compiled_here: set[str] = set()  # texts compiled by this process, not found in the cache


def cache_name() -> str:
    """One file a Python (marshal's format and the compiler's output are both Python's own)."""
    return f"dataclass-code-{sys.implementation.cache_tag}-{marshal.version}-{sys.hexversion:x}.marshal"


def install() -> None:
    """The cache read and the dataclasses module's `exec` replaced; once a process."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    _codes.update(_read())
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global: the builtin stays as it was
    import atexit

    atexit.register(save)


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002 - exec's own names
    if isinstance(source, str):
        code = _codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = code
            _compiled_here.add(source)
        source = code
    builtins.exec(source, globals, locals)


def _read() -> dict[str, CodeType]:
    data = read_trusted(cache_folder() / cache_name())
    if data is None:
        return {}
    try:
        codes = marshal.loads(data)
    except Exception:  # noqa: BLE001 - torn or foreign: compiled again, written again
        return {}
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, CodeType) for k, v in codes.items()):
        return {}
    return codes


def save() -> None:
    """What this process compiled, added to the cache as it is now on disk (another process may have
    added its own meanwhile); nothing written when nothing is new."""
    if not _compiled_here:
        return
    new = {text: _codes[text] for text in _compiled_here}
    _compiled_here.clear()
    kept = _read()
    codes = {**kept, **new} if len(kept) + len(new) <= MAX_TEXTS else new
    try:
        write_whole(cache_folder() / cache_name(), marshal.dumps(codes))
    except (OSError, ValueError):  # a cache that cannot be written only costs the next command the compiling
        pass
