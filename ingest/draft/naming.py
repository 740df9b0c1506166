"""The same hardware or software named differently across one document: each disagreement, with its lines.

A document states its storage model, server, memory, operating system, firmware, adapters, disks and
Jetstress/ESE versions several times: in configuration tables (by the meaning of a row's label), in
its embedded reports ("Jetstress Version", "ESE Version", "Operating System") and in prose (a model
number a letter or digit away from the one its tables give, "48 GB of memory" beside a server).
Two statements are compared only when they are about the same attribute of the same subject: a
table column's system, a report's system as drafting placed it, a sentence's system by its words
(names.owner_at). Statements no system can be told for are compared only where the document gives
every system one value (one server shared by two arrays); a sentence no system is told for is left
out. Which spellings disagree is spellings.py's to say. Pure: a read document and its drafted
systems in, one message per disagreement out.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import combinations

from ..formats.document.records import DocumentTable, ReportDocument
from ..jetstress.vocabulary import normalise_label
from .deferred import deferred
from .facts import columns_are_systems
from .names import MEDIA_WORDS, best, owner_at, words
from .places import Spans
from .prefilter import lowered, may
from .spellings import (
    Model,
    SystemName,
    distance,
    models,
    near,
    same_size,
    same_version,
    sizes_gb,
    skeleton,
    speeds_rpm,
    system_name,
    system_names_differ,
    versions,
)

ATTRIBUTES = {"storage_model": "storage model", "storage_firmware": "storage firmware", "server_model": "server model",
              "server_memory": "server memory", "operating_system": "operating system",
              "jetstress_version": "Jetstress version", "ese_version": "ESE version", "host_adapter": "HBA/NIC model",
              "host_adapter_firmware": "HBA/NIC firmware", "disk_model": "disk model", "disk_size": "disk size",
              "disk_speed": "disk speed", "enclosure_model": "disk shelf model"}
# Row label -> what its value names; a row may name several attributes ("Storage model and OS/firmware revision").
_ROWS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple((deferred(p, re.IGNORECASE), a) for p, a in (
    (r"^(?:storage (?:model|array|system)s?|arrays?|array model)\b(?!.*\b(?:cache|memory|ports?|controllers?)\b)",
     ("storage_model", "storage_firmware")),
    (r"^(?:storage|array|controller)s?\b.*\b(?:firmware|software|os)\b", ("storage_firmware",)),
    (r"^(?:(?:host|jetstress|exchange|mailbox|test|hypervisor|physical) )?(?:servers?|hosts?)(?: (?:type|model))?$|"
     r"^host server type$", ("server_model", "server_memory")),
    (r"^(?:(?:server|host|system|total) )?(?:memory|ram)(?: in system)?(?: \((?:gb|mb|tb)\))?$", ("server_memory",)),
    (r"^(?:(?:host|server) )?(?:os|operating system)(?: (?:name|version))?$", ("operating_system",)),
    (r"^jetstress(?: version)?$", ("jetstress_version",)),
    (r"^ese(?:\.dll)?(?: file)? version$", ("ese_version",)),
    (r"^(?:hba|nic|hba/nic|hba's|host (?:bus )?adapters?|network (?:adapter|card|interface)s?|adapters?)"
     r"(?: (?:model|type)(?: and firmware)?| \(.*\))?$", ("host_adapter", "host_adapter_firmware")),
    (r"^(?:disk |drive |expansion )?(?:shelf|shelves|enclosures?|trays?|jbods?)(?: model)?$", ("enclosure_model",)),
    (r"^(?:disks?|drives?)$|^(?:disk|drive)s? (?:type|model|size|capacity|speed)|^(?:raw )?(?:capacity|size) per "
     r"(?:disk|drive)", ("disk_model", "disk_size", "disk_speed")),
))
_OS_SECTION = deferred(r"^(?:operating system|os)$", re.IGNORECASE)
_REPORT_FIELDS = {"jetstress version": "jetstress_version", "ese version": "ese_version",
                  "operating system": "operating_system"}
_SKIPPED_KINDS = frozenset({"disk_layout", "switch_configuration"})
_LABEL_UNIT = deferred(r"\((GB|MB|TB)\)", re.IGNORECASE)
_INLINE_VERSION = {
    "jetstress_version": deferred(r"\bjetstress(?:\s+version)?[\s:]+(?:\d{4}\s+)?\(?v?\.?(\d+(?:\.\d+){2,})(?![\w.])",
                                  re.IGNORECASE),
    "ese_version": deferred(r"\bese(?:\.dll)?(?:\s+(?:file\s+)?version)?[\s:]+\(?v?\.?(\d+(?:\.\d+){2,})(?![\w.])",
                            re.IGNORECASE)}
_INLINE_WORD = {"jetstress_version": "jetstress", "ese_version": "ese"}  # what each _INLINE_VERSION match holds
_MEMORY = deferred(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s?(TB|GB|MB)\s+(?:of\s+)?((?:[\w-]+\s+){0,3}?)"
                   r"(?:memory|RAM)\b", re.IGNORECASE)
# Memory that is not the server's: a cache, a controller's, a virtual machine's, a part's.
_NOT_SERVER_MEMORY = deferred(r"\b(?:cache|controllers?|flash|buffer|video|graphics|nvram|modules?|vms?|virtual|"
                              r"guests?|vcpus?|dynamic|static|per|addressable|available|up to|maximum|max|"
                              r"supports?)\b", re.IGNORECASE)
_DIGIT = deferred(r"\d")
_SERVER_BEFORE = deferred(r"\b(?:servers?|hosts?)\b[^.;]*$")  # lower case: "Exchange Server" is a product
# A sentence that names another model on purpose: a predecessor, a contrast, a comparison.
_CONTRAST = deferred(r"\b(?:than|versus|vs\.?|compared|unlike|whereas|instead|previous|prior|older|earlier|newer|"
                     r"replac\w*|successor|predecessor|generation|upgrad\w*|migrat\w*|other)\b", re.IGNORECASE)
_VIRTUAL = deferred(r"hyper|virtual", re.IGNORECASE)
_SHELF = deferred(r"\b(?:shel(?:f|ves)|enclosures?|trays?|jbods?|drawers?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """One spelling of an attribute of a subject, where it is printed: what naming compares."""

    attribute: str
    subject: int | None  # the system's index; None: the document's, for no one system
    printed: str  # the spelling, as printed
    line: int | None
    value: object  # Model, a version tuple, sizes or speeds, a SystemName
    context: str = ""  # the skeleton of the whole cell or sentence (a model's other spellings hide in it)
    prose: bool = False


def named_differently(document: ReportDocument, systems: list) -> list[str]:
    """One message per attribute and subject whose spellings disagree (see the module docstring)."""
    names = [s.name for s in systems]
    distinct = _distinct(systems)
    found = _table_statements(document, names, distinct) + _report_statements(document, systems)
    found += _prose_statements(document, found + _system_models(document, names), distinct, len(systems))
    hosts = {skeleton(r.machine_name) for r in document.reports if r.machine_name}
    # Hosts of one test are named apart on purpose ("EXCH-01", "EXCH-02"): a host's name is no model.
    return _disagreements([s for s in found if not (isinstance(s.value, Model) and s.value.key in hosts)], names)


def _system_models(document: ReportDocument, names: list[str]) -> list[Statement]:
    """Each system's model as its name prints it ("Quorra FS6100"): what a sentence spelling it a digit away
    ("Quorra FS6010") is compared with, though no table row names the model."""
    found = []
    for index, name in enumerate(names):
        line = next((ln.number for ln in document.lines if name in ln.text), None)
        found += [Statement("storage_model", index, model.printed, line, model, skeleton(name))
                  for model in models(name) if line is not None]
    return found


def _distinct(systems: list) -> list[set[str]]:
    """Words that name each system and no other (as drafting tells systems apart)."""
    own = [words(s.name) | set(MEDIA_WORDS.get(next((f.value for f in s.facts if f.fact == "media"), ""), ()))
           for s in systems]
    return [w - set().union(*(o for j, o in enumerate(own) if j != i)) for i, w in enumerate(own)]


def _column_owner(heading: str, names: list[str], distinct: list[set[str]]) -> int | None:
    exact = [i for i, name in enumerate(names) if normalise_label(name) == normalise_label(heading)]
    return exact[0] if len(exact) == 1 else best(heading, distinct)


_TRADEMARKS = deferred(r"[™®©]")

def _unmarked(text: str) -> str:
    """The text without ™, ® and ©; most cells print none, so nothing is substituted (16,000 cells of 40 PDFs)."""
    return _TRADEMARKS.sub("", text) if "™" in text or "®" in text or "©" in text else text


def _clean(label: str) -> str:
    return _unmarked(label).strip().rstrip(":*").strip()


def _rows(table: DocumentTable, names: list[str], distinct: list[set[str]]):
    """(label, section, subject, text, line) for every cell a configuration table prints about a system."""
    several = len(names) > 1
    by_column = several and len(table.columns) > 1 and columns_are_systems(table)
    owners = [_column_owner(c, names, distinct) for c in table.columns] if by_column else []
    rows = [(table.stub, tuple(table.columns[:1]), table.line)] if table.stub and len(table.columns) == 1 else []
    rows += [(row.label, row.values, row.line) for row in table.rows]
    section = ""
    for label, values, line in rows:
        cells = [v.strip() for v in values]
        if not any(cells):
            section = _clean(label)
            continue
        if by_column:
            for column, cell in enumerate(cells[:len(owners)]):
                if cell:
                    yield _clean(label), section, owners[column], cell, line
        else:
            yield _clean(label), section, None if several else 0, ", ".join(c for c in cells if c), line


@functools.lru_cache(maxsize=4096)  # pure, and asked of the same labels in every table that prints them
def _row_attributes(label: str) -> tuple[str, ...]:
    """The attributes a configuration row's label names (_ROWS), or none."""
    return next((a for pattern, a in _ROWS if pattern.search(label)), ())


