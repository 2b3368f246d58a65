"""The arXiv listing e-mail ("cs daily title/abstract distribution"), as saved from a mail
client: a preamble, then one record per paper:

    arXiv:2508.21204 [(*cross-listing*)]
    Date: Thu, 28 Aug 2025 20:46:13 GMT   (218kb)      | replaced with revised version <date>
    Title: ... (continued on lines indented by two spaces)
    Authors: ...
    Categories: cs.AI cs.CL
    Comments: / ACM-class: / MSC-class: / Journal-ref: / DOI: / Report-no:
    \\\\
      abstract (absent for replacements)
    \\\\ ( https://arxiv.org/abs/2508.21204 ,  218kb)

Everything before the first record (mail headers, the list of subject classes) and the
separator lines are not papers. Replacements without an abstract are title-only papers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperatlas.identifiers import strip_version
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.records import iso_date, split_list, tex_title

RECORD = re.compile(r"^arXiv:(\S+)\s*(\(\*?cross-listing\*?\))?\s*$", re.IGNORECASE)
_FIELD = re.compile(r"^([A-Z][A-Za-z-]+):\s?(.*)$")
_END = re.compile(r"^\\\\\s*\(\s*(\S+)\s*,")
_SEPARATOR = re.compile(r"^(-{20,}|%%%[-%]*)\s*$")


def looks_like_arxiv_mail(head: str) -> bool:
    return (
        bool(re.search(r"^arXiv:\d{4}\.\d{4,5}|^arXiv:[a-z-]+/\d{7}", head, re.MULTILINE))
        and bool(re.search(r"^Title: ", head, re.MULTILINE))
        and bool(re.search(r"^Authors?: ", head, re.MULTILINE))
        and bool(re.search(r"^Categories: |^\\\\ \(", head, re.MULTILINE))
    )


def read_arxiv_mail(path: Path) -> Iterator[Paper]:
    record: list[tuple[int, str]] = []
    for lineno, line in iter_lines(path):
        if RECORD.match(line):
            if record:
                yield _paper(path, record)
            record = [(lineno, line)]
        elif record:
            record.append((lineno, line))
    if record:
        yield _paper(path, record)


def _paper(path: Path, lines: list[tuple[int, str]]) -> Paper:
    start, first = lines[0]
    match = RECORD.match(first)
    assert match is not None  # blocks start at a record line (see the split)
    arxiv = strip_version(match.group(1))
    fields: dict[str, str] = {}
    abstract: list[str] = []
    link = None
    state, last = "head", None
    for _, line in lines[1:]:
        if _SEPARATOR.match(line):
            break
        if end := _END.match(line):
            link = end.group(1)
            break
        if line.strip() == "\\\\":
            state = "abstract" if state == "head" else "done"
            continue
        if state == "abstract":
            abstract.append(line)
        elif state == "head":
            if line.lower().startswith("replaced with revised version"):
                fields["replaced"] = line.split("version", 1)[1].strip()
            elif (field := _FIELD.match(line)) and not line.startswith(" "):
                last = field.group(1).lower()
                fields[last] = field.group(2).strip()
            elif line.startswith(" ") and last and line.strip():
                fields[last] = f"{fields[last]} {line.strip()}"
    # a replacement's date is the new version's: the id still tells the first one's month
    date = iso_date(fields["date"]) if fields.get("date") else None
    if date is None and (new := re.match(r"^(\d\d)(\d\d)\.\d{4,5}$", arxiv)):
        date = f"20{new.group(1)}-{new.group(2)}"
    extra: dict[str, object] = {}
    if fields.get("categories"):
        extra["categories"] = fields["categories"].split()
    for key in ("comments", "journal-ref", "acm-class", "msc-class", "report-no"):
        if fields.get(key):
            extra[key.replace("-", "_")] = fields[key]
    if match.group(2):
        extra["cross_listing"] = True
    if "replaced" in fields:
        extra["replaced"] = True
    identifiers = {"arxiv": arxiv}
    if fields.get("doi"):
        identifiers["doi"] = fields["doi"].split()[0].lower()
    return Paper(
        abstract=" ".join(" ".join(abstract).split()),
        title=tex_title(" ".join(fields.get("title", "").split())) or None,
        id=arxiv,
        authors=split_list(fields.get("authors"), authors=True),
        year=int(date[:4]) if date else None,
        date=date,
        urls=[link or f"https://arxiv.org/abs/{arxiv}"],
        identifiers=identifiers,
        source=f"{path}:{start}",
        extra=extra,
    )
