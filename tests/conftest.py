"""One real embedded PostgreSQL per test session; each test gets its own fresh database.

The template database is built by `alembic upgrade head` (never `create_all`), so the
views and constraints the migrations create are the ones under test. Cloning a template
costs a few tens of milliseconds and gives every test a clean catalogue.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import tempfile
import warnings
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from esrpdb.db import embedded, migrate, roles
from esrpdb.db.catalog import Catalog, open_catalog

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "fixtures"
DOCUMENTS = FIXTURES / "documents"  # the real seed documents (byte copies, see its README)
SAMPLE_CONFIGS = FIXTURES / "config"  # real JetstressConfig.xml samples
TEMPLATE = "esrpdb_template"

warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
# The servers the tests start are noted in a state folder of their own, not the user's (`db status --all`).
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="esrpdb-test-state-")


def _with_database(url: str, database: str) -> str:
    return make_url(url).set(database=database).render_as_string(hide_password=False)


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def traversable(path: Path) -> Path:
    """As root, the embedded server's user must enter the folders of a test's ESRPDB_HOME, and esrpdb
    opens no folder it did not create (db/server_user.py): the tests open pytest's own (0700) folders."""
    if os.geteuid() == 0:
        for folder in [*reversed(path.parents), path]:
            if folder.is_relative_to(BASETEMP_ROOT) and folder != BASETEMP_ROOT and folder.exists():
                folder.chmod(folder.stat().st_mode | stat.S_IXOTH)
    return path


BASETEMP_ROOT = Path(tempfile.gettempdir())


@pytest.fixture(autouse=True)
def _traversable_tmp_path(request):
    if "tmp_path" in request.fixturenames:
        traversable(request.getfixturevalue("tmp_path"))


@pytest.fixture(scope="session")
def pg_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return traversable(tmp_path_factory.mktemp("esrpdb-home"))


@pytest.fixture(scope="session")
def pg_server(pg_home: Path):
    """The session's server; stopped at the end so no process outlives the tests."""
    server = embedded.start(pg_home)
    yield server
    embedded.stop(pg_home)


def _admin(server) -> str:
    return _plain(server.admin_url())


@pytest.fixture(scope="session")
def template_url(pg_server) -> str:
    with psycopg.connect(_admin(pg_server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        roles.create_database(conn, TEMPLATE)
    url = _with_database(pg_server.url, TEMPLATE)
    migrate.upgrade(url)
    return url


_counter = itertools.count()


@contextlib.contextmanager
def _scratch_database(server, prefix: str, template: str | None = None):
    """A database that exists for one test, cloned from `template` when given."""
    name = f"{prefix}{os.getpid()}_{next(_counter)}"
    admin = _admin(server)
    with psycopg.connect(admin, autocommit=True) as conn:
        roles.create_database(conn, name, template=template)
    try:
        yield _with_database(server.url, name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fresh_database_url(pg_server, template_url) -> str:
    """A new database cloned from the migrated template; dropped after the test."""
    with _scratch_database(pg_server, "t", TEMPLATE) as url:
        yield url


@pytest.fixture
def empty_database_url(pg_server) -> str:
    """A database with no schema at all, for migration tests."""
    with _scratch_database(pg_server, "e") as url:
        yield url


@pytest.fixture
def catalog(fresh_database_url) -> Catalog:
    cat = open_catalog(fresh_database_url)
    yield cat
    cat.close()


@pytest.fixture(scope="session")
def seed_catalog_url(pg_server, template_url) -> str:
    """One database with the bundled seed catalogue (fixtures/catalog) loaded; read-only for tests."""
    from esrpdb.ingest.pipeline import ingest_paths

    name = f"seedcat{os.getpid()}"
    with psycopg.connect(_admin(pg_server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        roles.create_database(conn, name, template=TEMPLATE)
    url = _with_database(pg_server.url, name)
    cat = open_catalog(url)
    outcomes = ingest_paths(cat.engine, [FIXTURES / "catalog"])
    cat.close()
    failed = [o.message for o in outcomes if o.status == "failed"]
    assert not failed, failed
    return url


@pytest.fixture(scope="session")
def seed_catalog(seed_catalog_url) -> Catalog:
    cat = open_catalog(seed_catalog_url)
    yield cat
    cat.close()


# --- the site's browser tests (test_site_*browser.py) -------------------------------------------


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for one test module (the modules skip themselves without Chromium)."""
    import shutil

    from tests.test_site_browser import _chromium

    driver, profile = _chromium()
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory, seed_catalog_url):
    """The seed catalogue's site, built once per module (read as the reader role)."""
    from tests.site_helpers import built_site

    return built_site(tmp_path_factory, seed_catalog_url)