def _table_statements(document: ReportDocument, names: list[str], distinct: list[set[str]]) -> list[Statement]:
    found: list[Statement] = []
    for table in document.tables:
        if table.kind in _SKIPPED_KINDS:
            continue
        for label, section, subject, text, line in _rows(table, names, distinct):
            text = _unmarked(text)
            attributes = _row_attributes(label)
            if not attributes and label.lower() == "name" and _OS_SECTION.match(section):
                attributes = ("operating_system",)
            for attribute in attributes:
                found += _read(attribute, text, subject, line, label)
            found += _inline(text, subject, line, skip=attributes)
    return found


def _read(attribute: str, text: str, subject: int | None, line: int | None, label: str = "") -> list[Statement]:
    """What a cell says of one attribute, as a statement (none when it says nothing of it)."""
    context = skeleton(text)
    if attribute in ("storage_model", "server_model", "host_adapter", "disk_model", "enclosure_model"):
        found = models(text, bare_numbers=attribute in ("storage_model", "server_model"))
        return [Statement(attribute, subject, found[0].printed, line, found[0], context)] if found else []
    if attribute in ("storage_firmware", "host_adapter_firmware", "jetstress_version", "ese_version"):
        return [Statement(attribute, subject, p, line, v, context) for p, v in versions(text)[:1]]
    if attribute == "operating_system":
        if _VIRTUAL.search(text):
            return []  # a hypervisor's name beside the guest's: two systems in one cell
        return [Statement(attribute, subject, text, line, system_name(text), context)]
    if attribute == "disk_speed":
        speeds = speeds_rpm(text)
        return [Statement(attribute, subject, " / ".join(p for p, _ in speeds), line,
                          frozenset(v for _, v in speeds), context)] if speeds else []
    if attribute == "disk_size":
        sizes = sizes_gb(text) or _bare(text, label)
        return [Statement(attribute, subject, " / ".join(p for p, _ in sizes), line,
                          frozenset(round(v, 2) for _, v in sizes), context)] if sizes else []
    if attribute == "server_memory":
        if _NOT_SERVER_MEMORY.search(label):
            return []
        memory = _memory(text) if not re.search(r"memory|ram", label, re.IGNORECASE) else \
            (sizes_gb(text)[:1] or _bare(text, label))
        return [Statement(attribute, subject, p, line, frozenset({round(v, 2)}), context) for p, v in memory[:1]]
    return []


