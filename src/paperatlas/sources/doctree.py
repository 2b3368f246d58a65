"""One document tree for every list written by people: Markdown (with its raw HTML), HTML
pages, org-mode and reStructuredText files are parsed by a parser made for each
(markdown-it-py, the standard library's HTMLParser, orgparse, docutils) into the same `Node`s, so one record finder
(`sources.finder`) reads them all.

A `Node` is a block (`kind`: doc, section, heading, list, item, table, row, cell, para,
block, quote, dl, dt, dd, line, group) whose `children` are blocks and inline `Span`s
(text with its emphasis and link). Two passes make the tree's repetition visible:
headings take the blocks under them into `section`s, and `<br>`-separated text becomes
`line`s (a blank `<br><br>` closes a `group` of lines).
"""

from __future__ import annotations

import functools
import re
import textwrap
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from paperatlas.sources.html import NOT_CONTENT, parsable
from paperatlas.sources.limits import MAX_MARKDOWN_LINES, MAX_RST_LINES, TooManyLines
from paperatlas.sources.mdlines import label_name

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# Elements whose content is never part of a list's records: the HTML reader's, less asides
# (the finder judges them like any other block), and code and form fields.
_SKIP = (NOT_CONTENT - {"aside"}) | {"pre", "code", "textarea"}
_KIND = {
    "ul": "list",
    "ol": "list",
    "li": "item",
    "table": "table",
    "tr": "row",
    "td": "cell",
    "th": "cell",
    "dl": "dl",
    "dt": "dt",
    "dd": "dd",
    "blockquote": "quote",
    "p": "para",
}
_BLOCKS = {"div", "section", "article", "main", "header", "center", "details", "summary", "figure", "span"}
_VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "area", "col", "embed"}
_BOLD = {"b", "strong"}
_ITALIC = {"i", "em", "cite"}


@dataclass(slots=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False
    href: str | None = None
    br: bool = False  # a line break (`<br>`, a hard break, a soft line end)
    soft: bool = False  # ... a soft one: a Markdown line end inside a paragraph
    code: bool = False  # `inline code`: a list's tags and keywords, never names or a title


@dataclass(slots=True)
class Node:
    kind: str
    line: int = 0
    level: int = 0
    children: list[Node | Span] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)

    def blocks(self) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node)]

    def spans(self) -> list[Span]:
        """Every span under this node, in reading order."""
        out: list[Span] = []
        for child in self.children:
            if isinstance(child, Span):
                out.append(child)
            else:
                out.extend(child.spans())
                out.append(Span("", br=True))
        return out

    def text(self) -> str:
        return " ".join("".join(s.text for s in self.spans()).split())


# -- HTML ---------------------------------------------------------------------------------


# Blocks nested deeper than this are read as part of the block above them: real pages nest a
# few dozen deep, and a page of 100,000 nested tags would cost a walk of the whole stack at
# every closing tag and a recursion per level later.
MAX_HTML_DEPTH = 200


