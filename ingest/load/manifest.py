"""Write a solution manifest: the solution, its disks and trials, its runs, its claims.

The files a manifest names are ingested first (each in its own transaction, by the
pipeline); this module then attaches their runs to the solution, creates runs known only
from a document's result table, and records the claims. Everything here happens in the
manifest's own transaction, so a manifest that names a run it cannot find writes nothing:
it is planned first (load/plan.py: every read, every ParseError), then written (load/batch.py),
by the same code that writes a document's drafted systems, as a batch of one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..formats.manifest.records import SolutionManifest
from .batch import take_over as take_over, write_plans
from .plan import plan_manifest
from .readback import ReadBack as ReadBack, normalise_label as normalise_label

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def load_manifest(session: Session, manifest_file_id: int, manifest: SolutionManifest, base: Path,
                  sha_of, *, provisional_source: int | None = None) -> list[str]:
    """Write the manifest; `sha_of(path)` gives the SHA-256 of a referenced file. Returns warnings.

    `provisional_source`: the manifest is a system drafted from that document at ingest (not one a
    person wrote): its solution is provisional, and it takes no run a confirmed solution already holds.
    """
    plan = plan_manifest(session, manifest_file_id, manifest, base, sha_of, provisional_source=provisional_source)
    write_plans(session, [plan])
    return []
