"""A folder of one Markdown file per paper, as Obsidian (and any notes app that reads
YAML front matter) opens it: the front matter holds title, authors, year, venue, links,
tags and triage state; the body is the person's note, then the abstract.

File names come from titles: characters that file systems or Obsidian's links refuse
(/ \\ : * ? " < > | # ^ [ ] and control characters) become spaces, a leading dot goes (no
hidden files, no `..`), and twins get their id added. Every file is written inside the
folder named, never through a link or outside it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from paperatlas.paper import shown_title
from paperatlas.report.links import paper_url, safe_url
from paperatlas.report.markdown import md_text

MAX_NAME = 100  # characters of a file name before ".md"
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|#^\[\]]+')


def file_stem(title: str) -> str:
    """A title as a file name without its suffix (see the module's note)."""
    stem = " ".join(_UNSAFE.sub(" ", title).split()).lstrip(". ")
    return stem[:MAX_NAME].rstrip(" .") or "untitled"


def front_matter(paper: dict[str, Any]) -> dict[str, Any]:
    """The YAML properties of a paper's file."""
    facts = paper.get("facts") or {}
    kept = paper.get("kept") or {}
    links: list[str] = []
    for url in [paper_url(paper), *(paper.get("urls") or []), *(paper.get("code_urls") or [])]:
        safe = safe_url(url)
        if safe and safe not in links:
            links.append(safe)
    data: dict[str, Any] = {"title": shown_title(paper, facts) or paper["id"], "id": paper["id"]}
    if paper.get("authors"):
        data["authors"] = [str(a) for a in paper["authors"]]
    if paper.get("year"):
        data["year"] = int(paper["year"])
    if paper.get("venue"):
        data["venue"] = str(paper["venue"])
    if paper.get("decision"):
        data["decision"] = str(paper["decision"])
    if links:
        data["links"] = links
    if kept.get("tags"):
        data["tags"] = list(kept["tags"])
    if kept.get("state"):
        data["state"] = kept["state"]
    return data


def paper_file(paper: dict[str, Any]) -> str:
    """The whole file: front matter, the note, the abstract (escaped: it is the list's text)."""
    head = yaml.safe_dump(front_matter(paper), allow_unicode=True, sort_keys=False, width=1000)
    parts = [f"---\n{head}---\n"]
    note = (paper.get("kept") or {}).get("note")
    if note:
        parts.append(note.rstrip() + "\n")
    if (paper.get("abstract") or "").strip():
        parts.append("## Abstract\n\n" + md_text(paper["abstract"]) + "\n")
    return "\n".join(parts)


def write_folder(papers: Iterable[dict[str, Any]], folder: str | os.PathLike[str]) -> int:
    """Write each paper's file into `folder` (made if missing); returns how many. A file
    of the same name there is replaced (exporting again updates the notes)."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    count = 0
    for paper in papers:
        stem = file_stem(shown_title(paper, paper.get("facts") or {}) or paper["id"])
        if stem.lower() in used:
            stem = f"{stem} ({file_stem(paper['id'])})"
        used.add(stem.lower())
        target = root / f"{stem}.md"
        if target.is_symlink():  # never written through: the link could point anywhere
            target.unlink()
        target.write_text(paper_file(paper), encoding="utf-8")
        count += 1
    return count
