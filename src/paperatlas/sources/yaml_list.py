"""A YAML list of papers (a Jekyll `_data/publications.yml`, a hand-kept reading list):
a sequence of mappings, or a mapping holding one (`papers: [...]`), each mapped to a `Paper`
like a JSON record (`sources.records`), with the line it starts on."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from paperatlas.errors import InputError
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.frontmatter import ALIASES_NOT_READ, loader_without_aliases
from paperatlas.sources.records import paper_from_record

_KEYS = r"(?:title|name|paper|abstract|authors?|url|link|year|venue|doi|arxiv)"


def looks_like_yaml_list(head: str) -> bool:
    """`- title: ...` items (or `papers:` over them) with more keys under each."""
    lines = [line for line in head.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines or lines[0].startswith(("<", "{", "[")):
        return False
    indents = [len(m.group(1)) for line in lines if (m := re.match(rf"^(\s*)-\s+{_KEYS}\s*:", line, re.I))]
    items = indents.count(min(indents)) if indents else 0  # the outermost list's items
    fields = sum(bool(re.match(r"^\s+[A-Za-z_][\w-]*\s*:(\s|$)", line)) for line in lines)
    return items >= 2 and fields >= items


def read_yaml_list(path: Path) -> Iterator[Paper]:
    import yaml

    text = "\n".join(line for _, line in iter_lines(path))
    try:
        root = yaml.compose(text, Loader=loader_without_aliases())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", exc)
        why = (
            "YAML aliases (`*name`) are not read (nine of nine make a billion values): write the values out"
            if problem == ALIASES_NOT_READ
            else f"not valid YAML: {problem}"
        )
        raise InputError(path, why, mark.line + 1 if mark else None) from None
    loader = yaml.SafeLoader("")
    found = 0
    for node in _paper_nodes(root):
        found += 1
        value = loader.construct_document(node)
        yield paper_from_record(_cleaned(value), f"{path}:{node.start_mark.line + 1}")
    if not found:
        yield skipped(f"{path}:1", "no mapping with a title in it")


def _paper_nodes(node: Any) -> Iterator[Any]:
    """The mappings that hold a paper (a `title`, or a `name` with authors or a link), in
    document order, however deep (`- year: 2024` groups, `featured:` lists)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        keys = {str(k.value).lower(): v for k, v in node.value}
        title = keys.get("title") or keys.get("paper_title") or keys.get("name")
        if isinstance(title, yaml.ScalarNode) and (
            "title" in keys or "paper_title" in keys or keys.keys() & {"authors", "author", "url", "year"}
        ):
            yield node
            return
        for _key, value in node.value:
            yield from _paper_nodes(value)
    elif isinstance(node, yaml.SequenceNode):
        for value in node.value:
            yield from _paper_nodes(value)


_LINK_KEYS = re.compile(r"arxiv|pdf|paper|doi|html|openreview|project|code|website")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def _cleaned(value: Mapping[str, Any]) -> dict[str, Any]:
    """HTML markup (`<strong>Me</strong>`) out of text values; `name` read as the title."""
    out = {k: (_TAG.sub("", v).strip() if isinstance(v, str) else v) for k, v in value.items()}
    if "title" not in out and "paper_title" not in out and "name" in out:
        out["title"] = out.pop("name")
    named = [v for k, v in out.items() if _LINK_KEYS.fullmatch(k.lower()) and isinstance(v, str)]
    if named and "url" not in out and "urls" not in out:  # `arXiv: https://...`, `pdf: ...`
        out["urls"] = named
    links = out.get("links")
    if isinstance(links, list) and "url" not in out and "urls" not in out:
        # [{type: pdf, url: ...}, {type: code, url: ...}]: the paper's own links first
        kinds = [
            (str(x.get("type") or x.get("label") or "").lower(), x.get("url"))
            for x in links
            if isinstance(x, Mapping)
        ]
        paper = [u for k, u in kinds if isinstance(u, str) and re.search(r"pdf|paper|arxiv|doi|publisher", k)]
        other = [u for k, u in kinds if isinstance(u, str) and "/" in u and u not in paper]
        out["urls"] = paper + other
        out.pop("links")
    return out
