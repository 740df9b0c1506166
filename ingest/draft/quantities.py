"""Facts read by quantity and unit, from free text: a table cell or a sentence, any vendor's wording.

The same fact is printed many ways ("72 x 300GB 15K SAS", "(48) 450GB 10K drives", "75 600GB 10K RPM
SAS disks total (72 active)", "60 in use plus 4 global spares", "an I/O profile of 0.134 IOPS per
user", "200 messages a day (0.14 IOPS)"): each rule reads a number by the unit or noun printed
beside it, never by the label or place it sits in, so a wording no table template uses is still
read, and a number whose unit says it is something else (messages per day beside a profile) is
never taken for the fact. Pure: text in, `Fact`s out (`facts.Fact`, without a table column).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .deferred import deferred
from .fact import Fact
from .prefilter import lowered, may

_N = r"(\d{1,3}(?:,\d{3})+|\d+)"
# Where a count may start: not inside a word or a number, nor after a letter and a hyphen, which make the number
# part of a name ("ZQ-31 SSD (x3)" is the ZQ-31 model, not 31 SSDs; "EXCH-MB02"): a model renamed must read the same.
_COUNT_AT = r"(?<![\w.,])(?<![^\W\d_][-\u2010\u2011])"
_DECIMAL = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.\d+|\d+)"
_DISK_NOUN = r"(?:disks?|drives?|spindles?|HDDs?|SSDs?|hard\s+dis[kc]s?)"
_SPEED = r"(?:(\d{1,2}(?:\.\d)?)\s?K(?:\s?RPM)?|(\d{1,2},?\d{3})\s?RPM)"
_INTERFACE = r"(NL[\s-]?SAS|SAS|SATA|FC|Fibre\s+Channel|NVMe|SSD|SAS\s+SSD)"

# "72 x 300GB 15K SAS", "(48) 450GB 10K SAS 6Gbps drives", "75 600GB 10K RPM SAS disks", "36 x 2TB 7.2K NL-SAS"
DISK_GROUP = deferred(
    rf"{_COUNT_AT}(?:\(\s*{_N}\s*\)\s*|{_N}(?:\s*[x×*]\s*|\s+))(\d+(?:\.\d+)?)\s?([GgTt](?-i:B))\b(?!\s*(?:per|/))"
    rf"(?:[\s,]*{_SPEED})?(?:[\s,]*{_INTERFACE})?", re.IGNORECASE)
_DISK_AFTER = deferred(rf"[\s,]*(?:\d+\s?Gb(?:ps|/s)\s*)?(?:\w+\s+){{0,2}}{_DISK_NOUN}", re.IGNORECASE)
SIZE_FIRST = deferred(rf"(\d+(?:\.\d+)?)\s?([GgTt](?-i:B))\b(?:[\s,]*{_SPEED})?(?:[\s,]*{_INTERFACE})?", re.IGNORECASE)
SPARES = deferred(rf"(?:{_COUNT_AT}{_N}\s+(?:are\s+)?(?:global\s+|dedicated\s+)?(?:hot[\s-]?)?spares?\b"
                  rf"|\bspares?\s*(?:drives?|disks?)?\s*[:=]?\s*{_N}(?![\w.,]))", re.IGNORECASE)
ACTIVE = deferred(rf"{_COUNT_AT}{_N}\s+(?:{_DISK_NOUN}\s+)?(?:are\s+)?(?:active|in\s+use|carrying\s+data|for\s+data)\b",
                  re.IGNORECASE)
TOTAL_DISKS = deferred(rf"{_COUNT_AT}{_N}\s+(?:(?:physical|total)\s+)?{_DISK_NOUN}\b(?!\s*(?:per|/|each|enclosure))",
                       re.IGNORECASE)
# "over all 48 installed drives", "all 44 disks were zeroed": the whole system's disks, however worded
ALL_DISKS = deferred(rf"\ball\s+{_N}\s+(?:installed\s+|physical\s+)?{_DISK_NOUN}\b(?!\s+(?:in|of)\s+(?:one|each|the|a)\b)",
                     re.IGNORECASE)
SHELVES = deferred(rf"(?<![\w.,-]){_N}\s+(?:shelves|enclosures|trays|drawers)\s+of\s+{_N}\s+{_DISK_NOUN}", re.IGNORECASE)
RAID = deferred(r"\bRAID[\s-]*(1/0|1\+0|0\+1|10|50|60|DP|TEC|[0-9])(?![\d/+])", re.IGNORECASE)
_RAID_NAMES = {"1/0": "10", "1+0": "10"}
# "0.134 IOPS per user", "0.12 IOPS/mailbox", ".3 IOPS per mailbox"; never "150 messages a day"
IOPS_PER_MAILBOX = deferred(rf"(?<![\w,]){_DECIMAL}\s*(?:I/?Os?PS|I/O's\s+per\s+second|I/Os?\s+per\s+second)\s*"
                            r"(?:\(\w+\)\s*)?(?:per|/|an?|each)\s*(?:active\s+)?(?:mailbox|user)", re.IGNORECASE)
IOPS_IN_PARENTHESES = deferred(rf"\(\s*{_DECIMAL}\s*I/?Os?PS\s*\)", re.IGNORECASE)
MESSAGES = deferred(rf"{_COUNT_AT}{_N}\s+(?:e-?mail\s+)?messages?\s*"
                    r"(?:(?:sent\s+and\s+received\s+)?(?:per|a|/)\s*day|/day|daily)", re.IGNORECASE)
# never "Exchange 2013 mailboxes" (a release before the noun, not a count)
_SPACED_N = r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,.])|\d{1,3}(?:,\d{3})+|\d+)"  # "6 000" too
MAILBOXES = deferred(rf"{_COUNT_AT}(?<!exchange\s)(?<!server\s){_SPACED_N}\s+"
                     r"(?:(?:Exchange|active|simulated|user|heavy|light|medium)\s+){0,2}"
                     r"(?:mailboxes|users)\b(?!\s*(?:per|/|each|on\s+each))", re.IGNORECASE)
# compiled now, not deferred (deferred.py): quantity_facts tells them by `match.re is`
MAILBOX_THOUSANDS = re.compile(rf"{_COUNT_AT}(\d+(?:\.\d+)?)\s?K\s+(?:(?:active|simulated|heavy|light)\s+)?(?:mailboxes|users)\b",
                               re.IGNORECASE)
MAILBOX_PRODUCT = re.compile(rf"{_COUNT_AT}(\d{{1,2}})\s*[x×]\s*{_N}\s+(?:(?:active|simulated)\s+)?(?:mailboxes|users)\b",
                             re.IGNORECASE)
MAILBOX_SIZE = deferred(rf"(?:mailbox(?:es)?\s+(?:limit|quota|size|capacity)\s*[:=]?\s*(?:of\s+|is\s+|was\s+)?"
                        rf"{_DECIMAL}\s?(MB|GB)\b"
                        rf"|{_DECIMAL}\s?(MB|GB)\s+(?:mailbox(?:es)?|quota|per\s+(?:mailbox|user))\b"
                        # "10,000 mailboxes of 512 MB", "20,000 mailboxes, 3 GB each", "6 000 mailboxes at 2 GB"
                        rf"|\b(?:mailboxes|users)\s*(?:of|at|with|,)\s+{_DECIMAL}\s?(MB|GB)\b(?!\s*(?:of\s+)?(?:RAM|memory|cache)))",
                        re.IGNORECASE)
COPIES = deferred(rf"{_COUNT_AT}{_N}\s+(?:database\s+)?copies\b", re.IGNORECASE)
DATABASES = deferred(rf"{_COUNT_AT}{_N}\s+(?:mailbox\s+)?databases?\b(?!\s+(?:availability|volumes?|luns?|files?|"
                     r"size|copies|servers?|reads?|writes?|disks?|drives?|paths?|I/?Os?(?:PS)?\b|transactions?|"
                     r"(?:average\s+)?latency|cache|pages?))"
                     r"(?:\s+(per|/|on each|each)\s*(?:host|server|vm))?", re.IGNORECASE)
_RELEASE_OF = r"(?<!exchange\s)(?<!server\s)(?<!windows\s)(?<!jetstress\s)(?<!vsphere\s)(?<!esxi\s)"  # "Exchange 2010 VM"
SERVERS = deferred(rf"{_COUNT_AT}{_RELEASE_OF}{_N}\s+(?:(?:Exchange|mailbox|Jetstress|physical|virtual|test)\s+){{0,2}}"
                   r"(?:servers?|hosts?|VMs?|virtual\s+machines)\b(?!\s*(?:per|/|each))", re.IGNORECASE)
# "connected over Fibre Channel to", "through iSCSI", "direct-attached SAS": how hosts reach the storage
# "an NX3400 iSCSI array", "Fibre Channel storage", "four 8Gb FC host ports per controller": the storage's own link
_LINK = r"(Fibre\s+Channel|FCoE|iSCSI|FC|(?<![\w-])(?<!\dK\s)SAS)"  # never "10K SAS" (the drives)
CONNECTIVITY = deferred(r"\b(?:over|via|through|using|across)\s+(?:\w+\s+){0,3}?(Fibre\s+Channel|FCoE|iSCSI|FC)\b"
                        r"|\b(?:direct[\s-]attached|DAS)\s+(?:over\s+)?(SAS)\b"
                        rf"|\b{_LINK}\s+(?:(?:storage|SAN)\s+)?(?:arrays?|storage|SAN)\b(?!\s+switch)"
                        rf"|\b\d+\s?Gb(?:E|ps|/s)?\s+{_LINK}\s+(?:(?:host|front[\s-]end|target)\s+)?ports?\b",
                        re.IGNORECASE)
LINKS = {"fc": "Fibre Channel", "fibre channel": "Fibre Channel", "iscsi": "iSCSI", "fcoe": "FCoE", "sas": "SAS"}
_CAN_HOLD = deferred(r"\b(?:up\s+to|maximum|max\.?|supports?|scales?\s+to|expand\w*|room\s+for|can\s+(?:host|hold))"
                     r"\W*(?:\w+\W+)?$", re.IGNORECASE)  # "room for up to 384 drives": what it could hold
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20, "twenty-four": 24}
_WORD = "(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + ")"
# "in eight databases with two copies each", "one copy each": a design's small counts in words
# ("8 storage groups with one database each" counts databases per group, not the databases).
WORD_DATABASES = deferred(rf"\b{_WORD}\s+(?:mailbox\s+)?databases?\b(?!\s+(?:each|per|availability|cop|volumes?|luns?|"
                          r"files?|size|servers?|disks?|drives?|paths?))", re.IGNORECASE)
_EACH_SERVER = deferred(r"\beach\b[^.;]{0,40}\b(?:servers?|hosts?|vms?)\b|\b(?:per|each)\s+(?:server|host|vm)\b", re.IGNORECASE)
# "8 storage groups with one database each": Exchange 2007's storage groups, each holding one database.
GROUPS_OF_ONE_DATABASE = deferred(
    rf"{_COUNT_AT}(?:{_N}|{_WORD})\s+storage\s+groups?\b[^.;]{{0,40}}?\b(?:with|of|holding|each\s+(?:with|holding))\s+"
    r"(?:one|a\s+single|1)\s+(?:mailbox\s+)?database\b(?:\s+each)?", re.IGNORECASE)
_PER_GROUP = deferred(r"\beach\s+(?:storage\s+group|LUN|volume|disk\s+group)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
WORD_COPIES = deferred(rf"\b{_WORD}\s+(?:database\s+)?cop(?:y|ies)\b", re.IGNORECASE)


# A prefilter, never a rule: every match of a pattern holds (case aside) a word its `may` call names, so where
# none of them is in the text the search cannot match and is skipped: ALL_DISKS "all"; DISK_GROUP and SIZE_FIRST
# "GB"/"TB"; SHELVES shelves|enclosures|trays|drawers; TOTAL_DISKS a _DISK_NOUN ("dis" of disk and "hard disc");
# ACTIVE active|in use|carrying data|for data; SPARES "spare"; MESSAGES "message"; IOPS_PER_MAILBOX mailbox|user;
# MAILBOX_THOUSANDS, MAILBOX_PRODUCT and MAILBOXES mailboxes|users; MAILBOX_SIZE mailbox|quota|user; COPIES "copies";
# DATABASES and WORD_DATABASES "database"; GROUPS_OF_ONE_DATABASE "storage" and "database"; SERVERS server|host|vm|
# virtual; WORD_COPIES "cop"; CONNECTIVITY fibre|fc (FCoE too)|iscsi|sas; RAID "raid" (prefilter.py).
_DISK_NOUN_WORDS = ("dis", "drive", "spindle", "hdd", "ssd")


def _number(printed: str) -> float:
    return float(re.sub(r"[,\s]", "", printed))  # "6,000", "6 000" (a space, a no-break space)


def _rpm(match: re.Match[str], k_group: int) -> int | None:
    thousands, plain = match[k_group], match[k_group + 1]
    if thousands:
        return int(round(float(thousands) * 1000))
    return int(plain.replace(",", "")) if plain else None


def interface_of(text: str | None) -> str | None:
    if not text:
        return None
    word = re.sub(r"[\s-]+", "-", text.strip()).upper()
    return {"FIBRE-CHANNEL": "FC", "NL-SAS": "NL-SAS", "NLSAS": "NL-SAS", "SAS-SSD": "SAS"}.get(word, word)


# What a rule reads from a text, before its line and quote are put to it: (fact, value, number, unit).
Read = tuple[tuple[str, str, float | None, str | None], ...]


def _facts(read: Read, line: int | None, quote: str) -> list[Fact]:
    return [Fact(fact, value, number, unit, line, quote, by_quantity=True) for fact, value, number, unit in read]


def disk_facts(text: str, line: int | None, quote: str) -> list[Fact]:
    """Disk counts on every basis, size, speed and interface from one cell or sentence."""
    return _facts(_disk_read(text), line, quote)


# Pure functions of the text alone, and a document asks them of the same text again and again (a cell read by
# its table and by its joined rows, a sentence by each system's reading, a repeated header): read once.
@functools.lru_cache(maxsize=8192)
def _disk_read(text: str) -> Read:
    found: list[tuple[str, str, float | None, str | None]] = []

    def add(fact: str, value: str, number: float | None, unit: str | None = None) -> None:
        found.append((fact, value, number, unit))

    def describe(match: re.Match[str], size: int) -> None:
        """Size, speed and interface of one disk description, from the groups starting at `size`."""
        add("disk_capacity", match[size], float(match[size]), match[size + 1].upper())
        rpm = _rpm(match, size + 2)
        if rpm:
            add("disk_rpm", str(rpm), rpm)
        if match[size + 4]:
            add("disk_interface", interface_of(match[size + 4]) or "", None)

    if not _ANY_DIGIT.search(text):  # every pattern below counts or sizes in digits
        return ()
    low = lowered(text)  # each pattern below is searched only where its own words are (see _may)
    for match in ALL_DISKS.finditer(text) if may(low, "all") else ():  # "all 44 disks were zeroed": every disk
        add("all_disks_stated", match[1], _number(match[1]))
    group = next((g for g in DISK_GROUP.finditer(text) if _is_disk_group(text, g)), None) if may(low, "gb", "tb") else None
    if group is not None:
        count = group[1] or group[2]
        if _number(count) >= 1 and not _is_capacity_total(text, group):
            # "(48) 1.2TB 10K SAS drives plus 2 hot spares": the spares come on top, the group is the active disks
            beside = any(_IN_ADDITION.fullmatch(text, group.end(), m.start()) for m in SPARES.finditer(text, group.end()))
            add("active_disk_count" if beside else "disk_count", count, _number(count))
        describe(group, 3)
    else:
        size = SIZE_FIRST.search(text) if may(low, "gb", "tb") and _DISK_WORDS.search(text) else None
        if size is not None and (size[3] or size[4] or size[5]):
            describe(size, 1)
        elif size is not None:
            _described_before(text, add)
        shelves = SHELVES.search(text) if may(low, "shel", "enclos", "tray", "drawer") else None
        total = next((m for m in TOTAL_DISKS.finditer(text) if not _CAN_HOLD.search(text[max(0, m.start() - 30):m.start()])),
                     None) if may(low, *_DISK_NOUN_WORDS) else None
        if shelves is not None:
            count = int(_number(shelves[1]) * _number(shelves[2]))
            add("disk_count", str(count), count)
        elif total is not None and not ACTIVE.match(text, total.start()):
            add("disk_count", total[1], _number(total[1]))
    for match in ACTIVE.finditer(text) if may(low, "active", "use", "data") else ():
        if _disks_meant(text, match):
            add("active_disk_count", match[1], _number(match[1]))
    for match in SPARES.finditer(text) if may(low, "spare") else ():
        count = match[1] or match[2]
        add("spare_disk_count", count, _number(count))
    return tuple(found)


_DISK_NOUN_RE = deferred(_DISK_NOUN, re.IGNORECASE)
_IN_ADDITION = deferred(rf"\s*(?:{_DISK_NOUN}\b)?[\s,;]*(?:plus|\+|and|along\s+with|besides)\s*",  # between a
                        re.IGNORECASE)  # disk description and a spare count: the spares come on top of the disks
_ANY_DIGIT = deferred(r"\d")  # the same digits the patterns' \d matches
_DISKS_OR_SPARES = deferred(_DISK_NOUN + r"|\bspares?\b", re.IGNORECASE)
_DISK_WORDS = deferred(_DISK_NOUN + r"|\bK\b|RPM|SAS|SATA", re.IGNORECASE)  # a cell that speaks of disks
_NOT_DISKS = deferred(r"\s*(?:\w+\s+)?(?:database|databases|copies|copy|mailbox|mailboxes|users?|ports?|controllers?|"
                      r"paths?|links?|hosts?|servers?|vms?|nodes?|sessions?|threads?|instances?|luns?|volumes?)\b",
                      re.IGNORECASE)


def _disks_meant(text: str, match: re.Match[str]) -> bool:
    """"72 active" counts disks only where disks are spoken of, and no other noun follows it
    ("8 active database copies", "6 active (2 per controller)" ports are not disks)."""
    if _DISK_NOUN_RE.search(match[0]):
        return True
    return bool(_DISKS_OR_SPARES.search(text)) and not _NOT_DISKS.match(text, match.end())


def _is_disk_group(text: str, group: re.Match[str]) -> bool:
    """A count and a size are disks when a speed, an interface or a disk noun goes with them
    ("2 x 4 GB memory" is not), and no link or port follows ("4 x 8Gb FC per controller" are ports)."""
    if _LINK_AFTER.match(text, group.end()):
        return False
    return bool(group[5] or group[6] or group[7] or _DISK_AFTER.match(text, group.end()))


# What follows a count and a size when they are links, not disks: "ports", "per controller", "HBA".
_LINK_AFTER = deferred(r"[\s,]*(?:ports?|links?|hbas?|nics?|adapters?|uplinks?|switch\w*|connections?|"
                       r"per\s+(?:controller|port|host|server|node|hba|switch|link))\b", re.IGNORECASE)
# "SAS 6Gbps 10K 1.2 TB", "SAS 15K, 300 GB": interface and speed printed right before the size
SPEED_FIRST = deferred(rf"(?<![\w-])(?:{_INTERFACE}[\s,]+(?:\d+(?:\.\d+)?\s?Gb(?:ps|/s)[\s,]+)?)?{_SPEED}[\s,]+"
                       r"(\d+(?:\.\d+)?)\s?(GB|TB)\b(?!\s*(?:per|/))", re.IGNORECASE)


def _described_before(text: str, add) -> None:
    """A disk's size printed right after its speed (and interface): "SAS 6Gbps 10K 1.2 TB"."""
    match = SPEED_FIRST.search(text)
    if match is None:
        return
    add("disk_capacity", match[4], float(match[4]), match[5].upper())
    rpm = _rpm(match, 2)
    if rpm:
        add("disk_rpm", str(rpm), rpm)
    if match[1]:
        add("disk_interface", interface_of(match[1]) or "", None)