def _bare(text: str, label: str) -> list[tuple[str, float]]:
    """A bare number under a label that gives its unit ("Raw capacity per disk (GB)": "300")."""
    unit = _LABEL_UNIT.search(label)
    number = re.fullmatch(r"\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*", text)
    return sizes_gb(f"{number[1]} {unit[1].upper()}") if unit and number else []


def _memory(text: str) -> list[tuple[str, float]]:
    """"96 GB RAM", "48 GB of memory": the server's memory, never a cache's, a controller's or a VM's."""
    found = []
    for match in _MEMORY.finditer(text) if may(lowered(text), "memory", "ram") else ():  # each match holds one
        window = text[max(0, match.start() - 40):match.end() + 30]
        if not _NOT_SERVER_MEMORY.search(match[3]) and not _NOT_SERVER_MEMORY.search(window):
            found += sizes_gb(f"{match[1]} {match[2].upper()}")
    return [(f"{p}", v) for p, v in found]


def _inline(text: str, subject: int | None, line: int | None, skip: tuple[str, ...] = ()) -> list[Statement]:
    """"Jetstress 08.02.0060, and Ese .08.01.0240.005": versions named in any cell or sentence."""
    found = []
    low = lowered(text)
    for attribute, pattern in _INLINE_VERSION.items():
        if attribute in skip or not may(low, _INLINE_WORD[attribute]):  # every match holds its word (case aside)
            continue
        for match in pattern.finditer(text):
            found.append(Statement(attribute, subject, match[1], line, tuple(int(p) for p in match[1].split(".")),
                                   skeleton(text)))
    return found