class _HtmlTree(HTMLParser):
    def __init__(self, first_line: int = 1) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("doc", first_line)
        self.stack: list[tuple[str, Node]] = [("", self.root)]
        self.bold = self.italic = 0
        self.href: list[str | None] = []
        self.skip = 0
        self.deeper = 0  # blocks opened past MAX_HTML_DEPTH and not yet closed
        self.first = first_line - 1

    def _line(self) -> int:
        return self.getpos()[0] + self.first

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += tag not in _VOID
            return
        if self.skip:
            return
        node = self.stack[-1][1]
        if tag == "br":
            node.children.append(Span("", br=True))
        elif tag == "img" and (href := next((h for h in reversed(self.href) if h), None)):
            # a badge that is a link (`<a href=arxiv><img src=badge.svg></a>`): its address names it
            node.children.append(Span("link", href=href))
        elif tag in _BOLD:
            self.bold += 1
        elif tag in _ITALIC:
            self.italic += 1
        elif tag == "a":
            self.href.append(dict(attrs).get("href"))
        elif tag in _KIND or tag in _BLOCKS or re.fullmatch(r"h[1-6]", tag):
            kind = "heading" if tag[0] == "h" and tag[1:].isdigit() else _KIND.get(tag, "block")
            level = int(tag[1]) if kind == "heading" else 0
            child = Node(
                kind, self._line(), level, attrs={"tag": tag, "class": dict(attrs).get("class") or ""}
            )
            if tag == "span" and not attrs:
                return  # a bare span is inline
            self._close_open_items(tag)
            if len(self.stack) >= MAX_HTML_DEPTH and tag not in _VOID:
                self.deeper += 1  # its content joins the deepest block kept
                return
            node = self.stack[-1][1]
            node.children.append(child)
            if tag not in _VOID:
                self.stack.append((tag, child))

    def _close_open_items(self, tag: str) -> None:
        # `<li>` and `<p>` are often left open: a new one closes the last
        if tag in ("li", "p", "dt", "dd", "tr", "td", "th") and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self.skip:
            self.stack[-1][1].children.append(Span("", br=True))
        elif tag == "img" and not self.skip:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if tag in _BOLD:
            self.bold = max(0, self.bold - 1)
        elif tag in _ITALIC:
            self.italic = max(0, self.italic - 1)
        elif tag == "a":
            if self.href:
                self.href.pop()
        elif self.deeper and (tag in _KIND or tag in _BLOCKS or re.fullmatch(r"h[1-6]", tag)):
            self.deeper -= 1
        elif any(t == tag for t, _ in self.stack[1:]):
            while self.stack[-1][0] != tag:
                self.stack.pop()
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.skip or not data:
            return
        text = re.sub(r"\s+", " ", data)
        if not text.strip() and not self.stack[-1][1].children:
            return
        href = next((h for h in reversed(self.href) if h), None) if self.href else None
        self.stack[-1][1].children.append(Span(text, self.bold > 0, self.italic > 0, href))


# `<![` opens a marked section only as `<![CDATA[`; any other (`<![img](x.png)` in Markdown)
# makes Python's HTMLParser fail an assertion instead of reading it as text
_NOT_CDATA = re.compile(r"<!\[(?!CDATA\[)")


def from_html(text: str, first_line: int = 1) -> Node:
    parser = _HtmlTree(first_line)
    parser.feed(parsable(_NOT_CDATA.sub("&lt;![", text)))
    parser.close()
    return _shape(parser.root)


# -- Markdown -----------------------------------------------------------------------------

