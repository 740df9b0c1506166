"""Issue 48: the derived stores' generated mechanism (revision 0030) keeps the same catalogue as the
hand-written one it replaced (0029's functions). The fixtures are ingested into a catalogue at each, the
same writes made (renames, price and figure edits, deletes of rows, files and a solution, each its own
transaction, so every marking function and refresh at commit runs), and every table compared, sorted.

Two things are left out, the mechanism's neither: the moment a row was written (columns defaulting to
now()), and float digits past the 12th: a mean recomputed at commit sums its samples in the order the
plan reads them, and two builds by the same code may differ in the last place (measured: head against
head differs there as often as 0029 against head)."""

from __future__ import annotations

import psycopg
from sqlalchemy import text

from esrpdb.db import migrate
from esrpdb.db.class_ranks import rebuild_class_ranks
from esrpdb.db.connection import make_engine
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import delete_solution
from tests.helpers import FIXTURES, TEMPLATE, plain, scratch_database

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


def _cell(value: object) -> object:
    return f"{value:.12g}" if isinstance(value, float) else value


def _dump(url: str) -> dict[str, list[str]]:
    with psycopg.connect(plain(url)) as conn:
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                             "AND tablename <> 'alembic_version' ORDER BY 1")]
        out = {}
        for table in tables:
            now = {r[0] for r in conn.execute(WRITTEN_AT, (table,))}
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            names = [c.name for c in cursor.description or ()]
            out[table] = sorted(repr([_cell(v) for n, v in zip(names, row) if n not in now]) for row in cursor)
        return out


def test_the_fixtures_catalogue_is_the_same_with_the_generated_mechanism(pg_server, template_url):
    with scratch_database(pg_server, "same_new", TEMPLATE) as new_url, \
            scratch_database(pg_server, "same_old", TEMPLATE) as old_url:
        migrate.downgrade(old_url, "0029")  # the hand-written functions
        old_said, new_said = _build(old_url), _build(new_url)
        old, new = _dump(old_url), _dump(new_url)
    assert old_said == new_said and all(n for n in new_said if isinstance(n, int))  # every write wrote
    assert sum(map(len, new.values())) > 40_000 and new["run_figures"] and new["mailbox_class_rank_rows"]
    assert {t: len(rows) for t, rows in old.items()} == {t: len(rows) for t, rows in new.items()}
    assert [t for t in old if old[t] != new[t]] == []