def _is_capacity_total(text: str, group: re.Match[str]) -> bool:
    """"21,600 GB (72 x 300 GB)": the number before the size is a capacity, not a count."""
    return bool(re.match(r"\s*(?:GB|TB)\b", text[group.end(3):], re.IGNORECASE)) and group[1] is None and \
        bool(re.search(r"\(\s*\d+\s*x", text[group.end():], re.IGNORECASE))


def design_facts(text: str, line: int | None, quote: str) -> list[Fact]:
    """The simulated design: mailboxes, IOPS per mailbox (never messages per day), mailbox size,
    databases, copies, servers; RAID level."""
    return _facts(_design_read(text), line, quote)


@functools.lru_cache(maxsize=8192)  # pure, and asked of the same text again and again (_disk_read)
def _design_read(text: str) -> Read:
    found: list[tuple[str, str, float | None, str | None]] = []

    def add(fact: str, value: str, number: float | None, unit: str | None = None) -> None:
        found.append((fact, value, number, unit))

    low = lowered(text)
    if _ANY_DIGIT.search(text):  # only the link, the RAID level and counts in words are named without a digit
        _counted_design(text, add, low)
    _worded_design(text, add, {f[0] for f in found}, low)
    link = CONNECTIVITY.search(text) if may(low, "fibre", "fc", "iscsi", "sas") else None
    if link is not None:
        name = next(group for group in link.groups() if group)
        add("connectivity", LINKS.get(" ".join(name.split()).casefold(), name), None)
    raid = RAID.search(text) if may(low, "raid") else None
    if raid is not None:
        add("raid_level", f"RAID {_RAID_NAMES.get(raid[1], raid[1].upper())}", None)
    return tuple(found)


