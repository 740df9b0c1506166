"""Verdicts a document states in its prose, and the pass rule it states, found for the audit to judge.

"every host passed", "the solution passed Jetstress", "the results were adequate", "met the Exchange
requirements", "read latencies well below the 20 ms limit" say a test passed; "a test passes when the
average database read latency stays under 15 ms and achieved IOPS is within 5% of its target" is the
document's own rule. Each verdict becomes a `stated_verdict` claim (the words as printed, the
sentence as its quote) on the test its sentence names: a run label ("Run 2"), a scenario ("the
baseline", "during the rebuild"), a test type ("the Stress test"); "every host" or "all tests" puts
one on each test; a sentence naming none is a claim on the system, which the audit judges only when
every test it may be about gives one answer. Each limit of a rule becomes a `pass_limit_*` claim;
a verdict whose own sentence states a limit ("inside the 20 ms …") is judged by that limit alone.
Conditions ("if the run passed …", "whether …") and negations state no verdict. Words and
quantities only, never a vendor's name or a position. Pure: paragraphs in, claims out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Callable

from ...schema.vocabulary import TRANSACTIONAL_REPORT_TYPES
from ..formats.document.records import ReportDocument
from .anchored import anchor_starts, matches_at
from .deferred import deferred
from .drafts import DraftRun, DraftSolution
from .host_tests import SCENARIO
from .names import best
from .number_starts import matches_from
from .prefilter import lowered, may
from .published import DraftClaim, Paragraphs

STATED_VERDICT = "stated_verdict"
LIMIT_METRICS = {"db_read_latency": "pass_limit_db_read_latency", "db_write_latency": "pass_limit_db_write_latency",
                 "log_write_latency": "pass_limit_log_write_latency", "iops_margin": "pass_limit_iops_margin",
                 "iops_minimum": "pass_limit_iops_minimum"}
STRICT = "under"  # a limit the figure must stay below ("under 15 ms"); else at most ("within 20 ms")

_SENTENCE_END = deferred(r"[.!?]\s+(?=(?:[-•*]\s+)?[A-Z(\"'“])")  # a bullet after a full stop starts one too
_NUMBER = r"\d+(?:\.\d+)?"
# Words that make a sentence a condition, a rule or advice, never a verdict on what happened.
_CONDITIONAL = deferred(r"\b(?:if|whether|unless|until|should|would|could|must|might|may)\b|"
                        r"\bpass(?:es)?\s+(?:only\s+)?when\b|\?", re.IGNORECASE)
_CONDITIONAL_WORDS = ("if", "whether", "unless", "until", "should", "would", "could", "must", "might", "may", "pass",
                      "?")  # one of which every match of _CONDITIONAL holds, case aside (prefilter.py)
# Where each match of _CONDITIONAL, and of _LIMIT, starts (anchored.py): the pattern is tried there alone, not at
# every character of the sentence (40 PDFs: _CONDITIONAL's 1,300 sentences ~22 -> 13 ms, _LIMIT's 358 ~17 -> 5 ms).
_CONDITIONAL_STARTS = deferred(r"i(?=f)|w(?=hether|ould)|u(?=n(?:less|til))|s(?=hould)|c(?=ould)|m(?=ust|ight|ay)|"
                               r"p(?=ass)|\?")
_NEGATED = deferred(r"\b(?:not|never|no|nor|without|fail(?:ed|s)?\s+to)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
# What a verdict is about: a test, its results, the hosts or the system tested.
_SUBJECT = deferred(r"\b(?:tests?|runs?|results?|hosts?|servers?|vms?|virtual\s+machines?|solutions?|systems?|"
                    r"arrays?|configurations?|building\s+blocks?|designs?|jetstress|performance|latenc(?:y|ies))\b",
                    re.IGNORECASE)
_PASSED = deferred(r"\bpass(?:ed|es)\b(?!\s*/)(?P<object>\s+(?:the\s+|all\s+|every\s+|its\s+|each\s+)?"
                   r"(?:jetstress|tests?|runs?)\b)?", re.IGNORECASE)
_ADEQUATE = deferred(r"\b(?:is|was|were|are|been|be|proved|proven|remained|stayed|appears?|seems?)\s+"
                     r"(?:\w+\s+)?(?:adequate|acceptable|sufficient|satisfactory)\b", re.IGNORECASE)
_MET = deferred(r"\b(?:met|meets?|satisfie[sd]|fulfill?(?:ed|s)?)\s+(?:\w+\s+){0,4}?"
                r"(?:requirements?|criteri(?:a|on)|thresholds?|limits?)\b", re.IGNORECASE)
# A latency kept inside a limit the sentence names ("well below the 20 ms limit", "inside the 20 ms that …").
# compiled now, not deferred (deferred.py): statements tell it by `match.re is`
_WITHIN_THE = re.compile(rf"\b(?P<cmp>inside|within|below|under|beneath)\s+the\s+(?P<n>{_NUMBER})\s*"
                         r"(?P<u>ms|msec|milliseconds?)\b", re.IGNORECASE)
_EVERY = deferred(r"\b(?:every|all|each|both)\b", re.IGNORECASE)
_DENIED = deferred(r"\bfail|\b(?:not|never|no)\b", re.IGNORECASE)
# The document's rule: a sentence that says what passing takes, with the limits it names.
_RULE = deferred(r"\bpass(?:es|ed|ing)?\s+(?:only\s+)?(?:when|if)\b|\bcriteri(?:a|on)\b|\brequire[ds]?\b|"
                 r"\brequirements?\b|\bmust\b|\bthresholds?\b|\blimits?\b", re.IGNORECASE)
# What a latency limit bounds: the last of these before it ("log writes below 5 ms": log write latency).
_LATENCY = deferred(r"\b(?:(?P<db>database|db)\s+)?(?:(?P<log>log)\s+)?(?P<io>read|write)?\s*latenc(?:y|ies)\b|"
                    r"\b(?P<logs>log)\s+writes?\b", re.IGNORECASE)
_LIMIT = deferred(rf"\b(?P<cmp>under|below|less\s+than|lower\s+than|beneath|at\s+most|no\s+(?:more|higher)\s+than|"
                  rf"not\s+(?:exceed(?:ing)?|above|higher\s+than)|within|inside|<=?|≤)\s*(?:the\s+)?(?P<n>{_NUMBER})\s*"
                  r"(?P<u>ms|msec|milliseconds?|s|sec|seconds?)\b", re.IGNORECASE)
_LIMIT_STARTS = deferred(r"u(?=nder)|b(?=elow|eneath)|l(?=ess|ower)|a(?=t\s+most)|n(?=ot?\s)|w(?=ithin)|i(?=nside)|<|≤")
_STRICT = deferred(r"under|below|less|lower|beneath|<$", re.IGNORECASE)
_MARGIN = deferred(rf"\bwithin\s+(?P<n>{_NUMBER})\s*(?:%|percent)", re.IGNORECASE)
_TARGET = deferred(r"\btarget\b|\biops\b", re.IGNORECASE)
# "Each of the 3 servers exceeded its Jetstress target of 720 transactional IOPS": a verdict and its own yardstick
_BEAT_TARGET = deferred(r"\b(?:exceed(?:ed|s)?|surpass(?:ed|es)?|beat|met|meets|reached|achieved)\s+(?:its|their|the|each)\s+"
                        r"(?:\w+\s+){0,2}?target\s+(?:of\s+)?(?P<n>\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)\s+"
                        r"(?:transactional\s+|achieved\s+|database\s+)?(?:IOPS|I/O)", re.IGNORECASE)
_RUN = deferred(r"\brun\s*(\d+)\b", re.IGNORECASE)
_TYPE = deferred(r"\b(stress|performance)\s+tests?\b", re.IGNORECASE)
# Words of a run's label that name no test in particular.
_GENERIC = frozenset({"test", "tests", "run", "runs", "report", "reports", "result", "results", "host", "hosts",
                      "performance", "stress", "jetstress", "the", "and", "of", "on", "with", "during", "under"})
_WORD = deferred(r"[a-z][a-z-]{2,}", re.IGNORECASE)


@dataclass(frozen=True)
class Limit:
    """One limit of a pass rule: what it bounds (a key of LIMIT_METRICS), the number and unit as printed."""

    bounds: str
    value: str
    unit: str
    strict: bool
    line: int  # where its number is printed


@dataclass(frozen=True)
class Statement:
    """A verdict (`words` as printed) or a rule (`words` empty) in one sentence, with the limits it names."""

    words: str
    line: int
    quote: str
    limits: tuple[Limit, ...] = ()
    every: bool = False  # "every host", "all tests": each test it may be about

    @property
    def is_verdict(self) -> bool:
        return bool(self.words)


def _sentences(text: str, starts: list[tuple[int, int]]):
    """(sentence, its offset in the paragraph, line of an offset) for each sentence of a paragraph."""
    def line_at(offset: int) -> int:
        return max((number for start, number in starts if start <= offset), default=starts[0][1])

    begin = 0
    for end in [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
        sentence = text[begin:end].strip()
        if sentence:
            yield sentence, begin + (len(text[begin:end]) - len(text[begin:end].lstrip())), line_at
        begin = end


def _latency_limits(sentence: str, matches: Iterable[re.Match[str]], line_of: Callable[[int], int]) -> list[Limit]:
    """Each limit of `matches` (in `sentence`), bound to the latency the words before it name (bare 'latency':
    reads); `line_of` gives the line of a place in the sentence."""
    found = []
    for match in matches:
        named = list(_LATENCY.finditer(sentence, max(0, match.start() - 80), match.start()))
        if not named:
            continue
        what = named[-1]
        writes = (what["io"] or "").lower() == "write"
        bounds = "log_write_latency" if what["log"] or what["logs"] else "db_write_latency" if writes else "db_read_latency"
        unit = "s" if match["u"].lower().startswith("s") else "ms"
        strict = bool(_STRICT.match(match["cmp"]))
        found.append(Limit(bounds, match["n"], unit, strict, line_of(match.start("n"))))
    return found


# Words one of which every match of each verdict pattern holds, case aside (prefilter.py): _PASSED "pass";
# _ADEQUATE its four adjectives; _MET requirement|criteri(a/on)|threshold|limit; _WITHIN_THE ms|msec ("ms") or
# millisecond(s) ("milli"). _BEAT_TARGET holds "target"; _RULE pass|criteri|require|must|threshold|limit.
_VERDICTS = ((_PASSED, ("pass",)), (_ADEQUATE, ("adequate", "acceptable", "sufficient", "satisfactory")),
             (_MET, ("requirement", "criteri", "threshold", "limit")), (_WITHIN_THE, ("ms", "milli")))
_RULE_WORDS = ("pass", "criteri", "require", "must", "threshold", "limit")
# Every word the prefilters of statements() name: a sentence holding none (five in six) is asked nothing more.
_ANY_WORD = tuple(dict.fromkeys((*_CONDITIONAL_WORDS, *(word for _, words in _VERDICTS for word in words), "target",
                                 *_RULE_WORDS)))


def _last_clause(text: str) -> str:
    """re.split(r"[,;:]", text)[-1]: the text after its last break, found from the end, not the whole (a long
    sentence) split (40 PDFs' 254 splits: 7 ms -> none measurable)."""
    return text[max(text.rfind(","), text.rfind(";"), text.rfind(":")) + 1:]


def _first_clause(text: str) -> str:
    """re.split(r"[,;:]", text)[0]."""
    ends = [at for at in (text.find(","), text.find(";"), text.find(":")) if at >= 0]
    return text[:min(ends)] if ends else text


def _negated(before: str) -> bool:
    """`_NEGATED.search(before)`, searched from where the last four runs of non-space begin: a match ends at the
    text's end and spans at most four (a negation, "failed to" two, then two words), where the whole text was
    tried at each character (40 PDFs' 188 verdict words: 24 -> 0.6 ms)."""
    head = before.rsplit(None, 4)
    return _NEGATED.search(before, len(head[0]) if len(head) == 5 else 0) is not None


def _verdict(sentence: str, low: str | None = None) -> re.Match[str] | None:
    """The words saying the test passed, if they say it of a test and say it outright; `low`: the sentence
    lowered (prefilter.lowered), or None to search every pattern."""
    for pattern, words in _VERDICTS:
        for match in pattern.finditer(sentence) if may(low, *words) else ():
            before = sentence[: match.start()]
            clause = _last_clause(before)
            if _negated(before) or _DENIED.search(match[0]):
                continue
            if pattern is _WITHIN_THE:
                if _LATENCY.search(sentence[: match.start()]):
                    return match
            elif _SUBJECT.search(clause) or (pattern is _PASSED and match["object"]):
                return match
    return None


def statements(prose: Paragraphs) -> list[Statement]:
    """Every verdict and rule the prose states, with its line (where its words are) and its sentence."""
    found = []
    for text, starts in prose:
        if not starts:
            continue
        for sentence, offset, line_at in _sentences(text, starts):
            def line_of(at: int, offset: int = offset, line_at: Callable[[int], int] = line_at) -> int:
                return line_at(offset + at)

            low = lowered(sentence)
            if not may(low, *_ANY_WORD):
                continue  # none of the words any test below needs (five sentences in six): nothing is stated
            conditional = may(low, *_CONDITIONAL_WORDS) and \
                matches_at(_CONDITIONAL, sentence, anchor_starts(_CONDITIONAL_STARTS, sentence))
            verdict = None if conditional else _verdict(sentence, low)
            if verdict is not None:
                own = tuple(_latency_limits(sentence, _WITHIN_THE.finditer(sentence), line_of)) \
                    if verdict.re is _WITHIN_THE else ()
                before, after = sentence[: verdict.start()], sentence[verdict.start():]
                clause = _last_clause(before) + _first_clause(after)  # not "across all hosts, …"
                found.append(Statement(" ".join(verdict[0].split()), line_of(verdict.end() - 1), sentence, own,
                                       bool(_EVERY.search(clause))))
            beat = None if conditional or verdict is not None or not may(low, "target") else _BEAT_TARGET.search(sentence)
            if beat is not None and _SUBJECT.search(_last_clause(sentence[: beat.start()])) \
                    and not _negated(sentence[: beat.start()]):
                found.append(Statement(" ".join(beat[0].split()), line_of(beat.end() - 1), sentence,
                                       (Limit("iops_minimum", beat["n"], "IOPS", False, line_of(beat.start("n"))),),
                                       bool(_EVERY.search(sentence[: beat.start()]))))
                continue
            if may(low, *_RULE_WORDS) and _RULE.search(sentence) and (verdict is None or verdict.re is not _WITHIN_THE):
                limit_starts = anchor_starts(_LIMIT_STARTS, sentence)
                limits = _latency_limits(sentence, _LIMIT.finditer(sentence) if limit_starts is None else
                                         matches_from(_LIMIT, sentence, limit_starts), line_of)
                limits += [Limit("iops_margin", m["n"], "%", False, line_of(m.start("n"))) for m in _MARGIN.finditer(sentence)
                           if _TARGET.search(sentence)]
                if limits:
                    found.append(Statement("", min(limit.line for limit in limits), sentence, tuple(limits)))
    return found


# --- which tests a sentence names -----------------------------------------------------------


def _tests(document: ReportDocument, solution: DraftSolution) -> list[DraftRun]:
    """The system's tests with a Jetstress verdict: its Performance and Stress reports, and tests over hosts."""
    reports = document.reports
    return [run for run in solution.runs if run.hosts or (
        run.report_index is not None and reports[run.report_index].report_type in TRANSACTIONAL_REPORT_TYPES)]


def _report_type(document: ReportDocument, run: DraftRun) -> str | None:
    index = run.hosts[0] if run.hosts else run.report_index
    return document.reports[index].report_type if index is not None else None


def named_runs(sentence: str, runs: list[DraftRun], document: ReportDocument) -> list[DraftRun]:
    """The runs a sentence names: by run number, by the words of a label no other run's label holds (the
    scenario a document prints over its reports), by an abnormal condition, or by test type."""
    said = {w.casefold() for w in _WORD.findall(sentence)}
    labels = [{w.casefold() for w in _WORD.findall(run.label)} - _GENERIC for run in runs]
    numbers = {n for n in _RUN.findall(sentence)}
    types = {t.casefold() for t in _TYPE.findall(sentence)}
    kinds = {(_report_type(document, run) or "").casefold() for run in runs}
    abnormal = SCENARIO.search(sentence)
    named = []
    for run, own in zip(runs, labels):
        others = set().union(*(o for o in labels if o is not own))
        number = _RUN.fullmatch(run.label.strip())
        if (number and number[1] in numbers) or (own - others) & said or (abnormal and run.scenario) or (
                len(kinds) > 1 and (_report_type(document, run) or "").casefold() in types):
            named.append(run)
    return named


def _claims(statement: Statement, run: str | None) -> list[DraftClaim]:
    """The statement as claims: its verdict, and each limit (a rule's, or the verdict's own yardstick)."""
    out = []
    if statement.is_verdict:
        out.append(DraftClaim(STATED_VERDICT, statement.words, None, statement.line, statement.quote, run=run))
    out += [DraftClaim(LIMIT_METRICS[limit.bounds], limit.value, limit.unit, limit.line, statement.quote,
                       qualifier=STRICT if limit.strict else None, run=run) for limit in statement.limits]
    return out


def add_verdicts(solutions: list[DraftSolution], document: ReportDocument, prose: Paragraphs,
                 distinct: list[set[str]]) -> None:
    """Each stated verdict and rule on the system its sentence names (every system when it names none),
    on the tests it names, on each test for "every"/"all", else on the system."""
    for statement in statements(prose):
        owner = best(statement.quote, distinct) if len(solutions) > 1 else 0
        for solution in solutions if owner is None else [solutions[owner]]:
            tests = _tests(document, solution)
            named = named_runs(statement.quote, tests, document)
            if statement.is_verdict and not named and statement.every and tests:
                named = tests  # "every host passed", "all the results … are from runs that passed"
            targets: list[str | None] = [run.label for run in named] or [None]
            for label in targets:
                solution.claims.extend((claim, "text", None) for claim in _claims(statement, label))
