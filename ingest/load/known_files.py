"""Which files of a batch the catalogue holds already, by content: each file hashed once.

A folder ingested again (new documents added to it) is mostly files already loaded: reading those
ahead in other processes only to skip them cost more than the new ones (40 PDFs skipped: 1.8 s, the
readers started and stopped for each). So the files to read ahead are first asked for, by SHA-256,
in one query for the files not asked about yet; the hash is the one the writer then uses.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from ...db.sessions import reading
from ...db.statements import Sql
from ..bounded_read import Identity, identity_of, open_as
from ..errors import ParseError

if TYPE_CHECKING:
    from ...db.sessions import AnyEngine

# The hashes as an array: one statement for any number of them (an IN list compiled per length).
_HELD = Sql("SELECT sha256 FROM source_files WHERE sha256 = ANY(CAST(:hashes AS varchar[]))")


def sha256_of(path: Path, identity: Identity | None = None) -> str:
    """The file's SHA-256; with `identity`, of the file stat'ed only (else a ParseError: it changed)."""
    digest = hashlib.sha256()
    with open_as(path, identity) as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class KnownFiles:
    def __init__(self, engine: AnyEngine) -> None:
        self._engine = engine
        self._hashes: dict[Path, tuple[Identity, str]] = {}
        self._held: dict[str, bool] = {}  # SHA-256 -> held (a True is final; a False is asked again at the write)

    def sha256(self, path: Path, identity: Identity) -> str:
        """The file's SHA-256 (of the file `identity` names), hashed again only when its identity has changed."""
        known = self._hashes.get(path)
        if known is None or known[0] != identity:
            known = (identity, sha256_of(path, identity))
            self._hashes[path] = known
        return known[1]

    def held(self, sha256: str) -> bool | None:
        """Whether the catalogue held this content when it was asked (None: not asked). A file loaded by
        another process since is still refused whole: its claim finds the SHA-256 taken (load.claim_source_file)."""
        return self._held.get(sha256)

    def not_held(self, paths: list[Path]) -> list[Path]:
        """The regular files among `paths` whose content the catalogue does not hold (one query for those
        not asked about); given only the PDFs worth reading ahead, so nothing else is hashed early."""
        hashes = {}
        for path in paths:
            try:
                info = os.stat(path)
                if not stat.S_ISREG(info.st_mode):
                    continue  # a pipe or a device is never read ahead: its turn refuses it
                hashes[path] = self.sha256(path, identity_of(info))
            except (OSError, ParseError):
                continue  # its turn says what is wrong with it
        unasked = {sha for sha in hashes.values() if sha not in self._held}
        if unasked:
            with reading(self._engine) as session:
                held = set(session.execute(_HELD, {"hashes": sorted(unasked)}).scalars())
            self._held.update((sha, sha in held) for sha in unasked)
        return [path for path, sha in hashes.items() if not self._held[sha]]
