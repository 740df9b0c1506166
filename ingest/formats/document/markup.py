"""A cell's visible text: Markdown and HTML markup, links and escapes removed, whitespace collapsed.

The cleaning every line of a document's text goes through (`lines.make_line`), and detection too
(`identify`). Pure.
"""

from __future__ import annotations

import re

_TAGS = re.compile(r"</?(?:b|u|i|em|strong|br|p|span|div|sup|sub|font|small|big)\b[^>]*>", re.IGNORECASE)
_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\n]*)\)")
_AUTOLINK = re.compile(r"<((?:https?://|mailto:|[A-Za-z]:\\|\\\\)[^>\n]*)>")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
_CODE = re.compile(r"`([^`\n]*)`")
_ESCAPE = re.compile(r"\\+(?=[_*$#\[\]`|~])")

MARKUP = re.compile(r"[<\[`*_\\]")  # a character some markup starts with or holds


def clean(text: str) -> str:
    """Visible text of a cell: markup, Markdown links and escapes removed, whitespace collapsed."""
    if not MARKUP.search(text):  # (str.split takes "\xa0" for the whitespace it is; in ASCII text with no control
        stripped = text.strip()     # character the space is the only one: none doubled, stripping does it; 21 -> 15 ms)
        return stripped if "  " not in stripped and text.isascii() and text.isprintable() else " ".join(text.split())
    # each pattern asked only where the text, as the ones before left it, holds a mark all its matches hold
    # (most of these cells hold a path's backslash and nothing else; 40 PDFs' 2,800 such cells: 47 -> 18 ms)
    text = _TAGS.sub("", text) if "<" in text else text
    text = _LINK.sub(lambda m: m[1] if m[1].strip() else m[2], text) if "](" in text else text
    text = _AUTOLINK.sub(r"\1", text) if "<" in text else text
    text = _CODE.sub(r"\1", text) if "`" in text else text
    for _ in range(2):  # "**<b>x</b>**" and nested emphasis
        text = _BOLD.sub(r"\2", text) if "**" in text or "__" in text else text
    text = _ITALIC.sub(r"\1", text) if "*" in text else text
    text = _ESCAPE.sub("", text) if "\\" in text else text
    # (str.split's whitespace is \s's, "\xa0" among it: words joined by one space, as a substitution of every run
    # then a strip leave them, with no match made a string: 2,800 cells, mostly a test log's, 17 -> 3 ms)
    return " ".join(text.split())
