"""A file streamed into the catalogue (a perfmon export, CSV or BLG) is hashed as it is read.

Every other file is stored under the SHA-256 of the very bytes parsed (pipeline.read_hashed); a perfmon
export is too large to hold, so its rows stream into COPY inside the transaction, and were read again by
path with nothing checking they were the bytes hashed. `HashedReader` hashes what the format reads, in the
file's order: a CSV is read straight through, so its hash is of the bytes parsed; a BLG seeks, so the bytes
after the first gap in what it read are hashed from the same open file at the end (`sha256`). The writer
refuses the file (pipeline.CHANGED_WHILE_READ) unless that is the hash it was stored under.
"""

from __future__ import annotations

import hashlib
import io
import os
from typing import BinaryIO

_CHUNK = 1 << 20


class HashedReader(io.RawIOBase):
    """`raw` (a file opened for reading) read through, its bytes hashed from the start while reads follow on."""

    def __init__(self, raw: BinaryIO) -> None:
        super().__init__()
        self._raw = raw
        self._hash = hashlib.sha256()
        self._hashed_to = 0  # the bytes [0, _hashed_to) are in the hash
        self._position = raw.tell()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._raw.seekable()

    def fileno(self) -> int:
        return self._raw.fileno()

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._position = self._raw.seek(offset, whence)
        return self._position

    def readinto(self, buffer) -> int:  # type: ignore[override]
        count = self._raw.readinto(buffer) or 0  # type: ignore[attr-defined]
        start, end = self._position, self._position + count
        if start <= self._hashed_to < end:  # what follows on from the hashed bytes (a re-read is hashed once)
            self._hash.update(memoryview(buffer)[self._hashed_to - start : count])
            self._hashed_to = end
        self._position = end
        return count

    def close(self) -> None:
        self._raw.close()
        super().close()

    def sha256(self) -> str:
        """The hash of the whole file: what was read in order, then the rest from the same open file."""
        while chunk := os.pread(self._raw.fileno(), _CHUNK, self._hashed_to):
            self._hash.update(chunk)
            self._hashed_to += len(chunk)
        return self._hash.hexdigest()
