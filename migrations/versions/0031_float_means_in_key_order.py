"""The stored float sums and means add their rows in key order, so two builds store the same bits.

refresh_run_figures took perf_counter_means.value_sum, run_scope_latencies' means and run_figures' log
IOPS, database reads and writes per second and mean latencies as `sum(x)`/`avg(x)` with no ORDER BY:
float8 additions ran in whatever order the plan read the rows, and the plan follows the tables' statistics,
which autovacuum refreshes when it likes (a hash join, a sort or a plain scan each hand the aggregate
another order). Two builds of the same fixtures by the same code stored some of these a last bit apart.
Now each is `sum(x ORDER BY key)`/`avg(x ORDER BY key)` (FILTERs kept): a counter's samples by their time,
a run's latencies rows by instance (and scope). No figure's definition changes. The sort costs a linked
100 MiB export's refresh 1.23x, an exact numeric sum 1.90x (benchmarks/bench_perfmon_means.py, docs/scaling.md).

The function is migrations/run_figures_0031.sql (frozen; its head comment lists the changes to 0026's,
which the downgrade puts back from run_figures_0026.sql, keeping the stored sums: added in key order, they
are sums 0026's function may give too). The upgrade then recomputes every run's stored figures, perfmon sums included (their rows are deleted first: a refresh keeps a counter's sums
while its run's window is unchanged), so that a catalogue holds the sums its function takes; the stores
that depend on them are refreshed in the same transaction, so the revision leaves every one fresh.

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-02 15:00:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
# Every run's figures, its perfmon sums recomputed: the order of a sum reaches any run with latencies or samples.
# Then the refreshes they queue for commit run now (SET CONSTRAINTS ... IMMEDIATE fires the deferred triggers),
# and the class ranks those refreshes mark stale are rebuilt: the revision leaves every derived store fresh.
RECOMPUTE = ("DELETE FROM perf_counter_means; SELECT refresh_run_figures(NULL); SET CONSTRAINTS ALL IMMEDIATE; "
             "SELECT rebuild_mailbox_class_rank_rows()")


def upgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0031.sql").read_text(encoding="utf-8"))
    op.execute(RECOMPUTE)


def downgrade() -> None:
    # The stored sums stay: added in key order, they are sums 0026's function may give too (it adds in any
    # order), so the catalogue a downgrade leaves reads exactly as before it.
    op.execute((MIGRATIONS / "run_figures_0026.sql").read_text(encoding="utf-8"))