_INLINE_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z][\w-]*)([^>]*)>")
_HREF = re.compile(r"""href\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)


@functools.cache
def _markdown_parser() -> MarkdownIt:
    """One parser for every call: making one takes milliseconds, and an org file parses each
    heading's body apart (30,000 headings spent minutes making parsers)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table")


def from_markdown(text: str) -> Node:
    """Markdown (CommonMark, tables, raw HTML) as a tree; TooManyLines over MAX_MARKDOWN_LINES."""
    if text.count("\n") >= MAX_MARKDOWN_LINES:
        raise TooManyLines(f"over {MAX_MARKDOWN_LINES:,} lines")
    md = _markdown_parser()
    root = Node("doc", 1)
    # Markdown blocks open, and above them the HTML elements a raw HTML block left open (its
    # tag named): `<details>` ... Markdown ... `</details>` holds the Markdown between.
    stack: list[tuple[str | None, Node]] = [(None, root)]
    for token in md.parse(text):
        line = token.map[0] + 1 if token.map else stack[-1][1].line
        if token.type.endswith("_open"):
            kind = _md_kind(token.tag)
            node = Node(kind, line, int(token.tag[1]) if kind == "heading" else 0, attrs={"tag": token.tag})
            stack[-1][1].children.append(node)
            stack.append((None, node))
        elif token.type.endswith("_close"):
            while stack[-1][0] is not None:  # left open inside this block: it ends with it
                stack.pop()
            if len(stack) > 1:
                stack.pop()
        elif token.type == "inline":
            stack[-1][1].children.extend(_md_inline(token.children or []))
        elif token.type == "html_block":
            _html_block(token.content, line, stack)
    return _shape(root)


def _html_block(content: str, line: int, stack: list[tuple[str | None, Node]]) -> None:
    """A raw HTML block of a Markdown file, read into the tree where it stands: the elements
    open above the last Markdown block may close in it, and those it leaves open stay open."""
    carried = len(stack)
    while stack[carried - 1][0] is not None:
        carried -= 1
    parser = _HtmlTree(line)
    parser.stack = [("", stack[carried - 1][1])] + [(str(tag), node) for tag, node in stack[carried:]]
    parser.feed(parsable(_NOT_CDATA.sub("&lt;![", content)))
    parser.close()
    del stack[carried:]
    stack.extend(parser.stack[1:])


def _md_kind(tag: str) -> str:
    if re.fullmatch(r"h[1-6]", tag):
        return "heading"
    return _KIND.get(tag, "block")


def _md_inline(tokens: list) -> list[Span]:
    out: list[Span] = []
    bold = italic = 0
    href: list[str | None] = []
    for tok in tokens:
        kind = tok.type
        if kind == "strong_open":
            bold += 1
        elif kind == "strong_close":
            bold -= 1
        elif kind == "em_open":
            italic += 1
        elif kind == "em_close":
            italic -= 1
        elif kind == "link_open":
            href.append(str(tok.attrs.get("href") or ""))
        elif kind == "link_close":
            if href:
                href.pop()
        elif kind in ("softbreak", "hardbreak"):
            # a soft line end inside an emphasis or a link keeps its dress: the line goes on
            out.append(Span("", bold > 0, italic > 0, href[-1] if href else None, True, kind == "softbreak"))
        elif kind in ("text", "code_inline"):
            out.append(
                Span(
                    tok.content, bold > 0, italic > 0, href[-1] if href else None, code=kind == "code_inline"
                )
            )
        elif kind == "image" and href and href[-1]:
            # a badge that is a link (`[![arXiv](badge.svg)](url)`): its alt text names the link
            out.append(Span(tok.content.strip() or "link", href=href[-1]))
        elif kind == "html_inline":
            match = _INLINE_TAG.match(tok.content)
            if not match:
                continue
            closing, tag = match.group(1), match.group(2).lower()
            step = -1 if closing else 1
            # `<br>`, and a block element written inside a line (`**Title** <details><summary>
            # Abstract</summary>...</details>` in a table cell): each starts a line of its own
            if tag == "br" or tag in _BLOCKS or tag in _KIND:
                out.append(Span("", br=True))
            elif tag == "img" and href and href[-1]:  # a badge inside `<a href>`: the link is kept
                out.append(Span("link", href=href[-1]))
            elif tag in _BOLD:
                bold = max(0, bold + step)
            elif tag in _ITALIC:
                italic = max(0, italic + step)
            elif tag == "a":
                if closing:
                    if href:
                        href.pop()
                else:
                    found = _HREF.search(match.group(3))
                    href.append(unescape(found.group(1)) if found else None)
    return out


# -- org-mode -----------------------------------------------------------------------------

_ORG_FIELDS = {"booktitle": "venue", "journal": "venue", "doi": "doi", "eprint": "arxiv"}
_ORG_LINK = re.compile(r"\[\[([^\]]+)\](?:\[([^\]]*)\])?\]")


def from_org(text: str) -> Node:
    import orgparse

    root = orgparse.loads(text)
    doc = Node("doc", 1)
    doc.children.extend(_org_body(root.get_body(format="raw") or "", 0))  # before any heading
    _org_children(root, doc)
    return doc


def _org_children(org: object, into: Node) -> None:
    for child in getattr(org, "children", []):
        line = int(getattr(child, "linenumber", 0) or 0)
        section = Node("section", line, int(child.level))
        raw = child.get_heading(format="raw") if hasattr(child, "get_heading") else child.heading
        heading = re.sub(r"^COMMENT\s+", "", raw)  # links kept: orgparse's plain heading drops them
        section.children.append(Node("heading", line, int(child.level), children=_org_spans(heading)))
        for key, value in child.properties.items():
            name = _ORG_FIELDS.get(str(key).lower(), str(key))
            if label_name(name):  # AUTHOR, URL, YEAR, ...; not CUSTOM_ID or BTYPE
                section.children.append(Node("para", line, children=_org_spans(f"{name}: {value}")))
        body_text = child.get_body(format="raw") if hasattr(child, "get_body") else child.body
        section.children.extend(_org_body(body_text or "", line))
        _org_children(child, section)
        into.children.append(section)


_ORG_BLOCK = re.compile(r"^\s*#\+(BEGIN|END)_(\w+)", re.IGNORECASE)
_ORG_KEYWORD = re.compile(r"^\s*#(\+\w*:.*|\s.*|)$")  # `#+CAPTION: ...`, `# a comment`
_ORG_RULE = re.compile(r"^(\s*)\|(?:[-+:]+\|?)+\s*$")  # |---+---|
_ORG_BOLD = re.compile(r"(?<![\w*])\*(\S(?:[^*\n]*\S)?)\*(?![\w*])")
_ORG_ITALIC = re.compile(r"(?<![\w/:])/(\S(?:[^/\n]*\S)?)/(?![\w/])")


def _org_body(text: str, line: int) -> list[Node | Span]:
    """An org heading's body (lists, tables, paragraphs) read as the blocks it holds: its
    markup written as Markdown's (`[[url][text]]`, `*bold*`, `/italic/`, `|---+---|`),
    its source and example blocks as code, and parsed by the Markdown parser."""
    lines: list[str] = []
    in_table = False
    for raw in textwrap.dedent(text).splitlines():
        if match := _ORG_BLOCK.match(raw):
            kind = match.group(2).upper()
            if kind in ("SRC", "EXAMPLE", "EXPORT", "COMMENT", "LATEX", "HTML"):
                lines.append("```")
            continue
        if _ORG_KEYWORD.match(raw) and raw.strip():
            continue
        is_row = raw.lstrip().startswith("|")
        if rule := _ORG_RULE.match(raw):
            if in_table and lines and "---" not in lines[-1]:
                cells = max(1, lines[-1].count("|") - 1)
                lines.append(rule.group(1) + "|" + "---|" * cells)
            continue
        if is_row and not in_table:  # a table without a rule under its first row still is one
            cells = max(1, raw.count("|") - 1)
            lines.append(raw)
            lines.append(raw[: len(raw) - len(raw.lstrip())] + "|" + "---|" * cells)
            in_table = True
            continue
        in_table = is_row
        lines.append(_org_markup(raw))
    root = from_markdown("\n".join(lines))
    _shift_lines(root, line)
    return root.children


def _org_markup(text: str) -> str:
    text = _ORG_LINK.sub(lambda m: f"[{m.group(2) or m.group(1)}](<{m.group(1)}>)", text)
    text = _ORG_BOLD.sub(r"**\1**", text)
    return _ORG_ITALIC.sub(r"*\1*", text)


def _shift_lines(node: Node, by: int) -> None:
    node.line += by
    for child in node.blocks():
        _shift_lines(child, by)


def _org_spans(text: str) -> list[Node | Span]:
    out: list[Node | Span] = []
    pos = 0
    for match in _ORG_LINK.finditer(text):
        if match.start() > pos:
            out.append(Span(text[pos : match.start()]))
        out.append(Span(match.group(2) or match.group(1), href=match.group(1)))
        pos = match.end()
    if pos < len(text):
        out.append(Span(text[pos:]))
    return out


# -- shaping: sections and <br> lines -----------------------------------------------------


def _shape(node: Node) -> Node:
    for child in node.children:
        if isinstance(child, Node):
            _shape(child)
    if sum(isinstance(c, Span) and c.br and not c.soft for c in node.children) >= 2:
        node.children = _br_groups(node)
    if any(isinstance(c, Node) and c.kind == "heading" for c in node.children):
        node.children = _sections(node.children)
    return node


def _br_groups(node: Node) -> list[Node | Span]:
    """Text broken by `<br>` into lines; a blank line (two breaks) ends a group."""
    groups: list[Node] = []
    lines: list[Node] = []
    current: list[Node | Span] = []
    blank = 0

    def close_line() -> None:
        nonlocal current
        if any(isinstance(c, Node) or c.text.strip() for c in current):
            lines.append(Node("line", node.line, children=current))
        current = []

    def close_group() -> None:
        nonlocal lines
        if lines:
            groups.append(Node("group", lines[0].line, children=list(lines)))
        lines = []

    for child in node.children:
        if isinstance(child, Span) and child.br:
            if not any(isinstance(c, Node) or c.text.strip() for c in current):
                blank += 1
                if blank >= 1 and lines:
                    close_group()
            close_line()
            continue
        if isinstance(child, Span) and not child.text.strip() and not current:
            continue
        blank = 0
        current.append(child)
    close_line()
    close_group()
    if len(groups) == 1:
        return list(groups[0].children)
    return list(groups)


def _sections(children: list[Node | Span]) -> list[Node | Span]:
    """Each heading takes the siblings after it, up to a heading of its level or above."""
    out: list[Node | Span] = []
    stack: list[Node] = []
    for child in children:
        if isinstance(child, Node) and child.kind == "heading":
            while stack and stack[-1].level >= child.level:
                stack.pop()
            section = Node("section", child.line, child.level, [child])
            (stack[-1].children if stack else out).append(section)
            stack.append(section)
        else:
            (stack[-1].children if stack else out).append(child)
    return out


# -- reStructuredText ---------------------------------------------------------------------

_RST_KIND = {
    "bullet_list": "list",
    "enumerated_list": "list",
    "list_item": "item",
    "paragraph": "para",
    "table": "table",
    "row": "row",
    "entry": "cell",
    "definition_list": "dl",
    "term": "dt",
    "definition": "dd",
    "block_quote": "quote",
    "field_list": "list",
    "field": "item",
}
_RST_SKIP = {"comment", "literal_block", "system_message", "substitution_definition", "raw", "target"}


def from_rst(text: str) -> Node:
    """reStructuredText through docutils' parser (no transforms run, nothing included);
    TooManyLines over MAX_RST_LINES lines."""
    if text.count("\n") >= MAX_RST_LINES:
        raise TooManyLines(f"over {MAX_RST_LINES:,} lines")
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    parser = Parser()
    settings = get_default_settings(Parser)
    settings.report_level = 5  # quiet: a malformed list still reads
    settings.halt_level = 5
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    document = new_document("<list>", settings)
    parser.parse(text, document)
    root = Node("doc", 1)
    _rst_children(document, root, 0)
    return root


def _rst_children(node: object, into: Node, level: int) -> None:
    for child in getattr(node, "children", []):
        name = type(child).__name__
        line = int(getattr(child, "line", 0) or into.line)
        if name in _RST_SKIP:
            continue
        if name == "section":
            section = Node("section", line, level + 1)
            into.children.append(section)
            _rst_children(child, section, level + 1)
        elif name == "title":
            into.children.append(Node("heading", line, level or 1, children=_rst_inline(child)))
        elif name == "field_name":  # `:Authors: Ann Lee` reads as the label it is
            into.children.extend([*_rst_inline(child), Span(": ")])
        elif name == "field_body":
            _rst_children(child, into, level)
        elif name == "enumerated_list" and _one_letter_list(child):
            # "- G. Bellocchi, A. Capotondi, ...": docutils took the first initial for the
            # enumerator of a one-item alphabetic list; it is the text's first letter
            before = len(into.children)
            _rst_children(child.children[0], into, level)
            para = next((c for c in into.children[before:] if isinstance(c, Node) and c.kind == "para"), None)
            if para is not None:
                para.children.insert(0, Span(_enumerator(child) + " "))
        elif name in _RST_KIND:
            block = Node(_RST_KIND[name], line, attrs={"tag": name})
            into.children.append(block)
            if name in ("paragraph", "term"):
                block.children.extend(_rst_inline(child))
            else:
                _rst_children(child, block, level)
        else:
            _rst_children(child, into, level)


def _one_letter_list(node: object) -> bool:
    get = getattr(node, "get", lambda _k, _d=None: None)
    return get("enumtype") in ("upperalpha", "loweralpha") and len(getattr(node, "children", [])) == 1


def _enumerator(node: object) -> str:
    get = getattr(node, "get", lambda _k, _d=None: None)
    first = "A" if get("enumtype") == "upperalpha" else "a"
    letter = chr(ord(first) + int(get("start", 1) or 1) - 1)
    return f"{get('prefix', '') or ''}{letter}{get('suffix', '') or ''}"


def _rst_inline(
    node: object, bold: bool = False, italic: bool = False, href: str | None = None
) -> list[Node | Span]:
    out: list[Node | Span] = []
    for child in getattr(node, "children", []):
        name = type(child).__name__
        if name == "Text":
            text = str(child)
            for i, part in enumerate(text.split("\n")):
                if i:
                    out.append(Span("", br=True, soft=True))
                if part:
                    out.append(Span(part, bold, italic, href))
        elif name in _RST_SKIP or name == "target":
            continue
        else:
            out.extend(
                _rst_inline(
                    child,
                    bold or name == "strong",
                    italic or name in ("emphasis", "title_reference"),
                    href or getattr(child, "get", lambda _k: None)("refuri"),
                )
            )
    return out
