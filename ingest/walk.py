"""The files a batch names: folders walked without leaving them by a link, to a bounded depth.

A link inside an ingested folder that leads out of it is not followed (it could name any file on the
machine the user did not mean to load): it is its own `skipped` line saying where it leads. A
folder nested deeper than MAX_FOLDER_DEPTH (or one that cannot be read) is one `failed` line and
the rest of the batch is read; the walk keeps its own stack, so no depth reaches Python's recursion
limit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

MAX_FOLDER_DEPTH = 64  # folders below one named on the command line; result folders nest a few levels


@dataclass(frozen=True)
class Found:
    path: Path
    explicit: bool  # named on the command line, not found in a folder
    refused: str | None = None  # why it is not read: its outcome's message
    status: str = "failed"  # the outcome of a refused entry
    inode: tuple[int, int] | None = None  # (device, inode) of the file a folder's walk found (a link: its target's)


def found_files(paths: Iterable[str | Path]) -> Iterator[Found]:
    """Each path named, and the files in each folder named, in sorted order within a folder."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from _folder(path)
        else:
            yield Found(path, True)


def _folder(top: Path) -> Iterator[Found]:
    try:
        root = top.resolve(strict=True)
    except (OSError, RuntimeError) as error:
        yield Found(top, True, f"{top}: the folder cannot be read: {error}")
        return
    found: list[Found] = []
    stack = [(top, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as error:
            found.append(Found(folder, False, f"{folder}: the folder cannot be read: {error.strerror or error}"))
            continue
        for entry in listed:
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    linked = _link(path, root, top)
                    if linked is not None and not entry.name.startswith("."):
                        found.append(linked)
                elif entry.is_dir(follow_symlinks=False):
                    if depth + 1 > MAX_FOLDER_DEPTH:
                        found.append(Found(path, False, f"{path}: folders nested more than {MAX_FOLDER_DEPTH} levels "
                                                        f"below {top} (MAX_FOLDER_DEPTH); nothing below it was read"))
                    else:
                        stack.append((path, depth + 1))
                elif entry.is_file(follow_symlinks=False) and not entry.name.startswith("."):
                    found.append(Found(path, False, inode=(entry.stat(follow_symlinks=False).st_dev, entry.inode())))
            except OSError as error:
                found.append(Found(path, False, f"{path}: cannot be read: {error.strerror or error}"))
    yield from sorted(found, key=lambda f: f.path)


def _link(path: Path, root: Path, top: Path) -> Found | None:
    """A link to a file inside the folder is read as that file; one leading out of it is said, never followed;
    a link to a folder inside it adds nothing (the folder is walked itself); a dangling link is passed by."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(root):
        return Found(path, False, f"{path}: a link to {target}, outside the folder named ({top}); not followed",
                     status="skipped")
    return Found(path, False, inode=_inode(target)) if target.is_file() else None


def _inode(path: Path) -> tuple[int, int]:
    """The file the walk found, so that ingest reads that file and no other put in its place since."""
    info = os.stat(path)
    return info.st_dev, info.st_ino
