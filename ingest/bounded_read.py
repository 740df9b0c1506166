"""Reading a file a user named: a regular file, within its format's size cap, checked before reading.

The cap is checked from `stat` and enforced again while reading (a file can grow between
the two), so a 1 GiB file of a whole-file format is refused without its bytes ever being in
memory. FIFOs and devices are refused before they are opened: opening a FIFO would block.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO, Iterator

from .errors import ParseError

DEFAULT_MAX_BYTES = 64 * 1024 * 1024  # for a whole-file format that names no cap of its own
_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}


# A file replaced while it is read (still being written, or swapped for another) would be stored under
# the hash of one version with the figures of another: it is refused whole.
CHANGED_WHILE_READ = ("the file changed while it was being read (still being written?); nothing was stored: ingest it "
                      "again once it is complete")
Identity = tuple[int, int, int, int, int]


def identity_of(info: os.stat_result) -> Identity:
    """What says a file is still the one stat'ed. Size and modification time can be set back (a file of the
    same size renamed over it, `touch -r`); its device and inode cannot (a link pointed elsewhere is another
    inode too), nor can its change time, which moves when it is rewritten in place. Size first: the
    read-ahead sorts by it."""
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_dev, info.st_ino


def open_as(path: Path, identity: Identity | None) -> BinaryIO:
    """The file opened for reading; with `identity`, refused unless the file opened is the file stat'ed."""
    stream = path.open("rb")
    if identity is not None and (opened := os.fstat(stream.fileno())) and \
            (opened.st_dev, opened.st_ino) != identity[3:]:
        stream.close()
        raise ParseError(str(path), CHANGED_WHILE_READ)
    return stream


def regular_file(path: Path) -> os.stat_result:
    """The file's stat, or a ParseError saying why it is not a readable regular file."""
    try:
        info = path.stat()
    except OSError as error:
        raise ParseError(str(path), f"cannot read: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = _KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
        raise ParseError(str(path), f"cannot read: {kind}, not a regular file")
    return info


def max_bytes_for(module) -> int | None:
    """A format's cap on a file read whole; None for formats that stream (perfmon exports)."""
    return getattr(module, "MAX_BYTES", DEFAULT_MAX_BYTES)


def check_size(path: Path, size_bytes: int, module) -> None:
    limit = max_bytes_for(module)
    if limit is not None and size_bytes > limit:
        raise ParseError(str(path), f"file is {size_bytes:,} bytes; {module.FORMAT} files larger than "
                                    f"{limit:,} bytes are refused before reading")


def read_head(path: Path, size: int) -> bytes:
    try:
        with path.open("rb") as stream:
            return stream.read(size)
    except OSError as error:
        raise ParseError(str(path), f"cannot read: {error.strerror or error}") from None


def read_bounded(path: Path, module) -> bytes:
    """The whole file, never more than the format's cap (+1 byte to notice growth)."""
    limit = max_bytes_for(module)
    try:
        with path.open("rb") as stream:
            data = stream.read() if limit is None else stream.read(limit + 1)
    except OSError as error:
        raise ParseError(str(path), f"cannot read: {error.strerror or error}") from None
    if limit is not None and len(data) > limit:
        raise ParseError(str(path), f"file grew past {limit:,} bytes while being read; refused")
    return data


CHUNK_BYTES = 1 << 20


def chunks(path: Path):
    """The file from its first byte, one MiB at a time (for identifying from the whole file)."""
    def read() -> Iterator[bytes]:
        try:
            with path.open("rb") as stream:
                yield from iter(lambda: stream.read(CHUNK_BYTES), b"")
        except OSError:
            return  # identify must not raise; reading it later reports the error
    return read
