"""A document -> drafts of its solutions' manifests, for a person to confirm (`esrpdb draft`).

Which solutions: the columns of the document's configuration tables (a whitepaper comparing two
arrays prints one column each), else one solution named by the title. Facts and table figures
go to the solution of their column; a table whose columns are runs goes to the solution its
caption names; a sentence's figure goes to the solution named nearest to it. Embedded reports
become runs (labelled "Run N" when a result table prints their achieved IOPS under that run);
runs a table prints without a report become table runs. Nothing is computed: every value is
the text printed on its line. Pure: a parsed document and its lines in, `DraftSolution`s out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..formats.document.lines import Line
from ..formats.document.orientation import is_aggregate
from ..formats.document.records import DocumentTable, ReportDocument
from ..jetstress.vocabulary import normalise_label
from .brands import brand_owners, maker_facts, model_maker, owned_brand
from .company import company_names, title_product_facts, title_system, with_company
from .deferred import deferred
from .drafts import DraftRun, DraftSolution
from .facts import NOT_STORAGE_KINDS, Fact, columns_are_systems, document_facts, prose_facts
from .host_columns import columns_are_hosts, host_table_run, machine_names, per_host_claims_left_out
from .host_figures import host_claims, host_table_claims, scenario_host_runs
from .host_tests import SCENARIO, group_hosts
from .names import MEDIA_WORDS, best as _best, owner_at, words as _words
from .owners import report_label, report_owners
from .published import (
    DraftClaim,
    Paragraphs,
    document_disk_basis,
    paragraphs,
    price_and_power,
    sentence_claims,
)
from .run_rows import median_rows, printed_equals, row_runs, rows_of_runs, run_columns, run_rows, run_total
from .run_versus import versus_tests
from .table_claims import table_claims
from .variants import PRICE_AND_POWER, Variant, figure, inherited, same_figure, variant_columns
from .verdicts import add_verdicts
from .workload import add_group_databases, add_named_facts, add_shared_design

_RUN = deferred(r"\brun\s*(\d+)\b", re.IGNORECASE)
_CAPTION = deferred(r"^((?:figure|table)\s+\d+[a-z]?)\b", re.IGNORECASE)
REPORT_LACKS = ("throughput_mb_per_s", "idle_power_w", "active_power_w")  # the manifest's FIGURE_ROW_FIELDS


# Tables that describe what was tested, one column per solution (result tables may compare states of one).
SOLUTION_KINDS = deferred(r"storage_systems|storage_hardware|disk_configuration|storage_software|"
                          r"simulated_exchange_configuration|power|pricing|results_by_run")


def _solution_tables(document: ReportDocument) -> list[DocumentTable]:
    machines = machine_names(document)
    return [t for t in document.tables if SOLUTION_KINDS.search(t.kind) and len(t.columns) > 1
            and not any(_RUN.search(c) for c in t.columns) and columns_are_systems(t)
            and not columns_are_hosts(t, machines)]


def _names(document: ReportDocument) -> list[str]:
    tables = _solution_tables(document)
    if not tables:
        return [document.title or document.source_name]
    def systems_of(table: DocumentTable) -> list[str]:
        return [c for c in table.columns if not is_aggregate(c)]

    count = max(len(systems_of(t)) for t in tables)
    widest = next(t for t in tables if len(systems_of(t)) == count)
    return systems_of(widest)


def _media(solution: DraftSolution) -> str | None:
    return next((f.value for f in solution.facts if f.fact == "media"), None)


def _distinct(solutions: list[DraftSolution]) -> list[set[str]]:
    """Words that name each solution and no other (its column header's words, its media's words)."""
    words = [_words(s.name) | set(MEDIA_WORDS.get(_media(s) or "", ())) for s in solutions]
    return [w - set().union(*(o for j, o in enumerate(words) if j != i)) for i, w in enumerate(words)]


def _where(table: DocumentTable | None, line: Line | None = None) -> str:
    if table is not None:
        caption = _CAPTION.match(table.title)
        return caption[1] if caption else table.title[:80]
    return "text"


def _table_owner(table: DocumentTable, count: int, distinct: list[set[str]], owners: dict[int, int],
                 document: ReportDocument) -> int | None:
    """Which solution a table whose columns are runs belongs to: the one whose report's achieved IOPS it
    prints (the data, which a mislabelled caption cannot change), else the one its caption names."""
    if count == 1:
        return 0
    for index, owner in owners.items():
        achieved = document.reports[index].achieved_iops
        if achieved is not None and any(printed_equals(cell, achieved) for row in table.rows
                                        if normalise_label(row.label).startswith("achieved iops") for cell in row.values):
            return owner
    return _best(table.title, distinct)


def draft_solutions(document: ReportDocument, lines: list[Line], unread: list[str] | None = None,
                    unattributed: list[str] | None = None, facts: list[Fact] | None = None) -> list[DraftSolution]:
    """The document's solutions with their facts, runs and claims; `unread` collects what rows name and
    no rule reads (facts.table_facts), `unattributed` the published figures no system can be told for.
    `facts`: the document's table facts when the caller has read them already (with `unread`)."""
    names = _names(document)
    prose = paragraphs(lines)  # joined once, read by every rule that reads prose
    variants = variant_columns(document, names)
    variant_facts: dict[str, list[Fact]] = {v.heading: [] for v in variants}
    solutions = [DraftSolution(name) for name in names]
    count = len(solutions)
    for fact in document_facts(document, unread) if facts is None else facts:
        if fact.column in variant_facts:
            variant_facts[fact.column].append(fact)
            continue
        targets = range(count) if fact.column is None else [i for i, n in enumerate(names) if n == fact.column] or \
            [i for i in range(count) if _words(fact.column) & _words(names[i])][:1]
        for index in targets:
            solutions[index].facts.append(fact)
    companies = company_names(line.text for line in lines)
    if count == 1:  # a one-system document's sentences speak of that system
        solutions[0].facts.extend(prose_facts(document, prose))
        if not any(f.fact == "model" for f in solutions[0].facts):
            solutions[0].facts.extend(title_system(document, companies) or title_product_facts(document, companies))
    brands = brand_owners(line.text for line in lines)
    text: str | None = None  # the whole text in one line: made once, and only if a system names no vendor
    for solution in solutions:  # "Corvane" where the document names the company "Corvane Systems"
        solution.facts = owned_brand(with_company(solution.facts, companies), brands)
        if not any(f.fact == "vendor" for f in solution.facts):
            text = text if text is not None else " ".join(" ".join(ln.text for ln in lines).split())
            solution.facts.extend(maker_facts(solution.name, text, lines) or model_maker(solution.facts, lines))
        add_group_databases(solution)
    distinct = _distinct(solutions)
    if count > 1:
        stated = prose_facts(document, prose)
        add_shared_design(solutions, stated, distinct)
        add_named_facts(solutions, stated, distinct)
    owners = report_owners(document, count, distinct)
    column_tables: list[list[tuple[DocumentTable, int]]] = [[] for _ in solutions]
    variant_claims: dict[str, list[tuple[DraftClaim, str]]] = {}
    scenario_claims: dict[tuple[int, str], tuple[DocumentTable, list[DraftClaim]]] = {}
    machines = machine_names(document)
    host_tables: list[DocumentTable] = []
    for table in document.tables:
        if count == 1 and not document.reports and columns_are_hosts(table, machines):
            # no report of its hosts is printed: the table is the test, whatever its caption calls it
            run = host_table_run(table, _where(table), {r.label for r in solutions[0].runs})
            if run is not None:
                solutions[0].runs.append(run)
        if count == 1 and columns_are_hosts(table, machines):  # one host's part of a test, not the system's figure
            host_tables.append(table)  # judged on each host's own report, once the tests are known
            continue
        if table.kind in NOT_STORAGE_KINDS:
            continue
        runs_as_columns = any(_RUN.search(c) for c in table.columns)
        owner = (_table_owner(table, count, distinct, owners, document) if runs_as_columns or len(table.columns) <= 1
                 else None)
        for claim in table_claims(table):
            if claim.named is not None:
                named = _best(claim.named, distinct)
                targets = [named] if named is not None else []
            elif runs_as_columns or len(table.columns) <= 1:
                targets = [owner] if owner is not None else ([] if runs_as_columns else list(range(count)))
            else:
                heading = table.columns[claim.column] if claim.column is not None and claim.column < len(table.columns) \
                    else None
                if heading in variant_facts:  # a configuration's column: the configuration's own figure
                    variant_claims.setdefault(heading, []).append((claim, _where(table)))
                    continue
                if count == 1 and claim.column and heading and SCENARIO.search(heading):
                    scenario_claims.setdefault((id(table), heading), (table, []))[1].append(claim)
                    continue  # a state of the one system ("Degraded State (Disk Failure)"): its own run
                column_owner = (0 if claim.column == 0 else None) if count == 1 else _column_owner(heading, names, distinct)
                targets = [column_owner] if column_owner is not None else []
            for index in targets:
                solutions[index].claims.append((claim, _where(table), None))
                if claim.run is not None:
                    column_tables[index].append((table, claim.column or 0))
    seen: set[tuple] = set()
    for index, owner in owners.items():
        report = document.reports[index]
        printed = (report.report_type, report.machine_name, report.test_start, report.achieved_iops)
        if owner is None or (report.test_start is not None and printed in seen):
            continue  # the same report printed again: one run, which ingest records as seen twice
        seen.add(printed)
        label = report_label(document, index, column_tables[owner])
        if any(run.label == label for run in solutions[owner].runs):
            label = f"Report {index + 1}"
        solutions[owner].runs.append(DraftRun(label, report_index=index, line=report.source_line,
                                              description=f"{report.report_type} report at line {report.source_line}"))
    for solution in solutions:
        group_hosts(solution, document)
        hosts = max((len(run.hosts) for run in solution.runs if run.hosts), default=0)
        solution.claims = per_host_claims_left_out(solution.claims, hosts, unattributed)
    for table in host_tables:
        if document.reports and scenario_host_runs(solutions, document, table, _where(table)):
            continue  # a state no report was printed for: the table's columns are its runs
        if not host_table_claims(solutions, document, table, _where(table)) and unattributed is not None \
                and table_claims(table):
            unattributed.append(f"{_where(table)} (line {table.line}): its columns are the hosts of one test; "
                                "a host's figures are not the system's, not judged")
    for table, claims in scenario_claims.values():
        _add_scenario_run(solutions[0], table, claims)
    for index in range(count):
        _add_table_runs(solutions, index, document, distinct, owners)
    unplaced = unattributed if unattributed is not None else []
    _add_sentences(solutions, prose, distinct, unplaced, host_claims(solutions, document, prose, unplaced))
    add_verdicts(solutions, document, prose, distinct)  # verdicts stated in prose, the pass rule stated
    basis = document_disk_basis(prose)
    if basis is not None:  # what the document says its per-disk figures divide by, where a claim says nothing
        for solution in solutions:
            solution.claims = [(replace(c, disk_basis=basis) if c.disk_basis is None else c, w, v)
                               for c, w, v in solution.claims]
    return solutions + _variant_solutions(document, solutions, variants, variant_facts, variant_claims)


