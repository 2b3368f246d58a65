"""YAML front matter: a Markdown file that is one paper (a Jekyll/PMLR `_posts/` file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperatlas.identifiers import find_identifiers
from paperatlas.paper import Paper
from paperatlas.sources.entry import is_prose
from paperatlas.sources.limits import too_deep
from paperatlas.sources.mdlines import plain, without_links


def front_matter(lines: list[tuple[int, str]]) -> tuple[dict | None, list[tuple[int, str]]]:
    """YAML front matter (`---` ... `---` at the top) as a dict, and the lines after it.
    Front matter that is not YAML, uses aliases, or nests past what the parser can follow is
    read as no front matter."""
    if not lines or lines[0][1].strip() != "---":
        return None, lines
    for j in range(1, min(len(lines), 400)):
        if lines[j][1].strip() in ("---", "..."):
            import yaml

            try:
                data = yaml.load("\n".join(line for _, line in lines[1:j]), Loader=loader_without_aliases())
            except (yaml.YAMLError, RecursionError):
                return None, lines
            if too_deep(data):
                return None, lines
            return (data if isinstance(data, dict) else None), lines[j + 1 :]
    return None, lines


ALIASES_NOT_READ = "aliases are not read"


def loader_without_aliases() -> type:
    """yaml's safe loader without aliases: `*a` repeats a whole value, and nine aliases of nine
    make a value of a billion items (a "billion laughs") from a few lines. A post's front
    matter has no use for them, nor has a YAML list of papers (`sources.yaml_list`)."""
    import yaml

    class NoAliases(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise yaml.composer.ComposerError(None, None, ALIASES_NOT_READ, self.peek_event().start_mark)
            return super().compose_node(parent, index)

    return NoAliases


def front_matter_paper(path: Path, data: dict, body: list[tuple[int, str]]) -> Paper | None:
    """One paper per file (a Jekyll/PMLR post): the front matter's fields, the abstract
    from `abstract` (or the body's prose when the front matter has none)."""
    from paperatlas.sources.records import paper_from_record

    record = {k: v for k, v in data.items() if not isinstance(v, (dict,)) or k in ("author",)}
    record.pop("layout", None)
    paper = paper_from_record(record, f"{path}:1")
    if paper.skip or not paper.title:
        return None
    if not paper.abstract.strip():
        text = " ".join(
            plain(without_links(line))
            for _, line in body
            if line.strip() and not line.lstrip().startswith(("#", "{%", "{{", "<"))
        )
        if not is_prose(text):
            return None
        paper.abstract = " ".join(text.split())
    for key in ("pdf", "openreview", "software", "code", "github", "video"):
        value = data.get(key)
        if isinstance(value, str) and value.startswith("http"):
            target = paper.urls if key in ("pdf", "openreview") else paper.code_urls
            if value not in target:
                target.append(value)
    paper.identifiers = {**find_identifiers(*paper.urls), **paper.identifiers}
    return paper
