"""Drafted solutions -> manifest TOML (docs/manifests.md) that `esrpdb ingest` loads unchanged.

Every drafted value carries a `# source: line N` comment, so the person confirming the draft
reads each against the document. Keys follow the manifest vocabulary; what the document does
not print is left out rather than guessed (a draft without a disk group says so in a comment
and gets none, since a manifest needs a count and a media to write one).
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

from ..document.claims import DraftClaim
from ..document.disk_roles import disk_counts
from ..document.draft import DraftRun, DraftSolution, draft_solutions
from ..document.facts import Fact
from .records import KEY_PATTERN, METRICS, split_metric

SIZE_UNITS = ("KB", "MB", "GB", "TB")


def slug(text: str, taken: set[str]) -> str:
    """A manifest key from a solution's name: lower-case words joined by dashes, unique in the draft."""
    base = "-".join(re.findall(r"[a-z0-9]+", text.casefold()))[:56].strip("-") or "solution"
    key, n = base, 2
    while key in taken or not KEY_PATTERN.fullmatch(key):
        key, n = f"{base[:50]}-{n}", n + 1
    taken.add(key)
    return key


def system_name(solution: DraftSolution) -> str:
    """What a system is called: its vendor and model as printed, else the document's name for it."""
    vendor, model = _first(solution.facts, "vendor"), _first(solution.facts, "model")
    if model is None:
        return solution.name
    if vendor is None or vendor.value.casefold() in model.value.casefold():
        return model.value
    return f"{vendor.value} {model.value}"


def system_keys(solutions: list[DraftSolution], taken: set[str]) -> list[str]:
    """One key per system from its vendor and model (never a hash), unique among `taken` (updated)."""
    return [slug(system_name(s)[:56], taken) for s in solutions]


_RUN_LABEL = re.compile(r"^run\s*\d+$", re.IGNORECASE)


def trials(solution: DraftSolution, types: list[str]) -> dict[int, str]:
    """Run index -> trial key: runs labelled "Run N" of one test type are repeats of one configuration."""
    groups: dict[str, list[int]] = {}
    for index, (run, kind) in enumerate(zip(solution.runs, types)):
        if _RUN_LABEL.match(run.label):
            groups.setdefault(kind, []).append(index)
    return {index: f"{kind.lower()}-runs" for kind, members in groups.items() if len(members) > 1 for index in members}


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a TOML basic string is a JSON string


def _first(facts: list[Fact], name: str) -> Fact | None:
    return next((f for f in facts if f.fact == name), None)


def _line(fact_or_claim) -> str:
    return f"  # source: line {fact_or_claim.line}" if fact_or_claim.line else ""


def _solution(out: list[str], key: str, solution: DraftSolution) -> None:
    facts = solution.facts
    out += ["[solution]", f"key = {_q(key)}"]
    for name in ("vendor", "model"):
        fact = _first(facts, name)
        if fact is not None:
            out.append(f"{name} = {_q(fact.value)}{_line(fact)}")
    if _first(facts, "model") is None:
        out.append(f"model = {_q(solution.name)}  # source: the document's column heading")
    out.append(f"label = {_q(system_name(solution) if _first(facts, 'model') else solution.name)}")
    for name, field_name in (("connectivity", "connectivity"), ("raid_level", "raid_level")):
        fact = _first(facts, name)
        if fact is not None:
            out.append(f"{field_name} = {_q(fact.value)}{_line(fact)}")
    usable = _first(facts, "usable_capacity")
    if usable is not None and usable.unit in SIZE_UNITS:
        out += ["", "[capacity]", f"usable = {usable.value.replace(',', '')}{_line(usable)}", f"unit = {_q(usable.unit)}",
                'base = "binary"  # confirm: the seeds print GB of 2^30 bytes', f"source = {_q(f'line {usable.line}')}"]
    groups, media = disk_counts(facts), _first(facts, "media")
    if groups and media is not None:
        for group in groups:
            out += ["", "[[disks]]", f"count = {group.count}{_line(group.fact)}",
                    f"media = {_q(media.value)}{_line(media)}"]
            size = _first(facts, "disk_capacity")
            if size is not None and size.unit in SIZE_UNITS:
                out += [f"capacity = {size.value.replace(',', '')}{_line(size)}", f"capacity_unit = {_q(size.unit)}",
                        'capacity_base = "decimal"  # disk vendors\' GB are 10^9 bytes']
            rpm, interface = _first(facts, "disk_rpm"), _first(facts, "disk_interface")
            if rpm is not None and rpm.number and media.value == "HDD":
                out.append(f"rpm = {int(rpm.number)}{_line(rpm)}")
            if interface is not None and interface.value:
                out.append(f"interface = {_q(interface.value)}{_line(interface)}")
            out.append(f"role = {_q(group.role)}" + ("  # confirm: spares and system disks are not told apart"
                                                       if group.role != "active" else ""))
    # else: `disks = []` at the top of the draft (render): the document gives no disk count and media


def _price_power(out: list[str], solution: DraftSolution) -> None:
    price = next((c for c, _, _ in solution.claims if c.metric == "list_price"), None)
    if price is not None:
        out += ["", "[price]", f"amount = {_q(price.value.replace(',', ''))}{_line(price)}", 'currency = "USD"',
                'type = "list"  # confirm: list, reseller, street or quote', f"source = {_q(f'line {price.line}')}"]
    idle = next((c for c, _, _ in solution.claims if c.metric == "idle_power" and c.run is None), None)
    active = next((c for c, _, _ in solution.claims if c.metric == "active_power" and c.run is None), None)
    if idle is not None or active is not None:
        out += ["", "[power]"]
        if idle is not None:
            out.append(f"idle_w = {idle.value.replace(',', '')}{_line(idle)}")
        if active is not None:
            out.append(f"active_w = {active.value.replace(',', '')}{_line(active)}")
        out.append('boundary = "enclosure_and_drives"  # confirm from the document')


