"""What a file gave: its FileReport (an add's: AddReport), the progress bar while it is
added, counts of the fields its entries carry, and warnings when the
entries look like a list read badly (what the reader skipped, and why, is counted by
`sources.ReadReport`).

`EntryStats.see(paper)` is called for every paper read;
`warnings()` then names the signs of a bad read a user should look at before trusting
the import: many "abstracts" that hold no sentence, the same label text opening many
entries, entries that are only a link, markup left in titles. The checks look at the
first `SAMPLE` papers only, so a big file costs nothing extra.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from paperatlas.paper import Paper
from paperatlas.printable import file_name
from paperatlas.progress import progress_bar
from paperatlas.sources import BY_NAME, formats_read
from paperatlas.sources.report import ReadReport

SAMPLE = 1000  # papers the text checks look at (the counts cover every paper)
_MIN_FLAGGED = 3  # never warn about fewer entries than this
_SHARE = 0.2  # ... or a smaller share of the entries checked

_URL = re.compile(r"https?://\S+|www\.\S+")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(
    r"\]\(|!\[|\*\*|</?(?:a|br|img|font|details|summary|div|span|p)\b|&nbsp;|^#+\s", re.IGNORECASE
)
_LABEL = re.compile(
    r"^\W{0,4}([^\W\d_][\w .\-/]{0,24}?|[\u3000-\u9fff]{1,6})\s*\**\s*[:：]"
    r"|^([A-Z][A-Z0-9]{1,3})\s{1,3}-\s"
)  # `Authors:`, `**摘要**：`, `AU  - ` (a tag)
_RAW_DATA = re.compile(r"^[\[{(]\s*['\"]\w+['\"]\s*:|['\"]\s*:\s*['\"]")
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$|[\"')\]”’])")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_WORD = re.compile(r"\w+")


def has_text(value: str | None) -> bool:
    """Not None, not empty, not only whitespace (without copying a long text as strip() does)."""
    return bool(value and not value.isspace())


def has_sentence(text: str) -> bool:
    """Does the text read as prose: a sentence end after a few words, or many words
    (CJK text: characters count as words)? Only the first 300 characters are looked at."""
    text = text[:300]
    cjk = 0 if text.isascii() else len(_CJK.findall(text))  # isascii() costs nothing
    if cjk >= 10:
        return cjk >= 15 or bool(_SENTENCE_END.search(text))
    words = sum(1 for _ in islice(_WORD.finditer(text), 12))  # counted up to 12, all it needs
    return words >= 12 or (words >= 5 and bool(_SENTENCE_END.search(text)))


def link_only(text: str) -> bool:
    """Text that is a link and little else (a URL, `[label](url)`, a badge)."""
    if "://" not in text and "www." not in text and "](" not in text:
        return False
    rest = _URL.sub(" ", _MD_LINK.sub(r"\1", text))
    return len(_WORD.findall(rest)) <= 2


def _label(text: str) -> str | None:
    """`Authors:` / `**摘要**：` at the start of a text: the label, else None."""
    match = _LABEL.match(text)
    return (match.group(1) or match.group(2)).strip().lower() if match else None


def _opening(text: str) -> str:
    return " ".join(_WORD.findall(text[:80].lower())[:4])


@dataclass
class EntryStats:
    """Counts over a file's records, and the evidence the warnings are drawn from."""

    papers: int = 0
    title: int = 0
    abstract: int = 0
    title_only: int = 0
    authors: int = 0
    links: int = 0
    identifiers: int = 0
    section: int = 0
    checked: int = 0
    no_sentence: int = 0
    link_only: int = 0
    markup: int = 0
    raw_authors: int = 0
    titles: Counter = field(default_factory=Counter)
    openings: Counter = field(default_factory=Counter)
    labels: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def see(self, paper: Paper) -> None:
        """Count one paper read (to be stored)."""
        self.papers += 1
        abstract, title = paper.abstract, paper.title
        has_abstract = bool(abstract) and not abstract.isspace()
        self.title += bool(title and not title.isspace())
        self.abstract += has_abstract
        self.title_only += not has_abstract
        self.authors += bool(paper.authors)
        self.links += bool(paper.urls or paper.code_urls)
        self.identifiers += bool(paper.identifiers)
        self.section += bool(paper.section)
        if self.checked >= SAMPLE:
            return
        self.checked += 1
        abstract = paper.abstract.strip()
        title = (paper.title or "").strip()
        text = abstract or title
        if abstract and not has_sentence(abstract):
            self.no_sentence += 1
            self.examples.setdefault("no_sentence", abstract)
        if link_only(text) or (title and link_only(title)):
            self.link_only += 1
            self.examples.setdefault("link_only", text if link_only(text) else title)
        if title and _MARKUP.search(title):
            self.markup += 1
            self.examples.setdefault("markup", title)
        if title:
            self.titles[title.lower()] += 1
        if paper.authors and _RAW_DATA.search(str(paper.authors[0])):
            self.raw_authors += 1
            self.examples.setdefault("raw_authors", str(paper.authors[0]))
        for what in filter(None, (title, abstract)):
            if label := _label(what):
                self.labels[label] += 1
        if opening := _opening(text):
            self.openings[opening] += 1

    def warnings(self) -> list[str]:
        """One line per sign that the file was read badly (empty when it reads well)."""
        out: list[str] = []
        n = self.checked

        def many(count: int) -> bool:
            return count >= _MIN_FLAGGED and count >= _SHARE * n

        if many(self.no_sentence):
            out.append(
                f"{self.no_sentence} of {n} entries have an 'abstract' with no sentence in it "
                f"(e.g. {_quote(self.examples['no_sentence'])}): lines read as abstracts?"
            )
        if many(self.link_only):
            out.append(
                f"{self.link_only} of {n} entries are only a link (e.g. {_quote(self.examples['link_only'])})"
            )
        if many(self.markup):
            out.append(f"{self.markup} of {n} titles carry markup (e.g. {_quote(self.examples['markup'])})")
        if many(self.raw_authors):
            out.append(
                f"{self.raw_authors} of {n} entries have authors that look like raw data "
                f"(e.g. {_quote(self.examples['raw_authors'])})"
            )
        if self.titles:
            title, count = self.titles.most_common(1)[0]
            if many(count) and count > 1:
                out.append(
                    f"{count} of {n} entries have the same title {_quote(title)} "
                    "(a label or field read as the title?)"
                )
        if self.labels:
            label, count = self.labels.most_common(1)[0]
            if many(count):
                out.append(
                    f"{count} of {n} entries begin with the label '{label}' "
                    "(a field read as the title or abstract?)"
                )
        if self.openings and n >= 2 * _MIN_FLAGGED:
            opening, count = self.openings.most_common(1)[0]
            if many(count) and count >= 2 * _MIN_FLAGGED:
                out.append(
                    f"{count} of {n} entries begin with the same words '{opening}' "
                    "(repeated label or boilerplate text?)"
                )
        return out

    def summary(self) -> str:
        """`read 30 entries: 30 titles, 28 abstracts (2 title-only), 30 authors, 29 links`."""
        parts = [f"{self.title} titles", f"{self.abstract} abstracts"]
        if self.title_only:
            parts[-1] += f" ({self.title_only} title-only)"
        parts += [f"{self.authors} with authors", f"{self.links} with links"]
        if self.identifiers:
            parts.append(f"{self.identifiers} with arXiv/DOI/OpenReview ids")
        if self.section:
            parts.append(f"{self.section} with a section")
        return ", ".join(parts)


