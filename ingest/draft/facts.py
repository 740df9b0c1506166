"""What a document says about the solution it tested, fact by fact, each with the line it is printed on.

A document nobody wrote a manifest for still names what was tested: its title, the storage model, the disks, the
RAID level, the simulated mailboxes. The ESRP template prints these in "Tested Deployment", "Primary Storage
Hardware" and "Primary Storage Disk Configuration" tables, and whitepapers print the same rows in their
configuration figures. Rows are matched by the meaning of their labels (the template's wording and its common
variants), never by a vendor's name or a position; a table with several solution columns gives one fact per
column. Pure: a parsed `ReportDocument` in, `Fact`s out.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ..formats.document.lines import LEGAL
from ..formats.document.records import DocumentRow, DocumentTable, ReportDocument
from ..formats.document.tables import classify
from ..jetstress.vocabulary import normalise_label
from .deferred import deferred
from .fact import Fact
from .memory import row_memory, sentence_memory
from .places import Places, Spans
from .prefilter import LEGAL_WORDS, lowered, may
from .published import Paragraphs
from .quantities import LINKS, quantity_facts
from .row_forms import joined_disk_facts, paired
from .spellings import model_name

_NUMBER = deferred(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?")
_PARENTHESES = deferred(r"\([^)]*\)")
_UNIT_IN_LABEL = deferred(r"\((KB|MB|GB|TB)\)|\s(KB|MB|GB|TB)$", re.IGNORECASE)  # "Usable (GB)", "Usable GB"
_UNIT_AFTER = deferred(r"\s*(KB|MB|GB|TB)\b", re.IGNORECASE)
_RAID = deferred(r"\bRAID[\s-]*(\d{1,2}(?:\s*\+\s*\d)?|DP|-?DP|6)\b", re.IGNORECASE)
_SSD = deferred(r"\bSSDs?\b|solid[\s-]state|\bflash\b", re.IGNORECASE)
_HDD = deferred(r"\bHDDs?\b|\brpm\b|\b\d{1,2}k\b|\bSAS\b|\bFC\b|\bSATA\b|hard[\s-]dis[kc]", re.IGNORECASE)
_MARKS = deferred(r"[™®©]")
_NAME_ROW = deferred(r"(?:vendor|maker|manufacturer|model|model (?:name|number)|product)$", re.IGNORECASE)  # names
_NUMBER_CELL = deferred(r"\s*[$€£]?\s*[\d.,]+\s*%?\s*")  # a cell of one figure (columns_are_systems)

# (fact, label pattern, what the value is); first pattern that matches a row's label wins. A value
# printed with its own unit or noun ("2 databases per host", "0.134 IOPS per user") is read by
# quantity (quantities.py) and overrides the label's reading of that fact family.
ROW_FACTS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (fact, deferred(pattern, re.IGNORECASE), kind) for fact, pattern, kind in (
        ("spare_disk_count", r"^(?:number of )?(?:global |dedicated )?(?:hot[\s-]?)?spares?(?: (?:disks?|drives?))?$", "count"),
        ("active_disk_count", r"^(?:number of )?active (?:disks|drives)$|^(?:disks|drives) (?:in use|active)$", "count"),
        ("disk_count", r"^(?!.*\b(?:maximum|max|per|slices?|spindles can)\b)(?:number|total number|total|number of)"
                       r"\b.*\b(?:disks?|drives?)\b.*\b(?:tested|test|solution|system)\b", "count"),
        ("disk_count", r"^number (?:of )?(?:physical )?(?:disks|drives)$|^(?:disks|drives)$|^(?:disks|drives),? total$|"
                       r"^total (?:disks|drives)$|^(?:disks|drives) (?:installed|fitted)$|^installed (?:disks|drives)$",
         "count"),
        ("disk_capacity", r"^(?:raw )?(?:capacity|size)\b.*\bper (?:disk|drive)|^size \((?:GB|TB)\)$", "size"),
        ("raw_capacity", r"^total raw (?:storage )?capacity", "size"),
        ("usable_capacity", r"^(?:total )?formatted (?:storage )?capacity|^total use?able space|^use?able capacity|"
                            r"^use?able(?: \(formatted\))?$|^use?able (?:capacity )?\(?(?:GB|TB)\)?$",
         "size"),
        ("media", r"^(?:disk|drive) type\b|^disks$|^drives$|^type$", "media"),
        ("raid_level", r"^raid (?:level|technology)|^protection$|^raid$", "raid"),
        ("mailboxes", r"^(?:number of )?(?:exchange )?mailboxes(?: simulated| we simulated.*)?$|^mailbox count$", "count"),
        ("iops_per_mailbox", r"per second per mailbox|iops per (?:mailbox|user)|mailbox (?:i/o )?profile|"
                             r"^(?:user )?i/o profile", "profile"),
        ("mailbox_size", r"^mailbox (?:size|quota|limit)|^quota", "size"),
        ("databases_per_server", r"^number of databases ?(?:/|per) ?(?:host|server)|^databases (?:/|per) (?:host|server)",
         "count"),
        ("databases", r"^(?:number of )?databases$", "count"),
        # Exchange 2007's template: "Number of storage groups/host" times "Number of mailbox stores/storage group"
        ("storage_groups_per_server", r"^(?:number of )?storage groups ?(?:/|per) ?(?:host|server)$", "count"),
        ("databases_per_storage_group", r"^(?:number of )?(?:mailbox )?(?:stores|databases) ?(?:/|per) ?storage group$",
         "count"),
        ("copies", r"^(?:number of )?(?:database )?copies(?: ?(?:/|per) ?database)?$", "count"),
        ("servers", r"^(?:number of )?(?:jetstress |exchange |mailbox |test )?(?:servers|hosts)$", "count"),
        ("storage_model", r"^storage model|^storage system$|^storage array$|^arrays?$|^vendor and model|^array model",
         "text"),
        ("connectivity", r"^(?:(?:host|storage|array|san|server|front[\s-]end)[\s-]+)?(?:connectivity|connection|interface|link|"
                         r"attach(?:ment|ed)?(?: via)?)(?: (?:type|protocol))?(?:$|\s*\()|^(?:storage |host )?protocol$|"
                         r"^front[\s-]end(?: ports?| connectivity)?$", "text"),
    ))
# Facts a value's own unit settles (quantities.py) before its row label does, by family.
FAMILIES = {"databases": "databases", "databases_per_server": "databases", "iops_per_mailbox": "profile",
            "messages_per_day": "profile", "disk_count": "disks", "active_disk_count": "disks"}


def number_in(text: str) -> tuple[float, str] | None:
    """The first number outside parentheses ("(4188.62GB x 4) 16754GB" -> 16754), with its printed form."""
    for candidate in (_PARENTHESES.sub(" ", text), text):
        match = _NUMBER.search(candidate)
        if match:
            printed = match[0]
            return float(printed.replace(",", "")), printed
    return None


def _size(label: str, value: str) -> tuple[float, str, str] | None:
    found = number_in(value)
    if found is None:
        return None
    stripped = _PARENTHESES.sub(" ", value)
    after = _UNIT_AFTER.match(stripped[stripped.find(found[1]) + len(found[1]):]) if found[1] in stripped else None
    in_label = _UNIT_IN_LABEL.search(label)
    unit = (after[1] if after else (in_label[1] or in_label[2]) if in_label else None)
    return (found[0], found[1], unit.upper()) if unit else None


def media_of(text: str) -> str | None:
    if _SSD.search(text):
        return "SSD"
    return "HDD" if _HDD.search(text) else None


def media_of_column(column: str) -> str | None:
    """A column headed "3 SSDs" or "… hard disk drives" names its media more surely than a "Type" cell."""
    if _SSD.search(column):
        return "SSD"
    return "HDD" if re.search(r"\bHDDs?\b|hard[\s-]dis[kc]", column, re.IGNORECASE) else None


def raid_of(text: str) -> str | None:
    match = _RAID.search(text)
    return f"RAID {match[1].replace(' ', '').upper().lstrip('-')}" if match else None


_FORMULA = deferred(r"\([^)]*[A-Za-z]{3}[^)]*\)\s*[x×*/]\s*\(", re.IGNORECASE)
_PRODUCT = deferred(r"\s*(\d{1,2})\s*[x×]\s*(\d{1,3}(?:,\d{3})+|\d+)\s*")
_THOUSANDS = deferred(r"\s*(\d+(?:\.\d+)?)\s*K\b(?!B)", re.IGNORECASE)


def _fact(fact: str, kind: str, label: str, value: str, line: int | None, column: str | None) -> Fact | None:
    quote = f"{label}: {value}" if column is None else f"{label} [{column}]: {value}"
    if kind == "count" or kind == "number":
        if _FORMULA.search(value):  # "(Database files capacity utilization) x (Total usable space) x (1,024 MB) / …"
            return None  # how a figure is computed, not the figure
        product = _PRODUCT.fullmatch(value)
        if product:  # "2 x 5,000" mailboxes: two servers' (or groups') share each, the count is the product
            count = int(product[1]) * round(float(product[2].replace(",", "")))
            return Fact(fact, str(count), float(count), None, line, quote, column)
        thousands = _THOUSANDS.match(value)
        if thousands:  # "22K" mailboxes: the count a person means, its printed form in the quote
            count = round(float(thousands[1]) * 1000)
            return Fact(fact, str(count), float(count), None, line, quote, column)
        found = number_in(value)
        return Fact(fact, found[1], found[0], None, line, quote, column) if found else None
    if kind == "size":
        size = _size(label, value)
        return Fact(fact, size[1], size[0], size[2], line, quote, column) if size else None
    if kind == "media":
        media = media_of(value)
        return Fact(fact, media, None, None, line, quote, column) if media else None
    if kind == "profile":  # "150 messages a day": never IOPS; "0.4 (0.32 plus 20% headroom)": the leading 0.4
        if any(f.fact in ("iops_per_mailbox", "messages_per_day") for f in quantity_facts(value, line, quote)):
            return None  # the value's own unit says what it is (quantities.py)
        found = number_in(value)
        leads = re.match(r"\s*\.?\d", value)
        return Fact(fact, found[1], found[0], None, line, quote, column) if found and leads else None
    if kind == "raid":
        raid = raid_of(value)
        return Fact(fact, raid, None, None, line, quote, column) if raid else None
    text = _MARKS.sub("", value).strip()
    if fact == "connectivity":
        text = _protocol(text)
    return Fact(fact, text, None, None, line, quote, column) if text and normalise_label(text) != "n/a" else None


_PROTOCOL = deferred(r"(?<![\w-])(fib(?:re|er)\s+channel|fcoe|iscsi|fc|sas)(?![\w-])", re.IGNORECASE)


def _protocol(text: str) -> str:
    """"10GbE iSCSI, four ports per controller" -> "iSCSI": a connectivity cell that names one protocol among
    other words (speeds, ports) is that protocol; a cell naming none or several is kept as printed."""
    names = {LINKS[" ".join(m[1].split()).casefold().replace("fiber", "fibre")] for m in _PROTOCOL.finditer(text)}
    return names.pop() if len(names) == 1 and len(text.split()) > 1 else text


NOT_STORAGE_KINDS = frozenset({"server_configuration", "switch_configuration", "disk_layout"})


@functools.lru_cache(maxsize=4096)  # pure, and asked of the same labels in every table that prints them
def _row_fact(label: str) -> tuple[str, str] | None:
    """(fact, kind) of the first ROW_FACTS pattern a row label matches; else of the label without its
    parenthesised qualifier ("Databases (each 2 TB volume)")."""
    for text in dict.fromkeys((label, " ".join(_PARENTHESES.sub(" ", label).split()))):
        found = next(((fact, kind) for fact, pattern, kind in ROW_FACTS if pattern.search(text)), None)
        if found is not None:
            return found
    return None


def table_facts(table: DocumentTable, unread: list[str] | None = None) -> list[Fact]:
    """The facts a configuration table prints, one per row and solution column (not the server's parts):
    by the row's label, and by quantity and unit from each cell's own words. A row whose label names a
    fact that its value does not give in any form a rule knows is left empty and said in `unread`."""
    facts: list[Fact] = []
    skipping = table.kind in NOT_STORAGE_KINDS
    systems = len(table.columns) > 1 and table.kind != "other" and columns_are_systems(table)
    for row in table.rows:
        label = _MARKS.sub("", row.label).strip().rstrip(":*").strip()
        if not any(v.strip() for v in row.values):  # a sub-heading: the rows under it are its section
            kind = classify([label], [], [], False)
            skipping = kind in NOT_STORAGE_KINDS or (skipping and kind == "other")
            continue
        printed = list(dict.fromkeys(v.strip() for v in row.values if v.strip()))  # a host a column, each alike: one
        cells = list(enumerate(row.values)) if systems else [(None, " ".join(printed))]
        if not systems:  # a machine's memory, in any table that names the machine (servers' tables too)
            facts.extend(row_memory(label, cells[0][1], row.line_of(None), f"{label}: {cells[0][1]}"))
        if skipping or LEGAL.search(label):
            continue
        row_label = label
        if systems:  # a column per system: its own vendor and model rows (elsewhere a part's maker, not the system's)
            facts.extend(_identity(label, row, table.columns))
        for index, label, value in [(i, part_label, part) for i, v in cells for part_label, part in paired(row_label, v)]:
            match = _row_fact(label)
            column = table.columns[index] if index is not None and index < len(table.columns) else None
            quote = f"{label}: {value}" if column is None else f"{label} [{column}]: {value}"
            line = row.line_of(index)
            read = [replace(f, column=column) if column is not None else f for f in quantity_facts(value, line, quote)
                    if f.fact not in ("servers",) or not match or match[0] == "servers"  # (read without a column)
                    ] if not _NAME_ROW.match(label) else []  # a model's number is its name's ("ZQ 310 SSD (x3)")
            families = {FAMILIES.get(f.fact, f.fact) for f in read}
            found = None
            if match is not None and FAMILIES.get(match[0], match[0]) not in families:
                found = _fact(match[0], match[1], label, value, line, column)
                if found is not None and found.fact == "media" and column and media_of_column(column):
                    found = Fact("media", media_of_column(column) or "", None, None, line, found.quote, column)
                if found is not None and not (found.fact == "media" and "capacity" in label.casefold()):
                    facts.append(found)
            facts.extend(read)
            if unread is not None and match is not None and found is None and not _gives(read, match[0]) \
                    and normalise_label(value) not in ("", "n/a", "-", "none"):
                unread.append(f'line {line}: "{label}" prints "{value[:80]}": no {match[0].replace("_", " ")} '
                              "read from it (" + ("messages per day are not IOPS per mailbox"
                                                  if any(f.fact == "messages_per_day" for f in read)
                                                  else "no rule reads this form") + "); left empty")
            if match is None or match[0] != "media":
                media = media_of(value) if read and any(f.fact.startswith("disk") for f in read) else None
                if media is not None:
                    facts.append(Fact("media", media, None, None, line, quote, column))
    if not skipping:
        facts.extend(joined_disk_facts(table, systems, facts))
    return facts


_IDENTITY = (("vendor", deferred(r"^(?:storage |array )?(?:vendor|manufacturer|make)$", re.IGNORECASE)),
             ("model", deferred(r"^(?:storage |array )?model(?: name)?$", re.IGNORECASE)))
# A system the document does not name: no vendor, no model ("Vendor A (anonymised)", "not disclosed").
_UNDISCLOSED = deferred(r"anonymi[sz]ed|not disclosed|undisclosed|withheld|confidential|^n/?a$|^-+$", re.IGNORECASE)


def _identity(label: str, row: DocumentRow, columns: tuple[str, ...]) -> list[Fact]:
    """Each system column's vendor or model, as its row prints it."""
    name = next((fact for fact, pattern in _IDENTITY if pattern.match(label)), None)
    if name is None:
        return []
    return [Fact(name, model_name(value) if name == "model" else value.strip(), None, None, row.line_of(index),
                 f"{label} [{column}]: {value}", column)
            for index, (column, value) in enumerate(zip(columns, row.values))
            if value.strip() and not _UNDISCLOSED.search(value.strip())]


def _gives(read: list[Fact], fact: str) -> bool:
    family = FAMILIES.get(fact)
    return any(f.fact == fact or (family and FAMILIES.get(f.fact) == family and f.fact != "messages_per_day")
               for f in read)


def columns_are_systems(table: DocumentTable) -> bool:
    """Columns are systems side by side when their cells hold the same kind of value row by row (a
    "Quantity | Description" or "Achieved | Target" header holds a number beside words)."""
    alike = unlike = 0
    for row in table.rows:
        kinds = {_kind(v) for v in row.values if v.strip()}
        if len([v for v in row.values if v.strip()]) < 2:
            continue
        if len(kinds) == 1:
            alike += 1
        else:
            unlike += 1
    return alike >= unlike


def _kind(value: str) -> str:
    return "number" if _NUMBER_CELL.fullmatch(value) else "words"


def _vendor_model(model: str) -> tuple[str, str]:
    """"Dell PowerVault MD1220 + PERC H800 Firmware (…)" -> ("Dell", "PowerVault MD1220")."""
    text = re.split(r"\s(?:\+|firmware\b|with\b|os\b)|,|;|\s\(", model, maxsplit=1, flags=re.IGNORECASE)[0].strip(" ,;")
    words = text.split()
    if len(words) < 2 or (len(words) == 2 and words[1].isdecimal()):  # a number alone is no model: "ZQ 310" is one
        return "", text  # model's letters and number
    return words[0], " ".join(words[1:])


def prose_facts(document: ReportDocument, prose: Paragraphs) -> list[Fact]:
    """Facts stated in sentences and bullets outside the reports and tables, by quantity and unit:
    what a one-system document says of its system ("on 75 600GB 10K RPM SAS disks total (72 active)")."""
    reported = Spans(document.report_spans)
    facts: list[Fact] = []
    for text, starts in prose:
        if starts[0][1] in reported:
            continue
        places = Places(starts)
        legal = may(lowered(text), *LEGAL_WORDS)  # (a sentence holds a word only where its paragraph does)
        for offset, sentence in _sentences(text):
            if legal and may(lowered(sentence), *LEGAL_WORDS) and LEGAL.search(sentence):  # a copyright or disclaimer
                continue  # names the vendor, never a fact
            line = places.line_at(offset, starts[0][1])
            covered = [line, *places.lines_within(offset, offset + len(sentence))]
            if any(n in reported for n in covered):
                continue  # a report's own lines, run on into a caption where a PDF prints no blank line
            for fact in quantity_facts(sentence, line):  # cited on the line printing its figure (a PDF may glue
                at = sentence.find(fact.value) if fact.value else -1  # a heading to the sentence below it)
                printed_on = places.line_at(offset + at, line) if at > 0 else line
                facts.append(replace(fact, quote=sentence, line=printed_on))
            facts.extend(sentence_memory(sentence, line))
            facts.extend(_labelled(sentence, line))
    return facts


_LABELLED = deferred(r"([A-Z][\w %/()-]{2,70}?):\s+(\S.*?)\.?")


def _labelled(sentence: str, line: int) -> list[Fact]:
    """"Hot spares: 1 (global; not in Tables 4 and 5)." — a table's row written as a sentence: read by its
    label as the row would be, where the value is a single number or size."""
    match = _LABELLED.fullmatch(sentence) if ":" in sentence else None  # (its colon: most sentences print none)
    found = _row_fact(match[1].strip()) if match else None
    if match is None or found is None or found[1] not in ("count", "size"):
        return []
    fact = _fact(found[0], found[1], match[1].strip(), match[2], line, None)
    return [replace(fact, quote=sentence)] if fact is not None else []


# Sentences end at a full stop; a bullet ("- 6,000 mailboxes", a word processor's "o 9000 mailboxes") starts one,
# even where extraction joined a list into one paragraph. (Each break's first space is written first: the engine
# then tries the pattern at spaces alone, not at every character; "(?<=[.!?]\s)" is the "(?<=[.!?])" before it.)
_SENTENCE_BREAK = deferred(r"\s(?:(?<=[.!?]\s)\s*(?=[-•*▪·]?\s*[A-Z0-9(©])|\s*(?=(?:[-•*▪·]|o)\s+\S)|\s*(?=[>»]\s+[^\d\s]))")


def _sentences(text: str) -> list[tuple[int, str]]:
    found, start = [], 0
    for match in _SENTENCE_BREAK.finditer(text):
        found.append((start, text[start:match.start()]))
        start = match.end()
    found.append((start, text[start:]))
    return [(offset, sentence.strip()) for offset, sentence in found if sentence.strip()]


def per_host(facts: list[Fact]) -> list[Fact]:
    """The facts of a table whose columns are the test's hosts: databases are per host, a mailbox count is
    one host's share (left to the sentences and tables that state the design's)."""
    return [replace(f, fact="databases_per_server") if f.fact == "databases" else f
            for f in facts if f.fact != "mailboxes"]


def document_facts(document: ReportDocument, unread: list[str] | None = None) -> list[Fact]:
    """Title, vendor, model, tested date, and every configuration fact the document's tables print."""
    facts: list[Fact] = []
    if document.title:
        facts.append(Fact("title", document.title, None, None, document.title_line, document.title))
    machines = {r.machine_name.strip().casefold() for r in document.reports if r.machine_name and r.machine_name.strip()}
    for table in document.tables:
        found = table_facts(table, unread)
        if len(table.columns) > 1 and machines and all(" ".join(c.split()).casefold() in machines
                                                         for c in table.columns if c.strip()):
            found = per_host(found)  # a column a host: each count is one host's, not the design's
        facts.extend(found)
    firsts: dict[str | None, Fact] = {}  # each system column's first storage model row
    for fact in facts:
        if fact.fact == "storage_model":
            firsts.setdefault(fact.column, fact)
    for model in firsts.values():
        vendor, name = _vendor_model(model.value)
        if vendor:
            facts.append(Fact("vendor", vendor, None, None, model.line, model.quote, model.column))
        facts.append(Fact("model", name, None, None, model.line, model.quote, model.column))
    for report in document.reports:
        start = next((kv for kv in report.key_values if normalise_label(kv.label) == "test start time"), None)
        if start is not None and start.value.split():  # a start time printed without its value says no date
            facts.append(Fact("tested_date", start.value.split()[0], None, None, start.line,
                              f"{start.label}: {start.value}"))
            break
    return facts
