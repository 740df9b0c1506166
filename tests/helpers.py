"""What the test modules share: no test module imports another (nor conftest); they import from here,
or from the other helper modules beside it (site_helpers, document_variants, pdf_renderings, …).

Here: the repository's folders; scratch databases on the session's embedded server (conftest.py
starts it); what Chromium the browser tests can use; PDFs written byte by byte; a seed document
read; and comparisons of stored figures and rows.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import itertools
import math
import os
import shutil
import stat
import tempfile
from datetime import datetime
from pathlib import Path

import psycopg
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from esrpdb.db import roles

# --- the repository's folders ------------------------------------------------------------------

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "fixtures"
DOCUMENTS = FIXTURES / "documents"  # the real seed documents (byte copies, see its README)
SAMPLE_CONFIGS = FIXTURES / "config"  # real JetstressConfig.xml samples
SYNTHETIC = DOCUMENTS / "synthetic-contoso-whitepaper.md"
DELL_HTML = FIXTURES / "jetstress_html" / "seed000-dell-equallogic" / "Performance_2008_9_18_12_48_31.html"

# --- the session's server (tests marked `db`) --------------------------------------------------

TEMPLATE = "esrpdb_template"  # the migrated template every test database is cloned from
BASETEMP_ROOT = Path(tempfile.gettempdir())


def traversable(path: Path) -> Path:
    """As root, the embedded server's user must enter the folders of a test's ESRPDB_HOME, and esrpdb
    opens no folder it did not create (db/server_user.py): the tests open pytest's own (0700) folders."""
    if os.geteuid() == 0:
        for folder in [*reversed(path.parents), path]:
            if folder.is_relative_to(BASETEMP_ROOT) and folder != BASETEMP_ROOT and folder.exists():
                folder.chmod(folder.stat().st_mode | stat.S_IXOTH)
    return path


def with_database(url: str, database: str) -> str:
    return make_url(url).set(database=database).render_as_string(hide_password=False)


def plain(url: str) -> str:
    """A SQLAlchemy URL as psycopg takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://")


def admin_url(server) -> str:
    return plain(server.admin_url())


_counter = itertools.count()


@contextlib.contextmanager
def scratch_database(server, prefix: str, template: str | None = None):
    """A database that exists for one test, cloned from `template` when given."""
    name = f"{prefix}{os.getpid()}_{next(_counter)}"
    admin = admin_url(server)
    with psycopg.connect(admin, autocommit=True) as conn:
        roles.create_database(conn, name, template=template)
    try:
        yield with_database(server.url, name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- Chromium (tests marked `browser`) ---------------------------------------------------------


# The smallest manifest of one solution (a key, its maker and model, one group of disks): tests add the rest.
MINIMAL_SOLUTION_TOML = """\
schema = 1

[solution]
key = "test-solution"
vendor = "Vendor"
model = "Model"

