"""Lists written by people — Markdown digests, awesome lists, Chinese posts, publication
pages — read as *entries*: a title line and the lines that belong to it.

The line recognisers are in `mdlines`, the entry record and its merging in `entry`, front
matter in `frontmatter`; this module puts the recognised lines together:

1. Title lines open an entry: a heading with paper content under it (a labelled field, a
   link, a number, or an abstract-like paragraph), a list item whose text starts with a
   `[Title](url)` link or a `**Title**`, a table row with a title cell (by the header:
   Title/Paper/Name/论文, else the first title-like link), a `Title:` field.
2. The lines after it belong to it until the next title line, heading or rule: labelled
   fields (authors, affiliation, links, abstract, date, venue, keywords, ...), a `#### Abstract`
   sub-heading and the text under it, a `> ` quoted abstract, links (paper links and code
   links apart, by their label and their host), other text (the abstract when the entry has
   no labelled one and the text reads as prose; otherwise venue/year).
3. Headings that are not entries are sections: the paper's `section` is the deepest one
   above it. Usage/setup/license/statistics sections and everything under them are skipped,
   as are tables of contents (links to `#anchors`), badges, images, code fences, HTML
   remnants and collapsed `<details>` blocks (AI summaries).
4. A section that repeats the entries of an earlier one (same numbers, same titles: a
   second pass with details) merges into it by number; then a paper that appears twice
   (same arXiv id, DOI or normalised title) is one paper with the union of its fields.

Text outside any entry is an untitled paper only when it reads as a whole abstract (40+
words, or 80+ CJK characters); a file in which nothing is found yields nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperatlas.identifiers import find_identifiers, link_kind
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.entry import (
    PARA_CJK,
    PARA_WORDS,
    YEAR,
    Entry,
    is_prose,
    merge_duplicates,
    merge_repeated_sections,
    to_paper,
)
from paperatlas.sources.entry_labels import (
    LINK_LABELS,
    ROLE_OF,
    USAGE_SECTIONS,
    cell_title,
    link_label,
    title_cell,
)
from paperatlas.sources.frontmatter import front_matter, front_matter_paper
from paperatlas.sources.mdlines import (
    Line,
    cjk_count,
    classify,
    label_name,
    links,
    noise_blocks,
    plain,
    strip_symbols,
    without_links,
)
from paperatlas.sources.names import split_names
from paperatlas.sources.text import TITLE_MAX_CHARS, looks_like_authors
from paperatlas.sources.titles import FILE_NAME, clean_title, is_title_like


class _Builder:
    def __init__(self, lines: list[Line]):
        self.lines = lines
        self.entries: list[Entry] = []
        self.sections: dict[int, str] = {}
        self.usage_level: int | None = None
        self.current: Entry | None = None
        self.mode: str | None = None  # the field that plain lines continue
        self.blank_before = False
        self.columns: list[str] | None = None
        self.group = 0
        self.group_key: tuple | None = None
        self.wrapped: list[str] = []  # lines continuing current.body[-1], joined once (flush)
        self.linked: dict[int, set[str]] = {}  # id of an entry's urls/code list -> its urls

    # -- helpers --------------------------------------------------------------------------

    def section(self) -> str | None:
        if not self.sections:
            return None
        return self.sections[max(self.sections)]

    def close(self) -> None:
        self.flush()
        self.current, self.mode = None, None

    def flush(self) -> None:
        """Joins a wrapped paragraph's lines into its body paragraph: once, at its end, since
        re-joining the whole paragraph at each line is quadratic on a big file."""
        if self.wrapped and self.current is not None:
            self.current.body[-1] = " ".join([self.current.body[-1], *self.wrapped])
        self.wrapped.clear()

    def open(self, entry: Entry) -> Entry:
        self.close()
        entry.section = self.section()
        key = (entry.section, entry.kind)
        if key != self.group_key:
            self.group += 1
            self.group_key = key
        entry.group = self.group
        self.entries.append(entry)
        self.current = entry
        return entry

    def next_heading(self, i: int) -> int:
        for j in range(i + 1, len(self.lines)):
            if self.lines[j].kind == "heading":
                return j
        return len(self.lines)

    # -- the pass -------------------------------------------------------------------------

    def sibling_entries(self) -> set[int]:
        """Headings that are entries because their siblings are: a run of same-level
        headings, most of them leaves with a paragraph under them (`## Title` + a short
        abstract), makes every leaf of the run an entry, an empty one too (title-only)."""
        heads = [i for i, line in enumerate(self.lines) if line.kind == "heading"]
        info = []
        for n, i in enumerate(heads):
            line = self.lines[i]
            end = heads[n + 1] if n + 1 < len(heads) else len(self.lines)
            leaf = n + 1 >= len(heads) or self.lines[heads[n + 1]].level <= line.level
            body = self.lines[i + 1 : end]
            text = any(b.kind in ("text", "quote") for b in body)
            lists = any(b.kind == "table" or (b.kind == "item" and self.item_title(b)) for b in body)
            usage = bool(USAGE_SECTIONS.match(strip_symbols(plain(line.text))))
            info.append((i, line.level, leaf and not lists and not usage, text))
        marked: set[int] = set()
        run: list[tuple[int, int, bool, bool]] = []

        def close_run() -> None:
            leaves = [r for r in run if r[2]]
            with_text = [r for r in leaves if r[3]]
            if len(with_text) >= 2 and len(with_text) >= 2 * len(run) / 3:
                marked.update(r[0] for r in leaves)
            run.clear()

        for item in info:
            if run and item[1] < run[0][1]:
                close_run()
            if not run or item[1] == run[0][1]:
                run.append(item)
            # a deeper heading belongs to its parent's subtree, not to this run
        close_run()
        return marked

    def run(self) -> list[Entry]:
        self.siblings = self.sibling_entries()
        self.first_heading = next((i for i, line in enumerate(self.lines) if line.kind == "heading"), -1)
        lines = self.lines
        for i, line in enumerate(lines):
            kind = line.kind
            self.lineno = line.lineno
            if kind == "heading":
                self.heading(i, line)
                continue
            if self.usage_level is not None:
                continue
            if kind == "blank":
                self.blank_before = True
                if self.mode not in ("abstract", "summary", "quote", "body", "ignore"):
                    self.mode = None
                continue
            if kind == "rule":
                self.close()
                self.columns = None
            elif kind == "tablesep":
                pass
            elif kind == "table":
                self.table(i, line)
            elif kind == "field":
                self.field(line)
            elif kind == "item":
                self.item(line)
            elif kind == "quote":
                self.quote(line)
            elif self.standalone_title(i, line) and (found := self.item_title(line)):
                self.titled_entry(line, found, "line")
            else:
                self.text(line.text)
            self.blank_before = False
        self.flush()
        return self.entries

    def standalone_title(self, i: int, line: Line) -> bool:
        """A paragraph that starts with `[Title](url)`, `[**Title**](url)` or `**Title**` on a
        line of its own is a title line, among other such entries or outside any entry."""
        current = self.current
        if current is not None and current.kind not in ("line", "para"):
            return False
        prev = self.lines[i - 1].kind if i else "blank"
        if prev not in ("blank", "heading", "rule", "tablesep"):
            return False
        return _starts_with_title(line.text) and self.item_title(line) is not None

    def heading(self, i: int, line: Line) -> None:
        level = line.level
        if self.usage_level is not None:
            if level > self.usage_level:
                return
            self.usage_level = None
        text = strip_symbols(plain(line.text))
        self.columns = None
        if USAGE_SECTIONS.match(text) and line.number is None and not links(line.text):
            self.close()
            self.usage_level = level
            for deeper in [k for k in self.sections if k >= level]:
                del self.sections[deeper]
            return
        if self.is_entry_heading(i, line):
            for deeper in [k for k in self.sections if k >= level]:
                del self.sections[deeper]
            entry = self.open(Entry(line.lineno, "heading", level=level, number=line.number))
            self.title_from(entry, line.text)
            self.mode = "body"
            return
        current = self.current
        if current is not None and current.kind == "heading" and level > current.level:
            self.mode = "ignore"  # a sub-heading inside an entry ("#### Method")
            return
        self.close()
        for deeper in [k for k in self.sections if k >= level]:
            del self.sections[deeper]
        if text:
            self.sections[level] = text

    def is_entry_heading(self, i: int, line: Line) -> bool:
        text = plain(line.text)
        if len(text) > 400 or FILE_NAME.match(text.strip()):
            return False
        if i in self.siblings:
            return True
        body = self.lines[i + 1 : self.next_heading(i)]
        if any(b.kind == "table" for b in body):
            return False
        for b in body:  # what comes first under it: a title of its own, or a field
            if (b.kind == "item" or (b.kind == "text" and _starts_with_title(b.text))) and self.item_title(
                b
            ) is not None:
                return False  # a section over a list of papers
            if b.kind == "field" and b.label != "other":
                return True
        content = [b for b in body if b.kind in ("text", "quote", "item")]
        paper_link = any(u and not u.startswith("#") for _, u in links(line.text))
        if line.level == 1 and i == self.first_heading and line.number is None and not paper_link:
            return False  # the document's own title over its introduction
        paragraphs = _paragraphs(body)
        if (
            sum(is_prose(p, PARA_WORDS, PARA_CJK) for p in paragraphs) >= 2
            and line.number is None
            and not links(line.text)
        ):
            return False  # a heading over untitled abstracts
        if line.number is not None or paper_link:
            return bool(content) or paper_link or bool(text)
        prose = " ".join(b.text for b in content)
        return bool(text) and is_prose(prose) and len(text.split()) <= 40

    def title_from(self, entry: Entry, text: str) -> None:
        found = links(text)
        title_link = next(
            ((label, url) for label, url in found if is_title_like(label) and not url.startswith("#")), None
        )
        if title_link and plain(text).strip().startswith(title_link[0][:20]):
            entry.title = clean_title(title_link[0])
            self.add_link(entry, "paper", title_link[1])
            rest = [(label, url) for label, url in found if (label, url) != title_link]
        else:
            entry.title = clean_title(without_links(text)) or None
            rest = found
        for label, url in rest:
            self.add_link(entry, label, url)

    def add_link(self, entry: Entry, label: str, url: str, role: str | None = None) -> None:
        if not url or url.startswith(("#", "./", "../", "mailto:")) or not re.match(r"^https?://", url):
            return
        kind = role or LINK_LABELS.get(strip_symbols(label).lower().strip("[]() "))
        if kind is None:
            kind = "code" if link_kind(url) in ("code", "project", "data") else "paper"
        if kind == "skip" or "img.shields.io" in url:
            return
        target = entry.code if kind == "code" else entry.urls
        seen = self.linked.get(id(target))
        if seen is None:  # a set: `in` on the list is quadratic in an entry with many links
            seen = self.linked[id(target)] = set(target)
        if url not in seen:
            seen.add(url)
            target.append(url)

    def item_title(self, line: Line) -> tuple[str, str | None] | None:
        """(title, url) when a list item starts with a title: `[Title](url)`, `**Title**`."""
        text = strip_symbols(line.text)
        # the link's title, if any, after a space: `[^)\s]+[^)]*` would share the address's
        # characters between them and try every split (quadratic with no `)` to end it)
        if match := re.match(r"^\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\(\s*([^)\s]+)(?:\s[^)]*)?\)", text):
            label, url = plain(match.group(1)), match.group(2)
            if url.startswith("#"):
                return None
            if link_label(label) is None and is_title_like(label):
                return clean_title(label), url
        elif match := re.match(r"^(\*\*|__)(.+?)\1", text):
            label = plain(match.group(2))
            if label_name(label) or not is_title_like(label) or label.lower() in LINK_LABELS:
                return None
            return clean_title(label), None
        # "Title [[Paper]](url) [[Code]](url)" / "[[PDF]](url) Title, Venue 2017"
        found = links(text)
        paper_links = [url for label, url in found if link_label(label) == "paper"]
        if not paper_links:  # "A. Author, B. Author. [Linked Title](paper-url). Venue 2023."
            for label, url in found:
                if (
                    link_label(label) is None
                    and link_kind(url) == "paper"
                    and is_title_like(label)
                    and len(label.split()) >= 3
                ):
                    return clean_title(label), url
            return None
        if paper_links:
            before = plain(text[: text.find("[")]) if "[" in text else ""
            after = plain(without_links(text)) if not before else ""
            title = clean_title((before or after).strip(" -–—:·|,"))
            title = re.sub(r",\s*[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)?\s+(?:19|20)\d\d$", "", title)
            if is_title_like(title) and len(title.split()) >= 2 and not label_name(title):
                return title, paper_links[0]
        return None

    def item(self, line: Line) -> None:
        current = self.current
        if current is not None and (
            current.kind in ("heading", "field", "line")
            or (current.kind == "item" and line.level > current.level)
        ):
            self.text(line.text)
            return
        found = self.item_title(line)
        if found is None:
            if current is not None and current.kind == "item" and not self.blank_before:
                self.text(line.text)
            else:
                self.close()
            return
        self.titled_entry(line, found, "item")

    def titled_entry(self, line: Line, found: tuple[str, str | None], kind: str) -> None:
        entry = self.open(Entry(line.lineno, kind, level=line.level, number=line.number))
        entry.title = found[0]
        if found[1]:
            self.add_link(entry, "paper", found[1])
        rest = strip_symbols(line.text)
        for label, url in links(rest):
            self.add_link(entry, label, url)
        remainder = re.sub(r"^\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\([^)]*\)|^(\*\*|__)(.+?)\2", "", rest, count=1)
        if not rest.startswith(("[", "*", "_")):  # the title was the text before the links
            remainder = (
                ""
                if rest.find("[") > 0 and plain(rest[: rest.find("[")]).strip(" -–—:·|,") == found[0]
                else without_links(rest).replace(found[0], " ")
            )
        self.item_meta(entry, remainder)
        self.mode = "body"

    def item_meta(self, entry: Entry, remainder: str) -> None:
        """What follows an item's title: `Ann Lee, Bo Chen. *NeurIPS 2024*.` -> authors,
        venue, year; other text is kept as the entry's body."""
        # (whitespace collapsed first: on a long run of it, the split would try every start)
        parts = [
            plain(p).strip(" .,;:-–—|")
            for p in re.split(r"(?<=[.;]) | [-–—|] ", " ".join(without_links(remainder).split()))
        ]
        rest = []
        for part in parts:
            if not part:
                continue
            if not entry.authors and _names_line(part):
                entry.authors = split_names(part)
            elif "venue" not in entry.fields and (m := YEAR.search(part)) and len(part.split()) <= 8:
                venue = part[: m.start()].strip(" ,.;:(")
                if venue:
                    entry.fields["venue"] = venue
                entry.fields.setdefault("year", m.group(1))
            else:
                rest.append(part)
        if rest:
            entry.body.append(" ".join(rest))

    def field(self, line: Line) -> None:
        name, value = line.label, line.text
        current = self.current
        if name == "title":
            if current is None or current.title or current.kind == "para":
                current = self.open(Entry(line.lineno, "field"))
            self.title_from(current, value)
            self.mode = "title"
            return
        if current is None:
            return  # a labelled line outside any entry (statistics, a preface)
        for label, url in links(value):
            role = "code" if name == "code" else "paper" if name in ("url", "affiliation") else None
            if name == "other":
                continue
            self.add_link(current, label, url, role)
        text = plain(without_links(value)).strip()
        if name in ("abstract", "summary", "tldr"):
            current.abstracts.setdefault(name, [])
            if text:
                current.add_text(name, plain(value) if name != "abstract" else _md_text(value))
            self.mode = name
        elif name == "authors":
            current.authors = split_names(text)
            self.mode = "authors"
        elif name in ("venue", "date", "year", "arxiv_id", "affiliation", "keywords", "category"):
            if text:
                current.fields.setdefault(name, text)
            self.mode = name
        elif name == "url" and text and not links(value):  # "arXiv: 2501.01234", "DOI: 10.x/y"
            label = (line.raw_label or "").lower()
            found = find_identifiers(text, f"arXiv:{text}" if "arxiv" in label else None)
            if found.get("arxiv"):
                current.fields.setdefault("arxiv_id", found["arxiv"])
            if found.get("doi"):
                current.fields.setdefault("doi", found["doi"])
            self.mode = name
        else:
            self.mode = "ignore" if name == "other" else name

    def quote(self, line: Line) -> None:
        if self.current is None or self.mode == "ignore":
            return
        rank = self.mode if self.mode in ("abstract", "summary", "tldr") else "quote"
        self.current.add_text(rank, _md_text(line.text))
        for label, url in links(line.text):
            self.add_link(self.current, label, url)
        if self.mode not in ("abstract", "summary", "tldr"):
            self.mode = "quote"

    def text(self, text: str) -> None:
        current = self.current
        if self.mode == "ignore":
            return
        if (
            current is not None and current.kind != "para" and (bare := _BARE_ID.match(plain(text)))
        ):  # "arXiv:2501.01234v2" / "DOI: 10.x/y"
            current.fields.setdefault(
                "arxiv_id" if bare.group(1).lower() == "arxiv" else "doi", bare.group(2)
            )
            return
        if current is None or (current.kind == "para" and self.blank_before):
            # a paragraph outside any entry: an untitled paper if it reads as an abstract
            current = self.open(Entry(self.lineno, "para"))
            self.mode = "body"
        for label, url in links(text):
            self.add_link(current, label, url)
        mode = self.mode
        if mode in ("abstract", "summary", "tldr"):
            current.add_text(mode, _md_text(text))
        elif mode == "authors" and not self.blank_before:
            current.authors += split_names(plain(without_links(text)))
        elif mode == "title" and not self.blank_before and len(current.title or "") <= TITLE_MAX_CHARS:
            # (a title that long is no title: what follows is text, not more of it)
            current.title = clean_title(f"{current.title or ''} {without_links(text)}")
        elif (
            mode in ("venue", "affiliation", "keywords", "category")
            and not self.blank_before
            and len(current.fields.get(mode, "")) <= TITLE_MAX_CHARS
        ):
            current.fields[mode] = f"{current.fields.get(mode, '')} {plain(text)}".strip()
        elif (
            not current.authors
            and current.kind in ("item", "heading", "line")
            and not current.abstracts
            and _names_line(text)
        ):
            current.authors = split_names(plain(without_links(text)))
        elif mode == "body" and current.body and not self.blank_before:
            self.wrapped.append(_md_text(text))  # a wrapped paragraph
        else:
            self.flush()
            current.body.append(_md_text(text))
            self.mode = "body"

    def table(self, i: int, line: Line) -> None:
        nxt = self.lines[i + 1] if i + 1 < len(self.lines) else None
        if nxt is not None and nxt.kind == "tablesep":  # a header row
            self.close()
            self.columns = [ROLE_OF.get(strip_symbols(plain(c)).lower(), "") for c in line.cells]
            return
        cells = line.cells
        columns = self.columns or [""] * len(cells)
        title_at = title_cell(cells, columns)
        if title_at is None:
            return
        title, url = cell_title(cells[title_at])
        if not title or not is_title_like(title):
            return
        entry = self.open(Entry(line.lineno, "table"))
        entry.title = clean_title(title)
        if url:
            self.add_link(entry, "paper", url)
        for index, cell in enumerate(cells):
            role = columns[index] if index < len(columns) else ""
            for label, link in links(cell):
                if index == title_at and link == url:
                    continue
                self.add_link(entry, label, link, "code" if role == "code" else None)
            text = plain(without_links(cell)).replace("\u2028", " ").strip(" -–—")
            if not text or index == title_at:
                continue
            if role == "venue":
                entry.fields.setdefault("venue", text)
            elif role == "date":
                entry.fields.setdefault("date", text)
            elif role == "authors":
                entry.authors = split_names(text)
            elif role == "abstract":
                entry.add_text("abstract", text)
            elif role == "name":
                entry.extra.setdefault("name", text)
        self.mode = "ignore"


