"""Plain-text paper lists, as copied from blogs, list sites and PDFs.

A list is blocks separated by blank lines. Each block is one paper: an abstract, or a
title and an abstract (`Title\\nAbstract`, `12. Title`, `## Title`, `Title:`/`Abstract:`
labels). A title may also stand alone in the block before its abstract. A short line at
the top (`ICLR 2026 论文列表`) or between papers is a heading, not a paper.

Rule that keeps every paper: a block of more than `TITLE_MAX_WORDS` words, or one that
ends with a full stop, is never taken for a heading or a stand-alone title.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.limits import RECORD_LIMIT, too_long
from paperatlas.sources.records import split_list

TITLE_MAX_WORDS = 25
TITLE_MAX_CHARS = 250
TITLE_MAX_CJK_CHARS = 60  # a Chinese title is 10-40 characters; an abstract is hundreds
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_STYLE_LOOKAHEAD = 50  # blocks read ahead to tell "title block, abstract block" lists apart

_LABEL = re.compile(
    r"^\s*(title|abstract|summary|authors?|keywords|tl;?dr|url|venue)\s*[:：]\s*(.*)$", re.IGNORECASE
)
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_NUMBERED = re.compile(r"^\s*[(\[]?(\d{1,6})[.)\]]\s+(\S.*)$")  # 12. / 12) / (12) / [12]
_BOLD = re.compile(r"^\s*\*\*(.+?)\*\*\s*$")
_MATH = re.compile(r"(\$\$.*?\$\$|\$[^$]*\$)", re.DOTALL)
# (possessive, and never started inside a hyphenated chain: on "a-a-a-...", trying every start
# and every split of the chain took time quadratic in its length, and more)
_BROKEN_WORD = re.compile(r"(?<![\\\w])(?<![A-Za-z]-)([A-Za-z]++(?:-[A-Za-z]++)*+)-\s+([a-z]+)\b")
# A hyphen before these was a real one: "pre- and post-training", "zero- to few-shot".
_KEEP_BEFORE = {"and", "or", "nor", "to", "vs", "versus", "as", "but", "than", "via", "with"}
# Prefixes usually written with a hyphen: "self- supervised" -> "self-supervised".
_HYPHEN_PREFIXES = {
    "self",
    "non",
    "cross",
    "multi",
    "semi",
    "well",
    "state",
    "high",
    "low",
    "large",
    "small",
    "long",
    "short",
    "fine",
    "zero",
    "few",
    "one",
    "two",
    "three",
    "open",
    "real",
    "end",
    "first",
    "second",
    "third",
    "top",
    "task",
    "domain",
    "human",
    "label",
    "sample",
    "time",
    "world",
    "object",
    "token",
    "text",
    "image",
    "video",
    "data",
    "model",
    "co",
    "post",
    "pre",
    "in",
    "out",
    "off",
    "on",
    "sub",
    "super",
    "inter",
    "intra",
    "anti",
    "quasi",
    "pseudo",
}
_LABEL_FIELDS = {
    "title": "title",
    "abstract": "abstract",
    "summary": "abstract",
    "author": "authors",
    "authors": "authors",
    "keywords": "keywords",
    "tldr": "tldr",
    "tl;dr": "tldr",
    "url": "url",
    "venue": "venue",
}


def repair_hyphenation(text: str) -> str:
    """Undo line-break hyphenation from PDF copies (`materi- als` -> `materials`),
    leaving LaTeX math (`$...$`) and real hyphens (`pre- and post-training`) alone."""
    text = text.replace("\u00ad", "")  # soft hyphens are invisible break hints

    def fix(match: re.Match[str]) -> str:
        left, right = match.group(1), match.group(2)
        if right in _KEEP_BEFORE:
            return match.group(0)
        if "-" in left or left.lower() in _HYPHEN_PREFIXES:
            return f"{left}-{right}"
        return left + right

    parts = _MATH.split(text)
    return "".join(p if i % 2 else _BROKEN_WORD.sub(fix, p) for i, p in enumerate(parts))


def _join(lines: list[str]) -> str:
    return repair_hyphenation(" ".join(line.strip() for line in lines if line.strip())).strip()


def is_title_like(line: str) -> bool:
    """A short line that can be a title or a heading: never a full sentence."""
    line = line.strip()
    return (
        bool(line)
        and len(line) <= TITLE_MAX_CHARS
        and len(line.split()) <= TITLE_MAX_WORDS
        and len(_CJK.findall(line)) <= TITLE_MAX_CJK_CHARS  # Chinese has no spaces to count
        and not line.endswith((".", ",", ";", ":", "!", "。", "！", "？", "；", "，"))
        and any(c.isalnum() for c in line)
    )


def _looks_like_title_over(first: str, second: str) -> bool:
    """Is `first` a title above the abstract starting with `second`, not a wrapped line?"""
    if not is_title_like(first) or not second.strip() or second.lstrip()[0].islower():
        return False
    words = [w for w in re.findall(r"[^\W\d_][\w'-]*", first) if len(w) > 3]
    title_case = bool(words) and sum(w[0].isupper() for w in words) / len(words) >= 0.6
    return title_case or len(first.strip()) < 0.7 * len(second.strip())


@dataclass
class _Entry:
    line: int
    title: str | None = None
    abstract: str | None = None
    marked: bool = False  # the title was marked (##, number, label), not guessed
    fields: dict[str, object] = field(default_factory=dict)

    @property
    def title_only(self) -> bool:
        return self.abstract is None


def _parse_block(start: int, lines: list[str]) -> _Entry:
    entry = _Entry(line=start)
    entry = _parse_lines(entry, lines)
    if entry.abstract is None and not (is_title_like(entry.title or "") and is_title_like(" ".join(lines))):
        # too long for a title: whatever it was marked as, it is the paper's text
        entry.abstract, entry.title = entry.title or _join(lines), None
    return entry


def _parse_lines(entry: _Entry, lines: list[str]) -> _Entry:
    labels = [m.group(1).lower() for m in map(_LABEL.match, lines) if m]
    if _LABEL.match(lines[0]) or "abstract" in labels or "summary" in labels:
        return _parse_labelled(entry, lines)
    first, rest = lines[0], lines[1:]
    if match := _HEADING.match(first) or _BOLD.match(first):
        entry.title, entry.marked = match.group(1).strip(" *"), True
        if numbered := _NUMBERED.match(entry.title):  # "## 12. Title"
            entry.fields["number"] = int(numbered.group(1))
            entry.title = numbered.group(2)
    elif (match := _NUMBERED.match(first)) and (rest or is_title_like(match.group(2))):
        entry.fields["number"] = int(match.group(1))
        if is_title_like(match.group(2)):
            entry.title, entry.marked = match.group(2), True
        else:  # a numbered abstract: the number is not part of it
            rest = [match.group(2), *rest]
    elif (rest and _looks_like_title_over(first, rest[0])) or (not rest and is_title_like(first)):
        entry.title = first
    else:
        rest = lines
    if entry.title is not None:
        entry.title = _join([entry.title])
        if len(rest) >= 2 and looks_like_authors(rest[0]):  # Title / Authors / Abstract
            entry.fields["authors"] = rest[0].strip()
            rest = rest[1:]
    if rest:
        entry.abstract = _join(rest) or None
    return entry


_NAME_PARTICLES = {"de", "van", "von", "der", "den", "di", "da", "del", "le", "la", "du", "bin", "al"}


_AFFILIATION = re.compile(r"\s*\([^()]{1,80}\)")


def looks_like_authors(line: str) -> bool:
    """`Ann Lee, Bo Chen and J. Smith`: short, and every word of every name capitalised."""
    line = line.strip().rstrip("*†‡")
    if not line or len(line) > 300 or line.endswith(":"):
        return False
    line = _AFFILIATION.sub("", line)  # "Ann Lee (MIT), Bo Chen (Stanford University)"
    names = [n for n in re.split(r"\s*[,;]\s*|\s+and\s+|\s*&\s*", line) if n.strip()]
    if not names:
        return False
    for name in names:
        words = name.split()
        if not 1 <= len(words) <= 5:
            return False
        for word in words:
            word = word.strip("*†‡0123456789")
            if word and not word[0].isupper() and word.lower() not in _NAME_PARTICLES:
                return False
    return len(names) >= 2 or len(names[0].split()) >= 2


def _parse_labelled(entry: _Entry, lines: list[str]) -> _Entry:
    values: dict[str, list[str]] = {}
    current = "title"
    for line in lines:
        if match := _LABEL.match(line):
            current = _LABEL_FIELDS[match.group(1).lower()]
            values.setdefault(current, []).append(match.group(2))
        else:
            values.setdefault(current, []).append(line)
    entry.marked = True
    if "title" in values:
        entry.title = _join(values.pop("title")) or None
    if "abstract" in values:
        entry.abstract = _join(values.pop("abstract")) or None
    for name, parts in values.items():
        entry.fields[name] = _join(parts)
    return entry


def _blocks(path: Path) -> Iterator[tuple[int, list[str]]]:
    """Blocks of non-blank lines; lines past the record limit are left out of a block (it is
    then far over any abstract's length, and skipped as such)."""
    start, lines, chars = 0, list[str](), 0
    for lineno, line in iter_lines(path):
        if line.strip():
            if not lines:
                start, chars = lineno, 0
            if chars <= RECORD_LIMIT:
                lines.append(line)
                chars += len(line)
        elif lines:
            yield start, lines
            lines = []
    if lines:
        yield start, lines


def _is_unmarked_short(entry: _Entry) -> bool:
    return entry.title_only and not entry.marked


def read_text(path: Path) -> Iterator[Paper]:
    entries = (_parse_block(start, lines) for start, lines in _blocks(path))
    head: list[_Entry] = []
    for entry in entries:
        head.append(entry)
        if len(head) >= _STYLE_LOOKAHEAD:
            break
    # "Title block, abstract block" lists: unmarked short lines are titles, not headings.
    short = sum(_is_unmarked_short(e) for e in head[1:])
    untitled = sum(e.abstract is not None and e.title is None for e in head[1:])
    alternating = short >= 2 and short >= 0.5 * untitled

    first_line = head[0].line if head else 0

    def counted(title_entry: _Entry | None) -> TypeGuard[_Entry]:
        """A marked title with no abstract is yielded (ingest skips and counts it), except
        at the very top, where it is the document's own heading."""
        return title_entry is not None and title_entry.marked and title_entry.line != first_line

    pending: _Entry | None = None
    for entry in itertools.chain(head, entries):
        if not entry.abstract and not entry.title:
            continue  # only invisible characters (a lone soft hyphen, an empty label)
        if entry.title_only:
            if counted(pending):
                yield _paper(path, pending)
            pending = entry if entry.marked or alternating else None
            continue
        if pending is not None and entry.title is None:
            entry.title, entry.line = pending.title, pending.line
            entry.fields = {**pending.fields, **entry.fields}
        elif counted(pending):
            yield _paper(path, pending)
        pending = None
        yield _paper(path, entry)
    if counted(pending):
        yield _paper(path, pending)


_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{1,6}|#[xX][0-9a-fA-F]{1,5});")


def _decoded(text: str | None) -> str | None:
    """Text copied from a page's source keeps its entities ("Kernels &amp; Attention"):
    well-formed ones decoded, a bare "&" left alone."""
    if not text or "&" not in text:
        return text
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


def _paper(path: Path, entry: _Entry) -> Paper:
    if entry.abstract and (reason := too_long(entry.abstract)):
        return skipped(f"{path}:{entry.line}", reason, entry.title)
    fields = dict(entry.fields)
    extra: dict[str, object] = {}
    if "number" in fields:
        extra["number"] = fields.pop("number")
    if "tldr" in fields:
        extra["tldr"] = fields.pop("tldr")
    return Paper(
        abstract=_decoded(entry.abstract) or "",
        title=_decoded(entry.title) or None,
        authors=split_list(fields.pop("authors", None), authors=True),
        keywords=split_list(fields.pop("keywords", None)),
        venue=str(fields.pop("venue", None) or "") or None,
        urls=split_list(fields.pop("url", None)),
        source=f"{path}:{entry.line}",
        extra=extra,
    )
