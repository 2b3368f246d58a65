"""The fields of one record the finder (`sources.finder`) found, given by what each piece of
it is: a labelled field (`Authors:`, `摘要：`), an emphasised or linked title, a list of
person names, a link and its kind, a venue and year, prose long enough to be an abstract.

`read_record` returns an `Entry` (the record type the entry reader uses, so the two share
`to_paper` and the duplicate merging) and the roles its pieces took ("title = bold link,
authors = italic"), which `inspect` shows as the pattern the list was read by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from paperatlas.identifiers import link_kind
from paperatlas.sources.doctree import Node, Span
from paperatlas.sources.entry import YEAR, Entry, is_prose
from paperatlas.sources.mdlines import cjk_count, label_name
from paperatlas.sources.names import (
    ET_AL,
    INITIAL,
    SEPARATORS,
    STOP,
    VANCOUVER_FIRST,
    authorish,
    group_author,
    names_field,
    names_in,
    split_authors,
    without_affiliation,
)
from paperatlas.sources.text import looks_like_authors
from paperatlas.sources.titles import clean_title, is_title_like

# Numbering in any dress before a title: `[12]`, `12.`, `No. 12`, `(12)`, `#12`, `12、`.
NUMBERING = re.compile(
    r"^\s*(?:\[\s*\d{1,5}\s*\]\.?|[(（]\s*\d{1,5}\s*[)）]|(?:No|Nr|#)\.?\s*\d{1,5}\b[.:)]?|\d{1,5}\s*[.)、:．]"
    r"(?!\d))\s*",
    re.IGNORECASE,
)
# Link texts that say what a link is, never a title.
LINK_WORDS = re.compile(
    r"^\W*(paper|pdf|arxiv|abs|abstract|html|doi|openreview|code|github|project|project page|website|"
    r"page|demo|video|slides|poster|data|dataset|bibtex|bib|link|url|https?|full ?text|download|preprint|blog|huggingface|hf|model|"
    r"论文|代码|项目|主页|链接|原文)\W*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^\s*([^\W\d_][\w .\-/]{0,24}?|[\u3000-\u9fff]{1,6})\s*[:：]\s*(.*)$")
_EMOJI = re.compile(r"^[\s\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")
_TAG_FIRST = re.compile(r"\s*[\[【][^\[\]【】]{1,40}[\]】]\s*")
_EMOJI_END = re.compile(r"[\s\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+$")
# a web address, or a link relative to the page (`/assets/paper.pdf`), never an anchor or mail
_IS_LINK = re.compile(r"^(?:https?://|/?[\w.-]+/[^\s]*|[\w-]+\.pdf$)", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s<>\"'）)\]，。]+")


@dataclass
class Piece:
    """A run of text in a record with one dress: bold, italic, linked, or plain."""

    text: str
    dress: str  # bold link | link | bold | italic | plain
    href: str | None
    line: int


def lines_of(node: Node) -> list[list[Span]]:
    """The record's lines. A soft line end (a paragraph wrapped in the source) joins plain
    text to the line before it unless the next line is a field, person names or a venue; one
    inside an emphasis or a link (`**a title wrapped\nover two lines**`) always joins."""
    lines: list[list[Span]] = [[]]
    soft = inside = False
    for span in node.spans():
        if span.br:
            if lines[-1]:
                lines.append([])
                soft, inside = span.soft, span.soft and (span.bold or span.italic or bool(span.href))
        elif span.text:
            if soft and len(lines) >= 2 and not lines[-1] and (inside or _continues(lines[-2], span)):
                lines.pop()
                last = lines[-1][-1]  # the space inside an emphasis wears it: still one piece
                lines[-1].append(Span(" ", last.bold, last.italic, last.href) if inside else Span(" "))
            soft = False if lines[-1] else soft
            lines[-1].append(span)
    return [line for line in lines if any(s.text.strip() for s in line)]


def _continues(before: list[Span], span: Span) -> bool:
    if span.bold or span.italic or span.href or not before:
        return False
    last = before[-1]
    if last.bold or last.italic or last.href:
        return False
    text = span.text.strip()
    return not (_LABEL.match(text) or authorish(_BY.sub("", text).rstrip(".")) or len(text.split()) <= 3)


def pieces(line: list[Span], number: int) -> list[Piece]:
    out: list[Piece] = []
    apart = False  # an unemphasised space since the last piece: `**2026-04-30** **Title**` is two
    for span in line:
        dress = ("bold link" if span.bold else "link") if span.href else "bold" if span.bold else ""
        dress = dress or ("italic" if span.italic else "code" if span.code else "plain")
        if out and not span.text.strip():  # a space between two dresses belongs to neither
            out[-1].text += span.text
            apart = apart or dress != out[-1].dress
            continue
        joined = out and out[-1].dress == dress and out[-1].href == span.href
        if joined and not (apart and dress != "plain"):
            out[-1].text += span.text
        else:
            out.append(Piece(span.text, dress, span.href, number))
        apart = False
    return [p for p in out if p.text.strip()]


_TRAILING_YEAR = re.compile(r"\s+((?:19|20)\d\d)\s*$")
# `A. Author and B. Author, "Title," in Venue`: a quoted title in a reference
_QUOTED = re.compile(r"[\"“]([^\"“”]{12,400}?)[,.]?[\"”]")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>,;]+[^\s\"<>,;.)])")


_TASK = re.compile(r"^\s*\[[ xX]\]\s+")  # `- [ ] Title`: a task list's box


def title_text(text: str) -> str:
    text = clean_title(NUMBERING.sub("", _TASK.sub("", text), count=1)).strip(" :：-–—|")
    return _TRAILING_YEAR.sub("", text) if len(text.split()) > 3 else text


def trailing_year(text: str) -> int | None:
    """`Kernel Methods for Deep Learning 2009`: the year a title line ends with."""
    match = _TRAILING_YEAR.search(clean_title(text))
    return int(match.group(1)) if match and len(text.split()) > 3 else None


_BY = re.compile(r"^\s*(?:by|authors?|作者)\s*[:：]?\s+", re.IGNORECASE)  # "by Ann Lee, Bo Chen"


def titleish(text: str) -> bool:
    if text.rstrip(" *_").endswith((":", "：")):
        return False  # "If you use it, please cite:": a lead-in to what follows
    text = title_text(text)
    if not text or not is_title_like(text) or LINK_WORDS.match(text) or _URL.match(text):
        return False
    if YEAR.search(text) and len(text.split()) <= 4:
        return False  # "NeurIPS 2024": a venue
    if text.endswith(("。", "！")) or text.count("，") >= 2:
        return False  # a Chinese sentence, not a title
    return len(text.split()) >= 2 or cjk_count(text) >= 4


PAPER_LINK = "paper link text"


def names_a_paper(text: str, href: str | None) -> bool:
    """A short link text that names the paper it links to (`DNA bases`, `CIS/EFP`): a title,
    though too short to read as one anywhere else."""
    text = text.strip()
    return bool(
        href
        and link_kind(href) == "paper"
        and len(text) <= 80
        and re.search(r"[^\W\d_]{2}", text)
        and not LINK_WORDS.match(text)
        and not _URL.match(text)
        and not YEAR.fullmatch(text)
    )


def same_words(text: str) -> str:
    """Text by its words alone (`Cai X#` and `**Cai X**` are the same words)."""
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


def line_text(line: list[Span]) -> str:
    return " ".join("".join(s.text for s in line).split())


def read_record(
    node: Node,
    heading: str | None = None,
    labels: frozenset[str] = frozenset(),
    not_titles: frozenset[str] = frozenset(),
) -> tuple[Entry, dict[str, str]]:
    """The entry a record node holds, and the dress of each field found (its pattern);
    `labels`: lines that are the list's own labels (`Poster`, `Talk`), no field of a paper;
    `not_titles`: emphasised text that is no record's title (`same_words` of it), read as plain."""
    entry = Entry(lineno=node.line, kind=node.kind)
    roles: dict[str, str] = {}
    all_lines = lines_of(node)
    if labels:
        all_lines = [line for line in all_lines if line_text(line) not in labels]
    if node.kind == "section" and node.blocks() and node.blocks()[0].kind == "heading":
        head = node.blocks()[0]
        line = pieces([s for s in head.spans() if not s.br], 0)
        if len(line) > 1 and any(p.href and titleish(p.text) for p in line):
            # `[[url][Title]] (Lillicrap, Kording: July 2019)`: a linked title and its names
            _read_line(entry, line, roles)
        if not entry.title:
            entry.title = title_text(head.text()) or None
        if year := trailing_year(head.text()):
            entry.fields.setdefault("year", str(year))
        roles["title"] = f"level-{head.level} heading"
        for span in head.spans():
            _add_link(entry, span.text, span.href)
        all_lines = all_lines[1:]
    lines = [pieces(line, i) for i, line in enumerate(all_lines)]
    for piece in (p for line in lines for p in line if not_titles and same_words(p.text) in not_titles):
        piece.dress = "plain"
    for line in lines:
        _read_line(entry, line, roles)
    return entry, roles


