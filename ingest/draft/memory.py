"""How much memory a document says a machine of the design has: "Hyper-V hosts | …, 192 GB", "Each VM was
given 48 GB of memory". A fact per holder ("memory:hyper-v host", "memory:vm"), so a host's memory is only
ever compared with the same host's (audit/findings/stated_twice.py), never a VM's or a management server's.
Only where the words say memory (RAM, memory) or the row names the machine whose figure it is; a cache, a
disk or a mailbox in GB is never memory. Pure.
"""

from __future__ import annotations

import re

from .deferred import deferred
from .fact import Fact
from .prefilter import lowered, may

_HOLDER = r"((?:[A-Z][\w-]*\s+)?(?:hosts?|servers?|VMs?|virtual\s+machines?|nodes?))"
_GB = r"(\d{1,4})\s*GB"
_NOT_MEMORY = deferred(r"^\s*(?:of\s+)?(?:\w+\s+){0,2}?(?:cache|SAS|SSD|SATA|HDD|disks?|drives?|mailbox|LUN|volume|"
                       r"flash|NL-SAS|\d+K)\b", re.IGNORECASE)
_MEMORY_WORDS = deferred(r"\bRAM\b|\bmemory\b", re.IGNORECASE)
# "Each Hyper-V host is fitted with 256 GB of RAM", "Each VM was given 48 GB of memory", "the hosts have 192 GB RAM"
_SENTENCE = deferred(rf"\b(?:each|every|the|all|both)\s+{_HOLDER}\b[^.;]{{0,40}}?\b{_GB}\s+(?:of\s+)?(?:RAM|memory)\b",
                     re.IGNORECASE)
_ROW_HOLDER = deferred(rf"^{_HOLDER}(?:\s+memory|\s+RAM)?$|^(?:memory|RAM)\s+(?:per|of each)\s+{_HOLDER}$",
                       re.IGNORECASE)
_ROW_MEMORY = deferred(r"^(?P<holder>.*?)\s*(?:memory|RAM)$", re.IGNORECASE)


def holder_name(words: str) -> str:
    """"Hyper-V hosts" -> "hyper-v host", "virtual machines" -> "vm": one spelling for one kind of machine."""
    text = " ".join(words.casefold().split())
    text = re.sub(r"virtual machines?$", "vm", text)
    return re.sub(r"(host|server|vm|node)s$", r"\1", text)


def sentence_memory(sentence: str, line: int | None) -> list[Fact]:
    if not may(lowered(sentence), "ram", "memory"):  # every match ends in one, case aside (most sentences hold neither)
        return []
    return [_fact(holder_name(m[1]), m[2], line, sentence) for m in _SENTENCE.finditer(sentence)]


def row_memory(label: str, value: str, line: int | None, quote: str) -> list[Fact]:
    """A row that names the machine ("Hyper-V hosts", "VM memory") and prints its memory in GB."""
    named = _ROW_HOLDER.match(label.strip())
    holder = next((g for g in (named.groups() if named else ()) if g), None)
    if holder is None:
        memory = _ROW_MEMORY.match(label.strip())
        holder = memory["holder"] if memory and re.search(_HOLDER, memory["holder"], re.IGNORECASE) else None
        if holder is None:
            return []
    for match in re.finditer(_GB, value, re.IGNORECASE):
        after = value[match.end():]
        if _NOT_MEMORY.match(after) or re.search(r"\d\s*x\s*$", value[:match.start()]):
            continue  # "600GB 10K SAS", "24 GB cache", "2 x 300GB": not memory
        said = _MEMORY_WORDS.search(label) or _MEMORY_WORDS.match(after.strip()) or not re.search(r"\d", after)
        if said:
            return [_fact(holder_name(holder), match[1], line, quote)]
    return []


def _fact(holder: str, printed: str, line: int | None, quote: str) -> Fact:
    return Fact(f"memory:{holder}", printed, float(printed), "GB", line, quote)