[[disks]]
count = 4
media = "HDD"
rpm = 15000
capacity = 146
capacity_unit = "GB"
capacity_base = "decimal"
role = "active"
"""


def audited(server, prefix: str, paths: list[Path]) -> list:
    """The audit's findings on `paths`, each ingested with no manifest into a scratch catalogue of its own."""
    from esrpdb.audit import audit
    from esrpdb.db.catalog import open_catalog
    from esrpdb.ingest.pipeline import ingest_paths

    with scratch_database(server, prefix, TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            ingest_paths(catalog.engine, paths)
            return audit(catalog.engine).findings
        finally:
            catalog.close()


def chromium() -> str | None:
    """Debian's headless Chromium on PATH (it prints PDFs and runs the site's browser tests)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver() -> str | None:
    return shutil.which("chromedriver")


def browser_missing(*, driver: bool) -> str | None:
    """Why a browser test cannot run here, or None; `driver`: the test drives Chromium through selenium."""
    needed = {"chromium": chromium(), **({"chromedriver": chromedriver()} if driver else {})}
    missing = [name for name, found in needed.items() if not found]
    if missing:
        return (f"needs {' and '.join(missing)} on PATH, which this machine lacks "
                "(apt-get install chromium chromium-driver)")
    if driver:
        try:
            import selenium  # noqa: F401
        except ImportError:
            return "needs selenium (pip install -e '.[dev]')"
    return None


# --- PDFs written byte by byte -----------------------------------------------------------------

Row = list[tuple[int, str]]


def make_pdf(pages: list[list[Row | None]], width: int = 1400, height: int = 800) -> bytes:
    """A minimal valid PDF: one content stream per page, one text object per cell, rows 15 pt apart."""
    objects: list[bytes] = [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    pages_number = 1 + 2 * len(pages) + 1
    kids = []
    for rows in pages:
        ops, y = [], height - 40
        for row in rows:
            for x, text_ in row or ():
                escaped = text_.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                ops.append(f"BT /F1 9 Tf {x} {y} Td ({escaped}) Tj ET")
            y -= 15
        stream = "\n".join(ops).encode("cp1252")
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 1 0 R >> >> "
                       b"/Contents %d 0 R >>" % (pages_number, width, height, len(objects)))
        kids.append(len(objects))
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)))
    objects.append(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_number)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(objects), xref)
    return bytes(out)


HEADERS = ["MSExchange Database ==> Instances", "I/O Database Reads Average Latency (msec)",
           "I/O Database Writes Average Latency (msec)", "I/O Database Reads/sec", "I/O Database Writes/sec",
           "I/O Log Writes Average Latency (msec)", "I/O Log Writes/sec"]
COLUMNS = [40, 220, 420, 620, 760, 900, 1120]


def table_row(cells: list[str]) -> Row:
    return list(zip(COLUMNS, cells))


# A Jetstress 2010 report over two pages: its table's header ends page 1, its rows start page 2.
REPORT_PAGES = [
    [
        [(40, "Appendix B: Performance Testing")], None,
        [(40, "Microsoft Exchange Jetstress 2010")],
        [(40, "Performance Test Result Report")], None,
        [(40, "Test Summary")],
        [(40, "Overall Test Result"), (320, "Pass")],
        [(40, "Machine Name"), (320, "PDF-MBX01")],
        [(40, "Test Start Time"), (320, "5/28/2011 11:38:14 AM")],
        [(40, "Test End Time"), (320, "5/28/2011 1:40:37 PM")],
        [(40, "Jetstress Version"), (320, "14.01.0225.017")], None,
        [(40, "Database Sizing and Throughput")],
        [(40, "Achieved Transactional I/O per Second"), (320, "1,573.982")],
        [(40, "Target Transactional I/O per Second"), (320, "1000")], None,
        [(40, "Transactional I/O Performance")],
        table_row(HEADERS),  # the header ends page 1 ...
    ],
    [
        [(40, "Contoso Storage - Confidential - Page 2")], None,  # ... its rows start page 2 under a running header
        table_row(["Instance2836.1", "16.661", "8.916", "122.475", "72.839", "1.609", "60.743"]),
        table_row(["Instance2836.2", "16.385", "9.199", "123.673", "73.648", "1.591", "60.603"]),
        None,
        [(40, "Test Log")],
        [(40, "5/28/2011 11:38:30 AM -- Database read latency thresholds: "
              "(average: 20 msec/read, maximum: 100 msec/read).")],
    ],
]

# --- a seed document, read --------------------------------------------------------------------


def seed_path(number: str) -> Path:
    """A seed document: the real text committed under fixtures/documents."""
    found = sorted(DOCUMENTS.glob(f"{number}_*.txt"))
    assert found, f"seed {number} not found under {DOCUMENTS}"
    return found[0]


@functools.lru_cache(maxsize=None)
def seed(number: str):
    """The seed document `number` ("000" …) as the document reader reads it (a ReportDocument)."""
    from esrpdb.ingest.formats import document as document_text

    path = seed_path(number)
    return document_text.parse(path.name, path.read_bytes())


# --- stored figures and rows --------------------------------------------------------------------

REL_TOL = 1e-12  # sums of the same doubles in another order may differ in the last bits


def sort_key(row: tuple) -> tuple:
    return tuple((v is None, f"{v:.9g}" if isinstance(v, float) else str(v)) for v in row)


# Columns later revisions appended to a view: the old columns keep their places and values.
APPENDED = {"run_throughput": ["perfmon_sample_window"]}  # revision 0013
# Values a later revision meant to change: (view, marker column, marker value, the columns it changes).
# Revision 0016: a run whose table prints its power divides by that power, not the solution's.
REVISED = {"perf_per_watt": ("power_source", "document_table",
                             {"active_power_w", "idle_power_w", "total_iops_per_w", "power_source"})}


def assert_same(old: dict, new: dict) -> None:
    """Same views, columns and rows; floats equal to REL_TOL (and the appended columns after them)."""
    assert old.keys() <= new.keys()
    for view, (columns, rows) in old.items():
        new_columns, new_rows = new[view]
        assert new_columns in (columns, columns + APPENDED.get(view, [])), view
        assert len(new_rows) == len(rows), view
        marker, marked, revised = REVISED.get(view, (None, None, set()))
        for before, after in zip(rows, new_rows):
            if marker and after[new_columns.index(marker)] == marked:
                columns_checked = [c for c in columns if c not in revised]
                before = tuple(v for c, v in zip(columns, before) if c not in revised)
                after = tuple(v for c, v in zip(new_columns, after) if c not in revised)
            else:
                columns_checked = columns
            for column, a, b in zip(columns_checked, before, after):
                same = math.isclose(a, b, rel_tol=REL_TOL) if isinstance(a, float) and isinstance(b, float) else a == b
                assert same, f"{view}.{column}: {a!r} before, {b!r} after (row {before})"


def stored_figures(engine) -> dict[str, tuple[list[str], list[tuple]]]:
    """The derived per-run tables: their columns and rows in a stable order."""
    with engine.connect() as conn:
        out = {}
        for table in ("run_figures", "run_scope_latencies", "perf_counter_means", "solution_disk_counts",
                      "run_disk_figures"):
            result = conn.execute(text(f"SELECT * FROM {table}"))
            out[table] = (list(result.keys()), sorted((tuple(r) for r in result), key=sort_key))
        return out


def row_counts(url: str) -> dict[str, int]:
    """Rows in every table of the schema."""
    from esrpdb.schema import Base  # loads every table family

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {t.name: conn.execute(text(f'select count(*) from "{t.name}"')).scalar_one()
                    for t in Base.metadata.sorted_tables}
    finally:
        engine.dispose()


def canned_rows(catalog, name: str, **params) -> list[dict]:
    """A canned query's rows as dicts, its `--param` filters given as keywords."""
    from esrpdb.queries import canned

    result = canned.query(catalog.engine, name, {k: str(v) for k, v in params.items()})
    return [dict(zip(result.columns, r)) for r in result.rows]


# --- a perfmon export and its run (the Dell seed) -----------------------------------------------

HTML = FIXTURES / "jetstress_html"
DELL_HTML = HTML / "seed000-dell-equallogic" / "Performance_2008_9_18_12_48_31.html"
DELL_EXPORT = FIXTURES / "perfmon" / "seed000-dell-equallogic.csv"  # 12:48:32-14:54:32 EDT, inside the run
DELL_WINDOW = (datetime(2008, 9, 18, 10, 13, 13), datetime(2008, 9, 18, 14, 54, 59))
TOTAL = "LogicalDisk(_Total)"
MIB = 1048576.0


def csv_means(path: Path, window: tuple[datetime, datetime] | None) -> dict[str, tuple[int, int, float]]:
    """Per counter path (after the machine): rows, non-blank values and their mean, in or out of a local window."""
    header, *rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    names = [cell.split("\\", 3)[3] for cell in header[1:]]
    picked = [row for row in rows
              if window is None or window[0] <= datetime.strptime(row[0], "%m/%d/%Y %H:%M:%S.%f") <= window[1]]
    out = {}
    for index, name in enumerate(names, start=1):
        values = [float(row[index]) for row in picked if row[index].strip()]
        out[name] = (len(picked), len(values), math.fsum(values) / len(values) if values else math.nan)
    return out


def live_and_built_functions(url: str, live_file: str) -> tuple[list[str], list[tuple], list[tuple]]:
    """(the functions queries/<live_file> defines, their definitions as the revisions built them, the same
    after running the live file): a revision runs a frozen copy of the live SQL, and the two must agree."""
    import re

    live_sql = (REPO_ROOT / "queries" / live_file).read_text(encoding="utf-8")
    names = re.findall(r"^CREATE OR REPLACE FUNCTION (\w+)\(", live_sql, re.M)
    definitions = text("SELECT proname, pg_get_functiondef(oid) FROM pg_proc WHERE proname = ANY(:names) "
                       "AND pronamespace = 'public'::regnamespace ORDER BY proname")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            built = conn.execute(definitions, {"names": names}).all()
            conn.exec_driver_sql(live_sql)
            live = conn.execute(definitions, {"names": names}).all()
            conn.rollback()
    finally:
        engine.dispose()
    return names, built, live


def run_sql(engine, sql: str, **params) -> None:
    """One statement in a transaction of its own (a write the stored figures then follow at commit)."""
    with engine.begin() as conn:
        conn.execute(text(sql), params)


def sql_rows(engine, sql: str, **params) -> list[tuple]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql), params)]