def _counted_design(text: str, add, low: str | None) -> None:
    """The figures of a design printed in digits (design_facts), through its `add`."""
    messages = may(low, "message")
    for match in MESSAGES.finditer(text) if messages else ():
        add("messages_per_day", match[1], _number(match[1]), "messages/day")
    profile = IOPS_PER_MAILBOX.search(text) if may(low, "mailbox", "user") else None
    if profile is None and messages and MESSAGES.search(text):
        profile = IOPS_IN_PARENTHESES.search(text)  # "200 messages a day (0.14 IOPS)"
    if profile is not None and _number(profile[1]) < 10:
        add("iops_per_mailbox", profile[1], _number(profile[1]), "IOPS/mailbox")
    mailboxes = may(low, "mailboxes", "users")
    counted = (MAILBOX_THOUSANDS.search(text) or MAILBOX_PRODUCT.search(text)) if mailboxes else None
    if counted is not None:  # "22K users", "2 x 11,000 mailboxes": the count a person means
        factor = 1000.0 if counted.re is MAILBOX_THOUSANDS else _number(counted[1])
        add("mailboxes", counted[0].strip(), factor * _number(counted[2] if counted.re is MAILBOX_PRODUCT else counted[1]))
    else:
        for match in MAILBOXES.finditer(text) if mailboxes else ():
            if _number(match[1]) >= 10 and not _is_messages(text, match):
                add("mailboxes", match[1], _number(match[1]))
                break
    size = MAILBOX_SIZE.search(text) if may(low, "mailbox", "quota", "user") else None
    if size is not None:
        printed, unit = next((size[i], size[i + 1]) for i in (1, 3, 5) if size[i])
        add("mailbox_size", printed, _number(printed), unit.upper())
    for match in COPIES.finditer(text) if may(low, "copies") else ():
        add("copies", match[1], _number(match[1]))
        break
    for match in DATABASES.finditer(text) if may(low, "database") else ():
        add("databases_per_server" if match[2] else "databases", match[1], _number(match[1]))
        break
    else:
        groups = GROUPS_OF_ONE_DATABASE.search(text) if may(low, "database") and may(low, "storage") else None
        if groups is not None and groups[1]:
            add("databases", groups[1], _number(groups[1]))
    for match in SERVERS.finditer(text) if may(low, "server", "host", "vm", "virtual") else ():
        add("servers", match[1], _number(match[1]))
        break


