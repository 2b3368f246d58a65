"""The record finder: a list's papers found as the repeated structure of its document tree
(`sources.doctree`), the way data-record mining finds the records of a web page.

Every block that has siblings of its own kind is a candidate record: list items, table
rows, heading sections of one level, `<br>`-separated groups, definition terms, and pairs
of siblings that repeat together (a bold title paragraph and the list of links under it).
Candidates are grouped by their *pattern* (kind, heading level, parent kind, depth); each
candidate is read (`sources.fields`) and scores by what it holds: a title (needed), a
link, person names, a venue or year, an abstract. The pattern holding the most score wins;
other patterns join it when nearly all their records read as papers and none of them lies
inside or around a record already taken — so a heading whose section holds records is a
section, never a paper. The winner's own shape at another depth (the same entries under a
`#` and a `##` topic heading), holding about as much, joins on its share alone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple
from urllib.parse import unquote

from paperatlas.sources.doctree import Node, Span
from paperatlas.sources.entry import YEAR, Entry, is_prose
from paperatlas.sources.fields import (
    LINK_WORDS,
    PAPER_LINK,
    authorish,
    line_text,
    lines_of,
    read_record,
    same_words,
    titleish,
)
from paperatlas.sources.mdlines import label_name

_RECORD_KINDS = {"item", "row", "section", "group", "para", "block", "dt", "pair", "quote", "line"}
_MIN_SHARE = 0.5  # the winning pattern: at least half its candidates read as papers
_JOIN_SHARE = 0.8  # another pattern joins only when nearly all of its candidates do
_JOIN_MEAN = 1.6
_KIN_MEAN = 0.9  # ... or, for the chosen shape at another depth, this share of its mean


@dataclass
class Pattern:
    key: tuple
    records: list[tuple[Node, Entry, dict[str, str], float]] = field(default_factory=list)
    candidates: int = 0
    read_from: dict[int, Node] = field(default_factory=dict)  # a record's node as read (a row by its header)

    @property
    def score(self) -> float:
        return sum(r[3] for r in self.records)

    def describe(self) -> str:
        kind, level, parent, _depth = self.key
        what = {
            "item": "list items",
            "row": "table rows",
            "section": f"level-{level} heading sections",
            "group": "<br>-separated groups",
            "pair": "paragraphs with the block after them",
            "dt": "definition terms",
            "line": "lines",
            "selected": "the elements named by --records",
        }.get(kind, f"{kind}s")
        if parent == "section" and kind != "section":
            what += " under headings"
        roles: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for _node, _entry, found, _q in self.records:
            for name, dress in found.items():
                roles[name][dress] += 1
        parts = [
            f"{name} = {max(dresses, key=lambda d: dresses[d])}"
            for name in ("title", "authors", "venue", "abstract")
            if (dresses := roles.get(name))
        ]
        return what + (": " + ", ".join(parts) if parts else "")


@dataclass
class Finding:
    entries: list[Entry]
    pattern: str
    candidates: int


def quality(entry: Entry, roles: dict[str, str] | None = None) -> float:
    """How much of a paper a record holds: 0 without a title, else 1 plus its other fields."""
    named = roles is not None and roles.get("title") == PAPER_LINK  # a short link text naming its paper
    if not entry.title or not (named or titleish(entry.title)) or len(entry.title.split()) > 40:
        return 0.0
    score = 1.0
    score += 0.5 * bool(entry.urls or entry.code)
    score += 0.5 * bool(entry.authors)
    score += 0.3 * bool(entry.abstracts or any(is_prose(b) for b in entry.body))
    score += 0.2 * bool(entry.fields.get("venue") or any(YEAR.search(b) for b in entry.body))
    return score


# Structure plain text can show: its paragraphs and lines are the text reader's to read.
MARKED = frozenset({"item", "row", "group", "dt", "section"})


def find(doc: Node, only: str | None = None, kinds: frozenset[str] | None = None) -> Finding:
    """The records of a document tree (`only`: a pattern the user named, e.g. `h3`, `li`;
    `kinds`: the record kinds to consider, all when None)."""
    patterns: dict[tuple, Pattern] = {}
    select = _selector(only) if only and not _NAMED.fullmatch(only.strip().lower()) else None
    _collect(doc, patterns, depth=0, heading=None, table=None, select=select, headings=_headings(doc))
    for pattern in patterns.values():
        _without_labels(pattern)
        _without_repeated_titles(pattern)
    ranked = sorted(patterns.values(), key=lambda p: -p.score)
    if kinds is not None and not only:
        ranked = [p for p in ranked if p.key[0] in kinds]
    if only:
        ranked = [p for p in ranked if (p.key[0] == "selected" if select else _matches(p.key, only))]
    else:
        ranked = _outer_before_bare(ranked)
    chosen: list[Pattern] = []
    taken = _Taken()
    for pattern in ranked:
        if not pattern.records:
            continue
        share = len(pattern.records) / pattern.candidates
        mean = pattern.score / len(pattern.records)
        # the chosen records' own shape at another depth (under a `#` topic heading where the
        # rest sit under `##` ones), holding about as much, is the same run: it joins on its share
        kin = any(
            p.key[:3] == pattern.key[:3] and mean >= _KIN_MEAN * p.score / len(p.records) for p in chosen
        )
        if chosen and (share < _JOIN_SHARE or (mean < _JOIN_MEAN and not kin)):
            continue
        if not chosen and share < _MIN_SHARE and not only:
            continue
        pattern.records = _in_dress(pattern)
        kept = [r for r in pattern.records if not taken.overlaps(r[0])]
        if chosen and len(kept) < len(pattern.records):
            continue
        if kept:
            chosen.append(pattern)
            taken.add(r[0] for r in kept)
    records = [r for p in chosen for r in p.records if id(r[0]) in taken.ids]
    records.sort(key=lambda r: r[0].line)
    return Finding(
        [r[1] for r in records],
        "; ".join(dict.fromkeys(p.describe() for p in chosen)),  # a run at two depths named once
        sum(p.candidates for p in chosen),
    )


def _in_dress(pattern: Pattern) -> list[tuple[Node, Entry, dict[str, str], float]]:
    """Paragraph records hold their titles in one dress (italic, a link, ...): a paragraph with
    a title in another dress and nothing else is the page's own text ("Accepted Papers",
    "Congratulations to all authors!"), not a paper."""
    if pattern.key[0] != "para" or len(pattern.records) < 5:
        return pattern.records
    dresses: dict[str, int] = defaultdict(int)
    for _node, _entry, roles, _q in pattern.records:
        dresses[roles.get("title", "")] += 1
    dress, count = max(dresses.items(), key=lambda item: item[1])
    if count < 0.8 * len(pattern.records):
        return pattern.records
    return [r for r in pattern.records if r[2].get("title") == dress or r[3] > 1.0]


_BARE_MEAN = 1.15  # records holding a title and next to nothing else
_RICH_MEAN = 1.5  # ... and records holding a link, names or a venue besides


def _outer_before_bare(ranked: list[Pattern]) -> list[Pattern]:
    """When the pattern holding the most is of bare titles that nearly all lie inside the
    records of a richer pattern (a paper's heading with its link and authors, and the bullet
    notes under it), the bare ones are those records' notes: the richer pattern goes first."""
    top = ranked[0] if ranked else None
    if top is None or not top.records or top.score / len(top.records) > _BARE_MEAN:
        return ranked
    for other in ranked[1:]:
        if len(other.records) < 2 or other.score / len(other.records) < _RICH_MEAN:
            continue
        within = {id(inner) for node, *_ in other.records for inner in _descendants(node)}
        if sum(id(r[0]) in within for r in top.records) >= _JOIN_SHARE * len(top.records):
            return [other] + [p for p in ranked if p is not other]
    return ranked


