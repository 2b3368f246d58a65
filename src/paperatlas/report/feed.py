"""An Atom feed (RFC 4287) of the papers a person's follows matched.

Written with ElementTree, which escapes every text; characters XML cannot carry at all
(control characters, lone surrogates) are dropped first, so a hostile abstract can neither
inject markup nor make the file unreadable."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from urllib.parse import quote

from paperatlas.paper import shown_title
from paperatlas.report.follows import FollowedPaper
from paperatlas.report.links import paper_url, safe_url

ATOM = "http://www.w3.org/2005/Atom"
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
SUMMARY_CHARS = 2000  # an abstract longer than this is cut (at a word) in an entry's summary


def xml_text(text: object) -> str:
    return _NOT_XML.sub("", str(text))


def atom_time(stored: str) -> str:
    """'2026-12-07 09:01:02' (the store's UTC) -> '2026-12-07T09:01:02Z'."""
    return stored.replace(" ", "T") + "Z" if stored else "1970-01-01T00:00:00Z"


def feed_xml(
    entries: Sequence[FollowedPaper],
    title: str,
    feed_id: str,
    updated: str,
    self_url: str | None = None,
    site_url: str | None = None,
) -> str:
    """The feed as text. `feed_id` a stable IRI; `updated` the store's time; `site_url` the
    served atlas (entries link to their page there), else entries link to the paper's own page."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, "id", feed_id)
    _text(feed, "title", title)
    _text(feed, "updated", atom_time(updated))
    _text(feed, "generator", "paperatlas")
    if self_url:
        ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", href=self_url)
    if site_url:
        ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", href=site_url)
    for item in entries:
        feed.append(_entry(item, site_url))
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"


def _entry(item: FollowedPaper, site_url: str | None) -> ET.Element:
    paper = item.paper
    entry = ET.Element(f"{{{ATOM}}}entry")
    _text(entry, "id", "urn:paperatlas:paper:" + quote(str(paper["id"]), safe=""))
    _text(entry, "title", shown_title(paper) or str(paper["id"]))
    _text(entry, "updated", atom_time(item.added_at))
    own = safe_url(paper_url(paper))
    here = f"{site_url.rstrip('/')}/papers/{quote(str(paper['id']), safe='/')}" if site_url else None
    if here or own:
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=here or own or "")
    if here and own:
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="related", href=own)
    for name in paper.get("authors") or []:
        author = ET.SubElement(entry, f"{{{ATOM}}}author")
        _text(author, "name", name)
    for follow in item.follows:
        ET.SubElement(entry, f"{{{ATOM}}}category", term=xml_text(follow.kind), label=xml_text(follow.title))
    summary = item.gist or _cut(paper.get("abstract") or "")
    if summary:
        _text(entry, "summary", summary).set("type", "text")
    return entry


def _text(parent: ET.Element, tag: str, text: object) -> ET.Element:
    child = ET.SubElement(parent, f"{{{ATOM}}}{tag}")
    child.text = xml_text(text)
    return child


def _cut(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= SUMMARY_CHARS:
        return text
    return text[:SUMMARY_CHARS].rsplit(" ", 1)[0] + " …"
