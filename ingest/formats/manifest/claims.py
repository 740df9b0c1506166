"""The `[[claims]]` half of manifest validation: each published figure, its unit, subject and sides.

Split from the manifest checker because claims have rules of their own (metric forms, units,
comparison sides) that the rest of the manifest never meets.
"""

from __future__ import annotations

from typing import Any

from ....schema.vocabulary import CLAIM_SUBJECTS, COMPARISONS, DISK_BASES, METRICS, QUALIFIERS, split_metric
from .records import KEY_PATTERN, PRINTED_NUMBER, ClaimSpec, unit_allowed
from .toml_checker import TomlChecker, kind_of, show_value

CLAIM_KEYS = ("metric", "value", "unit", "subject", "run", "host", "versus", "versus_run", "versus_metric",
              "versus_value", "disk_basis", "qualifier", "document", "location", "line", "quote")


class ClaimChecker(TomlChecker):
    """Reads `[[claims]]` into `ClaimSpec`s; the manifest checker builds on it."""

    def claims(self, doc: dict[str, Any], own_key: str | None, run_labels: set[str]) -> list[ClaimSpec]:
        claims = []
        for path, table in self.array_of_tables(doc, "claims"):
            self.known_keys(table, path, CLAIM_KEYS)
            claim = self.claim(table, path, own_key, run_labels)
            if claim is not None:
                claims.append(claim)
        return claims

    def metric(self, table: dict[str, Any], key: str, path: str, *, comparison_allowed: bool) -> str | None:
        name = self.string(table, key, path, required=key == "metric")
        if name is None:
            return None
        kind, base = split_metric(name)
        if kind is not None and (not comparison_allowed or kind not in COMPARISONS):
            forms = ", ".join(f"{c}:<metric>" for c in COMPARISONS) if comparison_allowed else "a plain metric"
            self.problem(f"{path}.{key}", f"{show_value(name)}: the prefix must be {forms}")
            return None
        if base not in METRICS:
            self.problem(f"{path}.{key}", f"{show_value(base)} is not a known metric; known: {', '.join(METRICS)}")
            return None
        if kind is not None and not METRICS[base].numeric:
            self.problem(f"{path}.{key}", f"{show_value(name)}: {base} is not a number and cannot be compared")
            return None
        return name

    def claim(self, table: dict[str, Any], path: str, own_key: str | None, run_labels: set[str]) -> ClaimSpec | None:
        metric = self.metric(table, "metric", path, comparison_allowed=True)
        subject = self.string(table, "subject", path, required=True, choices=CLAIM_SUBJECTS)
        value = table.get("value")
        if value is None:
            self.problem(f"{path}.value", "required")
        elif not isinstance(value, str):
            self.problem(f"{path}.value", f"give the value as a string exactly as printed (e.g. \"12.5\"), "
                         f"got {kind_of(value)} {show_value(value)}")
            value = None
        fields: dict[str, Any] = {key: self.string(table, key, path)
                                  for key in ("unit", "run", "host", "versus", "versus_run", "versus_value", "quote")}
        fields["versus_metric"] = self.metric(table, "versus_metric", path, comparison_allowed=False)
        fields["disk_basis"] = self.string(table, "disk_basis", path, choices=DISK_BASES)
        fields["qualifier"] = self.string(table, "qualifier", path, choices=QUALIFIERS)
        fields["line"] = self.integer(table, "line", path, minimum=1)
        document = self.path(table, "document", path, required=True)
        location = self.string(table, "location", path, required=True)
        if metric is not None:
            self.claim_metric(table, path, metric, subject, value, fields, run_labels)
        self.claim_subject(table, path, subject, fields, own_key, run_labels)
        if None in (metric, subject, value, document, location):
            return None
        return ClaimSpec(metric=metric, value=value, subject=subject, document=document, location=location, **fields)

    def claim_metric(self, table: dict[str, Any], path: str, metric: str, subject: str | None, value: str | None,
                     fields: dict[str, Any], run_labels: set[str]) -> None:
        """The value, unit and disk basis a metric asks for, and the subject its form implies."""
        kind, base = split_metric(metric)
        info = METRICS[base]
        if value is not None and info.numeric and not PRINTED_NUMBER.fullmatch(value):
            self.problem(f"{path}.value", f"{show_value(value)} is not a number as printed (digits, optional thousands "
                         "commas and decimal point; the unit goes in unit)")
        elif value is not None and not info.numeric and not info.words and value not in run_labels:
            known = ", ".join(sorted(run_labels)) or "none"
            self.problem(f"{path}.value", f"{show_value(value)} is not a [[runs]] label; known: {known}")
        units, unit = ("%",) if kind else info.units, fields["unit"]
        if units and "unit" not in table:
            self.problem(f"{path}.unit", f"required for {metric}: {', '.join(units)}")
        elif not units and "unit" in table:
            self.problem(f"{path}.unit", f"{metric} takes no unit; leave it out")
        elif unit is not None and units and not unit_allowed(unit, units):
            shown = ", ".join(u.replace("{currency}", "<ISO 4217 code>") for u in units)
            self.problem(f"{path}.unit", f"{show_value(unit)} is not a unit of {metric}; allowed: {shown}")
        other = fields["versus_metric"]
        per_disk = info.per_disk or other is not None and METRICS[other].per_disk
        if per_disk and "disk_basis" not in table:
            self.problem(f"{path}.disk_basis", f"required for a per-disk figure ({base}): all or active")
        elif not per_disk and "disk_basis" in table:
            self.problem(f"{path}.disk_basis", f"only for per-disk metrics, not {base}")
        if subject == "comparison" and kind is None:
            self.problem(f"{path}.metric", "a comparison claim needs percent_more:<metric> or percent_less:<metric>")
        elif subject in ("solution", "run") and kind is not None:
            self.problem(f"{path}.subject", f"{metric} compares two sides; use subject = \"comparison\" with versus")

    def claim_subject(self, table: dict[str, Any], path: str, subject: str | None, fields: dict[str, Any],
                      own_key: str | None, run_labels: set[str]) -> None:
        """`run` with subject run, `versus` (and its narrowing keys) with subject comparison only."""
        known = ", ".join(sorted(run_labels)) or "none"
        run, versus, versus_run = fields["run"], fields["versus"], fields["versus_run"]
        if subject == "run" and "run" not in table:
            self.problem(f"{path}.run", "required when subject = \"run\"")
        elif subject == "solution" and "run" in table:
            self.problem(f"{path}.run", "only with subject = \"run\" or \"comparison\"")
        if run is not None and run not in run_labels:
            self.problem(f"{path}.run", f"{show_value(run)} is not a [[runs]] label of this manifest; known: {known}")
        if "host" in table and run is None:
            self.problem(f"{path}.host", "only with run: the machine of one host report of that run's test")
        if subject != "comparison":
            for key in ("versus", "versus_run", "versus_metric", "versus_value"):
                if key in table:
                    self.problem(f"{path}.{key}", "only with subject = \"comparison\"")
            return
        if "versus_value" in table:
            self.printed_other_side(table, path, fields["versus_value"])
            return
        if "versus" not in table:
            self.problem(f"{path}.versus", "required when subject = \"comparison\" (or versus_value: the other "
                         "design's figure as printed)")
        elif versus is not None and not KEY_PATTERN.fullmatch(versus):
            self.problem(f"{path}.versus", f"{show_value(versus)} is not a solution key")
        if versus is not None and versus == own_key and versus_run is None and fields["versus_metric"] is None:
            self.problem(f"{path}.versus", "compares the solution with itself; give versus_run or versus_metric")
        if versus_run is not None and versus == own_key and versus_run not in run_labels:
            self.problem(f"{path}.versus_run", f"{show_value(versus_run)} is not a [[runs]] label of this manifest; "
                         f"known: {known}")

    def printed_other_side(self, table: dict[str, Any], path: str, printed: str | None) -> None:
        """`versus_value`: the other side is a design the catalogue does not hold, known only by the figure the
        document prints for it; a solution (versus) or a run of one (versus_run) would be a second other side."""
        for key in ("versus", "versus_run"):
            if key in table:
                self.problem(f"{path}.{key}", "not with versus_value: the other side is either a solution of the "
                             "catalogue or a figure as printed")
        if printed is not None and not PRINTED_NUMBER.fullmatch(printed):
            self.problem(f"{path}.versus_value", f"{show_value(printed)} is not a number as printed (digits, optional "
                         "thousands commas and decimal point)")
