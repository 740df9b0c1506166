"""The company behind a system, as the document names it where it names the company itself.

A title or a model row names the vendor by its short name ("Corvane NX3400"); the document names
the company whole where it speaks of the company, not the product: its trademark and copyright
lines ("… are trademarks of Corvane Systems", "© 2014 Halvorsen Data"), and the ESRP template's
own sentences ("represents the current view of Quillon Networks on the issues discussed", "provides
information on the Ostara Data storage solution"). A short vendor is widened to the company whose
name starts with it; the legal form (Inc., Corp., AB) is not part of the name. A title that names
the system after "on" or "for the" ("Exchange 2013 on the Halvorsen HD-7800 with vSphere"), or before
what it is for ("Corvane NX3400 for Exchange …", "KB-31 All-Flash Storage for …"), gives the system's
vendor and model when nothing else does. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from ..formats.document.records import ReportDocument
from .deferred import deferred
from .fact import Fact
from .prefilter import holding, lowered, may

_NAME = r"([A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,3}?)"
_LEGAL_FORM = r"(?:,?\s+(?:Inc|Corp|Corporation|Co|AB|AG|Ltd|LLC|GmbH|SA|S\.A|plc|B\.V|N\.V)\b\.?)?"
_COMPANY = deferred(  # the keywords in any case, the name capitalised
    rf"(?i:trademarks?\s+of\s+|©\s*(?:\d{{4}}\s+)?|\(c\)\s*\d{{4}}\s+|copyright\s+(?:©\s*)?\d{{4}}\s+|"
    rf"current\s+view\s+of\s+){_NAME}{_LEGAL_FORM}(?=\s+(?i:on\s+the\s+issues)|[.,;]|\s*$)"
    rf"|(?i:information\s+on\s+(?:the\s+)?){_NAME}(?=\s+(?i:storage\s+solution))")
# A line that is a company's name alone, as a letterhead or running header prints it ("Quillon Storage Systems",
# "PELLUCID NETWORKS | WHITE PAPER"): a capitalised name ending in a word only a company's name ends in.
_HEADER_COMPANY = deferred(r"^\s*([A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,2}\s+(?i:systems|networks|storage\s+systems|"
                           r"technologies|inc\.?|corporation|corp\.?|labs|laboratories|computing))\s*(?:\||$)")
_HEADER_WORDS = ("systems", "networks", "technologies", "inc", "corp", "labs", "laboratories", "computing")
_ANY_WORD = ("trademark", "(c)", "copyright", "current", "information", *_HEADER_WORDS)
NOT_A_NAME = frozenset({"exchange", "mailbox", "tested", "storage", "test", "the", "our", "fibre", "server", "servers",
                         "systems", "host", "hosts", "san", "array", "lab", "other", "all", "both", "network"})
# Companies whose names stand in every document beside the vendor's: never the system's maker.
NOT_VENDORS = frozenset({"microsoft", "vmware", "intel", "emulex", "qlogic", "broadcom", "cisco", "brocade", "windows"})


def company_names(texts: Iterable[str]) -> list[str]:
    """Company names the texts print in legal lines and the ESRP template's sentences, in order."""
    found: list[str] = []
    # none of the words of either prefilter below (most lines): asked nothing
    for text in holding(list(texts), *_ANY_WORD):
        # every match holds "trademark", "(c)", "copyright", "current" or "information" (case aside) or "©",
        # which no ASCII text holds (prefilter.py)
        low = lowered(text)
        names = [" ".join((match[1] or match[2]).split()) for match in _COMPANY.finditer(text)] \
            if may(low, "trademark", "(c)", "copyright", "current", "information") else []
        # every match ends in "systems", "networks", "technologies", "inc", "corp"("oration"), "labs",
        # "laboratories" or "computing" (case aside)
        header = _HEADER_COMPANY.match(text) if may(low, *_HEADER_WORDS) else None
        if header is not None and header[1].split()[0].casefold() not in NOT_A_NAME:
            names.append(_cased(" ".join(header[1].split())))
        for name in names:
            if name.split()[0].casefold() not in NOT_VENDORS and name not in found:
                found.append(name)
    return found


def _cased(name: str) -> str:
    """A letterhead's capitals as the name is written ("PELLUCID NETWORKS" -> "Pellucid Networks"); a short
    word in capitals is an acronym and stays ("IBM")."""
    return " ".join(w.capitalize() if w.isupper() and len(w) > 3 else w for w in name.split()) if name.isupper() else name


def widened(vendor: str, companies: list[str]) -> str:
    """The company whose name starts with the short `vendor` ("Corvane" -> "Corvane Systems"), else `vendor`."""
    words = vendor.casefold().split()
    longer = [c for c in companies if c.casefold().split()[:len(words)] == words and len(c.split()) > len(words)]
    return min(longer, key=len) if longer else vendor


