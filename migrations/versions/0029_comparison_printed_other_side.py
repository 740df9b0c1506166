"""A comparison's other side as the document prints it: `claims.other_value_printed`.

"27% more IOPS per dollar than our 2013 TerraVault 5600 design (0.0142 IOPS per dollar)" compares the
document's own design with one it does not test: the catalogue holds no solution for the other side,
only the figure the document prints for it in brackets. Without somewhere to keep that figure the
percentage was dropped from the drafted manifest, and a wrong percentage (0.0167 against 0.0142 is
17.9% more, not 27%) went unaudited. One text column on the claim, kept as printed like `value_printed`
(so its precision is known), is the smallest sound record: the audit reads b from it where it is set
and from the other solution's catalogue figures where it is not. NULL for every claim whose other side
the catalogue holds, and for all claims loaded before this revision. The downgrade keeps the figures
for the upgrade that comes back (archive.py).

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-02 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

# The words of schema/comments.py for the new column, as this revision wrote them (frozen).
WORDS = ("The other side of a comparison as the document prints it, for a design the catalogue does not hold; "
         "NULL: the other side is a solution of the catalogue.")


def upgrade() -> None:
    op.add_column("claims", sa.Column("other_value_printed", sa.Text(), nullable=True, comment=WORDS))
    archive.restore("0029", "other_value_printed",
                    "UPDATE claims c SET other_value_printed = k.other_value_printed "
                    "FROM jsonb_to_recordset(:rows) AS k(id integer, other_value_printed text) "
                    "WHERE c.id = k.id")


def downgrade() -> None:
    archive.stash_any("0029", "other_value_printed",
                      "SELECT id, other_value_printed FROM claims WHERE other_value_printed IS NOT NULL")
    op.drop_column("claims", "other_value_printed")
