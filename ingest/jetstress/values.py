"""How Jetstress prints values, and what they are: numbers with thousands separators,
percentages, cache sizes, thread counts, booleans, durations, US date-times, volume labels.

Pure and format-independent (HTML cells, PDF text, *.log lines). Each parser raises
`ValueError` quoting the text it could not read; "(n/a)" and blanks are None.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from functools import lru_cache

from ...schema.units import size_factor
from .dates import us_datetime

_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")

_NOT_AVAILABLE = frozenset({"", "(n/a)", "n/a", "na", "-", "--", "nan"})
# US digits only: "6,667.51", "1,337,014,042,624", "0.019", "1.05381856535713", "1e-05".
_NUMBER = re.compile(r"[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?")
# What other extractions print around the same number: a space (or a no-break or narrow space, or an
# apostrophe) between thousands, "1 177.258"; a latency cell with its unit, "14.076 ms".
_SPACE_GROUPED = re.compile(r"[+-]?\d{1,3}(?:[ \u00a0\u202f']\d{3})+(?:\.\d+)?")
_LATENCY_UNIT = re.compile(r"\s*(?:ms|msec)\.?$", re.IGNORECASE)


def is_not_available(text: str) -> bool:
    return text.strip().casefold() in _NOT_AVAILABLE


def parse_number(text: str) -> float | None:
    """A printed number, thousands separators allowed; "(n/a)" and blanks are None."""
    if _NUMBER.fullmatch(text):  # the usual cell: a bare number, nothing to strip or look up
        return _finite(float(text.replace(",", "")), text)
    if is_not_available(text):
        return None
    cleaned = _LATENCY_UNIT.sub("", text.strip())
    if _SPACE_GROUPED.fullmatch(cleaned):
        cleaned = re.sub(r"[ \u00a0\u202f']", "", cleaned)
    if not _NUMBER.fullmatch(cleaned):
        raise ValueError(f"not a number: {text!r}")
    return _finite(float(cleaned.replace(",", "")), text)


_CELL_DECORATION = re.compile(r"^\s*(?:us)?[$€£]\s*|\s*(?:%|percent|iops|/s(?:ec)?|ms|msec|s|sec|[kmgt]i?b|w|watts?|mb/s|rpm)?"
                              r"\.?\s*[*†‡§¹²³]*\s*$", re.IGNORECASE)  # a footnote mark: "3,380*" is the marked run


_DIGIT = re.compile(r"\d")  # the Unicode digits _NUMBER's and _SPACE_GROUPED's \d match


# Memoised: the 40-PDF benchmark's 12,585 cells print only 2,044 texts ("Pass", "0.000", ...), and the writer asks
# of every cell (writer CPU 50 -> 7 ms). The value is a float or None: nothing a caller could change.
@lru_cache(maxsize=16384)
def cell_number(text: str) -> float | None:
    """A table cell as a number when it is one, its currency or unit printed in it or not ("8,397.621",
    "$80,098", "US$ 61,870", "45%", "2,153.9 IOPS", "11.2 ms", "1 234 GB", "3,380*"); None for anything else."""
    if _NUMBER.fullmatch(text):  # most cells: a bare number, nothing the decoration strips (parse_number's first look)
        number = float(text.replace(",", ""))
        return number if math.isfinite(number) else None
    if _DIGIT.search(text) is None:  # no digit, no number: the decoration's costly sub is not needed to say so
        return None
    try:
        return parse_number(_CELL_DECORATION.sub("", text))
    except ValueError:
        return None


def _finite(number: float, text: str) -> float:
    if not math.isfinite(number):  # "1e999": no measurement is that large
        raise ValueError(f"number out of range: {text!r}")
    return number


def parse_int(text: str) -> int | None:
    """An integer, exact even for byte counts beyond 2**53."""
    number = parse_number(text)
    if number is None:
        return None
    cleaned = re.sub(r"[, \u00a0\u202f']", "", text.strip())
    try:
        return int(cleaned)
    except ValueError:
        if number.is_integer():
            return int(number)
        raise ValueError(f"not a whole number: {text!r}") from None


_PERCENT = re.compile(r"(?P<n>[\d.,]+)\s*(?:%|percent)?", re.IGNORECASE)


def parse_percent(text: str) -> float | None:
    """ "40%", "40 percent" or "40" -> 40.0."""
    if is_not_available(text):
        return None
    match = _PERCENT.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a percentage: {text!r}")
    return parse_number(match["n"])


_SIZE = re.compile(r"(?P<n>[\d.,]+)\s*(?P<unit>bytes|byte|b|kb|mb|gb|tb)", re.IGNORECASE)
_SIZE_UNIT = {"b": "B", "byte": "B", "bytes": "B", "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB"}


def parse_size_mb(text: str) -> float | None:
    """A cache size as Jetstress prints it ("256.0 MB", "3,328.0 MB", "2.0 GB") in MB (binary prefixes)."""
    if is_not_available(text):
        return None
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a size with a unit (KB, MB, GB, TB): {text!r}")
    # Jetstress sizes use binary prefixes: "2048.0 MB" in the report is "2.0 GB" in the log.
    unit = _SIZE_UNIT[match["unit"].lower()]
    return parse_number(match["n"]) * (size_factor(unit, "binary") / size_factor("MB", "binary"))


_THREADS = re.compile(r"(?P<n>\d[\d,]*)\s*(?:\((?P<scope>[^)]*)\))?")
THREAD_SCOPES: dict[str, str] = {
    "per storage group": "per_storage_group",
    "per database": "per_database",
    "global": "global",
}


def parse_thread_count(text: str) -> tuple[int | None, str | None]:
    """ "21 (per-storage group)" -> (21, "per_storage_group"); a bare "7" is global (2013+)."""
    if is_not_available(text):
        return None, None
    match = _THREADS.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a thread count: {text!r}")
    if match["scope"] is None:
        return parse_int(match["n"]), "global"
    scope = _SPACE.sub(" ", match["scope"].replace("-", " ")).strip().casefold()
    if scope not in THREAD_SCOPES:
        raise ValueError(f"unknown thread count scope {match['scope']!r}; known: {', '.join(THREAD_SCOPES)}")
    return parse_int(match["n"]), THREAD_SCOPES[scope]


_BOOLEANS = {"true": True, "yes": True, "false": False, "no": False}


def parse_bool(text: str) -> bool | None:
    if is_not_available(text):
        return None
    try:
        return _BOOLEANS[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"not True/False: {text!r}") from None


_DURATION = re.compile(r"(?:(?P<d>\d+)\.)?(?P<h>\d+):(?P<m>\d{2}):(?P<s>\d{2}(?:\.\d+)?)")


def parse_duration_seconds(text: str) -> float | None:
    """ "05:51:58" (or .NET "1.05:51:58", or plain seconds) -> seconds."""
    if is_not_available(text):
        return None
    match = _DURATION.fullmatch(text.strip())
    if not match:
        return parse_number(text)
    days = int(match["d"] or 0)
    return ((days * 24 + int(match["h"])) * 60 + int(match["m"])) * 60 + float(match["s"])


# Rarer spellings, tried with strptime after the fast path for the usual one.
DATETIME_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y %I:%M %p")
_US_DATETIME = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}) (\d{1,2}):(\d{2}):(\d{2}) ?([AP])M")


def parse_datetime(text: str) -> datetime | None:
    """Jetstress local time "9/18/2008 2:54:59 PM" (US order, no zero padding, no zone).

    The usual spelling is read with a regex (a test log has thousands; strptime is slow).
    """
    if is_not_available(text):
        return None
    cleaned = _SPACE.sub(" ", text.strip()).upper()
    match = _US_DATETIME.fullmatch(cleaned)
    if match:
        month, day, year, hour, minute, second, half = match.groups()
        moment = us_datetime(month, day, year, hour, minute, second, half=half)
        if moment is not None:
            return moment
        raise ValueError(f"not a Jetstress date-time (M/D/YYYY h:mm:ss AM): {text!r}")
    for fmt in DATETIME_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
    raise ValueError(f"not a Jetstress date-time (M/D/YYYY h:mm:ss AM): {text!r}")


_VERDICTS = {"pass": "Pass", "passed": "Pass", "fail": "Fail", "failed": "Fail"}


def parse_verdict(text: str) -> str:
    try:
        return _VERDICTS[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"not Pass or Fail: {text!r}") from None


def parse_lines(text: str) -> list[str]:
    """A multi-line value (Performance Log paths, Test Issues): one entry per non-blank line."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_text(text: str) -> str | None:
    return text.strip() or None