def _read_line(entry: Entry, line: list[Piece], roles: dict[str, str]) -> None:
    text = " ".join("".join(p.text for p in line).split())
    label_match = _LABEL.match(_EMOJI.sub("", text))  # "🏛️ Institutions: ...": a labelled field
    name = label_name(label_match.group(1)) if label_match else None
    if label_match and not name and LINK_WORDS.match(label_match.group(1)):
        name = "code" if re.search(r"code|github|代码", label_match.group(1), re.I) else "url"
    if name and label_match:
        _read_labelled(entry, line, name, label_match.group(2).strip(), roles)
        return
    if label_match and line[0].dress == "bold" and line[0].text.strip().endswith((":", "：")):
        # `**Presentation:** Poster`: a field the list names, though not one of a paper's
        entry.fields.setdefault(label_match.group(1).strip().lower(), label_match.group(2).strip())
        return
    plain = all(p.dress == "plain" for p in line)  # a pasted sheet's line: no emphasis, no link
    if not entry.title and plain and _read_cells(entry, "".join(p.text for p in line), roles):
        return
    for doi in _DOI.findall(text):
        if not any(doi.lower() in u.lower() for u in entry.urls):
            entry.urls.append(f"https://doi.org/{doi}")
    if not entry.title and (quoted := _QUOTED.search(text)) and titleish(quoted.group(1)):
        entry.title = title_text(quoted.group(1))
        roles["title"] = "quoted"
        if not entry.authors and (names := names_in(text[: quoted.start()], surname_first=True)):
            entry.authors = names
            roles["authors"] = "text before the title"
    if not entry.title and _sentence_first(line):
        # "Title of the paper. *Venue* **18**, 1-26.": a plain sentence before the emphasis
        entry.title = title_text(line[0].text)
        roles["title"] = "sentence before the emphasis"
        line = line[1:]
    rest: list[Piece] = []
    line = _title_head_joined(line)
    for i, piece in enumerate(line):
        if not entry.title and not piece.href and _TAG_FIRST.fullmatch(piece.text):
            continue  # `[CVPR-2024] **Title**`, `[arXiv:2407.14047] **Title**`: a tag before the title
        _add_link(entry, piece.text, piece.href)
        if (
            not entry.title
            and piece.dress not in ("plain", "code")
            and titleish(piece.text)
            and not _ID_TEXT.match(piece.text)
            and not _within_sentence(line, i)
        ):
            entry.title = title_text(piece.text)
            roles["title"] = piece.dress
            continue
        if not entry.title and len(line) == 1 and names_a_paper(piece.text, piece.href):
            entry.title = title_text(piece.text)  # "`DNA bases <https://doi.org/...>`_"
            roles["title"] = PAPER_LINK
            continue
        if piece.href and (
            LINK_WORDS.match(piece.text) or _URL.match(piece.text.strip()) or _venue_label(piece.text)
        ):
            continue  # [PDF], [Code], [arXiv 2026.03]: a link, already taken
        rest.append(piece)
    if all(p.dress == "code" for p in rest) and not YEAR.search(" ".join(p.text for p in rest)):
        return  # `Tactile` `VLA`: tags written as code (a venue's year is read as one)
    remaining = " ".join("".join(p.text for p in rest).split()).strip(" ,;|·•-–—")
    remaining = _EMOJI_END.sub("", remaining)  # "Ann Lee, Bo Chen 🔍": a page's icon after the names
    if not remaining:
        return
    _read_rest(entry, rest, remaining, roles)