_LABEL_MIN = 3  # records sharing a first line before it is the list's label, not a field
_LABEL_SHARE = 0.1
_LABEL_WORDS = 4


def _without_labels(pattern: Pattern) -> None:
    """A short first line that many records share (`Poster`, `Talk`, `Oral`: a badge before
    the title) is the list's label, never a paper's names or title: those records are read
    again without it."""
    if pattern.key[0] == "section" or len(pattern.records) < 2 * _LABEL_MIN:
        return
    firsts: dict[str, int] = defaultdict(int)
    for node, _entry, _roles, _q in pattern.records:
        lines = lines_of(pattern.read_from.get(id(node), node))
        if lines and len(text := line_text(lines[0])) and len(text.split()) <= _LABEL_WORDS:
            firsts[text] += 1
    floor = max(_LABEL_MIN, _LABEL_SHARE * len(pattern.records))
    labels = frozenset(text for text, count in firsts.items() if count >= floor)
    if not labels:
        return
    records = []
    for node, entry, roles, q in pattern.records:
        read = pattern.read_from.get(id(node), node)
        first = lines_of(read)[:1]
        if first and line_text(first[0]) in labels:
            section = entry.section
            entry, roles = read_record(read, labels=labels)
            entry.section, q = section, quality(entry, roles)
        if q > 0:
            records.append((node, entry, roles, q))
    pattern.records = records