def _add_scenario_run(solution: DraftSolution, table: DocumentTable, claims: list[DraftClaim]) -> None:
    """A column of a one-system table headed by an abnormal state ("Degraded State (Disk Failure)",
    "During RAID 5 Rebuild Cycle"): a run of its own under that scenario, with the figures it prints."""
    heading = table.columns[claims[0].column or 0]
    rows = run_rows(table, claims[0].column or 0, None)
    if "achieved_iops" not in rows and "total_iops" not in rows:
        achieved = [c for c in claims if c.metric == "achieved_iops"]
        if not achieved:
            return  # no run figure: its claims have no run to be judged against
        rows = {"achieved_iops": [next(r.label for r in table.rows if r.line == achieved[0].line)]}
    for claim in claims:  # its latencies too, as printed in milliseconds
        if claim.metric in ("db_read_latency", "db_write_latency", "log_write_latency") and claim.unit == "ms":
            rows.setdefault(claim.metric, [next(r.label for r in table.rows if r.line == claim.line)])
    label = heading if heading not in {r.label for r in solution.runs} else f"{heading} ({_where(table)})"
    solution.runs.append(DraftRun(label, line=table.line, table=table, column=heading, rows=rows, scenario=heading,
                                  description=f"figures from {_where(table)}, under the state its column names"))
    solution.claims.extend((replace(c, run=label), _where(table), None) for c in claims)