def sql_scalar(engine, sql: str, **params):
    with engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


def table_rows(engine, table: str) -> list[tuple]:
    """Every row of a table, in a stable order."""
    with engine.connect() as conn:
        return sorted((tuple(r) for r in conn.execute(text(f"SELECT * FROM {table}"))), key=sort_key)


def child_pids() -> list[int]:
    """This process's live children (zombies included): no reading process may outlive a batch."""
    mine = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as status:
                    if status.read().rsplit(")", 1)[1].split()[1] == mine:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def pty_screen(leader: int) -> bytes:
    """Everything a command wrote to its pseudo-terminal until it closed (the test's side of it: `leader`)."""
    screen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other side closed: Linux reports EIO
            break
        if not chunk:
            break
        screen += chunk
    return screen


def write_log_from_report(html: Path, target: Path) -> None:
    """A *.log with the report's own test-log lines, as Jetstress writes them beside the report."""
    from esrpdb.ingest.formats import jetstress_html

    report = jetstress_html.parse(html.name, html.read_bytes())
    lines = [
        f"{e.logged_at.month}/{e.logged_at.day}/{e.logged_at.year} {e.logged_at:%I:%M:%S %p}".replace(" 0", " ", 1)
        + f" -- {e.message}"
        for e in report.log_events if e.logged_at
    ]
    target.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