_REPEAT_MIN = 3  # a "title" that many records share is no record's own title
_REPEAT_SHARE = 0.3


def _without_repeated_titles(pattern: Pattern) -> None:
    """The emphasised text most records share (the page owner's name in bold in every reference
    of a publications page) is what the records repeat, never each paper's title: those records
    are read again with it as plain text, where the title is the text the records do not share."""
    if pattern.key[0] == "section" or len(pattern.records) < _REPEAT_MIN:
        return
    counts: dict[str, int] = defaultdict(int)
    for _node, entry, _roles, _q in pattern.records:
        counts[same_words(entry.title or "")] += 1
    floor = max(_REPEAT_MIN, _REPEAT_SHARE * len(pattern.records))
    shared = frozenset(words for words, count in counts.items() if words and count >= floor)
    if not shared:
        return
    records = []
    for node, entry, roles, q in pattern.records:
        if same_words(entry.title or "") in shared:
            section = entry.section
            entry, roles = read_record(pattern.read_from.get(id(node), node), not_titles=shared)
            entry.section, q = section, quality(entry, roles)
        if q > 0:
            records.append((node, entry, roles, q))
    pattern.records = records


_NAMED = re.compile(r"h[1-6]|li|tr|br|p|dt|item|row|group|para|section|pair|line")
# an HTML element as `--records` names it: a tag, a tag.class or a .class (one class)
_ELEMENT = re.compile(r"[a-z][a-z0-9-]*(?:\.[\w-]+)?|\.[\w-]+", re.IGNORECASE)
_RECORDS_MAX = 100


def records_error(text: str) -> str | None:
    """Why `text` cannot name a list's records (`--records`), else None."""
    only = text.strip()
    if len(only) > _RECORDS_MAX:
        return f"longer than {_RECORDS_MAX} characters"
    if _NAMED.fullmatch(only.lower()) or _ELEMENT.fullmatch(only):
        return None
    return "not a kind of record: h1..h6, li, tr, br, p, dt, or an HTML tag.class (li.pub, div.paper, .entry)"


def _selector(text: str) -> Callable[[Node], bool]:
    """`li.pub`, `div.paper`, `.entry`, `article`: HTML elements by tag and class."""
    tag, _, cls = text.strip().lower().partition(".")

    def match(node: Node) -> bool:
        if tag and node.attrs.get("tag", "").lower() != tag:
            return False
        return not cls or cls in node.attrs.get("class", "").lower().split()

    return match


def _matches(key: tuple, only: str) -> bool:
    kind, level = key[0], key[1]
    only = only.strip().lower()
    if only.startswith("h") and only[1:].isdigit():
        return kind == "section" and level == int(only[1:])
    return {"li": "item", "tr": "row", "br": "group", "p": "para", "dt": "dt"}.get(only, only) == kind


