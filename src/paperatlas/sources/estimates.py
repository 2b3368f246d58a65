"""What a list written by people holds, counted straight from the file's text without any
reader, and the warnings where a reading disagrees with those counts.

A reader that misses a list's records, or reads its author lines as titles, usually looks
sure of itself; a count that never went through the reader does not share its mistake.
Counted in the text (`count`):
- entry lines: list items, numbered lines and table rows holding a web link (a line
  repeated word for word, a paper listed under two headings, counts once; a labelled field
  such as `- **Code**: [repo](...)` is no entry, but a paper's own link on such a line, on
  no entry line, counts its paper);
- lines naming three or more people (`Ann Lee, Bo Chen and Cy Dee`, or surname first
  `Lee, A., Chen, B., Dee, C.`), each name judged by the readers' own name judge
  (`sources.names`): the author lines of the list;
- in a YAML/JSON file (`count_fields`), the field whose values are mostly person names.
Each is held against the papers read (`disagreements`) and a disagreement is said in one
line, in the file's own numbers ("the file has 28 list lines or table rows with a link; 6
papers were read"); so is one author list on most papers (a label such as "Short Summary"
read as the authors of every entry). Each threshold lies between the values of the lists
read whole and those not, over 264 real lists (docs/benchmarks.md: silent failures on 296
lists); the field count reuses the name lines' shares.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from paperatlas.identifiers import link_kind
from paperatlas.paper import Paper
from paperatlas.sources.names import STOP, authorish, names_in, split_authors

# where one field of an entry line ends: a sentence's end (not an initial's), a dash, a bar,
# a colon, brackets; what lies between two of them is judged by the readers' name judge
_FIELD_BREAK = re.compile(rf"{STOP.pattern}|\s[-–—|]\s|[:：()（）\[\]{{}}=“”\"\t]")
# a line break or a block's edge in HTML ends a field too
_BLOCK_TAG = re.compile(r"<(?:br|/?(?:p|div|li|td|th|tr|h[1-6]))\b[^>]{0,200}>", re.IGNORECASE)
_LOOSE_MARK = re.compile(r"\s+([,.;])")  # `**Lee, C**., Chen, B.`: the markup gone, its space too
_LEADING_WORD = re.compile(r"^(?:with|by|and)\s+")  # `(with Ann Lee, Bo Chen and Cy Dee)`
_SEPARATOR = re.compile(r"[,;&]|\band\b")
_MIN_NAMES = 3  # two capitalised words joined by "and" are as often a title's
_SHORTEST_NAME_LINE = 20  # characters: three names take more
# a list item, numbered line or table row (what follows its marker), holding a web link
_ENTRY_LINE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+|\d{1,4}[.)][ \t]*|\[\d{1,4}\][ \t]*|\|)(\S.*?(?:\]\(|href=[\"']?)https?://.*)",
    re.IGNORECASE,
)
# a labelled field of an entry (`- **arXiv**: [2604.1](...)`, `- Code: ...`), not an entry
_FIELD_LINE = re.compile(r"[*_]{0,2}[^\s:：*_\[\]|][^:：*_\[\]|]{0,30}[*_]{0,2}\s*[:：]")
_URL = re.compile(r"https?://[^\s)\"'<>\]]+")
_MARKUP = re.compile(r"\]\([^)]*\)|<[^>]{0,200}>|[*_`\[\]]")

_MIN_GAP = 3  # papers: a gap smaller than this is never named
_ENTRY_SHARE = 0.6  # papers read under this share of the file's entry lines
_NAME_LINES = 0.5  # lines naming people, at least this share of the papers read ...
_NAME_SHARE = 0.5  # ... and papers with authors under this share of those lines
_SAME_AUTHORS = 0.5  # one author list on over this share of the papers
# papers with neither link nor authors, among papers that (nearly all) have both: headings or
# notes read as papers, when they are more than a few and fewer than nearly all
_BARE_AMONG_WHOLE = 0.85
_BARE_SHARE = (0.02, 0.8)
_LABEL_SHARE = 0.3  # titles opening on one numbered label (`Poster 3 -`, `Day 2:`)
_NUMBER = re.compile(r"\b\d+(?:\.\d+)*\b")


@dataclass
class FileCounts:
    """What a list holds, counted without a reader: a list written by people, or the fields
    of a YAML/JSON file (`written` False: only `name_field` is counted)."""

    entry_lines: int = 0
    name_lines: int = 0
    name_field: tuple[str, int] | None = None  # the field naming people, and how many times
    written: bool = True


def count(text: str) -> FileCounts:
    entries: set[str] = set()  # entry lines, by their text
    on_entries: set[str] = set()  # the links on them
    in_fields: set[str] = set()  # links to papers on labelled field lines
    names = 0
    for line in text.splitlines():
        if entry := _ENTRY_LINE.match(line):
            links = [u.rstrip(".,;:") for u in _URL.findall(line)]
            if _FIELD_LINE.match(entry.group(1)):
                # one paper a line: its abstract page, its PDF and a mirror are one
                in_fields.update([u for u in links if link_kind(u) == "paper"][:1])
            else:
                entries.add(entry.group(1).strip())
                on_entries.update(links)
        if len(line) >= _SHORTEST_NAME_LINE and names_run(line):
            names += 1
    # a list whose entries give their paper's link on a field line of their own counts those
    return FileCounts(len(entries) + len(in_fields - on_entries), names)


# `key: value` in YAML, `"key": "value"` in JSON
_KEY_VALUE = re.compile(r'"?([\w-]{2,40})"?[ \t]*:[ \t]*"?([^"\n]{3,300})')


def count_fields(text: str) -> FileCounts:
    """The field of a YAML/JSON file whose values are most often person names (`talk-speakers:
    Ann Lee, Bo Chen`, `"creator": "Ann Lee"`, `- label: Ann Lee` under `authors:`), by the
    readers' own name judge, and how many values it names people in."""
    named: Counter[str] = Counter()
    values: Counter[str] = Counter()
    for match in _KEY_VALUE.finditer(text):
        key, value = match.group(1).lower(), match.group(2).strip().rstrip(",")
        values[key] += 1
        if authorish(value):
            named[key] += 1
    fields = [(c, key) for key, c in named.items() if c >= _MIN_GAP and c >= 0.5 * values[key]]
    best = max(fields, default=None)
    return FileCounts(name_field=(best[1], best[0]) if best else None, written=False)