def _read_cells(entry: Entry, raw: str, roles: dict[str, str]) -> bool:
    """`Ann Lee and Bo Chen<TAB>Title`: a line of tab-separated cells (a sheet pasted into a
    list), read by what each cell is: the person names, the title, the rest."""
    cells = [c.strip() for c in raw.split("\t") if c.strip()]
    if len(cells) < 2:
        return False
    names = next((c for c in cells if authorish(c.rstrip(" ."))), None)
    title = next((c for c in cells if c is not names and titleish(c) and not authorish(c)), None)
    if names is None or title is None:
        return False
    entry.title, entry.authors = title_text(title), split_authors(names.rstrip(" ."))
    roles["title"], roles["authors"] = "a cell of the line", "a cell of the line"
    entry.body.extend(c for c in cells if c is not names and c is not title)
    return True


def _within_sentence(line: list[Piece], i: int) -> bool:
    """`... in pineapple (_Ananas comosus_ L.) fruit`: emphasis inside a sentence's words (a
    species, a term), plain text running on into it and on out of it, is no title."""
    before, after = line[i - 1] if i else None, line[i + 1] if i + 1 < len(line) else None
    if before is None or after is None or before.dress != "plain" or after.dress != "plain":
        return False
    return bool(re.search(r"[^\W_(]\s*$|\(\s*$", before.text) and re.match(r"\s*(?:[^\W_]|\))", after.text))