def with_company(facts: list[Fact], companies: list[str]) -> list[Fact]:
    """Each vendor fact widened to its company (`widened`), and the company's further words taken off the front
    of the model beside it: a name read as "<first word> <the rest>" split a two-word company ("Violin" +
    "Memory FS-2240", where the document names "Violin Memory") as it splits "Corvane" + "NX3400"."""
    further: dict[str | None, list[str]] = {}
    out = []
    for fact in facts:
        if fact.fact == "vendor":
            company = widened(fact.value, companies)
            further[fact.column] = company.casefold().split()[len(fact.value.split()):]
            fact = replace(fact, value=company)
        out.append(fact)
    return [_without_company(fact, further[fact.column]) if fact.fact == "model" and further.get(fact.column)
            else fact for fact in out]


def _without_company(model: Fact, further: list[str]) -> Fact:
    words = model.value.split()
    taken = 0
    while taken < min(len(further), len(words) - 1) and words[taken].casefold() == further[taken]:
        taken += 1
    return replace(model, value=" ".join(words[taken:])) if taken else model


_PRODUCT = deferred(r"\s(?:on|for)\s+(?:the\s+)?", re.IGNORECASE)
_PRODUCT_ENDS = deferred(r"\s+(?:with|for|on|and|in|using|running|from)\s+|\s*[:|–—(]\s*|\s+-\s+|"
                         r"\s+\d[\d,]*\s*K?\s+(?:mailbox|user)|"
                         r"\s+(?:storage|array|san|all-flash|reference|architecture|validated|best|sizing|solution)\b|"
                         r"\s+(?:NL-?SAS|SAS|SATA|SSDs?|FC|iSCSI|Fibre|\d+(?:\.\d)?K|\d+\s*GbE?)\b", re.IGNORECASE)
_MODEL_WORD = deferred(r"[A-Za-z-]*\d[\w-]*")


def title_product(title: str, companies: list[str]) -> tuple[str | None, str] | None:
    """(vendor, model) of the system a title names after "on"/"for the"; None when it names no model number."""
    for match in _PRODUCT.finditer(title):
        phrase = _PRODUCT_ENDS.split(" " + title[match.end():], maxsplit=1)[0].strip(" ,;")
        words = phrase.split()
        if not 1 <= len(words) <= 4 or not _MODEL_WORD.fullmatch(words[-1]) or words[0].casefold() in NOT_VENDORS:
            continue
        company = next((c for c in companies if words[0].casefold() == c.casefold().split()[0]), None)
        if company is not None and len(words) > 1:
            return company, " ".join(words[1:])
        # a model alone (a number alone is none: "ZQ 310" is one model), or a product line the company's name
        # does not start
        if len(words) == 1 or companies or (len(words) == 2 and words[1].isdecimal()):
            return (companies[0] if companies else None), phrase
        return words[0], " ".join(words[1:])
    return None


def title_product_facts(document: ReportDocument, companies: list[str]) -> list[Fact]:
    """The vendor and model facts of `title_product`, cited on the title's line."""
    found = title_product(document.title or "", companies)
    if found is None:
        return []
    vendor, model = found
    quote = f"title: {document.title}"
    facts = [Fact("model", model, None, None, document.title_line, quote)]
    return facts + ([Fact("vendor", vendor, None, None, document.title_line, quote)] if vendor else [])


_TITLE_ENDS = deferred(r"\s+(?:for|with|on|and|in|using|running)\s+|\s*[:|–—]\s*|\s+-\s+|\s+\d[\d,]*\s+(?:mailbox|user)|"
                       r"\s+(?:microsoft|exchange|storage\s+solution|reference|validated|best|sizing|performance|"
                       r"all-flash|hybrid|unified)\b|"
                       r"\s+(?:NL-?SAS|SAS|SATA|SSDs?|FC|iSCSI|\d+(?:\.\d)?K)\b", re.IGNORECASE)


def title_system(document: ReportDocument, companies: list[str]) -> list[Fact]:
    """Vendor and model from the title block, for a one-system document no configuration table names:
    the words before the title says what the system is for ("<vendor> <model> for Exchange …",
    "<vendor> <model> 6000 Mailbox Resiliency …"); nothing when those words hold no model number. A model
    alone ("KB-31 All-Flash Storage for …") is made by the company the document names, as title_product's."""
    if not document.title:
        return []
    head = _TITLE_ENDS.split(" " + document.title, maxsplit=1)[0].strip(" ,;")
    words = head.split()
    quote = f"title: {document.title}"
    if len(words) == 1 and _MODEL_WORD.fullmatch(words[0]) and any(ch.isalpha() for ch in words[0]):
        model = Fact("model", words[0], None, None, document.title_line, quote)
        return [model, Fact("vendor", companies[0], None, None, document.title_line, quote)] if companies else [model]
    if len(words) < 2 or len(words) > 6 or not any(re.search(r"\d", w) for w in words[1:]):
        return []
    return [Fact("vendor", words[0], None, None, document.title_line, quote),
            Fact("model", " ".join(words[1:]), None, None, document.title_line, quote)]
