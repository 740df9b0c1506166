"""Which words of a system's name are its maker and which its model, from how the document itself names it.

A document names a system whole once ("Graymoor GS-1200") and by its model alone everywhere else
("GS-1200 costs 45% less"): the words it drops are the maker's. Its legal lines say which names are
brands of which company ("Brightwater and TerraVault are trademarks of Brightwater Storage Corp."):
a brand read as a vendor ("TerraVault" of "TerraVault 7600") is the product line, and the company is the
vendor. No list of vendors: only the document's own words. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..formats.document.lines import Line
from .company import NOT_A_NAME, NOT_VENDORS
from .deferred import deferred
from .fact import Fact

_NAME = r"[A-Z][\w&-]*(?:\s+[A-Z0-9][\w&-]*){0,3}?"  # a brand may end in its number ("ZQ 310")
_LEGAL_FORM = deferred(r",?\s+(?:Inc|Corp|Corporation|Co|AB|AG|Ltd|LLC|GmbH|SA|plc)\b\.?$")
# "A, B and C are (registered) trademarks of COMPANY", "B is a registered trademark of COMPANY"
_TRADEMARKS = deferred(
    rf"(?P<brands>{_NAME}(?:\s*,\s*{_NAME})*(?:,?\s+and\s+{_NAME})?)\s+(?:is\s+an?|are)\s+(?:registered\s+)?"
    rf"trademarks?\s+(?:or\s+registered\s+trademarks?\s+)?of\s+(?P<company>[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){{0,3}})")
_BRAND_SPLIT = deferred(r"\s*,\s*|,?\s+and\s+")
_MODEL_WORD = deferred(r"[A-Za-z-]*\d[\w-]*")


def brand_owners(texts: Iterable[str]) -> dict[str, str]:
    """Each brand the legal lines name, case-folded, with the company that owns it."""
    owners: dict[str, str] = {}
    for text in texts:
        if "trademark" not in text:  # every match holds it: the pattern is case-sensitive and spells it out
            continue
        for match in _TRADEMARKS.finditer(text):
            company = _LEGAL_FORM.sub("", " ".join(match["company"].split()))
            for brand in _BRAND_SPLIT.split(match["brands"]):
                brand = " ".join(brand.split())
                if brand and brand.casefold() != company.casefold():
                    owners.setdefault(brand.casefold(), company)
    return owners


def owned_brand(facts: list[Fact], owners: dict[str, str]) -> list[Fact]:
    """A vendor fact that is a brand of a company the document names: the company is the vendor, the brand
    part of the model ("TerraVault" + "7600" -> "Brightwater Storage", "TerraVault 7600"). So is a vendor
    that, with the model after it, is the brand ("ZQ" + "310" where "ZQ 310 is a trademark of Veltrane")."""
    vendor = next((f for f in facts if f.fact == "vendor"), None)
    if vendor is None:
        return facts + _model_owner(facts, owners)
    model = next((f for f in facts if f.fact == "model"), None)
    whole = f"{vendor.value} {model.value}".casefold() if model is not None else None
    company = owners.get(vendor.value.casefold()) or (owners.get(whole) if whole else None)
    if company is None:
        return facts
    changed = []
    for fact in facts:
        if fact.fact == "vendor" and fact.value.casefold() == vendor.value.casefold():
            fact = Fact("vendor", company, None, None, fact.line, fact.quote, fact.column)
        elif fact.fact == "model" and not fact.value.casefold().startswith(vendor.value.casefold()):
            fact = Fact("model", f"{vendor.value} {fact.value}", None, None, fact.line, fact.quote, fact.column)
        changed.append(fact)
    return changed


def maker_words(name: str, text: str) -> tuple[str, str] | None:
    """(maker, model) of a system's name when the document also names it by its last words alone, the
    model keeping a word with a digit ("Graymoor GS-1200" where "GS-1200 costs…" stands on its own)."""
    words = name.split()
    for cut in range(1, len(words)):
        maker, model = " ".join(words[:cut]), " ".join(words[cut:])
        if not any(_MODEL_WORD.fullmatch(w) for w in words[cut:]) or not maker[:1].isupper() or model.isdecimal():
            continue  # (a number alone is no model: "ZQ 310" is one model's letters and number)
        if cut > 3 or re.search(r"[\d:,;|]", maker):  # a sentence or a title, not a maker's name
            continue
        alone = re.compile(rf"(?<![\w-])(?<!{re.escape(words[cut - 1])} ){re.escape(model)}(?![\w-])")
        if alone.search(text):
            return maker, model
    return None


def maker_before(name: str, lines: list[Line]) -> tuple[str, str] | None:
    """(maker, model) of a system the document names by its model ("NA-440") where a table's cell or a part
    of a title prints it whole ("Eskilde NA-440  |  Velmora Strata 2600"), or begins with it before a comma
    ("Strata Peak SP-2200, dual RAID controllers"): the capitalised words before the model in that cell,
    never an article, a common word of these documents or a platform's maker."""
    if not any(_MODEL_WORD.fullmatch(word) for word in name.split()):
        return None
    whole = re.compile(rf"((?:[A-Z][\w&.-]*\s+){{1,3}}){re.escape(name)}(?:[,;]\s.*)?")
    for line in lines:
        if name not in line.text:
            continue
        for cell in line.cells:  # a table's cells, or a title's parts set apart by pipes or wide spaces
            match = whole.fullmatch(cell.strip())
            if match is None:
                continue
            maker = " ".join(match[1].split())
            first = maker.split()[0].casefold()
            if not re.search(r"\d", maker) and first not in NOT_A_NAME and first not in NOT_VENDORS \
                    and first not in _ARTICLES:
                return maker, name
    return None


_ARTICLES = frozenset({"a", "an", "the", "this", "that", "its", "their", "our", "table", "figure", "model", "system"})


def maker_facts(name: str, text: str, lines: list[Line]) -> list[Fact]:
    """Vendor and model of a name the document also prints by its model alone (maker_words), or of a model
    the document also prints after its maker in a cell of its own (maker_before)."""
    found = maker_words(name, text) or maker_before(name, lines)
    if found is None:
        return []
    line = next((ln.number for ln in lines if name in ln.text), None)
    quote = next((ln.text for ln in lines if name in ln.text), name)
    return [Fact("vendor", found[0], None, None, line, quote), Fact("model", found[1], None, None, line, quote)]


def model_maker(facts: list[Fact], lines: list[Line]) -> list[Fact]:
    """The vendor of a system whose model the document states and whose name is no maker's and model's (a
    title): the maker a cell prints before that model (maker_before)."""
    model = next((f for f in facts if f.fact == "model"), None)
    found = maker_before(model.value, lines) if model is not None else None
    if found is None:
        return []
    line = next((ln for ln in lines if found[0] in ln.text and model.value in ln.text), None)
    return [Fact("vendor", found[0], None, None, line.number if line else model.line, line.text if line else model.quote)]


def _model_owner(facts: list[Fact], owners: dict[str, str]) -> list[Fact]:
    """The vendor of a model named with no maker, when the legal lines name the model, or its product line, as
    a company's brand ("KB-31 is a registered trademark of Veltrane Inc."): that company."""
    model = next((f for f in facts if f.fact == "model" and f.value.split()), None)
    if model is None:
        return []
    owner = owners.get(model.value.casefold()) or owners.get(model.value.split()[0].casefold())
    return [Fact("vendor", owner, None, None, model.line, model.quote, model.column)] if owner else []
