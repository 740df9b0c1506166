"""When two printed names of one thing disagree: models, versions, sizes and operating systems by shape.

A document names its hardware and software many times, abbreviated in one place and spelled out in
another ("Windows Server 2008 R2" and "… R2 Enterprise Service Pack 1 (6.1.7601.65536)"; "08.02.0060"
and "08.02.0060.000"; "PRO/1000PT" and "PRO/1000 PT"). Those are one name. Two names disagree only
where both state the same part and state it differently: another digit or letter in a model number,
another version, another size or speed, another service pack, release or edition. Nothing here
knows a vendor or a product: a model is a token of letters and digits, a version a dotted number,
an edition the word a name carries right after its release. Pure: text in, values and verdicts out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .deferred import deferred

# A model-shaped token holding two digits or more and a letter (models() checks both). The tokens are those of
# r"(?<![\w/.-])([A-Za-z0-9]+(?:[/-][A-Za-z0-9]+)*)" that may hold them: no token starts inside another (the
# lookbehind fails there), so leaving one out moves no other; words and bare numbers are skipped by the engine,
# not one at a time in Python (11,000 lines of 40 PDFs: 0.156 s -> 0.131 s without the letter's lookahead).
_TOKEN = deferred(r"(?<![\w/.-])(?=[A-Za-z/-]*\d[A-Za-z/-]*\d)(?=[0-9/-]*[A-Za-z])([A-Za-z0-9]+(?:[/-][A-Za-z0-9]+)*)")
_QUANTITY = deferred(r"^\d+(?:\.\d+)?(?:k|x|u|gb|tb|mb|kb|gbps|gbs|mbps|gbe|ghz|mhz|rpm|w|v|nm|ns|ms|th|st|nd|rd|"
                     r"port|bit|core|way)s?$", re.IGNORECASE)
_COUNTED = deferred(r"^\d+(?:\.\d+)?-?[A-Za-z]+$")  # "25-disk", "64bit", "12Gb": a number and its noun
_NOT_MODEL_AFTER = deferred(r"(?:firmware|fw|revision|rev|version|driver|build)\W*$", re.IGNORECASE)
# "5300 V3", "2950 server": a bare model number after a capitalised product word, in a model's own row only
_LONGEST_VERSION_WORD = len("firmware")  # the longest word _NOT_MODEL_AFTER names
_WORD_CHAR = deferred(r"\w")
_TWO_DIGITS = deferred(r"\d\D*\d")
_LETTER, _DIGIT, _NOT_KEY = deferred(r"[a-z]"), deferred(r"\d"), deferred(r"[^a-z0-9]")
# "Flexa 5650, firmware …" too; the number's group, after its space: the engine skips from space to space, not
# trying the lookbehind at every character (models over 40 PDFs' lines: 78 -> 71 ms)
_BARE_NUMBER = deferred(r" (?<=[A-Za-z] )(\d{3,5})(?![\w./-]|,\d)")
VERSION = deferred(r"(?<![\w])[vV]?\.?(\d+(?:\.\d+){2,})(?![\w.])")
_SIZE = deferred(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(TB|GB|MB)(?![a-z/])")
_UNIT_GB = {"TB": 1024.0, "GB": 1.0, "MB": 1 / 1024}
_SPEED = deferred(r"(?<![\w.,])(?:(\d{1,2}(?:\.\d)?)\s?[Kk](?:\s?RPM)?|(\d{1,2},?\d{3})\s?RPM)\b", re.IGNORECASE)
# The parts of an operating system's name that can disagree.
_SERVICE_PACK = deferred(r"\b(?:service\s+pack|sp)\s*(\d+)\b", re.IGNORECASE)
_YEAR = deferred(r"^(?:19|20)\d\d$")
_RELEASE = deferred(r"^r\d$", re.IGNORECASE)
_NOT_EDITION = frozenset({"edition", "with", "w", "and", "on", "for", "running", "the", "update", "x64", "x86", "bit",
                          "service", "pack", "version", "build", "server", "64-bit", "32-bit", "sp"})


@dataclass(frozen=True)
class Model:
    """A model-shaped token as printed, with the key it is compared by."""

    printed: str
    key: str  # letters and digits only, lower case: "PRO/1000 PT" and "PRO/1000PT" are one key's start


def skeleton(text: str) -> str:
    return _NOT_KEY.sub("", text.lower())


def _after_a_version_word(text: str, start: int) -> bool:
    """Whether "firmware", "rev", "build"… and nothing but non-word characters come before `start`.

    The same as searching the whole text before `start`, read from `start` backwards: the word ends
    where the run of non-word characters before `start` begins, and no word is longer than eight
    letters (a line of a hundred tokens searched its whole prefix for each of them)."""
    end = start
    while end > 0 and not _WORD_CHAR.match(text, end - 1):
        end -= 1
    return _NOT_MODEL_AFTER.search(text, max(0, end - _LONGEST_VERSION_WORD), start) is not None


def models(text: str, *, bare_numbers: bool = False) -> list[Model]:
    """Model-shaped tokens, in order: letters and at least two digits ("PS6100XV", "R710", "QLE2460"),
    never a quantity ("300GB", "15K", "6Gbps") or what follows "firmware"; `bare_numbers` also takes a
    number right after a capitalised word ("StorageWorks 4400"), which only a model's own row may hold."""
    found: list[tuple[int, Model]] = []
    if not _TWO_DIGITS.search(text):  # every model holds two digits (most prose lines hold none)
        return []
    for match in _TOKEN.finditer(text):
        token = match[1]
        if not _TWO_DIGITS.search(token):
            continue
        key = skeleton(token)
        if (len(key) < 4 or not _LETTER.search(key) or len(_DIGIT.findall(key)) < 2
                or _QUANTITY.match(key) or _COUNTED.match(token) or _after_a_version_word(text, match.start())
                or text[match.end():match.end() + 1] == "."):
            continue
        found.append((match.start(), Model(token, key)))
    if bare_numbers:
        for match in _BARE_NUMBER.finditer(text):
            before = text[:match.start(1)].rsplit(None, 1)  # (its last word alone is asked)
            if before and before[-1][:1].isupper() and not _after_a_version_word(text, match.start(1)):
                found.append((match.start(1), Model(match[1], match[1])))
    return [m for _, m in sorted(found, key=lambda f: f[0])]


