"""Putting a built site into OUT: only what esrpdb wrote there is ever replaced or deleted.

`site --force` used to replace whole folders (solutions/, static/, ...), and with them any file of
the user's inside. Each build now leaves a list of the files it wrote (MANIFEST, one relative path a
line); the next build deletes only the files on that list it no longer writes, overwrites the ones
it writes again, and leaves every other file where it is. A link in OUT is replaced as a link, never
followed, so a build can neither write nor delete outside OUT.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

MANIFEST = ".esrpdb-site-files"


def _files(staging: Path) -> list[PurePosixPath]:
    found = []
    for folder, _, names in os.walk(staging):
        for name in names:
            found.append(PurePosixPath(Path(folder, name).relative_to(staging).as_posix()))
    return sorted(found)


def written_before(out: Path) -> set[PurePosixPath]:
    """The files the last build wrote, as its list says (entries leaving OUT are dropped)."""
    try:
        lines = (out / MANIFEST).read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    return {PurePosixPath(line) for line in lines
            if line and not line.startswith("/") and ".." not in PurePosixPath(line).parts}


def _inside_real_folders(out: Path, relative: PurePosixPath) -> bool:
    """Every folder between OUT and the file is a real folder (no link): deleting there stays in OUT."""
    folder = out
    for part in relative.parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or not folder.is_dir():
            return False
    return True


def _real_folder(out: Path, relative: PurePosixPath) -> Path:
    """The folder for a file, made of real folders: a link or a file in the way is removed (never followed)."""
    folder = out
    for part in relative.parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            folder.unlink()
        folder.mkdir(exist_ok=True)
    return folder


def move_into_place(staging: Path, out: Path) -> None:
    """Move every file of `staging` into OUT; delete the files the previous build wrote and this one did not."""
    new = _files(staging)
    for stale in sorted(written_before(out) - set(new)):
        target = out / stale
        if _inside_real_folders(out, stale) and (target.is_symlink() or target.is_file()):
            target.unlink()
    for relative in new:
        target = _real_folder(out, relative) / relative.name
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            raise IsADirectoryError(f"{target} is a folder where the site writes a file; move it away and retry")
        os.replace(staging / relative, target)
    (out / MANIFEST).write_text("".join(f"{path}\n" for path in new), encoding="utf-8")
