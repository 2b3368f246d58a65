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
from paperatlas.sources.text import TITLE_MAX_CHARS, looks_like_authors
from paperatlas.sources.titles import FILE_NAME, clean_title, is_title_like

# Sections that hold no papers, whatever is under them.
_USAGE = re.compile(
    r"^(usage|how to use|how to|installation|install|setup|set up|getting started|quick ?start|"
    r"configuration|config|customi[sz]ation|schedule|license|licence|contributing|contribute|"
    r"contributors?|contact|citation|cite|cite us|citing|acknowledge?ments?|star history|faq|"
    r"deployment|deploy|statistics|stats|todo|to do|changelog|change log|updates?|news|"
    r"manual trigger|requirements|development|features|table of contents|contents|toc|"
    r"related (lists|repos|projects)|sponsors?|support|about|footnotes|"
    r"使用|使用方法|使用说明|安装|配置|统计|许可|许可证|致谢|引用|更新日志|更新|新闻|目录|联系|贡献|"
    r"声明|免责声明|说明|运行|部署|关于)\b",
    re.IGNORECASE,
)
# Link labels that name what a link is, never a paper's title.
_LINK_LABELS = {
    "paper": "paper",
    "pdf": "paper",
    "arxiv": "paper",
    "abs": "paper",
    "openreview": "paper",
    "doi": "paper",
    "论文": "paper",
    "paper page": "paper",
    "论文链接": "paper",
    "原文": "paper",
    "acl": "paper",
    "ieee": "paper",
    "acm": "paper",
    "semantic scholar": "paper",
    "alphaxiv": "paper",
    "hf paper": "paper",
    "code": "code",
    "github": "code",
    "gitlab": "code",
    "repo": "code",
    "project": "code",
    "project page": "code",
    "homepage": "code",
    "website": "code",
    "demo": "code",
    "local demo": "code",
    "dataset": "code",
    "data": "code",
    "model": "code",
    "models": "code",
    "huggingface": "code",
    "hugging face": "code",
    "hf": "code",
    "代码": "code",
    "项目": "code",
    "主页": "code",
    "项目主页": "code",
    "leaderboard": "code",
    "eval tool": "code",
    "checkpoint": "code",
    "weights": "code",
    "blog": "code",
    "video": "code",
    "slides": "code",
    "poster": "code",
    "bib": "skip",
    "bibtex": "skip",
    "citation": "skip",
    "cite": "skip",
    "star": "skip",
    "stars": "skip",
    "wechat": "skip",
}
_TABLE_ROLES = {
    "title": (
        "title",
        "paper",
        "paper title",
        "papers",
        "论文",
        "标题",
        "题目",
        "论文标题",
        "publication",
        "article",
    ),
    "name": ("name", "dataset", "benchmark", "model", "method", "名称", "数据集", "模型", "方法"),
    "venue": (
        "venue",
        "conference",
        "journal",
        "pub",
        "publication venue",
        "会议",
        "期刊",
        "会议期刊",
        "source",
    ),
    "date": (
        "date",
        "year",
        "time",
        "published",
        "publish date",
        "publication date",
        "pub date",
        "submitted",
        "updated",
        "日期",
        "时间",
        "年份",
        "发表日期",
        "发布日期",
    ),
    "code": ("code", "github", "repo", "repository", "demo", "project", "homepage", "代码", "项目"),
    "authors": ("authors", "author", "作者"),
    "abstract": ("abstract", "摘要", "summary", "tl;dr", "tldr"),
}
_ROLE_OF = {name: role for role, names in _TABLE_ROLES.items() for name in names}