class _Taken:
    """The records chosen so far, and every block inside them, by identity: whether a record
    overlaps one (is one, lies inside one, or holds one) is a few set look-ups, not a walk
    of every record taken (records x taken: 5,000 org headings took minutes)."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self._covered: set[int] = set()
        # a pair is made by the finder, not found in the tree: a block holding one holds its parts
        self._held: set[int] = set()

    def add(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            self.ids.add(id(node))
            self._held.add(id(node))
            if node.kind == "pair":
                self._held.update(map(id, node.blocks()))
            self._covered.add(id(node))
            self._covered.update(map(id, _descendants(node)))

    def overlaps(self, node: Node) -> bool:
        if not self.ids:
            return False
        return id(node) in self._covered or any(id(inner) in self._held for inner in _descendants(node))


def _descendants(outer: Node) -> Iterator[Node]:
    """Every block inside `outer`, at any depth."""
    stack = list(outer.blocks())
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.blocks())


def _collect(
    node: Node,
    patterns: dict[tuple, Pattern],
    depth: int,
    heading: str | None,
    table: _Table | None,
    select: Callable[[Node], bool] | None = None,
    headings: frozenset[str] = frozenset(),  # the page's heading anchors: what its contents link to
) -> None:
    if select is not None:  # the user named the records: each element that matches
        for child in node.blocks():
            if select(child):
                entry, roles = read_record(child)
                entry.section = heading
                key = ("selected", 0, "", 0)
                pattern = patterns.setdefault(key, Pattern(key))
                pattern.candidates += 1
                if (q := quality(entry, roles)) > 0:
                    pattern.records.append((child, entry, roles, q))
            else:
                here = child.blocks()[0].text() if child.kind == "section" and child.blocks() else heading
                _collect(child, patterns, depth + 1, here or heading, table, select)
        return
    children = _paired(node.blocks())
    if node.kind == "table":  # its header read once, not again for each cell inside it
        table = _Table(_columns(node), _header_row(node))
    columns, header = (table.columns, table.header) if table is not None else (None, None)
    counts: dict[tuple, int] = defaultdict(int)
    for child in children:
        counts[_shape(child)] += 1
    for child in children:
        here = heading
        if child.kind == "section" and child.blocks():
            here = child.blocks()[0].text() or heading
        # a list is a run of items even when a section's list holds one paper
        repeated = counts[_shape(child)] >= 2 or child.kind in ("section", "pair", "item")
        is_header = child.kind == "row" and bool(columns) and child is header
        if child.kind in _RECORD_KINDS and repeated and not is_header and not _navigation(child, headings):
            record = _labelled_row(child, columns) if child.kind == "row" and columns else child
            entry, roles = read_record(record)
            entry.section = heading
            key = (child.kind, child.level, node.kind, depth if child.kind != "section" else 0)
            pattern = patterns.setdefault(key, Pattern(key))
            pattern.candidates += 1
            if (q := quality(entry, roles)) > 0:
                pattern.records.append((child, entry, roles, q))
                pattern.read_from[id(child)] = record
        if child.kind != "pair":
            _collect(child, patterns, depth + 1, here, table, headings=headings)


_NAV_WORDS = 3  # words outside the links a line of a table of contents may hold (a count, "•")


def _navigation(node: Node, headings: frozenset[str]) -> bool:
    """A table of contents' entry: every link in it points into the page itself (`#topic`),
    and it holds next to nothing else or one of its links names a heading of the page (its
    anchor is the heading's). It names a part of the list, never a paper, so it is no
    candidate record (and no sibling of the papers it sits beside)."""
    spans = [s for s in node.spans() if s.text.strip()]
    anchors = [s.href[1:] for s in spans if s.href is not None]
    if not anchors or not all(s.href is None or s.href.startswith("#") for s in spans):
        return False
    words = sum(len(s.text.split()) for s in spans if s.href is None)
    return words <= _NAV_WORDS * len(anchors) or any(_slug(a) in headings for a in anchors)


def _slug(text: str) -> str:
    """A heading's anchor as Markdown hosts write it: lower case, words joined by hyphens."""
    return re.sub(r"[^\w\s-]", "", unquote(text).lower()).strip().replace(" ", "-")


def _headings(doc: Node) -> frozenset[str]:
    return frozenset(_slug(node.text()) for node in _descendants(doc) if node.kind == "heading")


def _shape(node: Node) -> tuple:
    """Siblings of one shape: same kind and level; lines also open in the same dress (the
    lines inside one entry — title, names, venue — are not records of their own)."""
    if node.kind != "line":
        return (node.kind, node.level)
    first = next((s for s in node.spans() if s.text.strip()), None)
    dress = (first.href is not None, first.bold, first.italic) if first else ()
    return (node.kind, node.level, dress)


def _paired(children: list[Node]) -> list[Node]:
    """A title paragraph followed by its block (list, quote, block, or a paragraph of person
    names) again and again: each pair is one node."""
    kinds = [c.kind for c in children]
    titled = [
        kind == "para" and _short(child) and not _names(child) and not _lead_in(child)
        for kind, child in zip(kinds, children)
    ]
    with_block = [
        titled[i] and kinds[i + 1] in ("list", "quote", "block") and not _holds_papers(children[i + 1])
        for i in range(len(kinds) - 1)
    ]
    # a one-line title with its names is a record even alone (the last paper of a section)
    with_names = [
        titled[i] and _one_line(children[i]) and _names(children[i + 1]) for i in range(len(kinds) - 1)
    ]
    # ... alone too when its block is a list of the paper's labelled links (`- Paper: url`)
    opens = [
        n or (b and (sum(with_block) >= 2 or _field_list(children[i + 1])))
        for i, (b, n) in enumerate(zip(with_block, with_names, strict=True))
    ] + [False]
    if not any(opens):
        return children
    out: list[Node] = []
    i = 0
    while i < len(children):
        if opens[i]:
            out.append(Node("pair", children[i].line, 0, [children[i], children[i + 1]]))
            i += 2
        else:
            out.append(children[i])
            i += 1
    return out


def _holds_papers(node: Node) -> bool:
    """A list of which two items or more open a linked title of their own: records of their
    own (the papers under a bold `**2021**` or topic line), never one paper's links."""
    items = node.blocks() if node.kind == "list" else []
    titled = 0
    for item in items:
        link = next((s for s in item.spans() if s.href and s.href.startswith("http")), None)
        titled += link is not None and titleish(link.text)
        if titled >= 2:
            return True
    return False


def _field_list(node: Node) -> bool:
    """A list whose every item is a labelled link of one paper (`Paper: url`, `Code: url`)."""
    items = node.blocks() if node.kind == "list" else []
    return bool(items) and all(
        (label := _FIELD_LABEL.match(item.text())) is not None
        and (label_name(label.group(1)) is not None or LINK_WORDS.match(label.group(1)) is not None)
        for item in items
    )


_FIELD_LABEL = re.compile(r"^\s*([^\W\d_][\w .\-/]{0,24}?)\s*[:：]\s*\S")


def _lead_in(node: Node) -> bool:
    """`The classic papers I read closely:`: a line ending with a colon leads into the list after
    it, never a paper's title over its links."""
    return node.text().rstrip(" *_").endswith((":", "："))


def _short(node: Node) -> bool:
    return len(node.text().split()) <= 40


def _names(node: Node) -> bool:
    """A paragraph that is only a list of person names (the authors of the title before it):
    one line of plain or italic text, never a link or bold (a title of its own)."""
    if node.kind != "para" or not _one_line(node):
        return False
    if any(s.href or s.bold for s in node.spans() if s.text.strip()):
        return False
    return len(node.text().split()) <= 60 and authorish(node.text().rstrip(". "))


def _one_line(node: Node) -> bool:
    spans = node.spans()
    while spans and (spans[-1].br or not spans[-1].text.strip()):
        spans.pop()
    return not any(s.br for s in spans)


class _Table(NamedTuple):
    """The table a node is inside: the field each column holds, and its header row."""

    columns: list[str | None] | None
    header: Node | None


def _header_row(table: Node) -> Node | None:
    stack = list(table.blocks())
    while stack:
        node = stack.pop(0)
        if node.kind == "row":
            return node
        stack[:0] = node.blocks()
    return None


def _columns(table: Node) -> list[str | None] | None:
    """The field each column holds, from a header row (`Title | Authors | Link`), if any."""
    row = _header_row(table)
    if row is None:
        return None
    names = [label_name(cell.text()) or _column_word(cell.text()) for cell in row.blocks()]
    return names if "title" in names else None


def _column_word(text: str) -> str | None:
    word = text.strip().lower()
    return "title" if word in ("paper", "papers", "论文", "name", "paper name", "论文标题") else None


def _labelled_row(row: Node, columns: list[str | None]) -> Node:
    """A table row whose cells are read as `Label: value` lines by the header's names."""
    out = Node("row", row.line)
    for name, cell in zip(columns, row.blocks(), strict=False):
        spans = cell.spans()
        # the header names the cell's first line; lines after a `<br>` (affiliations, a
        # summary) are the cell's own, read by what they are
        cut = next((i for i, s in enumerate(spans) if s.br and i and not s.soft), len(spans))
        first, rest = [s for s in spans[:cut] if not s.br], spans[cut:]
        if name:  # the header says what the cell is: a title in Title Case is no name list
            out.children.append(Node("para", cell.line, children=[Span(f"{name}: "), *first]))
        else:
            out.children.append(Node("para", cell.line, children=list(first)))
        if any(s.text.strip() for s in rest):
            out.children.append(Node("para", cell.line, children=list(rest)))
    return out
