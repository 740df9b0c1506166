"""Add run origin and published values: runs known only from a document's result table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 20:51:53.956055
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('run_published_values',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('metric', sa.Text(), nullable=False),
    sa.Column('value', sa.Double(), nullable=False),
    sa.Column('value_printed', sa.Text(), nullable=False),
    sa.Column('document_table_id', sa.Integer(), nullable=True),
    sa.Column('row_labels', sa.ARRAY(sa.Text()), nullable=False),
    sa.CheckConstraint("metric IN ('achieved_iops', 'log_iops', 'total_iops', 'throughput_mb_per_s', 'db_reads_per_s', 'db_writes_per_s', 'db_read_latency_ms', 'db_write_latency_ms', 'log_write_latency_ms', 'idle_power_w', 'active_power_w')", name=op.f('ck_run_published_values_metric_allowed')),
    sa.CheckConstraint('value >= 0', name=op.f('ck_run_published_values_value_non_negative')),
    sa.ForeignKeyConstraint(['document_table_id'], ['document_tables.id'], name=op.f('fk_run_published_values_document_table_id_document_tables'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_run_published_values_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'metric', name=op.f('pk_run_published_values'))
    )
    op.add_column('runs', sa.Column('origin', sa.Text(), server_default='report', nullable=False))
    op.create_check_constraint(op.f('ck_runs_origin_allowed'), 'runs', "origin IN ('report', 'document_table')")


def downgrade() -> None:
    op.drop_constraint(op.f('ck_runs_origin_allowed'), 'runs', type_='check')
    op.drop_column('runs', 'origin')
    op.drop_table('run_published_values')