def _run(out: list[str], run: DraftRun, document: str, trial: str | None) -> None:
    out += ["", "[[runs]]", f"label = {_q(run.label)}"]
    if trial:
        out.append(f"trial = {_q(trial)}")
    if run.scenario:
        out.append(f"scenario = {_q(run.scenario)}")
    if run.hosts:
        out += [f"document = {_q(document)}",
                f"hosts = [{', '.join(str(i) for i in run.hosts)}]  # one test on several hosts; source: line {run.line}"]
    elif run.report_index is not None:
        out += [f"document = {_q(document)}",
                f"match = {{ report_index = {run.report_index} }}  # source: line {run.line}"]
        if run.figure_table is not None:
            out.append(f"figures = {_table_ref(run.figure_table, run.figure_column, run.figure_rows, document)}"
                       f"  # source: line {run.figure_table.line}")
    elif run.table is not None:
        out.append(f"table = {_table_ref(run.table, run.column, run.rows, document)}  # source: line {run.line}")
    out.append(f"description = {_q(run.description)}")


def _table_ref(table, column: str | None, rows: dict[str, list[str]], document: str) -> str:
    caption = re.match(r"^((?:figure|table)\s+\d+[a-z]?)\b", table.title, re.IGNORECASE)
    fields = ", ".join(f"{metric} = {_labels(labels)}" for metric, labels in sorted(rows.items()))
    return (f"{{ document = {_q(document)}, title = {_q(caption[1] if caption else table.title)}, "
            f"column = {_q(column or '')}, {fields} }}")


def _labels(labels: list[str] | str) -> str:
    if isinstance(labels, str) or len(labels) == 1:
        return _q(labels if isinstance(labels, str) else labels[0])
    return "[" + ", ".join(_q(label) for label in labels) + "]"


def _claim(out: list[str], claim: DraftClaim, where: str, versus: str | None, document: str) -> None:
    kind, base = split_metric(claim.metric)
    metric = METRICS.get(base)
    if metric is None:
        return
    out += ["", "[[claims]]", f"metric = {_q(claim.metric)}", f"value = {_q(claim.value)}{_line(claim)}"]
    if claim.unit and (metric.units or kind):
        out.append(f"unit = {_q(claim.unit)}")
    if kind:
        out += ['subject = "comparison"', f"versus = {_q(versus or '')}"]
    elif claim.run:
        out += ['subject = "run"', f"run = {_q(claim.run)}"]
    else:
        out.append('subject = "solution"')
    if metric.per_disk:
        out.append('disk_basis = "all"  # confirm: all disks or active ones')
    if claim.qualifier:
        out.append(f"qualifier = {_q(claim.qualifier)}")
    out += [f"document = {_q(document)}", f"location = {_q(where)}", f"line = {claim.line}",
            f"quote = {_q(claim.quote[:400])}"]


def render(solutions: list[DraftSolution], document: PurePosixPath | str, source_name: str,
           keys: list[str] | None = None, report_types: list[str] | None = None) -> list[tuple[str, str]]:
    """(key, TOML text) for each drafted solution; `document` is the document's path from the manifest,
    `keys` the systems' keys (from their vendor and model when not given), `report_types` each report's type."""
    keys = keys if keys is not None else system_keys(solutions, set())
    drafts = []
    for key, solution in zip(keys, solutions):
        out = [f"# DRAFT of a solution manifest, read from {source_name} by `esrpdb draft`.",
               "# Every value cites the line it is printed on; confirm each before relying on it.", "", "schema = 1"]
        if not (disk_counts(solution.facts) and _first(solution.facts, "media")):
            out.append("disks = []  # the document prints no disk count and media for this system: add [[disks]]")
        out.append("")
        _solution(out, key, solution)
        _price_power(out, solution)
        types = [report_types[r.hosts[0] if r.hosts else r.report_index]
                 if report_types and (r.hosts or r.report_index is not None) else "Performance" for r in solution.runs]
        trial_of = trials(solution, types)
        for trial in sorted(set(trial_of.values())):
            out += ["", "[[trials]]", f"key = {_q(trial)}",
                    f"description = {_q('repeated runs of one configuration: the median run stands for them')}"]
        for index, run in enumerate(solution.runs):
            _run(out, run, str(document), trial_of.get(index))
        seen: set[tuple[str, str, int, str | None]] = set()
        for claim, where, versus in solution.claims:
            if claim.comparison and versus is None:
                continue
            if (claim.metric, claim.value, claim.line, claim.run) in seen:
                continue
            seen.add((claim.metric, claim.value, claim.line, claim.run))
            _claim(out, claim, where, keys[versus] if versus is not None else None, str(document))
        drafts.append((key, "\n".join(out) + "\n"))
    return drafts


def draft_manifests(name: str, data: bytes, document: PurePosixPath | str) -> list[tuple[str, str]]:
    """A document's bytes -> (key, TOML) per solution it tests; ParseError for a document with no report
    and no table. `document` is the document's path as the manifests will name it."""
    from .. import document as document_format

    parsed = document_format.parse(name, data)
    return render(draft_solutions(parsed, parsed.lines), document, PurePosixPath(name).name,
                  report_types=[r.report_type for r in parsed.reports])