def near(a: str, b: str) -> bool:
    """Two model keys a digit or letter or two apart ("ps6100xv"/"ps6110xv", "r710"/"t610",
    "p4000xv"/"ps4000xv"): the same kind of thing named differently, not two unrelated parts."""
    if a == b:
        return False
    if len(a) == len(b) and _shape(a) == _shape(b):
        return sum(x != y for x, y in zip(a, b)) <= 2
    return min(len(a), len(b)) >= 5 and _one_edit(a, b)


def distance(a: str, b: str) -> int:
    """Characters that differ (same length), else the length difference plus one: how far apart two keys are."""
    return sum(x != y for x, y in zip(a, b)) if len(a) == len(b) else abs(len(a) - len(b)) + 1


_SHAPES = str.maketrans("abcdefghijklmnopqrstuvwxyz0123456789", "a" * 26 + "9" * 10)


def _shape(key: str) -> str:
    if key.isascii():  # (a key's letters and digits: one translation, not two substitutions through re's cache)
        return key.translate(_SHAPES)
    return re.sub(r"\d", "9", re.sub(r"[a-z]", "a", key))


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) != 1:
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def versions(text: str) -> list[tuple[str, tuple[int, ...]]]:
    """Dotted versions of three parts or more, as printed and as numbers ("14.01.0225.017" -> (14, 1, 225, 17))."""
    return [(m[1], tuple(int(p) for p in m[1].split("."))) for m in VERSION.finditer(text)]


