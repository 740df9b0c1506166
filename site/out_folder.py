"""Putting a built site into OUT: only what esrpdb wrote there is ever replaced or deleted.

`site --force` used to replace whole folders (solutions/, static/, ...), and with them any file of
the user's inside. Each build now leaves a list of the files it wrote (MANIFEST, one relative path a
line, after its SHA-256); the next build deletes only the files on that list it no longer writes,
overwrites the ones it writes again, and leaves every other file where it is. A link in OUT is replaced
as a link, never followed, so a build can neither write nor delete outside OUT.

The list lies in OUT, where anyone who can write OUT can plant one (a shared folder, an unpacked
archive). So the list is signed (HMAC-SHA256) with a key of this user's, kept outside OUT in esrpdb's
state folder; a list that does not verify (planted, edited, an older build's, another user's) deletes
nothing. And a listed file is deleted only when its path is one a build writes (SITE_FILE) and its
bytes are still the ones the list names: never a page the user edited since.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from pathlib import Path, PurePosixPath

MANIFEST = ".esrpdb-site-files"
# Every path a build writes (site/build.py, pages.py, compare_view.py), and no other.
SITE_FILE = re.compile(r"(?:index|classes|audit|schema|compare)\.html|static/(?:site\.css|site\.js|vega-bundle\.js"
                       r"|compare-data\.js)|charts/[^/]+\.svg|(?:solutions|compare)/[^/]+\.html")
_LISTED = re.compile(r"([0-9a-f]{64})  (.+)")
_SIGNED = re.compile(r"(?s)(.*)mac ([0-9a-f]{64})\n")
KEY_BYTES = 32


def _key() -> bytes | None:
    """This user's key for signing file lists (made on first use, 0600); None where it cannot be kept:
    the list is then unsigned, and the next build deletes nothing."""
    import platformdirs

    path = Path(platformdirs.user_state_dir("esrpdb", appauthor=False)) / "site-list-key"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(os.urandom(KEY_BYTES))
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def _mac(key: bytes, body: str) -> str:
    return hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()


def write_list(out: Path, hashes: dict[PurePosixPath, str]) -> None:
    """The list of what a build wrote in OUT: a file's SHA-256 and path a line, then the list's signature."""
    body = "".join(f"{sha256}  {path}\n" for path, sha256 in sorted(hashes.items()))
    key = _key()
    (out / MANIFEST).write_text(body + (f"mac {_mac(key, body)}\n" if key else ""), encoding="utf-8")


def _files(staging: Path) -> list[PurePosixPath]:
    found = []
    for folder, _, names in os.walk(staging):
        for name in names:
            found.append(PurePosixPath(Path(folder, name).relative_to(staging).as_posix()))
    return sorted(found)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def written_before(out: Path) -> dict[PurePosixPath, str]:
    """The files the last build wrote with their SHA-256, as its signed list says: only paths a build writes."""
    try:
        signed = _SIGNED.fullmatch((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}
    key = _key()
    if signed is None or key is None or not hmac.compare_digest(_mac(key, signed[1]), signed[2]):
        return {}
    lines = signed[1].splitlines()
    return {PurePosixPath(m[2]): m[1] for m in map(_LISTED.fullmatch, lines) if m and SITE_FILE.fullmatch(m[2])}


def _still_as_written(out: Path, relative: PurePosixPath, sha256: str) -> bool:
    """A regular file, reached through real folders only, whose bytes are the ones the build wrote."""
    target = out / relative
    if not _inside_real_folders(out, relative) or target.is_symlink() or not target.is_file():
        return False
    try:
        return _sha256(target) == sha256
    except OSError:
        return False


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
    hashes = {relative: _sha256(staging / relative) for relative in new}
    for stale, sha256 in sorted(written_before(out).items()):
        if stale not in hashes and _still_as_written(out, stale, sha256):
            (out / stale).unlink()
    for relative in new:
        target = _real_folder(out, relative) / relative.name
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            raise IsADirectoryError(f"{target} is a folder where the site writes a file; move it away and retry")
        os.replace(staging / relative, target)
    write_list(out, hashes)