def _report_statements(document: ReportDocument, systems: list) -> list[Statement]:
    """What each embedded report prints of its own software, for the system drafting placed it under."""
    owner: dict[int, int] = {}
    for index, system in enumerate(systems):
        for run in system.runs:
            for report in ([run.report_index] if run.report_index is not None else []) + list(run.hosts):
                owner[report] = index
    found: list[Statement] = []
    for index, report in enumerate(document.reports):
        for field in report.key_values:
            attribute = _REPORT_FIELDS.get(normalise_label(field.label))
            if attribute is not None and field.section != "Document":
                found += _read(attribute, field.value, owner.get(index, 0 if len(systems) == 1 else None), field.line)
    return found


def _prose_lines(document: ReportDocument):
    spans = Spans(document.report_spans)
    for line in document.lines:
        if line.separated or line.furniture or not line.text or line.number in spans:
            continue
        yield line


def _prose_statements(document: ReportDocument, tables: list[Statement], distinct: list[set[str]],
                      count: int) -> list[Statement]:
    """Sentences: versions, a server's memory, and model numbers a letter or digit from the tables' own."""
    targets = [(s, s.value) for s in tables if s.attribute in ("storage_model", "server_model", "enclosure_model")
               and isinstance(s.value, Model)]
    known = {s.value.key for s in tables if isinstance(s.value, Model)}
    stated = {m.key for s in tables for m in models(s.printed)} | known
    found: list[Statement] = []
    for line in _prose_lines(document):
        if not _DIGIT.search(line.text):
            continue  # versions, memory sizes and model numbers all hold a digit; most prose lines hold none
        text = line.text
        text = _unmarked(text)

        def whose(position: int) -> int | None:
            return 0 if count == 1 else owner_at(text, position, distinct)

        for statement in _inline(text, None, line.number):
            found.append(Statement(statement.attribute, whose(text.lower().find(statement.printed)), statement.printed,
                                   line.number, statement.value, prose=True))
        for printed, size in _memory(text):
            if _SERVER_BEFORE.search(text[:text.find(printed)]):
                found.append(Statement("server_memory", whose(text.find(printed)), printed, line.number,
                                       frozenset({round(size, 2)}), prose=True))
        mentioned = models(text, bare_numbers=True)  # "Flexa 5600" too: beside a word of its table's name
        contrast = bool(mentioned) and bool(_CONTRAST.search(text))  # (asked only of a line naming a model)
        for model in mentioned:
            found += _model_mention(model, text, line.number, targets, stated, contrast)
    return found