_VOLUME = re.compile(r"(?P<role>database|log)\s*\(\s*(?P<volume>.+?)\s*\)", re.IGNORECASE)


_PATH = re.compile(r"(?:[A-Za-z]:|\\\\[^\\\s]+)(?:\\[^\\]*)*\\?")
# A folder names its role whole ("Logs", "DB1") or at its end ("SG1DB", "SG1LOG").
_PATH_ROLE = (("log", re.compile(r"logs?\d*\b|transaction", re.IGNORECASE)),
              ("database", re.compile(r"(?:db|dbs|database|databases|\bdata|\bmailbox|edb)\d*\b", re.IGNORECASE)))


def parse_volume_label(text: str) -> tuple[str, str]:
    """2007 LogicalDisk row label "Database (c:\\db1)" -> ("database", "c:\\db1"); a mount point printed alone
    names its role in its folders ("L:\\SG1\\Log" -> ("log", …), "E:\\SG1\\DB" -> ("database", …))."""
    label = _TAG.sub("", text).strip()
    match = _VOLUME.fullmatch(label)
    if not match and _PATH.fullmatch(label):
        folders = " ".join(label.replace("\\", " ").replace(":", " ").split())
        roles = [role for role, words in _PATH_ROLE if words.search(folders)]
        if len(roles) == 1:
            return roles[0], label
    if not match:
        raise ValueError(f'not a volume label like "Database (c:\\db1)" or "Log (F:)": {text!r}')
    return match["role"].lower(), match["volume"]


_INSTANCE_PATH = re.compile(r"(?P<key>log path|database)\s*:\s*(?P<path>.*)", re.IGNORECASE)


def parse_instance_paths(text: str) -> tuple[str | None, tuple[str, ...], list[str]]:
    """ "Log path: …" / "Database: …" lines -> (log path, database paths, lines not understood)."""
    log_path, databases, other = None, [], []
    for line in parse_lines(text):
        match = _INSTANCE_PATH.fullmatch(line)
        if not match:
            other.append(line)
        elif match["key"].lower() == "log path":
            log_path = match["path"].strip() or None
        elif match["path"].strip():
            databases.append(match["path"].strip())
    return log_path, tuple(databases), other
