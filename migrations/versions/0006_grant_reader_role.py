"""Grant the reader role read access to the catalogue, now and for tables added later.

The role itself is cluster-wide: the embedded server's bootstrap creates it as a login; on
another server this revision creates it without login when it may (an administrator then
gives it a password and esrpdb is told its URL with ESRPDB_READER_URL). Downgrade revokes the
grants in this database but leaves the role, which other catalogues on the server may use.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 08:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# The reader role as esrpdb named it at this revision (db/roles.py READER_ROLE), frozen: a revision
# never reads live code, whose names may move on.
READER_ROLE = "esrpdb_reader"

_OWNS_DATABASE = (
    "(SELECT d.datdba = r.oid OR r.rolsuper FROM pg_database d, pg_roles r "
    "WHERE d.datname = current_database() AND r.rolname = current_user)"
)


def upgrade() -> None:
    op.execute(f"""
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{READER_ROLE}') THEN
    BEGIN
      CREATE ROLE {READER_ROLE} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'esrpdb: no privilege to create role {READER_ROLE}; read-only access is not set up';
      RETURN;
    END;
  END IF;
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO {READER_ROLE}', current_database());
  BEGIN
    GRANT USAGE ON SCHEMA public TO {READER_ROLE};
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'esrpdb: schema public is not ours to grant; relying on its default USAGE';
  END;
  GRANT SELECT ON ALL TABLES IN SCHEMA public TO {READER_ROLE};
  ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO {READER_ROLE};
  IF {_OWNS_DATABASE} THEN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  END IF;
END $$
""")


def downgrade() -> None:
    op.execute(f"""
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{READER_ROLE}') THEN
    RETURN;
  END IF;
  ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT ON TABLES FROM {READER_ROLE};
  REVOKE SELECT ON ALL TABLES IN SCHEMA public FROM {READER_ROLE};
  BEGIN
    REVOKE USAGE ON SCHEMA public FROM {READER_ROLE};
  EXCEPTION WHEN insufficient_privilege THEN
    NULL;
  END;
  EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM {READER_ROLE}', current_database());
  IF {_OWNS_DATABASE} THEN
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database());
  END IF;
END $$
""")
