"""Zotero RDF (`.rdf`, Zotero's "Export Collection… → Zotero RDF"): RDF/XML whose top-level
resources are the library's items (`bib:Article`, `rdf:Description`… with a `z:itemType`),
their attachments and notes (`z:Attachment`, `bib:Memo`) and the journals and series they are
part of (`bib:Journal`).

Each item with a type other than an attachment or a note is a record: its own `dc:title`,
`bib:authors` (`foaf:surname`, `foaf:givenName`), `dcterms:abstract`, `dc:date`,
`dc:subject` keywords, `dc:identifier` (a `dcterms:URI` link; `DOI 10.…` text), and the title
of what it is part of (nested, or a resource named by `rdf:resource`) as its venue; read
by `records.paper_from_record` with its type (`sources.kinds`: a book or a web page without a
paper's identifier is no paper). Parsed by expat one element at a time, with its line; a
document type declaring entities (the way to a billion values from a few lines) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.parsers import expat

from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.limits import DEPTH_LIMIT
from paperatlas.sources.record_shape import by_shape
from paperatlas.sources.records import paper_from_record

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_NOT_ITEMS = frozenset(("attachment", "note"))
_NOT_AUTHORS = re.compile(r"editor|translator|contributor|reviewed", re.IGNORECASE)  # (`seriesEditors`)
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")


def looks_like_zotero_rdf(head: str) -> bool:
    """RDF/XML naming Zotero's or the biblio namespace."""
    return "<rdf:RDF" in head[:4000] and (
        "zotero.org/namespaces/export" in head or "purl.org/net/biblio" in head
    )


@dataclass
class _Node:
    tag: str  # `namespace local`, as expat gives it
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""

    def local(self) -> str:
        return self.tag.rsplit(" ", 1)[-1]

    def child(self, name: str) -> _Node | None:
        return next((c for c in self.children if c.local() == name), None)

    def all(self, name: str) -> Iterator[_Node]:
        """Every element of that name under this one, at any depth."""
        for c in self.children:
            if c.local() == name:
                yield c
            yield from c.all(name)


def _resources(path: Path) -> list[_Node]:
    """The top-level resources of the document, each as a small tree."""
    parser = expat.ParserCreate(namespace_separator=" ")
    stack: list[_Node] = []
    top: list[_Node] = []

    def refuse(*_: Any) -> None:
        raise InputError(
            path,
            "XML declaring entities is not read (a few lines can make a billion values)",
            parser.CurrentLineNumber,
        )

    def start(tag: str, attrs: dict[str, str]) -> None:
        if len(stack) > DEPTH_LIMIT:
            raise InputError(
                path,
                f"XML nested deeper than {DEPTH_LIMIT} levels (not a paper list)",
                parser.CurrentLineNumber,
            )
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        if len(stack) >= 2:
            stack[-1].children.append(node)
        elif len(stack) == 1:
            top.append(node)
        stack.append(node)

    def end(_: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if len(stack) >= 2:
            stack[-1].text += data

    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        for _, line in iter_lines(path, max_line=None):
            parser.Parse(line + "\n", False)
        parser.Parse("", True)
    except expat.ExpatError as exc:
        raise InputError(path, f"not valid XML: {expat.ErrorString(exc.code)}", exc.lineno) from None
    return top


def read_zotero_rdf(path: Path) -> Iterator[Paper]:
    resources = _resources(path)
    titles = {
        r.attrs.get(_RDF + " about"): _text(r.child("title"))
        for r in resources
        if r.child("itemType") is None
    }
    for item in resources:
        kind = _text(item.child("itemType"))
        if not kind or kind in _NOT_ITEMS:
            continue
        yield paper_from_record(by_shape(_record(item, kind, titles)), f"{path}:{item.line}")


def _record(item: _Node, kind: str, titles: dict[str | None, str | None]) -> dict[str, Any]:
    links: list[str] = []
    doi = None
    for ident in (c for c in item.children if c.local() == "identifier"):  # (its first link is kept)
        value = next((v.text.strip() for v in ident.all("value")), None) or ident.text.strip()
        if value.startswith(("http://", "https://")):
            links.append(value)
        elif match := _DOI.search(value):
            doi = match.group(1)
    venue = None
    if (part := item.child("isPartOf")) is not None:
        nested = next(part.all("title"), None)
        venue = _text(nested) if nested is not None else titles.get(part.attrs.get(_RDF + " resource"))
    authors = item.child("authors") or next(  # else its creators of another role: a talk's presenters
        (c for c in item.children if c.child("Seq") is not None and not _NOT_AUTHORS.search(c.local())), None
    )
    return {
        "type": kind,
        "title": _text(item.child("title")),
        "authors": [_name(p) for p in authors.all("Person")] if authors is not None else [],
        "abstract": _text(item.child("abstract")),
        "date": _text(item.child("date")),
        "year": _text(item.child("date")),
        "keywords": [t for s in item.children if s.local() == "subject" and (t := _text(s))],
        "url": links[0] if links else None,
        "doi": doi,
        "venue": venue,
    }


def _text(node: _Node | None) -> str | None:
    if node is None:
        return None
    return " ".join(node.text.split()) or None


def _name(person: _Node) -> str:
    given = _text(person.child("givenName") or person.child("givenname"))
    surname = _text(person.child("surname"))
    return " ".join(p for p in (given, surname) if p) or (_text(person.child("name")) or "")