_BARE_ID = re.compile(r"^\s*(arxiv|doi)\s*[:：]?\s*(\S+)\s*$", re.IGNORECASE)


def _starts_with_title(text: str) -> bool:
    return bool(re.match(r"^\s*[^\w\s\[*_]{0,3}\s*(\[(?!\[)|\*\*|__)", text))


def _names_line(text: str) -> bool:
    """An unlabelled line of author names (`Ann Lee, Bo Chen`): no CJK, no year, no sentence."""
    bare = plain(without_links(text)).strip()
    return (
        not cjk_count(bare)
        and not YEAR.search(bare)
        and not bare.endswith((".", ":"))
        and looks_like_authors(bare)
    )


def _md_text(text: str) -> str:
    """Abstract text as read: Markdown links become their text, emphasis marks go."""
    return plain(text)


def _paragraphs(body: list[Line]) -> list[str]:
    paragraphs, current = [], []
    for line in body:
        if line.kind == "text":
            current.append(line.text)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def read_entries(path: Path) -> Iterator[Paper]:
    yield from entries_from_lines(path, list(iter_lines(path)))


def read_html(path: Path) -> Iterator[Paper]:
    """An HTML page, as Markdown-like lines (`sources.html`), read as entries."""
    from paperatlas.sources.html import html_lines

    yield from entries_from_lines(path, html_lines(path))


def entries_from_lines(path: Path, raw: list[tuple[int, str]]) -> Iterator[Paper]:
    data, body = front_matter(raw)
    if data is not None and (paper := front_matter_paper(path, data, body)) is not None:
        yield paper
        return
    lines = [classify(n, line) for n, line in noise_blocks(raw)]
    entries = _Builder(lines).run()
    entries = merge_duplicates(merge_repeated_sections(entries))
    entries = [e for e in entries if e.title or e.abstract()[0]]
    entries = [e for e in entries if e.kind != "para" or is_prose(e.abstract()[0], PARA_WORDS, PARA_CJK)]
    if not entries and data is not None:  # a post, a page: not a paper
        yield skipped(f"{path}:1", "front matter without a title and an abstract (not a paper)")
        return
    for entry in entries:
        yield to_paper(path, entry)
