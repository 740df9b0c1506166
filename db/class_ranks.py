"""The stored rows of mailbox_class_ranks rebuilt once, by the writer, after a batch of writes (revision 0025).

A write that may change a class rank only marks the stored rows stale (a trigger counts it), because a
rank needs its whole class and one document would otherwise re-rank up to 20,000 rows as it commits. The
commands that write the catalogue (ingest_paths, delete, assign) call `rebuild_class_ranks` once when
their writes have committed. The view computes the ranks while the rows are stale, so a writer that
stops before this call leaves reads slower, never wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .sessions import transaction
from .statements import Sql

if TYPE_CHECKING:
    from .sessions import AnyEngine

# A catalogue before revision 0025 has no stored rows: nothing to rebuild.
_HAS_ROWS = Sql("SELECT to_regprocedure('rebuild_mailbox_class_rank_rows()') IS NOT NULL")
_REBUILD = Sql("SELECT rebuild_mailbox_class_rank_rows()")


def rebuild_class_ranks(engine: AnyEngine) -> int | None:
    """Rows written or deleted to make the stored ranks fresh; -1 if they already were, None before 0025.

    Its own transaction, after the writer's: the rebuild reads what they committed, under an advisory
    lock, so two writers finishing together rebuild once each at most and the second usually finds the
    rows fresh."""
    with transaction(engine) as session:
        if not session.execute(_HAS_ROWS).scalar():
            return None
        return session.execute(_REBUILD).scalar()