_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "into",
    "of",
    "on",
    "or",
    "the",
    "to",
    "via",
    "with",
}


def _title_head_joined(line: list[Piece]) -> list[Piece]:
    """`**Depth-supervised NeRF**: Fewer Views and Faster Training`: a short emphasised name
    whose title goes on in plain Title Case after a colon is one title piece."""
    for i, (head, tail) in enumerate(pairwise(line)):
        if head.dress not in ("bold", "italic") or tail.dress != "plain" or len(head.text.split()) > 4:
            continue
        match = re.match(r"\s*[:：]\s*([^,;]+)", tail.text)
        if not match:
            continue
        words = [w for w in match.group(1).split() if w.lower() not in _SMALL_WORDS]
        if len(words) >= 2 and sum(w[:1].isupper() for w in words) >= 0.8 * len(words):
            joined = Piece(f"{head.text}: {match.group(1).strip()}", head.dress, head.href, head.line)
            left = Piece(tail.text[match.end() :], "plain", None, tail.line)
            return [*line[:i], joined, *([left] if left.text.strip() else []), *line[i + 2 :]]
    return line


_ID_TEXT = re.compile(r"^\W*(?:arxiv|doi|pmid|isbn|openreview)\s*[:：]?\s*[\w./()-]+\W*$", re.IGNORECASE)


def _venue_label(text: str) -> bool:
    """`arXiv 2026.03`, `NeurIPS 2022`, `arxiv: 2511.12809`: a link's text naming where and
    when, or the paper's id, not the paper."""
    if _ID_TEXT.match(text):
        return True
    return bool(YEAR.search(text)) and len(text.split()) <= 3 and not titleish(text)


def _sentence_first(line: list[Piece]) -> bool:
    """A line that opens with a whole plain sentence of three words or more, emphasis after it."""
    if len(line) < 2 or line[0].dress != "plain" or line[1].dress not in ("italic", "bold"):
        return False
    lead = line[0].text.strip()
    return (
        bool(re.search(r"[\w)][.?!]$", lead))  # "... (Extended Abstract)." ends a sentence too
        and len(lead.split()) >= 3
        and titleish(lead)
        and not authorish(lead.rstrip(". "))
        and not names_then_title(lead)
        and _title_then_names(lead)[1] is None
        and not is_prose(lead)
    )