def _quote(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")


@dataclass
class FileReport:
    path: str
    list_name: str
    read: int = 0  # records read from the file
    added: int = 0  # new papers stored
    merged: int = 0  # records merged into a stored paper (filled fields, or a twin found by
    # identifier, title or near text that joined the list)
    near: int = 0  # ... of which matched as near-duplicates (MinHash)
    unchanged: int = 0  # records already stored under their id, nothing new to the paper
    joined: int = 0  # ... of which joined this list (stored before under another list)
    skipped: int = 0  # records the reader read but did not yield (reasons in `skips`)
    filled: int = 0  # stored title-only papers that gained their abstract from this file
    stats: EntryStats = field(default_factory=EntryStats)  # fields the papers carry
    skips: ReadReport = field(default_factory=ReadReport)  # format, skips by reason
    error: str | None = None
    not_read: bool = False  # the file and its list were as its last add left them (skip_unchanged)
    # a folder: the same counts per file inside it (file path -> EntryStats), in read order
    files: dict[str, EntryStats] = field(default_factory=dict)

    @property
    def format(self) -> str | None:
        return self.skips.format

    @property
    def warnings(self) -> list[str]:
        return self.skips.warnings + self.stats.warnings()


@dataclass
class AddReport:
    files: list[FileReport] = field(default_factory=list)

    def _sum(self, name: str) -> int:
        return sum(getattr(f, name) for f in self.files)

    @property
    def added(self) -> int:
        return self._sum("added")

    @property
    def merged(self) -> int:
        return self._sum("merged")

    @property
    def skipped(self) -> int:
        return self._sum("skipped")

    @property
    def unchanged(self) -> int:
        return self._sum("unchanged")

    @property
    def joined(self) -> int:
        return self._sum("joined")

    @property
    def errors(self) -> list[str]:
        return [f.error for f in self.files if f.error]


def no_papers_message(fmt: str | None, records: str | None = None) -> str:
    """Why nothing was read: what the file was taken for (and the records asked for), and what
    is read."""
    taken = BY_NAME[fmt].label if fmt in BY_NAME else (fmt or "an unknown format")
    if records and fmt in BY_NAME and BY_NAME[fmt].finder:
        return f"no papers found in it as --records {records.strip()} (read as {taken}: try another or none)"
    return f"no papers found in it (read as {taken}; paperatlas reads {formats_read()})"


class AddProgress:
    """A rich progress bar per file on stderr: the share of the file read, papers so far."""

    def __init__(self):
        self._progress = progress_bar(
            done="percent",
            eta=False,
            elapsed=True,
            spinner=True,
            fields=("{task.fields[papers]} papers",),
            transient=False,
            stderr=True,
        )
        self._progress.start()

    def start(self, path: Path):
        return self._progress.add_task(f"adding {file_name(path.name)}", total=1000, papers=0)

    def update(self, task, papers: int, fraction: float | None) -> None:
        done = self._progress.tasks[task].fields["papers"] + papers
        if fraction is None:
            self._progress.update(task, papers=done)
        else:
            self._progress.update(task, papers=done, completed=int(1000 * fraction))

    def finish(self, task) -> None:
        self._progress.update(task, completed=1000)

    def stop(self) -> None:
        self._progress.stop()
