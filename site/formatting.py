"""Jinja filters: how numbers read on the page. Missing figures read "—", never 0."""

from __future__ import annotations

import math

from markupsafe import Markup

# Numbers are digits, commas, signs and a dash: safe as they are, so they skip HTML escaping
# (a 10,000-solution build formats about a million of them).
MISSING = Markup("—")


def num(value, places: int = 1) -> str:
    """Thousands separators and a fixed number of decimals; None and non-finite values as a dash."""
    if value is None or isinstance(value, str):
        return MISSING if value is None else value
    value = float(value)
    if not math.isfinite(value):
        return MISSING
    return Markup(f"{value:,.{places}f}")


def sig(value, digits: int = 6) -> str:
    """A figure to `digits` significant digits, as `esrpdb compare` prints it, with thousands separators."""
    if value is None or not math.isfinite(float(value)):
        return MISSING
    value = float(value)
    places = max(0, digits - 1 - math.floor(math.log10(abs(value)))) if value else 0
    text = f"{value:,.{places}f}"
    return Markup(text.rstrip("0").rstrip(".") if "." in text else text)


def sortable(value) -> str:
    """The unrounded value the table sorts by ("" for a missing figure, sorted last)."""
    if value is None:
        return Markup("")
    value = float(value)
    return Markup(repr(value) if math.isfinite(value) else "")


def percent(fraction) -> str:
    """A relative difference as a signed percentage, as `esrpdb audit` prints it."""
    return MISSING if fraction is None else Markup(f"{fraction:+.2%}")


def css_string(value: str) -> str:
    """A CSS string's contents: quotes, backslashes, line breaks and `<` escaped (no `</style>` inside)."""
    return "".join(c if c.isalnum() or c in " -_.:" else f"\\{ord(c):x} " for c in value)


def run_words(solution) -> str:
    """Which run the headline figures come from, in words: a run outside any trial is said to be a
    single run, never left as a dash."""
    if solution.get("median_run_id") is None:
        return "No run is stored for this solution, so there are no headline figures"
    label = solution.get("median_run_label") or f"number {solution['median_run_id']}"
    trial, runs = solution.get("median_trial"), solution.get("runs_in_trial") or 1
    if not trial:
        return f"From run “{label}” (a single run, not one of a set of repeated runs)"
    if runs > 1:
        return f"From trial “{trial}”, run “{label}”: the median by total IOPS of its {runs} runs"
    return f"From trial “{trial}”, run “{label}” (the trial's only run)"


# Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and kin) make a page show text in an order
# other than its own ("exe.txt" read backwards); in the site they are shown as their code point.
BIDI_SHOWN = {ord(c): f"[U+{ord(c):04X}]" for c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
               "\u2066\u2067\u2068\u2069"}


def plain_text(value):
    """Every value a template prints (Jinja's `finalize`): bidi controls in text made visible, never obeyed;
    markup the site made itself passes as it is."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return value.translate(BIDI_SHOWN)
    return value


FILTERS = {"num": num, "sig": sig, "sortable": sortable, "percent": percent, "css_string": css_string, "run_words": run_words}
