"""Add document tables: ESRP and whitepaper tables kept cell by cell, as printed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 20:39:02.189150
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('document_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('ordinal', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Text(), nullable=False),
    sa.Column('title', sa.Text(), nullable=False),
    sa.Column('columns', sa.ARRAY(sa.Text()), nullable=False),
    sa.Column('stub', sa.Text(), nullable=True),
    sa.Column('source_line', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['source_file_id'], ['source_files.id'], name=op.f('fk_document_tables_source_file_id_source_files'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_document_tables')),
    sa.UniqueConstraint('source_file_id', 'ordinal', name='uq_document_tables_source_ordinal')
    )
    op.create_index(op.f('ix_document_tables_source_file_id'), 'document_tables', ['source_file_id'], unique=False)
    op.create_table('document_cells',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('row_ordinal', sa.Integer(), nullable=False),
    sa.Column('column_ordinal', sa.Integer(), nullable=False),
    sa.Column('row_label', sa.Text(), nullable=False),
    sa.Column('column_label', sa.Text(), nullable=True),
    sa.Column('value_printed', sa.Text(), nullable=False),
    sa.Column('value_number', sa.Double(), nullable=True),
    sa.Column('source_line', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['document_tables.id'], name=op.f('fk_document_cells_table_id_document_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'row_ordinal', 'column_ordinal', name=op.f('pk_document_cells'))
    )


def downgrade() -> None:
    op.drop_table('document_cells')
    op.drop_index(op.f('ix_document_tables_source_file_id'), table_name='document_tables')
    op.drop_table('document_tables')
