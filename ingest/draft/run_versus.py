"""A percentage between two tests of one system: "during the rebuild … 10% less than in the baseline".

A comparison whose other side names no other system may name another test of the same one: its
label ("Run 1", "Baseline"), its condition ("the degraded test"), or the normal state ("the
baseline", "normal operation"). The side it speaks of is the test its own sentence names, else the
one under an abnormal condition when the sentence names one, else the only other test. Tests are
told apart by the words of their labels and conditions, never by their order in the document.
Pure: the claim's words and the system's tests in, two labels (or None) out.
"""

from __future__ import annotations

import re

from .deferred import deferred
from .host_tests import SCENARIO

_NORMAL = deferred(r"\b(?:baseline|normal|healthy|optimal|undegraded|base)\b", re.IGNORECASE)
_STOP = {"the", "a", "an", "of", "in", "on", "at", "test", "tests", "run", "runs", "with", "and", "during", "one",
         "state", "results", "result", "condition", "mode"}
_RUN_NUMBER = deferred(r"\brun\s*(\d+)\b", re.IGNORECASE)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9]*", text.casefold()) if w not in _STOP}  # numbers: run numbers only


def _named(text: str, tests: list[tuple[str, str | None]]) -> list[int]:
    """The tests `text` names: by run number, by the words of a label or condition, else "the baseline"."""
    number = _RUN_NUMBER.search(text)
    if number:
        return [i for i, (label, _) in enumerate(tests) if (m := _RUN_NUMBER.search(label)) and m[1] == number[1]]
    said = _words(text)
    found = [i for i, (label, scenario) in enumerate(tests) if said & (_words(label) | _words(scenario or ""))]
    if not found and _NORMAL.search(text):
        found = [i for i, (_, scenario) in enumerate(tests) if scenario is None]
    if not found and SCENARIO.search(text):
        found = [i for i, (_, scenario) in enumerate(tests) if scenario is not None]
    return found


def versus_tests(than: str | None, sentence: str, tests: list[tuple[str, str | None]]) -> tuple[str, str] | None:
    """(the test the figure is of, the test it is compared with) as labels, when the words tell both.

    `than` the words after "than", `sentence` the words before the percentage, `tests` each test's
    (label, abnormal condition or None)."""
    if not than or len(tests) < 2:
        return None
    other = _named(than, tests)
    if len(other) != 1:
        return None
    rest = [i for i in range(len(tests)) if i != other[0]]
    own = [i for i in _named(sentence, tests) if i != other[0]] if sentence.strip() else []
    if not own and len(rest) == 1:
        own = rest
    if len(own) != 1:
        return None
    return tests[own[0]][0], tests[other[0]][0]
