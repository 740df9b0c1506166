"""Files a command keeps in the user's cache for the next command: where, and read only if trusted.

What is cached here is code to Python (a pickle of the catalogue's tables, the code of dataclasses'
methods), so a file is read only when this user owns it and no one else may write it, and written
whole or not at all (another command may read it meanwhile). A cache that cannot be read or written
(a read-only home, another owner) only costs the work it would have saved.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


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