def _read_labelled(entry: Entry, line: list[Piece], name: str, value: str, roles: dict[str, str]) -> None:
    """A `Label: value` line: the field it names, and its links as that kind of link."""
    for piece in line:
        _add_link(entry, piece.text, piece.href, name)
    if name == "title" and not entry.title:
        untagged = " ".join("".join(p.text for p in line if p.dress != "code").split())
        if (match := _LABEL.match(_EMOJI.sub("", untagged))) and match.group(2).strip():
            value = match.group(2).strip()  # `Title` `Tag`: the tags are not the title's
        entry.title = title_text(value)
        roles["title"] = "labelled"
    elif name == "authors" and not entry.authors:
        entry.authors = names_field(value)
        roles["authors"] = "labelled"
    elif name in ("abstract", "summary", "tldr"):
        entry.add_text(name, value)
        roles.setdefault("abstract", "labelled")
    elif name not in ("url", "code") and value:
        entry.fields.setdefault(name, value)


def _read_rest(entry: Entry, rest: list[Piece], remaining: str, roles: dict[str, str]) -> None:
    """A line's text once its title piece and links are taken: a reference (names, title,
    venue), a title with its authors, authors alone, a venue and year, or abstract prose."""
    if not entry.title and (joint := _JOINT.search(remaining)) and titleish(remaining[: joint.start()]):
        # a publication page's "Title. (Joint with Ann Lee and Bo Chen.) Venue"
        entry.title = title_text(remaining[: joint.start()])
        entry.authors = entry.authors or split_authors(joint.group(1).strip(" ."))
        roles["title"], roles["authors"] = "line text", "joint with"
        if venue := remaining[joint.end() :].strip(" .,;"):
            entry.body.append(venue)
        return
    if not entry.title and not entry.authors and (reference := names_then_title(remaining)):
        named, sentence, after_title = reference
        entry.authors, entry.title = split_authors(named), title_text(sentence)
        roles["authors"], roles["title"] = "text before the title", "sentence after the names"
        if (year := YEAR.search(after_title)) and "venue" not in entry.fields:
            venue = re.sub(r"^in\s+", "", after_title[: year.start()], flags=re.IGNORECASE).strip(" ,.;:(")
            if venue and len(venue.split()) <= 8:
                entry.fields["venue"] = venue
            entry.fields.setdefault("year", year.group(1))
        return
    if (
        not entry.title
        and titleish(remaining)
        and not authorish(ET_AL.sub("", remaining).rstrip(" .,"))
        and (not is_prose(remaining) or len(remaining.split()) <= 30)
    ):
        title, after = _title_then_names(remaining)
        entry.title = title_text(title)
        roles["title"] = "line text"
        if after and not entry.authors:
            entry.authors = split_authors(after)
            roles["authors"] = "text after the title"
        return
    bare = _BY.sub("", NUMBERING.sub("", remaining)).strip(" .")
    named = without_affiliation(ET_AL.sub("", bare)).strip(" .,")  # "Tiago Pimentel et. al."
    if not entry.authors and named and authorish(named) and not YEAR.search(bare):
        entry.authors = split_authors(SEPARATORS.sub(", ", named))
        roles["authors"] = rest[0].dress if len({p.dress for p in rest}) == 1 else "text"
        return
    first_plain = next(
        (p.text.strip(" .,") for p in rest if p.dress in ("plain", "code") and p.text.strip(" .,")), ""
    )
    if not entry.authors and first_plain and (names := names_in(first_plain)):
        entry.authors = names  # "Kerr CC, Stuart RM (2021). *Venue*": names, then the year
        roles["authors"] = "text"
    if YEAR.search(bare):
        # "_Ann Lee, Bo Chen._ NeurIPS 2024": names, then the venue
        italic = "".join(p.text for p in rest if p.dress == "italic").strip(" .,")
        if entry.authors:
            pass
        elif italic and ET_AL.search(italic):  # "_Hinton et al._, arXiv 2015"
            entry.authors = split_authors(ET_AL.sub("", italic).strip(" .,"))
            roles["authors"] = "italic"
            bare = "".join(p.text for p in rest if p.dress != "italic").strip(" .,")
        elif italic and (
            group_author(italic) or (looks_like_authors(italic) and re.search(r",|\band\b|&", italic))
        ):
            entry.authors = split_authors(italic)
            roles["authors"] = "italic"
            bare = "".join(p.text for p in rest if p.dress != "italic").strip(" .,")
        if bare and len(bare.split()) <= 12:
            # "SIGMOD 2026, CCF-A.": the venue and year, never an abstract (twins would merge)
            if (year := YEAR.search(bare)) and "venue" not in entry.fields:
                venue = bare[: year.start()].strip(" ,.;:(—–-")
                if venue and len(venue.split()) <= 8:
                    entry.fields["venue"] = venue
                entry.fields.setdefault("year", year.group(1))
            else:
                entry.body.append(bare)
            roles.setdefault("venue", "trailing text")
            return
    if roles.get("title") == "quoted":  # the rest of a reference: venue, pages, not an abstract
        entry.extra["reference"] = remaining
        if m := YEAR.search(remaining):
            entry.fields.setdefault("year", m.group(1))
        return
    entry.body.append(remaining)
    if is_prose(remaining):
        roles.setdefault("abstract", "prose")


