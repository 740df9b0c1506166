"""Shared declarative base and column helpers, so every table spells measures the same way."""


from typing import Any, cast

from sqlalchemy import CheckConstraint, MetaData, Table
from sqlalchemy.orm import DeclarativeBase

from . import comments

# Stable constraint names: Alembic migrations and autogenerate agree on them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each model's table and columns take their COMMENTs from comments.py as it is declared."""
        super().__init_subclass__(**kwargs)
        table = cls.__dict__.get("__table__")
        if table is not None:
            comments.describe(table)


def non_negative(*columns: str) -> tuple[CheckConstraint, ...]:
    """One CHECK per measure column: IOPS, latencies, sizes and watts are never negative."""
    return tuple(CheckConstraint(f"{c} >= 0", name=f"{c}_non_negative") for c in columns)


def one_of(column: str, values: tuple[str, ...]) -> CheckConstraint:
    """A closed vocabulary stored as text, readable in psql without a lookup table."""
    allowed = ", ".join(f"'{v}'" for v in values)
    return CheckConstraint(f"{column} IN ({allowed})", name=f"{column}_allowed")


def table_of(model: type[Base]) -> Table:
    """The model's Core table: statements on it skip the ORM's per-call bookkeeping (hot ingest paths)."""
    return cast(Table, model.__table__)
