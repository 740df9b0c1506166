"""The catalogue's tables as SQLAlchemy Core, without declaring the ORM models.

Declaring the 45 models and their mappers cost a third of a second of every `esrpdb ingest FILE`
(issue 46), and the writing path needs only the tables. `tables.Run` stands for the runs table:
`Run.id` is its column, and `select(Run)`, `insert(Run)`, `update(Run)` take the table itself
(`__clause_element__`), so a statement reads as it did on the model and compiles to the same SQL.
Rows come back as Core rows (attribute access by column name), never ORM objects.

The tables are the models' own: built once by importing the models and pickled to the user's cache
under a hash of the schema's sources, SQLAlchemy's and Python's versions; every later command
unpickles them (~25 ms). Where the models are loaded already (a command that used the ORM first),
their metadata is used. Decided once a process, at first use: every statement of the writing path
is built on these stand-ins alone, so it never joins a model's table to its pickled copy (a caller
that declares the models later, as the tests do, holds both, each in its own statements). A cache
that cannot be written or read (read-only home, another owner) only costs the models' import.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..cache_files import cache_folder as cache_folder, read_trusted, write_whole

SCHEMA_FOLDER = Path(__file__).resolve().parent
CACHE_FORMAT = "1"  # bump when what the pickle holds changes shape
STALE_AFTER_S = 30 * 86400  # another schema's cache (an older install's) is removed after this long


RunRow = Any  # a Core row of the runs table (what readback hands planning; attribute access by column)


class Tables(NamedTuple):
    metadata: Any  # sqlalchemy MetaData
    table_of_model: dict[str, str]  # model class name -> table name


class CoreTable:
    """A model's stand-in on its Core table: `X.column` the column, `X` itself the table in a statement."""

    __slots__ = ("__tablename__",)

    def __init__(self, table_name: str) -> None:
        self.__tablename__ = table_name

    @property
    def table(self) -> Any:
        return loaded().metadata.tables[self.__tablename__]

    def __clause_element__(self) -> Any:
        return self.table

    def __getattr__(self, column: str) -> Any:
        try:
            return self.table.c[column]
        except KeyError:
            raise AttributeError(f"table {self.__tablename__!r} has no column {column!r}") from None

    def __repr__(self) -> str:
        return f"CoreTable({self.__tablename__!r})"


def __getattr__(name: str) -> CoreTable:
    """`tables.Run` and the like: the stand-in of the model of that name. A dunder is never a model's name:
    `from tables import RunRow` asks for `__path__` first, which must not load the tables."""
    if name.startswith("__"):
        raise AttributeError(name)
    table_name = loaded().table_of_model.get(name)
    if table_name is None:
        raise AttributeError(f"module {__name__!r} has no table for a model {name!r}")
    return CoreTable(table_name)


def table_of(model: CoreTable) -> Any:
    """The stand-in's Core `Table` (as schema.base.table_of gives a model's)."""
    return model.table


@lru_cache(maxsize=1)
def loaded() -> Tables:
    """Once a process: the models' metadata when they are loaded already, else the cache, else the models
    (then cached for the next command)."""
    if "esrpdb.schema.runs" in sys.modules:  # the models are here: their tables, one copy of each
        return _from_models()
    path = cache_path()
    if path is not None:
        cached = _read(path)
        if cached is not None:
            return cached
    tables = _from_models()
    if path is not None:
        _write(path, tables)
    return tables


def _from_models() -> Tables:
    from . import Base

    return Tables(Base.metadata, {mapper.class_.__name__: mapper.class_.__tablename__ for mapper in Base.registry.mappers})


def cache_key() -> str:
    import sqlalchemy

    digest = hashlib.sha256(f"{CACHE_FORMAT} {sys.version} {sqlalchemy.__version__}".encode())
    for source in sorted(SCHEMA_FOLDER.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:24]


def cache_path() -> Path | None:
    try:
        return cache_folder() / f"tables-{cache_key()}.pickle"
    except OSError:
        return None


def _read(path: Path) -> Tables | None:
    """The pickle, only when this user owns it and no one else may write it (cache_files.py)."""
    data = read_trusted(path)
    if data is None:
        return None
    try:
        tables = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a torn or foreign cache is rebuilt from the models
        return None
    return tables if isinstance(tables, Tables) else None


def _write(path: Path, tables: Tables) -> None:
    try:
        data = pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL)
    except pickle.PicklingError:
        return
    if not write_whole(path, data):
        return
    for stale in path.parent.glob("tables-*.pickle"):  # another schema's, unused for a month
        try:
            if stale != path and time.time() - stale.stat().st_mtime > STALE_AFTER_S:
                stale.unlink()
        except OSError:
            pass
