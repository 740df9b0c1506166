"""Power samples follow their file out through one statement-level trigger, not a row-level foreign key.

The foreign key `power_samples.source_file_id -> source_files` was checked row by row as a power
log was copied in (a power log is one row per second: 10,000 rows for a three-hour test), which
cut COPY to a quarter of its speed, as it did for `perf_samples` (migration 0001). The loader
writes a log's samples in the transaction that writes its `power_files` row, and deleting that
row (directly, or by the cascade from `source_files`) now deletes its samples in one statement.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-23 17:50:00
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

FOREIGN_KEY = "fk_power_samples_source_file_id_source_files"

POWER_SAMPLES_CASCADE = """
CREATE FUNCTION delete_power_samples_of_files() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM power_samples s USING gone WHERE s.source_file_id = gone.source_file_id;
    RETURN NULL;
END $$;
CREATE TRIGGER power_files_delete_samples
    AFTER DELETE ON power_files REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION delete_power_samples_of_files();
"""


def upgrade() -> None:
    op.execute("DELETE FROM power_samples s WHERE NOT EXISTS "
               "(SELECT 1 FROM power_files f WHERE f.source_file_id = s.source_file_id)")  # none are expected
    op.drop_constraint(FOREIGN_KEY, "power_samples", type_="foreignkey")
    op.execute(POWER_SAMPLES_CASCADE)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS power_files_delete_samples ON power_files")
    op.execute("DROP FUNCTION IF EXISTS delete_power_samples_of_files()")
    op.create_foreign_key(FOREIGN_KEY, "power_samples", "source_files", ["source_file_id"], ["id"], ondelete="CASCADE")
