"""A test over hosts adds its host reports in their id order, so its stored figures do not depend on write order.

refresh_run_figures summed a test's host reports with `sum(...)` and no ORDER BY: float8 additions ran in
the rows' physical order, which is the order the host reports were last UPDATEd (a manifest or a drafted
system takes a host report by updating its row): the same documents ingested by two write paths stored
one test's achieved IOPS a last bit apart. Now every float sum over a test's hosts
(achieved and log IOPS, database reads and writes per second, both parts of each IOPS-weighted latency)
is `sum(x ORDER BY h.id)`, FILTERs kept; and a run's perfmon exports are added in their counters' id order
(linking UPDATEs perf_counters, and a refresh rewrites perf_counter_means). No figure's definition changes.

The function is migrations/run_figures_0026.sql (frozen; its head comment lists the changes to 0019's,
which the downgrade puts back from run_figures_0019.sql). Both directions then refresh the stored figures
of every run whose sums the change can reach: each test over hosts (origin 'hosts'), and each run with
more than one export of the same disk _Total counter (with their trial peers, as refresh_run_figures
takes them), so that an existing catalogue holds the ordered sums after an upgrade and 0019's after a
downgrade.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28 05:30:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
# The runs whose figures the order of a sum can change: tests over hosts, and runs whose perfmon
# exports give one disk _Total counter more than once (counter_means adds them).
REACHED = """SELECT refresh_run_figures(ARRAY(
    SELECT id FROM runs WHERE origin = 'hosts'
    UNION
    SELECT c.run_id FROM perf_counters c
    WHERE c.run_id IS NOT NULL AND lower(c.object_name) IN ('logicaldisk', 'physicaldisk')
      AND lower(c.instance_name) = '_total'
    GROUP BY c.run_id, lower(c.object_name), lower(c.counter_name) HAVING count(*) > 1))"""


def upgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0026.sql").read_text(encoding="utf-8"))
    op.execute(REACHED)


def downgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0019.sql").read_text(encoding="utf-8"))
    op.execute(REACHED)
