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

# The reader's limits, as role defaults (`ALTER ROLE … SET`, re-applied at every server start and by
# `esrpdb init`). Temporary files are bounded per session, so the reader's sessions are bounded in number:
# READER_CONNECTION_LIMIT × temp_file_limit (4 × 256 MB = 1 GB) is all the disk reading can take at once,
# and no parallel workers (each would be a session of its own with its own limits). 256 MB: a sort or a
# function's rows of some millions (ten million rows of generate_series spill ~160 MB).
READER_CONNECTION_LIMIT = 4
READER_SESSION_DEFAULTS = {
    "default_transaction_read_only": "on",
    "statement_timeout": "300s",
    "idle_in_transaction_session_timeout": "60s",
    "temp_file_limit": "256MB",
    "work_mem": "32MB",
    "max_parallel_workers_per_gather": "0",
    # A client that went away (killed, its terminal closed) has its statement cancelled within seconds.
    "client_connection_check_interval": "2s",
}
# Settings only a superuser (or a role granted SET on them) may change: the reader cannot lift them, and
# they cannot go in a connection's options. The owner is granted SET on them so that a statement it runs
# as the reader (`SET LOCAL ROLE`, queries/adhoc.py) takes the reader's limit first.
SUPERUSER_SETTINGS = ("temp_file_limit",)
# Functions that create large objects: PUBLIC may call them by default, so a read-only role could
# still store data (outside a read-only transaction). Revoked in every catalogue database (lock_down_database).
LARGE_OBJECT_WRITERS = ("lo_create(oid)", "lo_creat(integer)", "lo_from_bytea(oid, bytea)", "lo_import(text)",
                        "lo_import(text, oid)", "lo_put(oid, bigint, bytea)", "lowrite(integer, bytea)",
                        "lo_truncate(integer, integer)", "lo_truncate64(integer, bigint)", "lo_unlink(oid)")
# Functions PUBLIC may call that write the server's journal (WAL) or its shared state, read-only
# transaction or not: 30 calls of pg_logical_emit_message with 100 MB each filled a 700 MB home, which
# temp_file_limit does not cover; pg_notify fills the notification queue; each pg_export_snapshot writes a
# file. Revoked from PUBLIC in every database of the embedded server (lock_down_database); esrpdb calls none.
# (pg_switch_wal, pg_create_restore_point, the statistics resets and the replication functions are the
# superuser's already; the slots' functions check for a REPLICATION role, and are revoked all the same.
# tests/reliability/test_state_writers.py probes them all.)
STATE_WRITERS = (r"^(pg_logical_emit_message|pg_notify|pg_export_snapshot|pg_(create|drop|copy)_\w*replication_slot"
                 r"|pg_replication_slot_advance|pg_logical_slot_\w+|pg_sync_replication_slots)$")


def bootstrap_roles(conn) -> None:
    """Create the owner and reader logins (idempotent); `conn` is a superuser psycopg connection."""
    existing = {row[0] for row in conn.execute(
        "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)", ([OWNER_ROLE, READER_ROLE],))}
    if OWNER_ROLE not in existing:
        conn.execute(f'CREATE ROLE "{OWNER_ROLE}" LOGIN CREATEDB NOSUPERUSER NOCREATEROLE NOREPLICATION')
    if READER_ROLE not in existing:
        conn.execute(f'CREATE ROLE "{READER_ROLE}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION '
                     "NOINHERIT")
    conn.execute(f'ALTER ROLE "{READER_ROLE}" CONNECTION LIMIT {READER_CONNECTION_LIMIT}')
    configured = conn.execute("SELECT unnest(rolconfig) FROM pg_roles WHERE rolname = %s", (READER_ROLE,)).fetchall()
    for (item,) in configured:  # a default the reader gave itself (`ALTER ROLE … SET` in psql) goes
        setting = item.split("=", 1)[0]
        if setting not in READER_SESSION_DEFAULTS:
            conn.execute(f'ALTER ROLE "{READER_ROLE}" RESET "{setting}"')
    for setting, value in READER_SESSION_DEFAULTS.items():
        conn.execute(f'ALTER ROLE "{READER_ROLE}" SET {setting} = \'{value}\'')
    for setting in SUPERUSER_SETTINGS:
        conn.execute(f'GRANT SET ON PARAMETER {setting} TO "{OWNER_ROLE}"')
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
        lock_down_database(database)


# The server's own databases: any role may connect to them (PUBLIC has CONNECT), so they are locked
# down as the catalogues are; template1's grants are also what a database made without a template inherits.
SERVER_DATABASES = ("postgres", "template1")


def catalogue_databases(conn) -> list[str]:
    """Every database the owner role owns on this server: the catalogues (`conn`: a superuser's)."""
    return [row[0] for row in conn.execute(
        "SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = %s) "
        "AND datallowconn ORDER BY 1", (OWNER_ROLE,))]


def lock_down_database(conn) -> None:
    """What `PUBLIC` may not do in a catalogue database (`conn`: a superuser's; idempotent).

    Function and language privileges live in each database. A read-only transaction still lets a
    role create large objects, write the server's journal (STATE_WRITERS), change its own settings
    from inside a statement (`set_config`, `SET` in a `DO` block: its role, `work_mem`, its timeouts),
    and take the advisory locks the migrations and ingest serialise on; so only the owner may do the
    last three, and no one the first two.
    """
    revoke_large_objects(conn)
    writers = conn.execute("SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = "
                           "'pg_catalog'::regnamespace AND p.proname ~ %s", (STATE_WRITERS,)).fetchall()
    for (function,) in writers:
        conn.execute(f"REVOKE EXECUTE ON FUNCTION {function} FROM PUBLIC")
    conn.execute(OWNER_ONLY_SQL)


def revoke_large_objects(conn) -> None:
    """No role but a superuser may create large objects in this database (`conn`: a superuser's)."""
    for function in LARGE_OBJECT_WRITERS:
        conn.execute(f"REVOKE EXECUTE ON FUNCTION pg_catalog.{function} FROM PUBLIC")


# set_config, the advisory locks and inline code (`DO`) for the owner only.
OWNER_ONLY_SQL = f"""
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT p.oid::regprocedure AS f FROM pg_proc p
           WHERE p.pronamespace = 'pg_catalog'::regnamespace
             AND (p.proname = 'set_config' OR (p.proname ~ '^pg_(try_)?advisory_' AND p.proname !~ 'unlock')) LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', r.f);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO {OWNER_ROLE}', r.f);
  END LOOP;
  FOR r IN SELECT lanname FROM pg_language WHERE lanpltrusted AND laninline <> 0 LOOP
    EXECUTE format('REVOKE USAGE ON LANGUAGE %I FROM PUBLIC', r.lanname);
    EXECUTE format('GRANT USAGE ON LANGUAGE %I TO {OWNER_ROLE}', r.lanname);
  END LOOP;
END $$
"""


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
