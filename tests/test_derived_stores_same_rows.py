"""Issue 48: the derived stores' generated mechanism (revision 0030) keeps the same catalogue as the
hand-written one it replaced (0029's functions). The fixtures are ingested into a catalogue at each, the
same writes made (renames, price and figure edits, deletes of rows, files and a solution, each its own
transaction, so every marking function and refresh at commit runs), and every table compared, sorted.

Every value is compared as PostgreSQL prints it, to the last digit; only the moment a row was written
(columns defaulting to now()) is left out. Since revision 0031 a stored float sum adds its rows in key
order, so two builds by the same code store the same bits (they differed in the last place about every
other build: tests/test_float_sums_order.py); the 0029 side runs 0031's refresh_run_figures too, the sums'
order being no part of the mechanism."""

from __future__ import annotations

import psycopg
from sqlalchemy import text

from esrpdb.db import migrate
from esrpdb.db.class_ranks import rebuild_class_ranks
from esrpdb.db.connection import make_engine
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import delete_solution
from tests.helpers import FIXTURES, REPO_ROOT, TEMPLATE, plain, scratch_database

PATHS = [FIXTURES / "catalog", FIXTURES / "jetstress_html", FIXTURES / "documents", FIXTURES / "perfmon",
         FIXTURES / "power", FIXTURES / "host_tests"]
WRITES = [
    "UPDATE solutions SET key = key || '-renamed' WHERE id = (SELECT min(id) FROM solutions)",
    "UPDATE solutions SET list_price_amount = list_price_amount * 2 WHERE list_price_amount IS NOT NULL",
    "UPDATE trials SET label = label || '-t' WHERE id = (SELECT min(id) FROM trials)",
    "DELETE FROM latencies WHERE ctid IN (SELECT ctid FROM latencies ORDER BY run_id, instance_id, scope LIMIT 5)",
    "UPDATE latencies SET db_read_latency_ms = db_read_latency_ms * 2 WHERE ctid IN "
    "(SELECT ctid FROM latencies ORDER BY run_id DESC, instance_id, scope LIMIT 5)",
    "DELETE FROM perf_counters WHERE id = (SELECT min(id) FROM perf_counters)",
    "UPDATE run_published_values SET value = value * 2 WHERE ctid IN "
    "(SELECT ctid FROM run_published_values ORDER BY run_id, metric LIMIT 3)",
    "UPDATE documents SET source_file_id = source_file_id WHERE source_file_id = (SELECT min(source_file_id) FROM documents)",
    "UPDATE disks SET disk_count = disk_count + 1 WHERE id = (SELECT min(id) FROM disks)",
    "DELETE FROM disks WHERE id = (SELECT max(id) FROM disks)",
    "UPDATE source_files SET file_name = file_name || '.x' WHERE id = (SELECT min(id) FROM source_files)",
    "UPDATE runs SET trial_id = trial_id WHERE id IN (SELECT id FROM runs ORDER BY id LIMIT 3)",
    "DELETE FROM run_power WHERE run_id = (SELECT min(run_id) FROM run_power)",
    "UPDATE claims SET solution_id = solution_id WHERE id IN (SELECT id FROM claims ORDER BY id LIMIT 3)",
    "DELETE FROM recovery_stats WHERE run_id = (SELECT min(run_id) FROM recovery_stats)",
    "UPDATE mailbox_classes SET min_mailbox_count = min_mailbox_count "
    "WHERE class_ordinal = (SELECT min(class_ordinal) FROM mailbox_classes)",
]
WRITTEN_AT = ("SELECT column_name FROM information_schema.columns WHERE table_name = %s "
              "AND data_type LIKE 'timestamp%%' AND column_default LIKE '%%now()%%'")

COLUMNS = "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s " \
          "ORDER BY ordinal_position"
ORDERED_SUMS = REPO_ROOT / "migrations" / "run_figures_0031.sql"


def _build(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        said: list[object] = sorted(o.status for o in ingest_paths(engine, PATHS))
        for sql in WRITES:
            with engine.begin() as conn:
                said.append(conn.execute(text(sql)).rowcount)
        said.append(delete_solution(engine, "hp-eva4400").committed)
        rebuild_class_ranks(engine)
    finally:
        engine.dispose()
    return said


def _dump(url: str) -> dict[str, list[str]]:
    with psycopg.connect(plain(url)) as conn:
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                             "AND tablename <> 'alembic_version' ORDER BY 1")]
        out = {}
        for table in tables:
            now = {r[0] for r in conn.execute(WRITTEN_AT, (table,))}
            columns = [r[0] for r in conn.execute(COLUMNS, (table,)) if r[0] not in now]
            cells = ", ".join(f'"{c}"::text' for c in columns)
            order = ", ".join(str(n) for n in range(1, len(columns) + 1))
            out[table] = [repr(r) for r in conn.execute(f'SELECT {cells} FROM "{table}" ORDER BY {order}')]
        return out


def test_the_fixtures_catalogue_is_the_same_with_the_generated_mechanism(pg_server, template_url):
    with scratch_database(pg_server, "same_new", TEMPLATE) as new_url, \
            scratch_database(pg_server, "same_old", TEMPLATE) as old_url:
        migrate.downgrade(old_url, "0029")  # the hand-written functions
        with psycopg.connect(plain(old_url)) as conn:  # with the sums in key order, as at head
            conn.execute(ORDERED_SUMS.read_text(encoding="utf-8"))
        old_said, new_said = _build(old_url), _build(new_url)
        old, new = _dump(old_url), _dump(new_url)
    assert old_said == new_said and all(n for n in new_said if isinstance(n, int))  # every write wrote
    assert sum(map(len, new.values())) > 40_000 and new["run_figures"] and new["mailbox_class_rank_rows"]
    assert {t: len(rows) for t, rows in old.items()} == {t: len(rows) for t, rows in new.items()}
    assert [t for t in old if old[t] != new[t]] == []


def test_two_builds_of_the_fixtures_are_the_same_to_the_last_digit(pg_server, template_url):
    """What an auditor rebuilding the catalogue checks: the same fixtures and writes, the same code, twice."""
    with scratch_database(pg_server, "twice_a", TEMPLATE) as first_url, \
            scratch_database(pg_server, "twice_b", TEMPLATE) as second_url:
        assert _build(first_url) == _build(second_url)
        first, second = _dump(first_url), _dump(second_url)
    assert first["run_figures"] and first["perf_counter_means"] and first["run_scope_latencies"]
    assert [t for t in first if first[t] != second[t]] == []
