"""Papers as the files reference managers import: RIS (Zotero, EndNote, Mendeley) and
CSL-JSON (Zotero, Pandoc, citeproc). Each carries what the person keeps about the paper:
its tags as keywords (RIS `KW`, CSL `keyword`) and its note (RIS `N1`, CSL `note`).

Every value is plain text from the store: RIS is one `TAG  - value` a line, so a line
break inside a value would start a record of its own; they are folded to spaces (a
note's paragraphs are kept apart by " ¶ "). CSL-JSON is JSON: any text is safe in it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from paperatlas.paper import json_text, shown_title
from paperatlas.report.links import paper_url, safe_url

# a BibTeX type (bibtex.bibtex_type) as each format names it
_RIS_TYPES = {
    "article": "JOUR",
    "inproceedings": "CPAPER",
    "incollection": "CHAP",
    "phdthesis": "THES",
    "mastersthesis": "THES",
    "techreport": "RPRT",
    "unpublished": "UNPB",
    "misc": "GEN",
}
_CSL_TYPES = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "incollection": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "techreport": "report",
    "unpublished": "manuscript",
    "misc": "article",
}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def keywords_and_tags(paper: dict[str, Any]) -> list[str]:
    """The paper's own keywords, then the person's tags it does not already hold (case aside)."""
    keywords = [str(k) for k in paper.get("keywords") or []]
    seen = {k.lower() for k in keywords}
    return keywords + [t for t in (paper.get("kept") or {}).get("tags", []) if t.lower() not in seen]


def notes_of(paper: dict[str, Any]) -> list[str]:
    """What a reference's note says: the decision, "title only", the person's note."""
    notes = [str(paper["decision"])] if paper.get("decision") else []
    if not (paper.get("abstract") or "").strip():
        notes.append("title only")
    note = (paper.get("kept") or {}).get("note")
    if note:
        notes.append(note)
    return notes


def _ris_value(text: Any) -> str:
    """One line: paragraphs joined by ¶, other line breaks and control characters as spaces."""
    text = re.sub(r"\n\s*\n", " ¶ ", str(text))
    return " ".join(_CONTROL.sub(" ", text).split())


def _links(paper: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for url in [paper_url(paper), *(paper.get("urls") or []), *(paper.get("code_urls") or [])]:
        safe = safe_url(url)
        if safe and safe not in seen:
            seen.append(safe)
    return seen


def write_ris(papers: Iterable[dict[str, Any]], fh: TextIO, kind_of: Callable[[dict[str, Any]], str]) -> int:
    """RIS records; `kind_of(paper)` is its BibTeX type (bibtex.bibtex_type)."""
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        ids = paper.get("identifiers") or {}
        kind = kind_of(paper)
        lines = [("TY", _RIS_TYPES.get(kind, "GEN")), ("ID", paper["id"])]
        lines.append(("TI", shown_title(paper, facts) or paper["id"]))
        lines += [("AU", a) for a in paper.get("authors") or []]
        if paper.get("year"):
            lines.append(("PY", str(paper["year"])))
        if paper.get("date"):
            lines.append(("DA", str(paper["date"]).replace("-", "/")))
        if paper.get("venue"):
            lines.append(("JO" if kind == "article" else "T2", paper["venue"]))
        if (paper.get("abstract") or "").strip():
            lines.append(("AB", paper["abstract"]))
        lines += [("KW", k) for k in keywords_and_tags(paper)]
        lines += [("N1", n) for n in notes_of(paper)]
        if ids.get("doi"):
            lines.append(("DO", ids["doi"]))
        lines += [("UR", u) for u in _links(paper)]
        for tag, value in lines:
            value = _ris_value(value)
            if value:
                fh.write(f"{tag}  - {value}\n")
        fh.write("ER  - \n\n")
        count += 1
    return count


def _csl_name(name: str) -> dict[str, str]:
    """'Given Family' -> CSL's family/given; one word, or a name with a comma (an
    organisation, "Family, Given" aside), as a literal."""
    name = " ".join(str(name).split())
    if "," in name:
        family, _, given = name.partition(",")
        if given.strip() and " " not in family.strip():
            return {"family": family.strip(), "given": given.strip()}
        return {"literal": name}
    parts = name.rsplit(" ", 1)
    return {"family": parts[1], "given": parts[0]} if len(parts) == 2 else {"literal": name}


def csl_item(paper: dict[str, Any], kind_of: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    """One paper as a CSL-JSON item."""
    facts = paper.get("facts") or {}
    ids = paper.get("identifiers") or {}
    kind = kind_of(paper)
    item: dict[str, Any] = {
        "id": paper["id"],
        "type": _CSL_TYPES.get(kind, "article"),
        "title": shown_title(paper, facts) or paper["id"],
    }
    if paper.get("authors"):
        item["author"] = [_csl_name(a) for a in paper["authors"]]
    if paper.get("year"):
        parts = [int(paper["year"])]
        match = re.match(r"^\d{4}-(\d{2})(?:-(\d{2}))?", str(paper.get("date") or ""))
        if match and 1 <= int(match.group(1)) <= 12:
            parts.append(int(match.group(1)))
        item["issued"] = {"date-parts": [parts]}
    if paper.get("venue"):
        item["container-title"] = str(paper["venue"])
    if (paper.get("abstract") or "").strip():
        item["abstract"] = paper["abstract"]
    if ids.get("doi"):
        item["DOI"] = ids["doi"]
    links = _links(paper)
    if links:
        item["URL"] = links[0]
    keywords = keywords_and_tags(paper)
    if keywords:
        item["keyword"] = ", ".join(keywords)
    notes = notes_of(paper)
    if notes:
        item["note"] = "\n\n".join(notes)
    return item


def write_csl_json(
    papers: Iterable[dict[str, Any]], fh: TextIO, kind_of: Callable[[dict[str, Any]], str]
) -> int:
    """A CSL-JSON array, one item a line (a long list is never one huge line)."""
    count = 0
    fh.write("[")
    for paper in papers:
        fh.write(("," if count else "") + "\n" + json_text(csl_item(paper, kind_of), ensure_ascii=False))
        count += 1
    fh.write("\n]\n")
    return count
