"""Alembic environment: the URL comes from esrpdb's own resolution, never from an ini file."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

from esrpdb.db.connection import resolve_url
from esrpdb.schema import Base  # loads every table family: Base.metadata holds every table

# Serialises concurrent `esrpdb` processes that find the database behind head.
MIGRATION_LOCK_KEY = 0x65737270  # "esrp"

target_metadata = Base.metadata


def _url() -> str:
    configured = context.config.get_main_option("sqlalchemy.url")
    return configured or resolve_url()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        # Only now: waiting for another esrpdb's migration is right; waiting without end on a reader is not.
        timeout = context.config.get_main_option("esrpdb.lock_timeout")
        if timeout:
            connection.execute(text("SELECT set_config('lock_timeout', :timeout, false)"), {"timeout": timeout})
        connection.commit()
        try:
            context.configure(connection=connection, target_metadata=target_metadata, compare_type=True)
            with context.begin_transaction():
                context.run_migrations()
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
            connection.commit()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