_JOINT = re.compile(r"\s*\((?:joint\s+)?with\s+([^()]+)\)", re.IGNORECASE)


# GB/T 7714's document type after a title: `Title[J].`, `[C]//Venue`, `[EB/OL]`
_DOCUMENT_TYPE = re.compile(r"\s*\[(?:J|C|M|D|R|N|P|S|Z|A|EB|DB|CP)(?:/OL)?\](?://.*)?$")


def names_then_title(text: str) -> tuple[str, str, str] | None:
    """`A. Lee and B. Chen. Sparse Routers for Speech. In ICASSP, 2024.`, `Niu Z, Wang H, et al.
    Title. Venue. 2023;4(2).`: a reference's names (two or more, or one with initials), its
    title sentence, and what follows."""
    text = NUMBERING.sub("", text, count=1)
    if vancouver := VANCOUVER_FIRST.match(text):
        names, start = ET_AL.sub("", vancouver.group("names")), vancouver.end()
    else:
        stop = STOP.search(text)
        if not stop:
            return None
        names, start = text[: stop.start()], stop.end()
        if not authorish(names) or YEAR.search(names):
            return None
        if len(split_authors(names)) < 2 and not INITIAL.search(names):
            return None  # "Graph Attention Networks. ...": a title in Title Case, not a name
    after = STOP.search(text, start)
    end = after.start() if after else len(text)
    title = _DOCUMENT_TYPE.sub("", text[start:end].strip(" ."))
    if not titleish(title) or authorish(title) or len(title.split()) < 3:
        return None
    return names, title, text[end:].strip(" .")


def _title_then_names(text: str) -> tuple[str, str | None]:
    """`Sparse Routers for Speech. Ann Lee, Bo Chen.`: a title, then after its full stop a
    list of names (two or more), in one line of text."""
    for stop in reversed(list(re.finditer(r"[.?!]\s+", text))):
        head, tail = text[: stop.start() + 1].rstrip(". "), text[stop.end() :].strip(" .")
        if len(head.split()) < 3:
            break
        if re.search(r",|\band\b|&", tail) and authorish(tail) and len(split_authors(tail)) >= 2:
            return head, tail
    return text, None


def _add_link(entry: Entry, text: str, href: str | None, label: str | None = None) -> None:
    for url in ([href] if href else []) + _URL.findall(text):
        url = url.strip().rstrip(".,;")
        if url in entry.urls or url in entry.code or not _IS_LINK.match(url):
            continue
        word = (label or text).strip().lower()
        # a link's own label says code ("[Code]", "Project page"); a title naming data does not
        is_code = label == "code" or (
            len(word.split()) <= 3 and re.search(r"\b(code|github|project|demo|data|video|slides)\b", word)
        )
        if is_code or link_kind(url) in ("code",):
            entry.code.append(url)
        else:
            entry.urls.append(url)