def _run_totals(document: ReportDocument, solution: DraftSolution) -> list[float | None]:
    totals: list[float | None] = []
    for run in solution.runs:
        if run.hosts:
            achieved = [document.reports[i].achieved_iops for i in run.hosts]
            totals.append(None if None in achieved else sum(a for a in achieved if a is not None))
        elif run.report_index is not None:
            totals.append(document.reports[run.report_index].achieved_iops)
        elif run.table is not None and run.column in run.table.columns:
            totals.append(run_total(run.table, run.table.columns.index(run.column), run.rows))
    return totals


def _variant_solutions(document: ReportDocument, solutions: list[DraftSolution], variants: list[Variant],
                       own_facts: dict[str, list[Fact]], own_claims: dict[str, list[tuple[DraftClaim, str]]],
                       ) -> list[DraftSolution]:
    """Configurations of a system the document prints beside it (variants.py), each with the figures its
    own column prints."""
    found = []
    for variant in variants:
        parent = solutions[variant.parent]
        rows, total = figure(variant)
        claims = [(c, w, None) for c, w in own_claims.get(variant.heading, [])]
        if any(same_figure(total, t) for t in _run_totals(document, parent)):
            parent.claims.extend(claims)
            continue  # the configuration the document compares: the system itself
        model = Fact("model", variant.heading, None, None, variant.table.line, variant.heading, variant.heading)
        solution = DraftSolution(variant.heading, inherited([model, *own_facts[variant.heading]], parent.facts))
        solution.runs.append(DraftRun(variant.label, line=variant.table.line, table=variant.table,
                                      column=variant.heading, rows=rows,
                                      description=f"figures from {_where(variant.table)}"))
        solution.claims = claims + [(c, w, v) for c, w, v in parent.claims
                                    if c.metric in PRICE_AND_POWER and c.run is None and not c.comparison]
        found.append(solution)
    return found


