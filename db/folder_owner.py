"""Folders the embedded server runs from must be nobody else's: checked, never repaired.

Another local user who made ESRPDB_HOME (or a folder inside it) before root ran esrpdb there could
put programs where the server's binaries are looked for, or swap the data folder; a folder that user
can write to, or a folder above it they own, is as good as theirs. So the home, the folders above it,
the data folder and a copy of the server's binaries must belong to root or the user running esrpdb
(the data folder also to the server's own user, which esrpdb makes its owner), and no one else may
write to them (a shared parent like /tmp may, when its sticky bit keeps others from renaming what is
ours). Pure file-system reads: each rule is testable on its own.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Characters a POSIX shell still expands inside double quotes: PostgreSQL's programs run each other
# through `popen("\"<bin folder>/postgres\" -V")`, so a binaries folder whose path holds one is refused.
SHELL_ACTIVE = frozenset('$`"\\\n')


def user_name(uid: int) -> str:
    import pwd

    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _group_name(gid: int) -> str:
    import grp

    try:
        return f"{grp.getgrgid(gid).gr_name} (gid {gid})"
    except KeyError:
        return f"gid {gid}"


def refusal(path: Path, owners: set[int], groups: set[int], *, shared_parent: bool = False) -> str | None:
    """One line when `path` belongs to, or can be written by, a user outside `owners`; None when it is ours.

    `groups` may write to it (root's and our own group); `shared_parent`: a folder above the home,
    where others may write when the sticky bit stops them renaming or removing our entries.
    """
    try:
        info = os.lstat(path)
    except OSError:  # not there (yet), or a file on the way: making the home says what is wrong
        return None
    if info.st_uid not in owners:
        return (f"{path} belongs to another user, {user_name(info.st_uid)}: esrpdb runs no server from a folder "
                "someone else can change (remove it, or choose another ESRPDB_HOME)")
    mode = info.st_mode
    sticky = shared_parent and stat.S_ISDIR(mode) and bool(mode & stat.S_ISVTX)
    if mode & stat.S_IWOTH and not sticky:
        return (f"{path} can be written by every user (mode {stat.S_IMODE(mode):04o}): esrpdb runs no server from "
                f"a folder someone else can change (`chmod o-w {path}`, or choose another ESRPDB_HOME)")
    if mode & stat.S_IWGRP and info.st_gid not in groups and not sticky:
        return (f"{path} can be written by the group {_group_name(info.st_gid)} (mode {stat.S_IMODE(mode):04o}): "
                f"esrpdb runs no server from a folder someone else can change (`chmod g-w {path}`, or choose "
                "another ESRPDB_HOME)")
    return None


def home_refusal(home: Path) -> str | None:
    """The first folder from / down to `home` (those that exist, links followed) that is not ours, in one line."""
    home = Path(os.path.realpath(home))
    owners, groups = {0, os.geteuid()}, {0, os.getegid()}
    for folder in reversed(home.parents):
        refused = refusal(folder, owners, groups, shared_parent=True)
        if refused:
            return refused
    return refusal(home, owners, groups)


def tree_refusal(root: Path) -> str | None:
    """The first folder or file under `root` (itself included) that is not ours, or None."""
    owners, groups = {0, os.geteuid()}, {0, os.getegid()}
    refused = refusal(root, owners, groups)
    if refused or not root.is_dir() or root.is_symlink():
        return refused
    for folder, folders, files in os.walk(root):
        for name in [*folders, *files]:
            refused = refusal(Path(folder, name), owners, groups)
            if refused:
                return refused
    return None


def shell_refusal(binaries: Path) -> str | None:
    """One line when PostgreSQL's own popen() of its programs would expand part of the folder's path."""
    active = sorted(SHELL_ACTIVE & set(str(binaries)))
    if not active:
        return None
    shown = " ".join(repr(c) for c in active)
    return (f"the server's programs would run from {str(binaries)!r}, whose path holds {shown}, which PostgreSQL's "
            "programs pass through a shell; choose an ESRPDB_HOME without them")
