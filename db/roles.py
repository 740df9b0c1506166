"""The two login roles of a catalogue: an owner that ingests and migrates, a reader that can only read.

The server-wide part (creating the roles, the reader's session defaults) needs a superuser and
runs when the embedded server is bootstrapped; the per-database grants are an Alembic revision
(0006), so every catalogue, and every table or view added later, is covered.
"""

from __future__ import annotations

# No import beyond the standard library: `esrpdb sql` reads these names on its fast path.
OWNER_ROLE = "esrpdb_owner"  # owns the tables, migrates and ingests
READER_ROLE = "esrpdb_reader"  # can only SELECT the catalogue
ADMIN_ROLE = "postgres"  # the embedded server's bootstrap superuser; used only to bootstrap
DEMO_CATALOGUE = "demo"  # the catalogue `esrpdb demo` rebuilds


def catalogue_database(name: str) -> str:
    """The embedded server's database for a named catalogue (`--catalogue NAME`)."""
    return f"esrpdb_{name}"

READER_SESSION_DEFAULTS = {
    "default_transaction_read_only": "on",
    "statement_timeout": "300s",
    "idle_in_transaction_session_timeout": "60s",
    # A read-only sort or hash spills to temporary files: bounded, so a statement cannot fill the disk
    # (temp_file_limit is a superuser setting: the reader cannot lift it for itself).
    "temp_file_limit": "2GB",
    "work_mem": "32MB",
}
# Functions that create large objects: PUBLIC may call them by default, so a read-only role could
# still store data (outside a read-only transaction). Revoked in every catalogue database.
LARGE_OBJECT_WRITERS = ("lo_create(oid)", "lo_creat(integer)", "lo_from_bytea(oid, bytea)", "lo_import(text)",
                        "lo_import(text, oid)", "lo_put(oid, bigint, bytea)")


def bootstrap_roles(conn) -> None:
    """Create the owner and reader logins (idempotent); `conn` is a superuser psycopg connection."""
    existing = {row[0] for row in conn.execute(
        "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)", ([OWNER_ROLE, READER_ROLE],))}
    if OWNER_ROLE not in existing:
        conn.execute(f'CREATE ROLE "{OWNER_ROLE}" LOGIN CREATEDB NOSUPERUSER NOCREATEROLE NOREPLICATION')
    if READER_ROLE not in existing:
        conn.execute(f'CREATE ROLE "{READER_ROLE}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION '
                     "NOINHERIT CONNECTION LIMIT 32")
    for setting, value in READER_SESSION_DEFAULTS.items():
        conn.execute(f'ALTER ROLE "{READER_ROLE}" SET {setting} = \'{value}\'')
    # The owner may become the reader for a statement (`SET LOCAL ROLE`): ad-hoc SQL run with the owner's
    # URL then cannot signal the owner's own sessions (queries/adhoc.py). The reader gains nothing.
    conn.execute(f'GRANT "{READER_ROLE}" TO "{OWNER_ROLE}"')


def create_database(conn, name: str, *, template: str | None = None) -> None:
    """A catalogue database owned by the owner role; temporary tables are not for everyone.

    Database-level privileges live in the shared catalogue, so a clone from a template does
    not inherit them: they are set here for every new database.
    """
    clone = f' TEMPLATE "{template}"' if template else ""
    conn.execute(f'CREATE DATABASE "{name}" OWNER "{OWNER_ROLE}"{clone}')
    conn.execute(f'REVOKE TEMPORARY ON DATABASE "{name}" FROM PUBLIC')
    import psycopg

    with psycopg.connect(conn.info.dsn, dbname=name, autocommit=True) as database:
        revoke_large_objects(database)


def revoke_large_objects(conn) -> None:
    """No role but a superuser may create large objects in this database (`conn`: a superuser's)."""
    for function in LARGE_OBJECT_WRITERS:
        conn.execute(f"REVOKE EXECUTE ON FUNCTION pg_catalog.{function} FROM PUBLIC")


ADOPT_OBJECTS_SQL = f"""
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
             AND pg_get_userbyid(c.relowner) <> '{OWNER_ROLE}' LOOP
    EXECUTE format('ALTER %s public.%I OWNER TO {OWNER_ROLE}',
                   CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                   r.relname);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> '{OWNER_ROLE}' LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO {OWNER_ROLE}', r.signature);
  END LOOP;
END $$
"""


def adopt_objects(conn) -> None:
    """Hand a catalogue made by an older esrpdb (as the superuser) to the owner role."""
    conn.execute(ADOPT_OBJECTS_SQL)
