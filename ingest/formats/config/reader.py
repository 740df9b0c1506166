"""The configuration format's reader: a JetstressConfig.xml's bytes -> its `JetstressConfig` (see the
package's docstring for the decisions it keeps).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports the XML parser, isodate and the readers below.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

import isodate

from ....schema.vocabulary import TRANSACTIONAL_REPORT_TYPES
from ...errors import ParseError
from .records import (
    EXCHANGE_PROFILE_ELEMENTS,
    TEST_DESIGN_ELEMENTS,
    TEST_TYPES,
    THRESHOLD_ELEMENTS,
    EseInstanceConfig,
    ExchangeProfile,
    JetstressConfig,
    JetSystemParams,
    LatencyThresholds,
    OperationMix,
    TestDesign,
)
from .safe_xml import load_xml, local_name

_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def parse(name: str, data: bytes, *, max_bytes: int) -> JetstressConfig:
    if len(data) > max_bytes:
        raise ParseError(name, f"file is {len(data):,} bytes; configurations larger than {max_bytes:,} bytes are refused")
    root, lines = load_xml(name, data)
    ctx = _Context(lines)
    top = _Block(ctx, root, "configuration")
    jetstress_version = top.read("text", "JetstressVersionGenerated")
    ese_version = top.read("text", "EseVersionGenerated")
    design = _test_design(ctx, top.child("TestDesignInfo", required=True))
    profile = _profile(ctx, top.child("ExchangeProfile", required=True), design.suppress_tuning)
    params_el = top.child("JetSystemParams")
    params = None if params_el is None else _jet_system_params(ctx, params_el)
    top.keep_rest()
    if ctx.problems:
        count = len(ctx.problems)
        listing = "".join(f"\n  - {problem}" for problem in ctx.problems)
        raise ParseError(name, f"invalid Jetstress configuration, {count} problem{'s' * (count > 1)}:{listing}")
    return JetstressConfig(
        source_name=name,
        jetstress_version=jetstress_version,
        ese_version=ese_version,
        test_design=design,
        profile=profile,
        jet_system_params=params,
        extra=tuple(ctx.extra),
    )


# --- reading fields by name, collecting problems --------------------------------------------


class _Context:
    def __init__(self, lines: dict[Element, int]):
        self.lines = lines
        self.problems: list[str] = []
        self.extra: list[tuple[str, str]] = []

    def problem(self, path: str, element: Element | None, message: str) -> None:
        """`element` is the offending element, or for a missing one the parent it belongs in."""
        line = self.lines.get(element) if element is not None else None
        self.problems.append(f"{path}{f' (line {line})' if line else ''}: {message}")

    def keep(self, path: str, element: Element) -> None:
        """Record an unknown element (and everything under it) as (path, text)."""
        self.extra.append((path, (element.text or "").strip()))
        for attr, value in element.attrib.items():
            self.extra.append((f"{path}/@{local_name(attr)}", value))
        for child in element:
            self.keep(f"{path}/{local_name(child.tag)}", child)


class _Block:
    """The children of one element, read by name once; children never read become `extra`."""

    def __init__(self, ctx: _Context, element: Element | None, path: str):
        self.ctx, self.element, self.path = ctx, element, path
        self.children: dict[str, list[Element]] = {}
        for child in element if element is not None else ():
            self.children.setdefault(local_name(child.tag), []).append(child)
        self.seen: set[str] = set()

    def all(self, name: str) -> list[Element]:
        self.seen.add(name)
        return self.children.get(name, [])

    def child(self, name: str, *, required: bool = False) -> Element | None:
        first_look = name not in self.seen
        found = self.all(name)
        if len(found) > 1 and first_look:
            self.ctx.problem(f"{self.path}/{name}", found[1], f"appears {len(found)} times, expected once")
        if not found and required and first_look and self.element is not None:
            self.ctx.problem(f"{self.path}/{name}", self.element, f"missing from <{local_name(self.element.tag)}>")
        return found[0] if found else None

    def read(self, kind: str, name: str, *, required: bool = False, minimum: float | None = None):
        """Value of child `name` converted to `kind` (text/int/float/bool), None when empty."""
        element = self.child(name, required=required)
        if element is None:
            return None
        text = (element.text or "").strip()
        path = f"{self.path}/{name}"
        if not text:
            if required:
                at_least = f" >= {minimum:g}" if minimum is not None else ""
                self.ctx.problem(path, element, f"empty; {_EXPECTED[kind]}{at_least} is required")
            return None
        return _convert(self.ctx, path, element, kind, text, minimum)

    def keep_rest(self) -> None:
        for name, elements in self.children.items():
            if name not in self.seen:
                for element in elements:
                    self.ctx.keep(f"{self.path}/{name}", element)


_EXPECTED = {"text": "a value", "int": "a whole number", "float": "a number", "bool": "true or false"}


def _convert(ctx: _Context, path: str, element: Element | None, kind: str, text: str, minimum: float | None):
    if kind == "text":
        return text
    if kind == "bool":
        if text.lower() not in _BOOLEANS:
            ctx.problem(path, element, f"{text!r} is not a boolean; allowed: true, false")
            return None
        return _BOOLEANS[text.lower()]
    pattern = _INTEGER if kind == "int" else _DECIMAL
    if not pattern.fullmatch(text):
        ctx.problem(path, element, f"{text!r} is not {_EXPECTED[kind]}")
        return None
    value = int(text) if kind == "int" else float(text)
    if minimum is not None and value < minimum:
        ctx.problem(path, element, f"{text} is below the minimum {minimum:g}")
        return None
    return value


def _attribute(ctx: _Context, element: Element, path: str, attr: str, kind: str, known: set[str]):
    known.add(attr)
    text = element.attrib.get(attr)
    if text is None or not text.strip():
        return None
    return _convert(ctx, f"{path}/@{attr}", element, kind, text.strip(), None)


def _keep_unknown_attributes(ctx: _Context, element: Element, path: str, known: set[str]) -> None:
    for attr, value in element.attrib.items():
        if local_name(attr) not in known:
            ctx.extra.append((f"{path}/@{local_name(attr)}", value))


# --- blocks ---------------------------------------------------------------------------------


def _test_design(ctx: _Context, element: Element | None) -> TestDesign:
    block = _Block(ctx, element, "TestDesignInfo")
    test_type = block.read("text", "Type", required=True)
    if test_type is not None and test_type not in TEST_TYPES:
        ctx.problem(
            "TestDesignInfo/Type",
            block.child("Type"),
            f"{test_type!r} is not a test type; allowed: {', '.join(TEST_TYPES)}",
        )
    duration_iso = block.read("text", "Duration", required=test_type in TRANSACTIONAL_REPORT_TYPES)
    values = {field: block.read(kind, tag, minimum=0) for field, tag, kind in TEST_DESIGN_ELEMENTS}
    design = TestDesign(
        test_type=test_type or "",
        description=block.read("text", "Description"),
        duration_iso=duration_iso,
        duration_s=_duration_s(ctx, block.child("Duration"), duration_iso),
        operation_mix=_operation_mix(ctx, block.child("OperationMix")),
        thresholds=tuple(_thresholds(ctx, el) for el in block.all("Thresholds")),
        **values,
    )
    block.keep_rest()
    return design


def _duration_s(ctx: _Context, element: Element | None, text: str | None) -> float | None:
    if text is None:
        return None
    path = "TestDesignInfo/Duration"
    try:
        duration = isodate.parse_duration(text)
    except (isodate.ISO8601Error, ValueError):
        ctx.problem(path, element, f"{text!r} is not an xs:duration such as P0Y0M0DT2H0M0S")
        return None
    if isinstance(duration, isodate.Duration):  # only returned when years or months are set
        ctx.problem(path, element, f"{text!r} has years or months, which have no fixed length in seconds")
        return None
    seconds = duration.total_seconds()
    if seconds < 0:
        ctx.problem(path, element, f"{text!r} is negative")
        return None
    return seconds


def _operation_mix(ctx: _Context, element: Element | None) -> OperationMix | None:
    if element is None:
        return None
    path, known = "TestDesignInfo/OperationMix", set[str]()
    mix = OperationMix(
        lock_ops=_attribute(ctx, element, path, "LockOps", "bool", known),
        insert_percent=_attribute(ctx, element, path, "InsertOps", "float", known),
        delete_percent=_attribute(ctx, element, path, "DeleteOps", "float", known),
        replace_percent=_attribute(ctx, element, path, "ReplaceOps", "float", known),
        lazy_commit_percent=_attribute(ctx, element, path, "LazyCommits", "float", known),
    )
    _keep_unknown_attributes(ctx, element, path, known)
    if mix.read_percent is not None and mix.read_percent < 0:
        ctx.problem(path, element, "insert + delete + replace percentages exceed 100")
    return mix


def _thresholds(ctx: _Context, element: Element) -> LatencyThresholds:
    name = (element.attrib.get("Name") or "").strip() or None
    path = f"TestDesignInfo/Thresholds[{name or '?'}]"
    block = _Block(ctx, element, path)
    values = {field: block.read("float", tag, minimum=0) for field, tag in THRESHOLD_ELEMENTS}
    block.keep_rest()
    _keep_unknown_attributes(ctx, element, path, {"Name", "TestRunTypes"})
    return LatencyThresholds(
        name=name,
        test_run_types=tuple(element.attrib.get("TestRunTypes", "").split()),
        line=ctx.lines.get(element),
        **values,
    )


def _profile(ctx: _Context, element: Element | None, suppress_tuning: bool | None) -> ExchangeProfile:
    block = _Block(ctx, element, "ExchangeProfile")
    thread_count = block.read("int", "ThreadCount", minimum=1)
    thread_el = block.child("ThreadCount")
    if thread_count is None and suppress_tuning and thread_el is not None and not (thread_el.text or "").strip():
        ctx.problem(
            "ExchangeProfile/ThreadCount",
            thread_el,
            "empty while TestDesignInfo/SuppressTuning is true; give a thread count, "
            "or set SuppressTuning to false to let Jetstress auto-tune it",
        )
    profile = ExchangeProfile(
        thread_count=thread_count,
        mailbox_count=block.read("int", "MailboxCount", required=True, minimum=1),
        mailbox_quota_mb=block.read("float", "MailboxQuota", required=True, minimum=0),
        iops_per_mailbox=block.read("float", "MailboxIops", required=True, minimum=0),
        ese_instances=_ese_instances(ctx, block.child("EseInstances"), element),
        **{field: block.read(kind, tag, minimum=0) for field, tag, kind in EXCHANGE_PROFILE_ELEMENTS},
    )
    block.keep_rest()
    return profile


def _ese_instances(ctx: _Context, element: Element | None, profile: Element | None) -> tuple[EseInstanceConfig, ...]:
    path = "ExchangeProfile/EseInstances"
    block = _Block(ctx, element, path)
    instances = []
    for number, instance_el in enumerate(block.all("EseInstance"), start=1):
        instances.append(_ese_instance(ctx, instance_el, f"{path}/EseInstance[{number}]"))
    block.keep_rest()
    if not instances and profile is not None:
        where = "missing from <ExchangeProfile>" if element is None else "has no <EseInstance>"
        ctx.problem(
            path,
            profile if element is None else element,
            f"{where}; at least one EseInstance with DatabasePaths/Path and LogPath is required",
        )
    return tuple(instances)


def _ese_instance(ctx: _Context, element: Element, path: str) -> EseInstanceConfig:
    block = _Block(ctx, element, path)
    paths_block = _Block(ctx, block.child("DatabasePaths"), f"{path}/DatabasePaths")
    database_paths = tuple(text for el in paths_block.all("Path") if (text := (el.text or "").strip()))
    paths_block.keep_rest()
    if not database_paths:
        ctx.problem(f"{path}/DatabasePaths", element, "no database path; at least one <Path> is required")
    known: set[str] = set()
    instance = EseInstanceConfig(
        iops_bias=_attribute(ctx, element, path, "IopsBias", "float", known),
        database_paths=database_paths,
        log_path=block.read("text", "LogPath", required=True),
        database_backup_path=block.read("text", "DatabaseBackupPath"),
        line=ctx.lines.get(element),
    )
    _keep_unknown_attributes(ctx, element, path, known)
    block.keep_rest()
    return instance


def _jet_system_params(ctx: _Context, element: Element) -> JetSystemParams:
    block = _Block(ctx, element, "JetSystemParams")
    params = JetSystemParams(
        database_page_size_bytes=block.read("int", "DatabasePageSize", minimum=1),
        circular_log=block.read("int", "CircularLog", minimum=0),
        log_file_size_kib=block.read("int", "LogFileSize", minimum=1),
        max_ver_pages=block.read("int", "MaxVerPages", minimum=0),
        dbm_throttling=block.read("int", "DBMThrottling", minimum=0),
    )
    block.keep_rest()
    return params
