"""Drafting's patterns compiled on their first search, not as their module is imported.

The drafting rules hold some two hundred patterns; compiling them all was ~80 ms of every reading
process, and a document asks a third of them never (their prefilter's words absent, their table kind not
printed). A deferred pattern compiles itself when first asked anything, then keeps the compiled
pattern's own methods in its instance, so every later search costs what the compiled pattern's does.
Only for patterns of a module's top level: one made inside a function is used at once. Never for a
pattern told by identity (`match.re is P`): a match's `re` is the compiled pattern, not the deferred
one (quantities.MAILBOX_THOUSANDS, verdicts._WITHIN_THE stay compiled). Measured: the 19-page
ESRP PDF asks 241 of the 295 (58 ms of compiling), so a document saves what the rest cost (~13 ms).
"""

from __future__ import annotations

import re
from typing import Any, cast

# What a pattern is asked for: kept on the instance once compiled, so no later call goes through __getattr__.
_KEPT = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
         "pattern", "flags", "groups", "groupindex")


class _Deferred:
    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> Any:  # asked only for what the instance does not hold yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for kept in _KEPT:
            setattr(self, kept, getattr(compiled, kept))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"deferred({self._source!r}, {self._flags})"


def deferred(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, made when the pattern is first used."""
    return cast("re.Pattern[str]", _Deferred(source, int(flags)))
