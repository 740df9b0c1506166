"""Add result-folder evidence: test configs, text logs, perfmon and power file index.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 20:50:12.082093
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('perf_files',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=True),
    sa.Column('machine', sa.Text(), nullable=True),
    sa.Column('time_zone_name', sa.Text(), nullable=True),
    sa.Column('bias_minutes', sa.Integer(), nullable=True),
    sa.Column('assumed_utc', sa.Boolean(), nullable=False),
    sa.Column('first_sample_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_sample_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('row_count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_perf_files_run_id_runs'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['source_file_id'], ['source_files.id'], name=op.f('fk_perf_files_source_file_id_source_files'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', name=op.f('pk_perf_files'))
    )
    op.create_index(op.f('ix_perf_files_run_id'), 'perf_files', ['run_id'], unique=False)
    op.create_table('power_files',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=True),
    sa.Column('first_sample_at', sa.DateTime(), nullable=True),
    sa.Column('last_sample_at', sa.DateTime(), nullable=True),
    sa.Column('sample_count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_power_files_run_id_runs'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['source_file_id'], ['source_files.id'], name=op.f('fk_power_files_source_file_id_source_files'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', name=op.f('pk_power_files'))
    )
    op.create_index(op.f('ix_power_files_run_id'), 'power_files', ['run_id'], unique=False)
    op.create_table('test_configs',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=True),
    sa.Column('jetstress_version', sa.Text(), nullable=True),
    sa.Column('ese_version', sa.Text(), nullable=True),
    sa.Column('test_type', sa.Text(), nullable=True),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('duration_iso', sa.Text(), nullable=True),
    sa.Column('duration_s', sa.Double(), nullable=True),
    sa.Column('thread_count', sa.Integer(), nullable=True),
    sa.Column('mailbox_count', sa.Integer(), nullable=True),
    sa.Column('mailbox_quota_mb', sa.Double(), nullable=True),
    sa.Column('iops_per_mailbox', sa.Double(), nullable=True),
    sa.Column('iops_margin_percent', sa.Double(), nullable=True),
    sa.Column('database_copy_count', sa.Integer(), nullable=True),
    sa.Column('database_count', sa.Integer(), nullable=True),
    sa.Column('target_iops', sa.Double(), nullable=True),
    sa.Column('log_interval_ms', sa.Double(), nullable=True),
    sa.Column('settings', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.CheckConstraint('duration_s >= 0', name=op.f('ck_test_configs_duration_s_non_negative')),
    sa.CheckConstraint('iops_margin_percent >= 0', name=op.f('ck_test_configs_iops_margin_percent_non_negative')),
    sa.CheckConstraint('log_interval_ms >= 0', name=op.f('ck_test_configs_log_interval_ms_non_negative')),
    sa.CheckConstraint('mailbox_quota_mb >= 0', name=op.f('ck_test_configs_mailbox_quota_mb_non_negative')),
    sa.CheckConstraint('target_iops >= 0', name=op.f('ck_test_configs_target_iops_non_negative')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_test_configs_run_id_runs'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['source_file_id'], ['source_files.id'], name=op.f('fk_test_configs_source_file_id_source_files'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', name=op.f('pk_test_configs'))
    )
    op.create_index(op.f('ix_test_configs_run_id'), 'test_configs', ['run_id'], unique=False)
    op.create_table('test_logs',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=True),
    sa.Column('first_event_at', sa.DateTime(), nullable=True),
    sa.Column('last_event_at', sa.DateTime(), nullable=True),
    sa.Column('event_count', sa.Integer(), nullable=False),
    sa.Column('threshold_db_read_avg_ms', sa.Double(), nullable=True),
    sa.Column('threshold_db_read_max_ms', sa.Double(), nullable=True),
    sa.Column('threshold_log_write_avg_ms', sa.Double(), nullable=True),
    sa.Column('threshold_log_write_max_ms', sa.Double(), nullable=True),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_test_logs_run_id_runs'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['source_file_id'], ['source_files.id'], name=op.f('fk_test_logs_source_file_id_source_files'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', name=op.f('pk_test_logs'))
    )
    op.create_index(op.f('ix_test_logs_run_id'), 'test_logs', ['run_id'], unique=False)
    op.create_table('config_instances',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('ordinal', sa.Integer(), nullable=False),
    sa.Column('iops_bias', sa.Double(), nullable=True),
    sa.Column('database_paths', sa.ARRAY(sa.Text()), nullable=False),
    sa.Column('log_path', sa.Text(), nullable=True),
    sa.Column('database_backup_path', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['source_file_id'], ['test_configs.source_file_id'], name=op.f('fk_config_instances_source_file_id_test_configs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', 'ordinal', name=op.f('pk_config_instances'))
    )
    op.create_table('config_thresholds',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('test_run_types', sa.ARRAY(sa.Text()), nullable=False),
    sa.Column('db_read_avg_ms', sa.Double(), nullable=True),
    sa.Column('db_read_max_ms', sa.Double(), nullable=True),
    sa.Column('log_write_avg_ms', sa.Double(), nullable=True),
    sa.Column('log_write_max_ms', sa.Double(), nullable=True),
    sa.ForeignKeyConstraint(['source_file_id'], ['test_configs.source_file_id'], name=op.f('fk_config_thresholds_source_file_id_test_configs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', 'name', name=op.f('pk_config_thresholds'))
    )
    op.create_table('test_log_events',
    sa.Column('source_file_id', sa.Integer(), nullable=False),
    sa.Column('ordinal', sa.Integer(), nullable=False),
    sa.Column('logged_at', sa.DateTime(), nullable=True),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('source_line', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['source_file_id'], ['test_logs.source_file_id'], name=op.f('fk_test_log_events_source_file_id_test_logs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('source_file_id', 'ordinal', name=op.f('pk_test_log_events'))
    )


def downgrade() -> None:
    op.drop_table('test_log_events')
    op.drop_table('config_thresholds')
    op.drop_table('config_instances')
    op.drop_index(op.f('ix_test_logs_run_id'), table_name='test_logs')
    op.drop_table('test_logs')
    op.drop_index(op.f('ix_test_configs_run_id'), table_name='test_configs')
    op.drop_table('test_configs')
    op.drop_index(op.f('ix_power_files_run_id'), table_name='power_files')
    op.drop_table('power_files')
    op.drop_index(op.f('ix_perf_files_run_id'), table_name='perf_files')
    op.drop_table('perf_files')