def looks_like_markdown(head: str) -> bool:
    """Markdown a person wrote: headings, tables, bold, links, labelled fields (also plain
    Chinese labels `作者：`), or YAML front matter. Text with none of it is left to the
    plain-text paragraph reader."""
    if re.match(r"^---\s*\n.*?\n(---|\.\.\.)\s*(\n|$)", head, re.DOTALL):
        return True
    lines = head.splitlines()
    chinese = sum(
        bool(
            re.match(
                r"^\s*(?:\d{1,4}[.)、]\s*)?(?:[-*+]\s*)?(作者|摘要|中文摘要|单位|机构|"
                r"主要机构|发表日期|论文链接|链接|代码|代码链接|标题|题目|论文标题|论文题目)"
                r"\s*[:：]",
                line,
            )
        )
        for line in lines
    )
    if chinese >= 2:
        return True
    # `Title:`/`Abstract:` lists with labels the paragraph reader does not know (`Link:`, `Code:`)
    labelled = [
        m.group(1).lower()
        for m in (
            re.match(
                r"^\s*(?:\d{1,4}[.)]\s*)?(title|authors?|abstract|links?|url|pdf|code|github|arxiv|"
                r"affiliations?|published|date|venue|keywords)\s*[:：]",
                line,
                re.IGNORECASE,
            )
            for line in lines
        )
        if m
    ]
    if len(labelled) >= 3 and set(labelled) & {
        "link",
        "links",
        "pdf",
        "code",
        "github",
        "arxiv",
        "affiliation",
        "affiliations",
        "published",
        "date",
    }:
        return True
    headings = sum(bool(re.match(r"^\s{0,3}#{1,6}\s+\S", line)) for line in lines)
    tables = sum(line.strip().startswith("|") and line.strip().endswith("|") for line in lines)
    # bold or a link where a title or a label starts (not bold words inside an abstract)
    marked = sum(
        bool(
            re.match(
                r"^\s{0,3}(?:[-*+]\s+|\d{1,4}[.)]\s+|#{1,6}\s+(?:\d{1,4}[.)]\s+)?|>\s*)?"
                r"[^\w\s\[*_]{0,3}\s*(?:\*\*|__|\[[^\]]+\]\()",
                line,
            )
        )
        for line in lines
    )
    return tables >= 2 or marked >= 1 or headings >= 3


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
            usage = bool(_USAGE.match(strip_symbols(plain(line.text))))
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
        if _USAGE.match(text) and line.number is None and not links(line.text):
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
        kind = role or _LINK_LABELS.get(strip_symbols(label).lower().strip("[]() "))
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
        if match := re.match(r"^\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\(\s*([^)\s]+)[^)]*\)", text):
            label, url = plain(match.group(1)), match.group(2)
            if url.startswith("#"):
                return None
            if _link_label(label) is None and is_title_like(label):
                return clean_title(label), url
        elif match := re.match(r"^(\*\*|__)(.+?)\1", text):
            label = plain(match.group(2))
            if label_name(label) or not is_title_like(label) or label.lower() in _LINK_LABELS:
                return None
            return clean_title(label), None
        # "Title [[Paper]](url) [[Code]](url)" / "[[PDF]](url) Title, Venue 2017"
        found = links(text)
        paper_links = [url for label, url in found if _link_label(label) == "paper"]
        if not paper_links:  # "A. Author, B. Author. [Linked Title](paper-url). Venue 2023."
            for label, url in found:
                if (
                    _link_label(label) is None
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
                entry.authors = split_authors(part)
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
            current.authors = split_authors(text)
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
            current.authors += split_authors(plain(without_links(text)))
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
            current.authors = split_authors(plain(without_links(text)))
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
            self.columns = [_ROLE_OF.get(strip_symbols(plain(c)).lower(), "") for c in line.cells]
            return
        cells = line.cells
        columns = self.columns or [""] * len(cells)
        title_at = _title_cell(cells, columns)
        if title_at is None:
            return
        title, url = _cell_title(cells[title_at])
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
                entry.authors = split_authors(text)
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


def _link_label(label: str) -> str | None:
    return _LINK_LABELS.get(strip_symbols(label).lower().strip("[]() "))


def _title_cell(cells: list[str], columns: list[str]) -> int | None:
    for role in ("title", "name"):
        if role in columns:
            index = columns.index(role)
            if index < len(cells) and cells[index].strip():
                if role == "name":  # a dataset table: the paper is the linked title elsewhere
                    for j, cell in enumerate(cells):
                        title, url = _cell_title(cell)
                        if (
                            url
                            and j != index
                            and is_title_like(title or "")
                            and len((title or "").split()) >= 3
                        ):
                            return j
                return index
    for j, cell in enumerate(cells):
        title, url = _cell_title(cell)
        if url and title and is_title_like(title) and len(title.split()) >= 3:
            return j
    return None


def _cell_title(cell: str) -> tuple[str | None, str | None]:
    for label, url in links(cell):
        if url.startswith("#") or label.lower() in _LINK_LABELS or not label:
            continue
        return label, url
    text = plain(without_links(cell)).replace("\u2028", " ")
    return (strip_symbols(text) or None), None


def _md_text(text: str) -> str:
    """Abstract text as read: Markdown links become their text, emphasis marks go."""
    return plain(text)


_AUTHOR_SPLIT = re.compile(r"\s*[,;，；、]\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+和\s+")


_ET_AL_END = re.compile(r"\s*\bet\.?\s*al\.?$")


def _initials(text: str) -> bool:
    """ "J.", "K.H.", "A-L", "M": one to three capital letters and nothing but dots, hyphens."""
    letters = [c for c in text if c.isalpha()]
    rest = [c for c in text if not c.isalpha()]
    return 1 <= len(letters) <= 3 and all(c.isupper() for c in letters) and all(c in ". -" for c in rest)


def split_authors(text: str) -> list[str]:
    names = []
    for name in _surname_first(_AUTHOR_SPLIT.split(text)):
        name = _ET_AL_END.sub("", strip_symbols(name))  # "Ann Lee et.al."
        name = re.sub(r"[\d*†‡§¶⭐✉#]+$", "", name).strip()
        name = re.sub(r"\s*\([^)]*\)$", "", name)  # "Ann Lee (MIT)"
        if name and re.search(r"[^\W\d_]", name) and name.lower() not in ("et al", "et al.", "others"):
            names.append(name)
    return names


def _surname_first(parts: list[str]) -> list[str]:
    """`Palmblad, M., Lamprecht, A-L and Ison, J.`: surnames and their initials split apart by
    the commas, joined again (`Palmblad, M.`) when every other part is initials alone."""
    parts = [_ET_AL_END.sub("", p).strip() for p in parts if p and p.strip()]
    parts = [p for p in parts if p]
    if len(parts) < 2 or len(parts) % 2:
        return parts
    surnames, initials = parts[0::2], parts[1::2]
    if not all(map(_initials, initials)) or any(map(_initials, surnames)):
        return parts
    return [f"{s}, {i}" for s, i in zip(surnames, initials, strict=True)]


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
