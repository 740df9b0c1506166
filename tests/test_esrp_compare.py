"""Issue 25: compare's metrics for ESRP's other tests (backup, checksum, log replay), in the same
"N% more" sentences as the Performance figures.

The second solution's report is synthetic: seed 001's DatabaseBackup report (fixtures/jetstress_html/
seed001-md1220) with every per-database MB/s at 80% (made in the test).
"""

from __future__ import annotations

import re

from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import compare
from tests.helpers import FIXTURES

BACKUP = FIXTURES / "jetstress_html" / "seed001-md1220" / "DatabaseBackup_2011_6_3_10_55_33.html"


def _slower_copy(tmp_path):
    html = BACKUP.read_text(encoding="utf-8")
    report = jetstress_html.parse(BACKUP.name, BACKUP.read_bytes())
    for row in report.backup_rows:
        html = re.sub(rf">\s*{re.escape(f'{row.mb_per_s:.2f}')}\s*<", f">{row.mb_per_s * 0.8:.2f}<", html, count=1)
    copy = tmp_path / "slower" / BACKUP.name
    copy.parent.mkdir()
    copy.write_text(html, encoding="utf-8")
    return copy


def test_backup_throughput_compares_in_words(catalog, tmp_path):
    slower = _slower_copy(tmp_path)
    for path, key in ((BACKUP, "md1220-a"), (slower, "md1220-b")):
        (outcome,) = ingest_paths(catalog.engine, [path], solution_key=key, new_solution=True)
        assert outcome.status == "loaded", outcome.message
    rates = {key: [row.mb_per_s for row in jetstress_html.parse(p.name, p.read_bytes()).backup_rows]
             for p, key in ((BACKUP, "md1220-a"), (slower, "md1220-b"))}
    assert rates["md1220-a"] != rates["md1220-b"]
    report = compare.compare(catalog.engine, "md1220-a", "md1220-b",
                             ("backup_mb_per_s_per_database", "backup_mb_per_s_per_server", "logs_per_s_per_server"))
    per_database, per_server, replay = report.rows
    mean_a, mean_b = (sum(v) / len(v) for v in rates.values())
    assert abs(per_database.value_a - mean_a) < 1e-9 and abs(per_database.value_b - mean_b) < 1e-9
    expected = round(compare.percent_more(mean_a, mean_b))
    assert per_database.sentence == f"md1220-a delivered {expected}% more backup MB/s per database than md1220-b"
    assert per_server.sentence.startswith("md1220-a delivered ") and "backup MB/s per server" in per_server.sentence
    assert replay.sentence == "no logs replayed per second figure for md1220-a"
