"""Alembic migrations: one reviewed step per change; views come from queries/*.sql."""