def same_version(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Equal, leading zeros aside, or one a shortening of the other ("08.02.0060" of "08.02.0060.000")."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def sizes_gb(text: str) -> list[tuple[str, float]]:
    """Sizes printed with their unit, as printed and in GB (the units' own binary steps)."""
    return [(m[0], float(m[1].replace(",", "")) * _UNIT_GB[m[2]]) for m in _SIZE.finditer(text)]


def same_size(a: float, b: float) -> bool:
    """Equal within a percent, or equal once one side's GB is read as 10^9 bytes and the other's as 2^30
    (a disk's 900 GB label is 838 GB as Windows counts), or one side's TB as 1,000 GB, not 1,024 (a disk's
    "1.2 TB" is its "1,200 GB"): one size printed in two conventions."""
    return any(abs(a * f - b) <= 0.01 * max(a * f, b) for f in (1.0, 1e9 / 2**30, 2**30 / 1e9, 1000 / 1024, 1024 / 1000))


def speeds_rpm(text: str) -> list[tuple[str, int]]:
    """Rotational speeds: "15K", "10k RPM", "7.2K", "10,000 RPM"."""
    return [(m[0], int(float(m[1]) * 1000) if m[1] else int(m[2].replace(",", ""))) for m in _SPEED.finditer(text)]


@dataclass(frozen=True)
class SystemName:
    """An operating system's name, in the parts that can disagree."""

    core: tuple[str, ...]  # years and releases, in order: ("2008", "r2")
    service_pack: int | None
    builds: tuple[tuple[int, ...], ...]
    tokens: tuple[str, ...]  # every word, lower case, in order
    cased: tuple[str, ...]  # the same words as printed

    @property
    def complete(self) -> bool:
        """Printed with its build, as a report prints it: what it leaves out, it does not have."""
        return bool(self.builds)


def system_name(text: str) -> SystemName:
    flat = _SERVICE_PACK.sub(lambda m: f" sp{m[1]} ", text)
    builds = tuple(v for _, v in versions(flat))
    words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", VERSION.sub(" ", flat))]
    tokens = tuple(w.lower() for w in words)
    packs = [int(t[2:]) for t in tokens if re.fullmatch(r"sp\d+", t)]
    return SystemName(tuple(t for t in tokens if _YEAR.match(t) or _RELEASE.match(t)), packs[0] if packs else None,
                      builds, tokens, tuple(words))


def _edition(name: SystemName, shared: set[str]) -> str | None:
    """The capitalised word right after the last year or release both names print ("Enterprise")."""
    last = max((i for i, t in enumerate(name.tokens) if t in shared), default=None)
    if last is None:
        return None
    for token, cased in zip(name.tokens[last + 1:], name.cased[last + 1:]):
        if token in _NOT_EDITION or re.fullmatch(r"sp\d+|x\d+|\d+", token):
            continue
        return token if cased[:1].isupper() and cased.isalpha() else None
    return None


def system_names_differ(a: SystemName, b: SystemName) -> str | None:
    """Why two operating system names cannot be one system, or None when one may abbreviate the other."""
    years_a, years_b = {t for t in a.core if _YEAR.match(t)}, {t for t in b.core if _YEAR.match(t)}
    if years_a and years_b and not years_a & years_b:
        return "another version"
    releases_a, releases_b = {t for t in a.core if _RELEASE.match(t)}, {t for t in b.core if _RELEASE.match(t)}
    if releases_a != releases_b and (releases_a and releases_b or (a.complete and releases_b)
                                     or (b.complete and releases_a)):
        return "another release"
    if a.service_pack != b.service_pack and (
            (a.service_pack is not None and b.service_pack is not None)
            or (a.complete and a.service_pack is None) or (b.complete and b.service_pack is None)):
        return "another service pack"
    if a.builds and b.builds and not any(same_version(x, y) for x in a.builds for y in b.builds):
        return "another build"
    shared = set(a.core) & set(b.core)
    editions = _edition(a, shared), _edition(b, shared)
    if None not in editions and editions[0] != editions[1] and editions[0] not in b.tokens \
            and editions[1] not in a.tokens:
        return "another edition"
    return None


# What a model cell adds after the model: its count ("(x3)") and the kind of hardware ("SSD", "JBOD enclosure").
_MODEL_TAIL = deferred(r"(?:\s+\((?:x|×)\s*\d+\)|\s+\(\d+\s*x?\)|\s+(?:ssds?|hdds?|drives?|disks?|jbod|enclosures?|shelf|"
                       r"shelves|array|storage|system|appliance|chassis))+$", re.IGNORECASE)
_MODEL_NUMBER = deferred(r"\b[A-Za-z-]*\d[\w-]*")


def model_name(value: str) -> str:
    """"QX400 SSD (x3)" -> "QX400", "HS-24 JBOD enclosure" -> "HS-24": the words after a model that say how
    many or what kind of hardware it is, where what stays still holds a model number."""
    shorter = _MODEL_TAIL.sub("", value.strip())
    return shorter if shorter and _MODEL_NUMBER.search(shorter) else value.strip()