def _worded_design(text: str, add, stated: set[str], low: str | None) -> None:
    """Databases and copies counted in words, where digits gave none (design_facts)."""
    groups = GROUPS_OF_ONE_DATABASE.search(text) if not stated & {"databases", "databases_per_server"} \
        and may(low, "database") and may(low, "storage") else None
    if groups is not None and groups[2]:  # "six storage groups with one database each"
        add("databases", groups[2], float(_WORD_NUMBERS[groups[2].casefold()]))
        stated = stated | {"databases"}
    for fact, pattern, word in (("databases", WORD_DATABASES, "database"), ("copies", WORD_COPIES, "cop")):
        match = pattern.search(text) if fact not in stated and fact + "_per_server" not in stated \
            and may(low, word) else None
        if match is not None and _PER_GROUP.search(text, 0, match.start()):
            match = None  # "Each storage group holds one mailbox database": one per group, not the count
        if match is not None:
            per_server = fact == "databases" and _EACH_SERVER.search(text)  # "each of the four servers … in four databases"
            add(f"{fact}_per_server" if per_server else fact, match[1], float(_WORD_NUMBERS[match[1].casefold()]))


def _is_messages(text: str, match: re.Match[str]) -> bool:
    return bool(MESSAGES.match(text, match.start()))


def word_count(text: str) -> int | None:
    """"Two IBM System x3650 M4" -> 2; for counts printed as words."""
    first = text.strip().split(" ", 1)[0].casefold()
    return _WORD_NUMBERS.get(first)


def quantity_facts(text: str, line: int | None, quote: str | None = None) -> Iterator[Fact]:
    """Every fact the text states by quantity and unit (see the module docstring)."""
    quote = quote if quote is not None else text
    yield from disk_facts(text, line, quote)
    yield from design_facts(text, line, quote)
