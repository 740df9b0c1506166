"""The code of regular expressions, compiled once and kept for the next command.

Python's `re` parses and compiles a pattern in Python code (re/_parser.py, re/_compiler.py): the rules'
~450 patterns take some 70 ms of a forked reader's time on every `esrpdb ingest FILE`, compiled on their
first use, a sixth of the reading of a 20-page document (issue 46). What the compiler gives the regex
engine is plain data (the pattern's flags, a list of integers, its groups and their names), and the
engine checks it before using it (`_sre.compile` validates the code). So `install` replaces the
compiler's `compile` by one that keeps that data in the user's cache (marshal, one file a Python
version; read only when trusted, cache_files.py) and hands a pattern seen before straight to the engine.

A new pattern is compiled by the same steps as re/_compiler.py's `compile` (parse, `_code`, the group
maps), so the same text gives the same Pattern: `Pattern.__eq__` compares flags and code, and
tests/test_pattern_code.py compares every pattern the rules use with and without the cache. Anything
unusual (a DEBUG flag, an already-parsed pattern, a str subclass, entries the engine refuses) goes to
Python's own compiler. Only a command's own process installs it (cli/main.py `run`); `save` runs at
exit and in a forked reader after its result is sent (kept_code.py).
"""

from __future__ import annotations

import marshal
import re
import sys
from typing import Any

from .cache_files import KeptCodes

MAX_PATTERNS = 5_000  # every command compiles ~800 (~0.8 kB each); past this many, the file keeps this command's alone

Parts = tuple[int, list[int], int, dict[str, int], tuple[Any, ...]]  # flags, code, groups - 1, names, index → name


def cache_name() -> str:
    """One file a Python: the engine's code changes between versions."""
    return f"pattern-code-{sys.implementation.cache_tag}-{marshal.version}-{sys.hexversion:x}.marshal"


def _entry_ok(key: Any, parts: Any) -> bool:
    return (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], (str, bytes)) and type(key[1]) is int
            and isinstance(parts, tuple) and len(parts) == 5 and type(parts[0]) is int and isinstance(parts[1], list)
            and type(parts[2]) is int and isinstance(parts[3], dict) and isinstance(parts[4], tuple))


_kept = KeptCodes(cache_name(), _entry_ok, MAX_PATTERNS)
_original: Any = None


def install() -> None:
    """re's compiler step replaced, once a process, and only where re has the steps this module takes
    (Python 3.11 and later); the cache is read when it first compiles."""
    global _original
    compiler = getattr(re, "_compiler", None)
    steps = ("compile", "_code", "_parser", "_sre")
    if _original is not None or compiler is None or not all(hasattr(compiler, name) for name in steps):
        return
    _original = compiler.compile
    compiler.compile = _compile
    import atexit

    atexit.register(save)


def _compile(pattern: Any, flags: int = 0) -> Any:
    if type(pattern) not in (str, bytes) or type(flags) is not int or flags & re.DEBUG:  # (a subclass: marshal keeps none)
        return _original(pattern, flags)
    key = (pattern, flags)
    parts = _kept.get(key)
    compiler = re._compiler  # type: ignore[attr-defined]
    if parts is not None:
        try:
            return compiler._sre.compile(pattern, *parts)
        except Exception:  # noqa: BLE001 - code the engine refuses (a foreign cache): compiled anew below
            pass
    parsed = compiler._parser.parse(pattern, flags)
    code = list(map(int, compiler._code(parsed, flags)))  # opcodes are int subclasses (named): marshal keeps ints
    names = parsed.state.groupdict
    index_names: list[str | None] = [None] * parsed.state.groups
    for name, index in names.items():
        index_names[index] = name
    parts = (flags | parsed.state.flags, code, parsed.state.groups - 1, dict(names), tuple(index_names))
    _kept.add(key, parts)
    return compiler._sre.compile(pattern, *parts)


def save() -> None:
    """What this process compiled, added to the cache as it is now on disk; nothing written when nothing is new."""
    _kept.save()
