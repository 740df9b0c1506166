"""Is an answer key right? Every sum, per-disk figure and planted inconsistency recomputed from the key's own runs.

A bench document's key is what the reader is scored against, so a wrong key scores the reader
wrong. This checker trusts nothing a key states twice: a figure must be the sum (or ratio) of the
runs it names, a planted inconsistency must really be inconsistent (its printed value off its right
value by more than the printed digits allow) and its right value must come out of the key's own
runs, and every line a key cites must print what the key says is there. Standard library only, so
an author who never saw the reader can run it: `python tests/key_checker.py FOLDER_OR_KEY...`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

TOLERANCE = 0.005  # 0.5 % relative, as the scoring (tests/synthetic_keys.py)
TEST_TYPES = {"Performance", "Stress", "DatabaseBackup", "SoftRecovery"}
FAMILIES = {"esrp", "vendor-ra", "third-party"}
FIGURE_METRICS = {"achieved_iops", "total_iops", "achieved_iops_per_disk", "total_iops_per_disk",
                  "iops_per_dollar", "mb_per_dollar", "iops_per_watt"}
_NUMBER = re.compile(r"\d[\d,  .]*")


def close(a: float | None, b: float | None, tolerance: float = TOLERANCE) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-9) + 1e-9


def printed_number(text: Any) -> tuple[float, int] | None:
    """'1,838.643' -> (1838.643, 3); '1 873,2' with a comma decimal -> (1873.2, 1); None when no digit."""
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return float(text), 0
    match = re.search(r"\d[\d,  .']*", str(text))
    if not match:
        return None
    token = match.group(0).rstrip(".,  ").replace("\u00a0", " ").replace("\u202f", " ").replace("'", "")
    token = token.replace(" ", "")
    if "," in token and "." in token:
        token = token.replace(",", "") if token.rfind(".") > token.rfind(",") else token.replace(".", "").replace(",", ".")
    elif "," in token:
        head, _, tail = token.rpartition(",")
        token = token.replace(",", "") if len(tail) == 3 and head else token.replace(",", ".")
    try:
        value = float(token)
    except ValueError:
        return None
    return value, len(token.partition(".")[2])


def off_by_more_than_rounding(printed: Any, correct: float) -> bool:
    """True when `printed` is not `correct` to its own printed digits (nor to 0.5 %)."""
    number = printed_number(printed)
    if number is None:
        return True
    value, decimals = number
    half_unit = 0.5 * 10.0 ** -decimals
    return abs(value - correct) > half_unit + 1e-9 and not close(value, correct)


class Check:
    def __init__(self, key: dict[str, Any], lines: list[str] | None):
        self.key, self.lines, self.problems = key, lines, []
        # keys written before run ids: R1, R2, ... in key order
        self.runs = {r.get("id") or f"R{n + 1}": r for n, r in enumerate(key.get("runs", []))}
        self.systems = {s.get("id"): s for s in key.get("systems", [])}

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    # --- what a key cites ------------------------------------------------------------------

    def line_text(self, line: Any) -> str | None:
        if self.lines is None or not isinstance(line, int) or not 1 <= line <= len(self.lines):
            return None
        return self.lines[line - 1]

    def cited_lines(self, where: str, lines: Any) -> None:
        if self.lines is None:
            return
        for line in lines if isinstance(lines, list) else [lines]:
            if self.line_text(line) is None:
                self.problem(where, f"line {line} is not a line of the document ({len(self.lines)} lines)")

    def printed_on(self, where: str, printed: Any, lines: list[int]) -> None:
        """The printed text (or its number in any grouping) appears on one of the cited lines."""
        if self.lines is None or printed in (None, ""):
            return
        texts = [self.line_text(line) or "" for line in lines]
        wanted = str(printed)
        if any(wanted in t for t in texts):
            return
        number = printed_number(printed)
        if number is not None and any(close(number[0], n[0], 1e-9) for t in texts
                                      for n in map(printed_number, _NUMBER.findall(t)) if n):
            return
        self.problem(where, f"{printed!r} is printed on none of lines {lines}")

    # --- the parts ------------------------------------------------------------------------

    def header(self) -> None:
        for name in ("document", "family", "systems", "runs", "figures", "claims", "inconsistencies"):
            if name not in self.key:
                self.problem("key", f"no {name!r}")
        if self.key.get("family") not in FAMILIES:
            self.problem("key", f"family {self.key.get('family')!r} is not one of {sorted(FAMILIES)}")

    def system_facts(self) -> None:
        for sid, system in self.systems.items():
            where = f"system {sid}"
            if not system.get("names"):
                self.problem(where, "no names")
            total, active, spares = system.get("disks_total"), system.get("disks_active"), system.get("spares")
            if None not in (total, active, spares) and total != active + spares:
                self.problem(where, f"disks_total {total} is not disks_active {active} + spares {spares}")
            if None not in (total, active) and active > total:
                self.problem(where, f"disks_active {active} > disks_total {total}")
            ipm = system.get("iops_per_mailbox")
            if ipm is not None and not 0 < ipm < 5:
                self.problem(where, f"iops_per_mailbox {ipm} is not an IOPS per mailbox (messages per day?)")

    def run_sums(self) -> None:
        for rid, run in self.runs.items():
            where = f"run {rid}"
            if run.get("system") not in self.systems:
                self.problem(where, f"system {run.get('system')!r} is not a key system")
            if run.get("test_type") not in TEST_TYPES:
                self.problem(where, f"test_type {run.get('test_type')!r}")
            self.cited_lines(where, run.get("line"))
            achieved, reads, writes = run.get("achieved_iops"), run.get("db_reads_per_s"), run.get("db_writes_per_s")
            if None not in (achieved, reads, writes) and not close(achieved, reads + writes):
                self.problem(where, f"achieved {achieved} is not reads {reads} + writes {writes}")
            if run.get("from_table_only") and None not in (achieved, run.get("log_iops"), run.get("total_iops")):
                if not close(run["total_iops"], achieved + run["log_iops"]) and not self._planted_total(rid):
                    self.problem(where, f"total {run['total_iops']} is not achieved + log {achieved + run['log_iops']:.3f}")
            read = run.get("db_read_latency_ms")
            if read is not None and read > 20 and run.get("verdict_by_rule") == "Pass":
                self.problem(where, f"average read latency {read} ms > 20 but verdict_by_rule Pass")
            if run.get("verdict") != run.get("verdict_by_rule", run.get("verdict")) and run.get("verdict") is not None:
                if not any(i.get("run") == rid or rid in (i.get("from_runs") or []) or run.get("line") in i.get("lines", [])
                           for i in self.key.get("inconsistencies", [])
                           if i.get("kind") in ("pass_despite_threshold", "verdict_in_prose_false")):
                    self.problem(where, f"prints {run['verdict']} but its numbers give {run.get('verdict_by_rule')}, "
                                        "and no inconsistency plants it")

    def _planted_total(self, rid: str) -> bool:
        return any(rid in (i.get("from_runs") or []) or i.get("run") == rid
                   for i in self.key.get("inconsistencies", []) if i.get("kind") == "aggregate_not_sum")

    def _sum(self, run_ids: list[str], field: str) -> float | None:
        values = []
        for rid in run_ids:
            run = self.runs.get(rid)
            if run is None:
                return None
            value = run.get(field)
            if value is None and field == "total_iops":
                achieved, log = run.get("achieved_iops"), run.get("log_writes_per_s", run.get("log_iops"))
                value = None if None in (achieved, log) else achieved + log
            if value is None:
                return None
            values.append(value)
        return sum(values)

    def figures(self) -> None:
        by_system: dict[str, dict[str, float]] = {}
        for n, figure in enumerate(self.key.get("figures", [])):
            sid, metric, value = figure.get("system"), figure.get("metric"), figure.get("value")
            where = f"figure {n + 1} ({sid} {metric}{':' + figure['disk_basis'] if figure.get('disk_basis') else ''})"
            if sid not in self.systems:
                self.problem(where, f"system {sid!r} is not a key system")
                continue
            if metric not in FIGURE_METRICS:
                self.problem(where, f"metric {metric!r} is not one of {sorted(FIGURE_METRICS)}")
                continue
            runs = figure.get("from_runs")
            if not runs:
                runs = self._infer_runs(sid, figure)
            if not runs:
                self.problem(where, "no from_runs, and no group of the system's runs gives it")
                continue
            bad = [r for r in runs if r not in self.runs or self.runs[r].get("system") != sid]
            if bad:
                self.problem(where, f"from_runs {bad} are not runs of {sid}")
                continue
            system = self.systems[sid]
            achieved, total = self._sum(runs, "achieved_iops"), self._sum(runs, "total_iops")
            expected = self._figure(metric, figure.get("disk_basis"), achieved, total, system)
            if expected is None:
                self.problem(where, "cannot be recomputed from the key (a run, disk count, price or power missing)")
            elif not close(value, expected):
                self.problem(where, f"value {value} but its runs and system give {expected:.6g}")
            by_system.setdefault(sid, {})[metric + (figure.get("disk_basis") or "")] = value
        for sid, system in self.systems.items():
            have = by_system.get(sid, {})
            for needed in ("achieved_iops", "total_iops"):
                if needed not in have:
                    self.problem(f"system {sid}", f"no {needed} figure")
            if system.get("price_usd") and "iops_per_dollar" not in have:
                self.problem(f"system {sid}", "a price but no iops_per_dollar figure")
            if system.get("power_w") and "iops_per_watt" not in have:
                self.problem(f"system {sid}", "an active power but no iops_per_watt figure")

    def _infer_runs(self, sid: str, figure: dict[str, Any]) -> list[str]:
        """For keys written before from_runs: the group of the system's runs (test type, label) giving the figure."""
        groups: dict[tuple[Any, Any], list[str]] = {}
        for rid, run in self.runs.items():
            if run.get("system") == sid and run.get("achieved_iops") is not None:
                groups.setdefault((run.get("test_type"), run.get("label")), []).append(rid)
                groups.setdefault((run.get("test_type"), None if run.get("from_table_only") else "reports"), []).append(rid)
        system = self.systems[sid]
        candidates = list(groups.values()) + [[rid] for ids in groups.values() for rid in ids]
        for ids in candidates:
            got = self._figure(figure["metric"], figure.get("disk_basis"), self._sum(ids, "achieved_iops"),
                               self._sum(ids, "total_iops"), system)
            if close(got, figure.get("value")):
                return ids
        return []

    @staticmethod
    def _figure(metric: str, basis: str | None, achieved: float | None, total: float | None,
                system: dict[str, Any]) -> float | None:
        disks = system.get("disks_total") if basis == "all" else system.get("disks_active")
        price, power, usable = system.get("price_usd"), system.get("power_w"), system.get("usable_capacity_gb")
        try:
            return {
                "achieved_iops": lambda: achieved,
                "total_iops": lambda: total,
                "achieved_iops_per_disk": lambda: achieved / disks,
                "total_iops_per_disk": lambda: total / disks,
                "iops_per_dollar": lambda: total / price,
                "mb_per_dollar": lambda: usable * 1024 / price,
                "iops_per_watt": lambda: total / power,
            }[metric]()
        except (TypeError, ZeroDivisionError):
            return None

    def claims(self) -> None:
        for n, claim in enumerate(self.key.get("claims", [])):
            where = f"claim {n + 1} (line {claim.get('line')})"
            self.cited_lines(where, claim.get("line"))
            if isinstance(claim.get("line"), int):  # the text may describe the claim; its figure must be printed there
                self.printed_on(where, claim.get("printed"), [claim["line"]])
            status, true_value, printed = claim.get("status"), claim.get("true_value"), claim.get("printed")
            if status not in ("true", "rounding", "false"):
                self.problem(where, f"status {status!r}")
            if true_value is None or printed_number(printed) is None or not isinstance(true_value, (int, float)):
                continue
            wrong = off_by_more_than_rounding(printed, float(true_value))
            if status == "false" and not wrong:
                self.problem(where, f"marked false, but {printed} is {true_value:.6g} to its digits")
            if status == "true" and wrong:
                self.problem(where, f"marked true, but {printed} is not {true_value:.6g} to its digits")
            if status == "false":
                lines = {line for i in self.key.get("inconsistencies", []) for line in i.get("lines", [])}
                if claim.get("line") not in lines:
                    self.problem(where, "marked false, but no planted inconsistency cites its line")

    def inconsistencies(self) -> None:
        kinds = {
            "aggregate_not_sum": self._aggregate, "per_disk_wrong_basis": self._per_disk,
            "summary_vs_report": self._field_of_run, "mislabelled_metric": self._mislabelled,
            "pass_despite_threshold": self._pass, "average_above_max": self._above_max,
            "percent_claim_false": self._percent, "named_differently": self._named,
            "quantity_stated_twice": self._twice, "verdict_in_prose_false": self._prose_verdict,
            "requirement_not_met_claimed_met": self._requirement,
        }
        seen_ids = set()
        for planted in self.key.get("inconsistencies", []):
            pid = planted.get("id")
            where = f"inconsistency {pid} ({planted.get('kind')})"
            if pid in seen_ids:
                self.problem(where, "id used twice")
            seen_ids.add(pid)
            lines = planted.get("lines") or []
            if not lines:
                self.problem(where, "no lines")
            self.cited_lines(where, lines)
            check = kinds.get(planted.get("kind"))
            if check is None:
                self.problem(where, f"kind {planted.get('kind')!r} is not one of {sorted(kinds)}")
                continue
            check(where, planted, lines)

    def _numeric_wrong(self, where: str, planted: dict[str, Any], correct: float | None) -> None:
        if correct is None:
            self.problem(where, "its right value cannot be recomputed from the key")
            return
        if planted.get("correct") is not None and not close(float(planted["correct"]), correct):
            self.problem(where, f"correct {planted['correct']} but the key's data give {correct:.6g}")
        if not off_by_more_than_rounding(planted.get("printed"), correct):
            self.problem(where, f"printed {planted.get('printed')!r} is {correct:.6g} to its digits: nothing is wrong")
        self.printed_on(where, planted.get("printed"), planted.get("lines") or [])

    def _groups(self) -> list[list[str]]:
        """The key's runs by (system, test type, label): the sets a total or a per-disk figure can be over."""
        groups: dict[tuple[Any, Any, Any], list[str]] = {}
        for rid, run in self.runs.items():
            groups.setdefault((run.get("system"), run.get("test_type"), run.get("label")), []).append(rid)
        return list(groups.values()) + [[rid] for rid in self.runs]

    def _inferred(self, planted: dict[str, Any], values: list[float | None]) -> float | None:
        """For keys written before the structured fields: the stated right value, when the key's data give it."""
        correct = planted.get("correct")
        if isinstance(correct, (int, float)) and any(close(float(correct), v) for v in values if v is not None):
            return float(correct)
        return None

    def _aggregate(self, where, planted, lines):
        runs, field = planted.get("from_runs"), planted.get("field", "achieved_iops")
        if runs:
            self._numeric_wrong(where, planted, self._sum(runs, field))
            return
        sums = [self._sum(ids, f) for ids in self._groups() for f in ("achieved_iops", "total_iops")]
        sums += [(r.get("achieved_iops") or 0) + (r.get("log_iops") or r.get("log_writes_per_s") or 0) for r in self.runs.values()]
        self._numeric_wrong(where, planted, self._inferred(planted, sums))

    def _per_disk(self, where, planted, lines):
        runs, field, disks = planted.get("from_runs"), planted.get("field", "achieved_iops"), planted.get("disks")
        numerator = self._sum(runs, field) if runs else None
        correct = None if numerator is None or not disks else numerator / disks
        if not runs:  # an older key: the stated value must be one of the systems' figures over a disk count
            counts = [s.get(c) for s in self.systems.values() for c in ("disks_total", "disks_active") if s.get(c)]
            sums = [self._sum(ids, f) for ids in self._groups() for f in ("achieved_iops", "total_iops")]
            correct = self._inferred(planted, [v / n for v in sums if v is not None for n in counts])
        self._numeric_wrong(where, planted, correct)
        wrong_disks = planted.get("wrong_disks")
        if numerator is not None and wrong_disks and off_by_more_than_rounding(planted.get("printed"), numerator / wrong_disks):
            self.problem(where, f"printed {planted.get('printed')} is not {numerator:.6g} / {wrong_disks} either")

    def _run_values(self) -> list[float | None]:
        return [v for r in self.runs.values() for v in r.values() if isinstance(v, (int, float))]

    def _field_of_run(self, where, planted, lines):
        run = self.runs.get(planted.get("run"))
        if run is None and planted.get("run") is None:
            self._numeric_wrong(where, planted, self._inferred(planted, self._run_values()))
            return
        self._numeric_wrong(where, planted, None if run is None else run.get(planted.get("field")))

    def _mislabelled(self, where, planted, lines):
        run = self.runs.get(planted.get("run"))
        if run is None:
            self._numeric_wrong(where, planted, self._inferred(planted, self._run_values())
                                if planted.get("run") is None else None)
            return
        self._numeric_wrong(where, planted, run.get(planted.get("field")))
        other = run.get(planted.get("printed_field"))
        if other is None or off_by_more_than_rounding(planted.get("printed"), other):
            self.problem(where, f"printed {planted.get('printed')} is not the run's {planted.get('printed_field')} ({other})")

    def _pass(self, where, planted, lines):
        run = self.runs.get(planted.get("run")) if planted.get("run") else next(
            (r for r in self.runs.values() if r.get("line") in lines), None)
        if run is None:
            self.problem(where, "names no run of the key")
        elif (run.get("verdict"), run.get("verdict_by_rule")) != ("Pass", "Fail"):
            self.problem(where, f"run {run.get('id') or run.get('line')} prints {run.get('verdict')} and its numbers give {run.get('verdict_by_rule')}")
        elif run.get("line") not in lines and not any("Pass" in (self.line_text(n) or "") for n in lines):
            self.problem(where, f"neither the report's line {run.get('line')} nor its printed Pass is among its lines")

    def _above_max(self, where, planted, lines):
        average, maximum = printed_number(planted.get("printed")), printed_number(planted.get("maximum"))
        if maximum is None and "maximum" not in planted:  # an older key: its computed text names the maximum
            numbers = [printed_number(n) for n in _NUMBER.findall(str(planted.get("computed") or ""))]
            maximum = max((n for n in numbers if n), default=None)
        if average is None or maximum is None:
            self.problem(where, "needs the printed average and its printed maximum")
        elif average[0] <= maximum[0]:
            self.problem(where, f"average {average[0]} is not above its maximum {maximum[0]}")
        self.printed_on(where, planted.get("printed"), lines)
        if planted.get("maximum") is not None:
            self.printed_on(where, planted.get("maximum"), lines)

    def _percent(self, where, planted, lines):
        a, b = planted.get("value_a"), planted.get("value_b")
        if a is None or not b:  # an older key: the formula in its computed text
            match = re.search(r"1\s*-\s*([\d,.]+)\s*/\s*([\d,.]+)|([\d,.]+)\s*/\s*([\d,.]+)\s*-\s*1", str(planted.get("computed")))
            if not match:
                self._numeric_wrong(where, planted, None)
                return
            x, y = [float(g.replace(",", "")) for g in match.groups() if g]
            a, b = (x, y) if match.group(3) else (x, y)
        if not b:
            return
        correct = (a / b - 1) * 100
        if planted.get("correct") is not None and not close(abs(float(planted["correct"])), abs(correct)):
            self.problem(where, f"correct {planted['correct']} but ({a} / {b} - 1) x 100 = {correct:.4g}")
        if not off_by_more_than_rounding(planted.get("printed"), abs(correct)):
            self.problem(where, f"printed {planted.get('printed')}% is {abs(correct):.4g}% to its digits: nothing is wrong")
        self.printed_on(where, planted.get("printed"), lines)

    def _named(self, where, planted, lines):
        names = planted.get("names") or []
        if len(set(names)) < 2:
            self.problem(where, "needs two different names")
        for name in names:
            self.printed_on(where, name, lines)

    def _twice(self, where, planted, lines):
        values = planted.get("values") or []
        numbers = [printed_number(v) for v in values]
        if len(values) < 2:
            self.problem(where, "needs the two printed values")
        elif all(numbers) and not any(off_by_more_than_rounding(values[0], n[0]) for n in numbers[1:]) \
                and len({str(v) for v in values}) < 2:
            self.problem(where, f"values {values} agree")
        for value in values:
            self.printed_on(where, value, lines)

    def _prose_verdict(self, where, planted, lines):
        run = self.runs.get(planted.get("run")) if planted.get("run") else next(
            (r for r in self.runs.values() if r.get("line") in lines and "Fail" in (r.get("verdict"), r.get("verdict_by_rule"))), None)
        if run is None:
            self.problem(where, "names no failing run of the key")
        elif "Fail" not in (run.get("verdict"), run.get("verdict_by_rule")):
            self.problem(where, f"run {planted['run']} neither prints nor earns Fail")

    def _requirement(self, where, planted, lines):
        run, requirement = self.runs.get(planted.get("run")), planted.get("requirement")
        value = None if run is None else run.get(planted.get("field"))
        if value is None or requirement is None:
            self.problem(where, "needs the run, its field and the requirement")
            return
        lower_is_better = "latency" in str(planted.get("field"))
        met = value <= requirement if lower_is_better else value >= requirement
        if met:
            self.problem(where, f"{planted.get('field')} {value} meets the requirement {requirement}")


def check_key(key: dict[str, Any], document_text: str | None = None) -> list[str]:
    """Every problem found in one key (an empty list: the key is right as far as its own data tell)."""
    check = Check(key, None if document_text is None else document_text.split("\n"))
    check.header()
    check.system_facts()
    check.run_sums()
    check.figures()
    check.claims()
    check.inconsistencies()
    return check.problems


def check_file(path: Path) -> list[str]:
    key = json.loads(path.read_text(encoding="utf-8"))
    document = path.with_name(key.get("document") or path.name.replace(".key.json", ".txt"))
    text = document.read_text(encoding="utf-8") if document.exists() else None
    problems = check_key(key, text)
    if text is None:
        problems.insert(0, f"document {document.name} not found beside its key: lines not checked")
    return problems


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or [Path(".")]
    keys = sorted(k for p in paths for k in (p.glob("*.key.json") if p.is_dir() else [p]))
    if not keys:
        print("no *.key.json found", file=sys.stderr)
        return 2
    failed = 0
    for key in keys:
        problems = check_file(key)
        failed += bool(problems)
        print(f"{key.name}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        for problem in problems:
            print(f"  - {problem}")
    print(f"{len(keys) - failed}/{len(keys)} keys right")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
