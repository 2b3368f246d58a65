"""RIS files (Zotero, Mendeley, EndNote, publisher exports): `TY  - JOUR` ... `ER  -`.

Tags read: TI/T1 title, AU/A1 authors (`Last, First` -> `First Last`, as for BibTeX), AB/N2
abstract, PY/Y1/DA year and date, T2/JO/JF/JA/BT/J2 venue, UR/L1/L2/LK links (paper and code
links apart), DO DOI (its page a link too, after the record's own), KW keywords, ID id. A value continued on the next lines (indented, or
any line without a tag) is joined. LaTeX escapes are decoded. Records that are not papers
(software, data, blog posts, books; generic types without a paper signal) are skipped and
counted, as is a record with neither title nor abstract.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperatlas.identifiers import find_identifiers, split_links
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.bibtex import decode_latex
from paperatlas.sources.kinds import not_a_paper
from paperatlas.sources.records import iso_date

TAG = re.compile(r"^([A-Z][A-Z0-9])  ?-(?: (.*))?$")
_TITLE = ("TI", "T1", "CT")
_AUTHORS = ("AU", "A1")
_ABSTRACT = ("AB", "N2")
_VENUE = ("T2", "JO", "JF", "JA", "BT", "J2", "T3")
_LINKS = ("UR", "LK")
# Attached files (a PDF path, `attachments:...`): links only when the value is a web address.
_FILES = ("L1", "L2", "L4")
_DATE = ("DA", "PY", "Y1", "Y2")


def looks_like_ris(head: str) -> bool:
    """A `TY  - ` line first (after blank lines and a record number: `1.`), and an `ER  -`
    or more tags after it."""
    lines = [line for line in head.splitlines() if line.strip()]
    if lines and re.fullmatch(r"\s*\d{1,6}\.?\s*", lines[0]):
        lines = lines[1:]  # (a search engine's export numbers its records)
    return (
        bool(lines)
        and bool(re.match(r"^TY  ?- \S", lines[0]))
        and sum(bool(TAG.match(line)) for line in lines[:20]) >= 3
    )


def read_ris(path: Path) -> Iterator[Paper]:
    record: dict[str, list[str]] = {}
    start, last = 0, None
    for lineno, line in iter_lines(path):
        match = TAG.match(line)
        if match:
            tag, value = match.group(1), (match.group(2) or "").strip()
            if tag == "TY":
                if record:  # a record never closed with ER: still a record
                    yield ris_paper(path, start, record)
                record, start = {}, lineno
            if tag == "ER":
                if record:
                    yield ris_paper(path, start, record)
                record, last = {}, None
                continue
            record.setdefault(tag, []).append(value)
            last = tag
        elif line.strip() and last is not None and record:
            values = record[last]
            values[-1] = f"{values[-1]} {line.strip()}".strip()
    if record:
        yield ris_paper(path, start, record)


def _first(record: dict[str, list[str]], tags: tuple[str, ...]) -> str | None:
    for tag in tags:
        for value in record.get(tag, []):
            if value.strip():
                return _text(value)
    return None


def _text(value: str) -> str:
    value = " ".join(value.split())
    return decode_latex(value) if "\\" in value else value


def _first_last(name: str) -> str:
    name = " ".join(name.split())
    if name.count(",") == 1:
        last, first = (part.strip() for part in name.split(","))
        return f"{first} {last}".strip()
    if name.count(",") == 2:  # Last, First, Suffix
        last, first, suffix = (part.strip() for part in name.split(","))
        return f"{first} {last} {suffix}".strip()
    return name


def ris_paper(path: Path, start: int, record: dict[str, list[str]], type_tag: str = "TY") -> Paper:
    """One record (tag -> its values) as a Paper; `type_tag` names the type's tag in messages."""
    source = f"{path}:{start}"
    kind = (record.get("TY") or [""])[0]
    title = _first(record, _TITLE)
    links = [u for tag in _LINKS for value in record.get(tag, []) for u in value.split()]
    files = [v.strip() for tag in _FILES for v in record.get(tag, []) if v.strip()]
    links += [f for f in files if re.match(r"https?://\S+$", f)]
    doi_text = _first(record, ("DO",))
    venue = _first(record, _VENUE)
    if reason := not_a_paper(
        kind, links, [doi_text], [venue, _first(record, ("PB",))], label=f"{type_tag} {kind}"
    ):
        return skipped(source, reason, title)
    ids = find_identifiers(doi_text, *links)
    urls, code = split_links(links)
    if doi_text and (doi := ids.get("doi")) and not any(doi in u.lower() for u in urls):
        # the DOI's page is the paper's link too, after the record's own (a database's record page)
        urls.append(doi_text if doi_text.startswith("http") else f"https://doi.org/{doi_text}")
    date_text = _first(record, _DATE)
    date = iso_date(date_text)
    year_match = re.search(r"\b(1[89]\d\d|20\d\d)\b", date_text or "")
    extra: dict[str, object] = {"ris_type": kind}
    for tag, name in (
        ("PB", "publisher"),
        ("VL", "volume"),
        ("IS", "issue"),
        ("SP", "pages"),
        ("SN", "issn"),
        ("N1", "note"),
        ("LA", "language"),
    ):
        if value := _first(record, (tag,)):
            extra[name] = value
    if doi_text:
        extra["doi"] = doi_text
    if local := [f for f in files if not re.match(r"https?://", f)]:
        extra["files"] = local
    return Paper(
        abstract=_first(record, _ABSTRACT) or "",
        title=title,
        id=_first(record, ("ID",)),
        authors=[_first_last(_text(a)) for tag in _AUTHORS for a in record.get(tag, []) if a.strip()],
        keywords=[_text(k) for k in record.get("KW", []) if k.strip()],
        venue=venue,
        year=int(year_match.group(1)) if year_match else None,
        urls=urls,
        code_urls=code,
        identifiers=ids,
        date=date,
        source=source,
        extra=extra,
    )