def _column_owner(heading: str | None, names: list[str], distinct: list[set[str]]) -> int | None:
    """The system a table column is headed by: its name as printed, else words naming it and no other."""
    if heading is None:
        return None
    exact = [i for i, name in enumerate(names) if normalise_label(name) == normalise_label(heading)]
    return exact[0] if len(exact) == 1 else _best(heading, distinct)


def _system_column(table: DocumentTable, index: int, names: list[str], distinct: list[set[str]]) -> int | None:
    """The column of `table` headed by system `index` (its name, or words naming it and no other)."""
    for column, heading in enumerate(table.columns):
        if normalise_label(heading) == normalise_label(names[index]):
            return column
    found = [column for column, heading in enumerate(table.columns) if _best(heading, distinct) == index]
    return found[0] if len(found) == 1 else None


def _add_table_runs(solutions: list[DraftSolution], index: int, document: ReportDocument, distinct: list[set[str]],
                    owners: dict[int, int]) -> None:
    """Runs a results table prints (a column per run, or a column per system with runs in the row labels):
    a table run when no report of the system is that run, else the table's figures no report holds
    (throughput, power) for the report's run. Claims on runs not found are dropped."""
    solution, names = solutions[index], [s.name for s in solutions]
    by_label = {run.label: run for run in solution.runs}
    for table in document.tables:
        if table.kind in NOT_STORAGE_KINDS:
            continue
        per_run = run_columns(table)
        places: list[tuple[int, str | None, str]]  # (column, the run its row labels name, run number)
        if per_run:
            if _table_owner(table, len(solutions), distinct, owners, document) != index:
                continue
            places = [(column, None, number) for column, number in per_run.items()]
        else:
            column = _system_column(table, index, names, distinct)
            places = [] if column is None else [(column, number, number) for number in row_runs(table)]
        median, median_figures = median_rows(table, places[0][0]) if places and not per_run else (None, {})
        by_run: dict[int, dict[str | None, dict[str, list[str]]]] = {}  # each column's rows read once (issue 49)
        for column, row_run, number in places:
            if column not in by_run:
                by_run[column] = rows_of_runs(table, column)
            rows = {metric: list(labels) for metric, labels in by_run[column].get(row_run, {}).items()}
            if number == median:
                rows.update({m: labels for m, labels in median_figures.items() if m in REPORT_LACKS and m not in rows})
            if "total_iops" not in rows and "achieved_iops" not in rows:
                continue
            label = f"Run {number}"
            existing = by_label.get(label)
            if existing is None:
                run = DraftRun(label, line=table.line, table=table, column=table.columns[column], rows=rows,
                               description=f"figures from {_where(table)}")
                solution.runs.append(run)
                by_label[label] = run
            elif existing.report_index is not None and existing.figure_table is None:
                extra = {m: labels for m, labels in rows.items() if m in REPORT_LACKS}
                if extra:
                    existing.figure_table, existing.figure_column, existing.figure_rows = \
                        table, table.columns[column], extra
    solution.claims = [(c, w, v) for c, w, v in solution.claims if c.run is None or c.run in by_label]


