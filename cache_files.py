"""Files a command keeps in the user's cache for the next command: where, and read only if trusted.

What is cached here is code to Python (a pickle of the catalogue's tables, the code of dataclasses'
methods and of regular expressions), so a file is read only when this user owns it and no one else may
write it, and written whole or not at all (another command may read it meanwhile). A cache that cannot be read or written
(a read-only home, another owner) only costs the work it would have saved.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path
from typing import Any, Callable


def cache_folder() -> Path:
    """platformdirs' user cache folder; on Linux its rule spelled out (XDG_CACHE_HOME, else ~/.cache), which
    spares every command importing platformdirs (~10 ms)."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME", "")
        return Path(base if base.strip() else os.path.expanduser("~/.cache")) / "esrpdb"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("esrpdb"))


def read_trusted(path: Path) -> bytes | None:
    """The file's bytes when this user owns it and no one else may write it; None otherwise or when absent."""
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return None
            return handle.read()
    except OSError:
        return None


def write_whole(path: Path, data: bytes) -> bool:
    """`data` in `path`, replaced at once (a reader sees the old file or the new one); False if it cannot be."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


class KeptCodes:
    """A dict a command fills as it works and keeps in one marshal file of the user's cache for the next
    command (compiled code: dataclass_code.py, pattern_code.py). `entry_ok(key, value)` is what a file's
    entries must pass to be used at all; a file that fails to load or check is as if absent (it is written
    again whole at the next save)."""

    def __init__(self, file_name: str, entry_ok: Callable[[Any, Any], bool], most: int) -> None:
        self.file_name, self._entry_ok, self._most = file_name, entry_ok, most
        self.entries: dict[Any, Any] = {}
        self.added: set[Any] = set()  # keys this process made, not found in the file
        self._loaded = False

    def load(self) -> None:
        self._loaded = True
        self.entries.update(self._read())

    def get(self, key: Any) -> Any:
        """The entry kept for `key`, or None; the file is read at the first call, not before: a command
        that makes nothing (`--help`) does not read it."""
        if not self._loaded:
            self.load()
        return self.entries.get(key)

    def add(self, key: Any, value: Any) -> None:
        self.entries[key] = value
        self.added.add(key)

    def _read(self) -> dict[Any, Any]:
        data = read_trusted(cache_folder() / self.file_name)
        if data is None:
            return {}
        try:
            entries = marshal.loads(data)
        except Exception:  # noqa: BLE001 - torn or foreign: made again, written again
            return {}
        if not isinstance(entries, dict) or not all(self._entry_ok(k, v) for k, v in entries.items()):
            return {}
        return entries

    def save(self) -> None:
        """What this process made, added to the file as it is now on disk (another process may have added
        its own meanwhile); nothing written when nothing is new. Past `most` entries (old releases' piling
        up), the file keeps this process's alone."""
        if not self.added:
            return
        new = {key: self.entries[key] for key in self.added}
        self.added.clear()
        kept = self._read()
        entries = {**kept, **new} if len(kept) + len(new) <= self._most else new
        try:
            write_whole(cache_folder() / self.file_name, marshal.dumps(entries))
        except ValueError:  # an entry marshal cannot write only costs the next command the compiling
            pass