def _model_mention(model: Model, text: str, line: int, targets: list[tuple[Statement, Model]], stated: set[str],
                   contrast: bool) -> list[Statement]:
    """A model number in a sentence: the tables' own (another line it is spelled on), or a letter or digit
    away from exactly one of them, beside a word of the same name ("EqualLogic PS6110XV")."""
    same = [t for t, own in targets if own.key == model.key]
    if same:
        return [Statement(t.attribute, t.subject, model.printed, line, model, model.key, prose=True)
                for t in {(t.attribute, t.subject): t for t in same}.values()]
    if model.key in stated or contrast:
        return []
    close = [(distance(own.key, model.key), t) for t, own in targets if near(own.key, model.key)]
    closest = {(t.attribute, t.subject): t for d, t in close if d == min(d for d, _ in close)}
    if len(closest) != 1:
        return []  # as near to two systems' models: whose it is cannot be told
    target = next(iter(closest.values()))
    named = any(word.lower() in target.context for word in _beside(text, model.printed) if word[:1].isupper())
    if not named and not (target.attribute == "enclosure_model" and _SHELF.search(text)):  # "the four DE-2460
        return []                                                                       # expansion enclosures"
    return [Statement(target.attribute, target.subject, model.printed, line, model, model.key, prose=True)]


def _beside(text: str, token: str) -> list[str]:
    """The words on either side of a token."""
    at = text.find(token)
    before = re.findall(r"[A-Za-z][\w-]{2,}", text[:at])[-1:] if at > 0 else []
    return before + re.findall(r"[A-Za-z][\w-]{2,}", text[at + len(token):])[:1]


def _conflict(a: Statement, b: Statement) -> str | None:
    """Why two statements of one attribute cannot both be right, or None."""
    if isinstance(a.value, Model) and isinstance(b.value, Model):
        if near(a.value.key, b.value.key) and a.value.key not in b.context and b.value.key not in a.context:
            return "model numbers a character or two apart"
        return None
    if isinstance(a.value, SystemName) and isinstance(b.value, SystemName):
        return system_names_differ(a.value, b.value)
    if isinstance(a.value, tuple) and isinstance(b.value, tuple):
        return None if same_version(a.value, b.value) else "another version"
    if isinstance(a.value, frozenset) and isinstance(b.value, frozenset):
        agree = same_size if a.attribute in ("disk_size", "server_memory") else (lambda x, y: x == y)
        return None if any(agree(x, y) for x in a.value for y in b.value) else \
            ("another speed" if a.attribute == "disk_speed" else "another size")
    return None


def _groups(statements: list[Statement], several: bool) -> list[tuple[int | None, list[Statement]]]:
    """Statements that must agree: all of them, where every system is given one value; else each system's."""
    if not several:
        return [(0, statements)]
    shared = [s for s in statements if not s.prose or s.subject is not None]
    attributed = [s for s in shared if s.subject is not None]
    if not any(a.subject != b.subject and _conflict(a, b) for a, b in combinations(attributed, 2)):
        subjects = {s.subject for s in attributed}
        return [(subjects.pop() if len(subjects) == 1 and len(attributed) == len(shared) else None, shared)]
    return [(subject, [s for s in attributed if s.subject == subject])
            for subject in sorted({s.subject for s in attributed if s.subject is not None})]


def _disagreements(statements: list[Statement], names: list[str]) -> list[str]:
    messages = []
    for attribute, title in ATTRIBUTES.items():
        mine = [s for s in statements if s.attribute == attribute]
        for subject, group in _groups(mine, len(names) > 1):
            spelled: dict[str, str] = {}  # spelling -> why it disagrees with another
            for a, b in combinations(group, 2):
                why = _conflict(a, b)
                if why is not None and a.printed != b.printed:
                    spelled.setdefault(a.printed, why)
                    spelled.setdefault(b.printed, why)
            if not spelled:
                continue
            lines = {p: sorted({s.line for s in group if s.printed == p and s.line is not None}) for p in spelled}
            order = sorted(spelled, key=lambda p: lines[p][:1] or [0])
            involved = {s.subject for s in group if s.printed in spelled} - {None}
            subject = involved.pop() if subject is None and len(involved) == 1 else subject
            whom = f' of "{names[subject]}"' if len(names) > 1 and subject is not None else ""
            said = " vs ".join(f'"{_quoted(p)}" (line{"s" if len(lines[p]) > 1 else ""} '
                               f'{", ".join(map(str, lines[p])) or "?"})' for p in order)
            messages.append(f"{title}{whom}: {said}: {spelled[order[0]]}")
    return messages


def _quoted(printed: str) -> str:
    return re.sub(r"\s+", " ", printed.replace('"', "'")).strip()