def _add_sentences(solutions: list[DraftSolution], prose: Paragraphs, distinct: list[set[str]],
                   unattributed: list[str], hosts_placed: set[tuple[int, str]]) -> None:
    """Figures printed in prose, each given to the system its sentence says it is (names.owner_at); a
    figure a host's sentence gave that host (host_figures.py) is not placed again."""
    recent: tuple[int, int] | None = None  # (line, owner) of the last figure placed: "This is 181 percent more …"
    subject: tuple[int, int] | None = None  # (line, owner) of the last comparison placed
    for claim in sorted([*sentence_claims(prose), *price_and_power(prose)], key=lambda c: (c.line, c.position)):
        if (claim.line, claim.value) in hosts_placed:
            continue
        text = claim.quote
        near = claim.offset if claim.offset is not None else text.find(claim.value)
        if len(solutions) == 1:
            owner: int | None = 0
        elif claim.named is not None:
            owner = _best(claim.named, distinct)
        else:
            owner = owner_at(claim.paragraph or text, claim.position if claim.paragraph else near, distinct,
                             comparison=claim.comparison)
            if owner is None and claim.comparison and subject is not None and claim.line - subject[0] <= 12:
                owner = subject[1]  # a comparison whose paragraph names no subject (a page break cut it off)
            if owner is None and recent is not None and claim.line - recent[0] <= 1:
                owner = recent[1]
        if claim.comparison and owner is not None and claim.than and not claim.versus_value \
                and _best(claim.than, distinct) == owner:
            # "it drew 380 W, 25% less than the Aurex": never the Aurex against itself; of two, the other
            owner = next(i for i in range(len(solutions)) if i != owner) if len(solutions) == 2 else None
        if owner is not None:
            recent = (claim.line, owner)
            if claim.comparison:
                subject = (claim.line, owner)
        versus = None
        if claim.comparison and owner is not None:
            others = [i for i in range(len(solutions)) if i != owner]
            named = _best(claim.than, distinct) if claim.than else None  # "than the StorStack 3100i", its own words
            versus = named if named is not None and named != owner else None if claim.versus_value else \
                _best(text[near:], distinct) if len(others) > 1 else (others[0] if others else None)
            versus = None if versus == owner else versus
        if claim.comparison and owner is not None and versus is None:  # "… 10% less than in the baseline"
            tests = versus_tests(claim.than, text[:near], [(r.label, r.scenario) for r in solutions[owner].runs])
            if tests is not None:
                claim, versus = replace(claim, run=tests[0], versus_run=tests[1]), owner
        if owner is None or (claim.comparison and versus is None and claim.versus_value is None):
            why = ("names no system it can be told for" if owner is None
                   else "names no other system it is compared with")
            unattributed.append(f'line {claim.line}: "{claim.value}" ({claim.metric.replace("_", " ")}) {why} in '
                                f'"{text[:120]}"; not judged')
            continue
        solutions[owner].claims.append((claim, "text", versus))
