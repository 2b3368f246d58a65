"""HTML pages (a lab's publication page, a saved digest): turned into Markdown-like lines
with the standard library's HTMLParser — headings, list items, links, bold, table rows,
quotes — and read by the entry reader (`sources.entries`), each line keeping the number of
the HTML line it came from. Scripts, styles, navigation, headers and footers, forms and
SVG are left out.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from paperatlas.sources._io import iter_lines

# Elements whose content is never a list's paper (the record finder's tree skips them too).
NOT_CONTENT = {
    "script",
    "style",
    "nav",
    "footer",
    "noscript",
    "svg",
    "form",
    "button",
    "select",
    "template",
    "iframe",
    "head",
    "aside",
}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "ul",
    "ol",
    "dl",
    "dd",
    "dt",
    "table",
    "thead",
    "tbody",
    "figure",
    "figcaption",
    "pre",
    "header",
    "center",
    "details",
    "summary",
    "hr",
}
_VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "area", "col", "embed"}


def looks_like_html(head: str) -> bool:
    start = head.lstrip()[:200].lower()
    return start.startswith(("<!doctype html", "<html")) or (
        start.startswith("<")
        and len(re.findall(r"</(p|div|li|a|td|h\d)>", head, re.I)) >= 5
        and "<body" in head.lower()
    )


class _ToLines(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []
        self.current: list[str] = []
        self.current_line = 1
        self.skip_depth = 0
        self.links: list[str | None] = []
        self.row_has_header = False
        self.in_row = False
        self.cells = 0

    # -- output --------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        if not self.current:
            self.current_line = self.getpos()[0]
        self.current.append(text)

    def newline(self, blank: bool = False) -> None:
        text = " ".join("".join(self.current).split())
        if text:
            self.lines.append((self.current_line, text))
        self.current = []
        if blank and self.lines and self.lines[-1][1]:
            self.lines.append((self.getpos()[0], ""))

    # -- parser callbacks -------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID and tag not in ("br", "hr"):
            return
        if self.skip_depth or tag in NOT_CONTENT:
            if tag not in _VOID:
                self.skip_depth += 1
            return
        if re.fullmatch(r"h[1-6]", tag):
            self.newline(blank=True)
            self.emit("#" * int(tag[1]) + " ")
        elif tag == "li":
            self.newline()
            self.emit("- ")
        elif tag == "a":
            href = dict(attrs).get("href")
            self.links.append(href if href and not href.startswith("javascript:") else None)
            if self.links[-1]:
                self.emit("[")
        elif tag in ("strong", "b"):
            self.emit("**")
        elif tag == "br":
            self.newline()
        elif tag == "hr":
            self.newline(blank=True)
            self.lines.append((self.getpos()[0], "---"))
        elif tag == "blockquote":
            self.newline(blank=True)
            self.emit("> ")
        elif tag == "tr":
            self.newline()
            self.in_row, self.row_has_header, self.cells = True, False, 0
            self.emit("| ")
        elif tag in ("td", "th"):
            if self.cells:
                self.emit(" | ")
            self.cells += 1
            self.row_has_header |= tag == "th"
        elif tag in _BLOCK:
            self.newline(blank=tag in ("p", "ul", "ol", "table", "section", "article"))

    def handle_endtag(self, tag: str) -> None:
        if self.skip_depth:
            if tag in NOT_CONTENT or tag not in _VOID:
                self.skip_depth -= 1
            return
        if re.fullmatch(r"h[1-6]", tag):
            self.newline(blank=True)
        elif tag == "a":
            href = self.links.pop() if self.links else None
            if href:
                self.emit(f"]({href})")
        elif tag in ("strong", "b"):
            self.emit("**")
        elif tag == "li":
            self.newline()
        elif tag == "tr":
            self.emit(" |")
            self.newline()
            if self.row_has_header:
                self.lines.append((self.getpos()[0], "|" + "---|" * max(self.cells, 1)))
            self.in_row = False
        elif tag == "blockquote":
            self.newline(blank=True)
        elif tag in _BLOCK:
            self.newline(blank=tag in ("p", "ul", "ol", "table", "section", "article"))

    def handle_data(self, data: str) -> None:
        if self.skip_depth or (not data.strip() and not self.current):
            return
        self.emit(data.replace("|", "\\|") if self.in_row else data)

    def close(self) -> None:
        super().close()
        self.newline()


def html_lines(path: Path) -> list[tuple[int, str]]:
    """The page as (HTML line number, Markdown-like line)."""
    parser = _ToLines()
    # fed whole: fed a line at a time, the parser rescans a construct that spans lines (a long
    # comment, a tag over many lines) from its start on every line
    parser.feed(parsable("".join(line + "\n" for _, line in iter_lines(path))))
    parser.close()
    return parser.lines


def parsable(text: str) -> str:
    """`text` with every `<` that opens a construct never closed (a comment with no `-->`, a
    CDATA section with no `]]>`, a tag with no `>` after it) written as `&lt;`, so that it reads
    as the text it is. The standard library's HTMLParser (before Python 3.13.4) scans from each
    such `<` to the end of the text: 200,000 `<!--` in a 1 MB page took hours."""
    for start, end in (("<!--", "-->"), ("<![CDATA[", "]]>")):
        i = text.find(start)
        while i >= 0:
            j = text.find(end, i + len(start))
            if j < 0:  # none closed from here on: every opening after is text
                text = text[:i] + text[i:].replace(start, "&lt;" + start[1:])
                break
            i = text.find(start, j + len(end))
    last = text.rfind(">")
    return text[: last + 1] + text[last + 1 :].replace("<", "&lt;")
