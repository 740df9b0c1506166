"""One real embedded PostgreSQL per test session; each test gets its own fresh database.

The template database is built by `alembic upgrade head` (never `create_all`), so the
views and constraints the migrations create are the ones under test. Cloning a template
costs a few tens of milliseconds and gives every test a clean catalogue.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Iterator

import psycopg
import pytest

from esrpdb.db import embedded, migrate, roles
from esrpdb.db.catalog import Catalog, open_catalog
from tests import helpers
from tests.helpers import FIXTURES, TEMPLATE, admin_url, scratch_database, traversable, with_database

warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
# The servers the tests start are noted in a state folder of their own, not the user's (`db status --all`).
_STATE_HOME = tempfile.mkdtemp(prefix="esrpdb-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE_HOME


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's end, noted where ESRPDB_TESTS_FINISHED says (.ci/run): a test that ended the process
    itself (os._exit: the console script's end, cli/startup.ended, called in-process) would leave pytest's
    exit status at whatever it gave, 0 included, with the rest of the suite never run; the note is missing then."""
    marker = os.environ.get("ESRPDB_TESTS_FINISHED")
    if marker:
        Path(marker).write_text(f"exit status {exitstatus}\n")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The state folder goes with the session: it noted only the servers the session's tests started."""
    shutil.rmtree(_STATE_HOME, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses the session's server is marked `db`, one that uses `browser` is marked `browser`
    (tests that start a server or Chromium of their own are marked by hand); a browser test is skipped,
    with the reason, where Chromium is not on PATH (nor chromedriver and selenium, unless it is marked
    `browser(driver=False)`: it only prints with Chromium)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "pg_server" in fixtures:
            item.add_marker(pytest.mark.db)
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        mark = item.get_closest_marker("browser")
        if mark and (reason := helpers.browser_missing(driver=mark.kwargs.get("driver", True))):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _traversable_tmp_path(request):
    if "tmp_path" in request.fixturenames:
        traversable(request.getfixturevalue("tmp_path"))


@pytest.fixture(scope="session")
def pg_home() -> Iterator[Path]:
    """The session server's home, outside pytest's own folder: another pytest session started on the
    machine makes that folder 0700 again, and the server's user (as root: another user) could then no
    longer reach its data (the server stopped mid-suite when CI and a second suite ran at once)."""
    home = Path(tempfile.mkdtemp(prefix="esrpdb-tests-"))
    home.chmod(0o711)
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server(pg_home: Path):
    """The session's server; stopped at the end so no process outlives the tests."""
    server = embedded.start(pg_home)
    yield server
    alive = embedded.status(pg_home).running
    log = pg_home / "pgdata" / "log"
    said = log.read_text(errors="replace").splitlines()[-40:] if log.exists() else []
    embedded.stop(pg_home)
    assert alive, "the session's server stopped during the tests; its log ends:\n" + "\n".join(said)


@pytest.fixture(scope="session")
def template_url(pg_server) -> str:
    with psycopg.connect(admin_url(pg_server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        roles.create_database(conn, TEMPLATE)
    url = with_database(pg_server.url, TEMPLATE)
    migrate.upgrade(url)
    return url


@pytest.fixture
def fresh_database_url(pg_server, template_url) -> str:
    """A new database cloned from the migrated template; dropped after the test."""
    with scratch_database(pg_server, "t", TEMPLATE) as url:
        yield url


@pytest.fixture
def empty_database_url(pg_server) -> str:
    """A database with no schema at all, for migration tests."""
    with scratch_database(pg_server, "e") as url:
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
    with psycopg.connect(admin_url(pg_server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        roles.create_database(conn, name, template=TEMPLATE)
    url = with_database(pg_server.url, name)
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
    """Headless Chromium driven by selenium, one per test module (its tests are marked `browser`)."""
    import shutil

    from tests.site_helpers import open_chromium

    if reason := helpers.browser_missing(driver=True):
        pytest.skip(reason)
    driver, profile = open_chromium()
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory, seed_catalog_url):
    """The seed catalogue's site, built once per module (read as the reader role)."""
    from tests.site_helpers import built_site

    return built_site(tmp_path_factory, seed_catalog_url)
