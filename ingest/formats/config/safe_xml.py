"""Jetstress configuration XML read safely (defusedxml: no DTD, no entities) with each element's line.

Apart from the field reading so the refusal rules for hostile XML sit in one short module.
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element, ParseError as XmlSyntaxError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from ...errors import ParseError


class _LineRecorder(TreeBuilder):
    """Tree builder that remembers each element's start line (ElementTree keeps none)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[Element, int] = {}
        self.expat: Any = None  # set once the parser exists

    def start(self, tag, attrs):
        element = super().start(tag, attrs)
        self.lines[element] = self.expat.CurrentLineNumber
        return element


def load_xml(name: str, data: bytes) -> tuple[Element, dict[Element, int]]:
    if not data.strip():
        raise ParseError(name, "empty file, expected a Jetstress <configuration> XML document")
    recorder = _LineRecorder()
    parser = DefusedXMLParser(target=recorder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    recorder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except DefusedXmlException as exc:
        kind = type(exc).__name__
        declared = f" <!{'DOCTYPE' if kind == 'DTDForbidden' else 'ENTITY'} {getattr(exc, 'name', '')}>"
        raise ParseError(
            name,
            f"refused{declared} ({kind}): a Jetstress configuration has no DTD, and a DTD can hold "
            "entity bombs and external entities, which are never expanded",
            line=recorder.expat.CurrentLineNumber,
        ) from None
    except XmlSyntaxError as exc:
        line = exc.position[0] if exc.position else None
        reason = str(exc).split(": line ")[0]
        raise ParseError(
            name, f"not well-formed XML: {reason} (truncated, wrong encoding, or not XML?)", line=line
        ) from None
    if local_name(root.tag) != "configuration":
        raise ParseError(
            name, f"root element is <{local_name(root.tag)}>, expected <configuration> (JetstressConfig.xml)", line=1
        )
    return root, recorder.lines


def local_name(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