def names_run(line: str, least: int = _MIN_NAMES) -> bool:
    """Does one field of the line hold `least` or more person names in a row (`Title, Ann Lee, Bo
    Chen and Cy Dee`, `Lee, A., Chen, B., Dee, C.`), each judged a name by the readers' own
    judge (`sources.names`)? A title in Title Case breaks the run: it is no one name."""
    bare = _LOOSE_MARK.sub(r"\1", _MARKUP.sub(" ", _BLOCK_TAG.sub("\t", line)))
    for part in _FIELD_BREAK.split(bare):
        part = part.strip(" ,.;-*+#>\\0123456789\n")
        if len(part) < 4 * least or len(_SEPARATOR.findall(part)) < least - 1:
            continue
        run = longest = 0
        for name in split_authors(part):
            run = run + 1 if authorish(_LEADING_WORD.sub("", name)) else 0
            longest = max(longest, run)
        # a reference's opening names, surname first and given names mixed (`Swati, Z. N.,
        # Q. Zhao, Kabir, M., & Lu, J. Title`): the readers' reference judge
        if longest >= least or len(names_in(part) or ()) >= least:
            return True
    return False


class PaperCounts:
    """What the papers read hold, for `disagreements`."""

    def __init__(self) -> None:
        self.papers = 0
        self.with_authors = 0
        self.author_lists: Counter[tuple[str, ...]] = Counter()
        self.linked_with_authors = 0
        self.bare: list[str] = []  # titles of papers with neither a link nor authors
        self.labels: Counter[str] = Counter()  # a title's first two words, when one is a number
        self.label_example: dict[str, str] = {}

    def see(self, paper: Paper) -> None:
        self.papers += 1
        linked = bool(paper.urls or paper.code_urls)
        if paper.authors:
            self.with_authors += 1
            self.author_lists[tuple(paper.authors)] += 1
            self.linked_with_authors += linked
        elif not linked:
            self.bare.append(paper.title or "")
        opening = " ".join((paper.title or "").split()[:2])
        if (label := _NUMBER.sub("#", opening.lower())) != opening.lower():
            self.labels[label] += 1
            self.label_example.setdefault(label, opening)


def disagreements(papers: PaperCounts, counts: FileCounts) -> list[str]:
    """One line for each count of the file the reading disagrees with."""
    n, out = papers.papers, []
    authored = papers.with_authors
    if counts.name_field:
        key, named = counts.name_field
        if (
            named >= _NAME_LINES * n
            and authored < _NAME_SHARE * min(named, n)
            and named - authored >= _MIN_GAP
        ):
            out.append(
                f"the file's {key!r} fields name people {named} times; {authored} of the {n} papers read have authors"
            )
    if not counts.written:
        return out
    entries = counts.entry_lines
    if entries - n >= _MIN_GAP and n < _ENTRY_SHARE * entries:
        out.append(f"the file has {entries} list lines or table rows with a link; {n} papers were read")
    lines = counts.name_lines
    if lines - authored >= _MIN_GAP and lines >= _NAME_LINES * n and authored < _NAME_SHARE * min(lines, n):
        out.append(
            f"{lines} lines of the file name three or more people; {authored} of the {n} papers read "
            "have authors"
        )
    if papers.author_lists:
        authors, same = papers.author_lists.most_common(1)[0]
        if same >= _MIN_GAP and same > _SAME_AUTHORS * n:
            out.append(
                f"{same} of the {n} papers read have the same authors ({_quote(', '.join(authors))}): "
                "a label read as authors?"
            )
    out.extend(_odd_papers(papers))
    return out


def _odd_papers(papers: PaperCounts) -> list[str]:
    """Papers unlike the others: bare among papers with links and authors, or titled by
    one numbered label (`Poster 3 - Title`: the label kept in every title)."""
    n, out = papers.papers, []
    bare, others = len(papers.bare), papers.papers - len(papers.bare)
    low, high = _BARE_SHARE
    if (
        bare >= _MIN_GAP
        and low * n < bare < high * n
        and papers.linked_with_authors >= _BARE_AMONG_WHOLE * others
    ):
        example = next((t for t in papers.bare if t.strip()), "")
        eg = f" (e.g. {_quote(example)})" if example else ""
        out.append(
            f"{bare} of the {n} papers read have neither a link nor authors, while the other {others} "
            f"have both{eg}: headings or notes read as papers?"
        )
    if papers.labels:
        label, count = papers.labels.most_common(1)[0]
        if count >= _MIN_GAP and count > _LABEL_SHARE * n:
            out.append(
                f"{count} of the {n} titles open with a numbered label "
                f"({_quote(papers.label_example[label])}): the label read as part of the title?"
            )
    return out


def _quote(text: str, width: int = 50) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")
