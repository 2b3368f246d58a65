"""A YAML list of papers (a Jekyll `_data/publications.yml`, a hand-kept reading list):
a sequence of mappings, or a mapping holding one (`papers: [...]`), each mapped to a `Paper`
like a JSON record (`sources.records`), with the line it starts on."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from paperatlas.errors import InputError
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.frontmatter import ALIASES_NOT_READ, loader_without_aliases
from paperatlas.sources.limits import DEPTH_LIMIT, too_deep
from paperatlas.sources.names import ET_AL, split_authors
from paperatlas.sources.record_shape import by_shape
from paperatlas.sources.records import paper_from_record

_KEYS = r"(?:\w+[_-])?(?:title|name|paper|abstract|authors?|url|link|year|venue|doi|arxiv)"  # `talk_title`


_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?[\w\"'][\w\"' .-]*:(?:\s|$)")
_OPENER = re.compile(r"^(\s*)(?:-\s+)?[\w\"'][\w\"' .-]*:\s*(?:[|>][-+]?)?\s*$")  # `key:`, `abstract: |`


def looks_like_yaml_list(head: str) -> bool:
    """A YAML document of papers: its lines are `key: value` pairs and `- ` items nested by
    indentation (a `key:` alone opening a deeper block), with a title-like key repeated:
    `- title: ...` items, `papers:` over them, or a mapping of entries (`gbp2021:` over
    `title: ...`, Hayagriva's form)."""
    lines = [line for line in head.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines or lines[0].startswith(("<", "{", "[")):
        return False
    indents = [len(m.group(1)) for line in lines if (m := re.match(rf"^(\s*)-\s+{_KEYS}\s*:", line, re.I))]
    listed = indents.count(min(indents)) if indents else 0  # the outermost list's items
    fields = sum(bool(re.match(r"^\s+[A-Za-z_][\w-]*\s*:(\s|$)", line)) for line in lines)
    if listed >= 2 and fields >= listed:
        return True
    lines = lines[:-1]  # (the head may end inside a line)
    keyed = sum(bool(_KEY_LINE.match(line)) for line in lines)
    items = sum(line.lstrip().startswith("- ") for line in lines)
    openers = [i for i, line in enumerate(lines[:-1]) if _OPENER.match(line) and _deeper(line, lines[i + 1])]
    titles = sum(bool(re.match(rf"^\s*(?:-\s+)?{_KEYS}\s*:", line, re.I)) for line in lines)
    return keyed + items >= 0.7 * len(lines) and len(openers) >= 2 and titles >= 2


def _deeper(line: str, following: str) -> bool:
    """Is `following` a block under `line` (more indented, or a `- ` item)?"""
    indent = len(line) - len(line.lstrip())
    nested = len(following) - len(following.lstrip())
    return nested > indent or (nested == indent and following.lstrip().startswith("- "))


_TOO_DEEP_TO_READ = "YAML nested too deeply to read"


def read_yaml_list(path: Path) -> Iterator[Paper]:
    import yaml

    text = "\n".join(_tabs_as_spaces(line) for _, line in iter_lines(path))
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
    except RecursionError:  # `[[[[...` thousands deep: past the parser's own depth
        raise InputError(path, _TOO_DEEP_TO_READ, 1) from None
    try:
        nodes = _paper_nodes(root, _shared_links(root))
    except RecursionError:
        raise InputError(path, _TOO_DEEP_TO_READ, 1) from None
    loader = yaml.SafeLoader("")
    shared = _shared_links(root)
    found = 0
    for node in nodes:
        found += 1
        source = f"{path}:{node.start_mark.line + 1}"
        try:
            value = loader.construct_document(node)
        except RecursionError:
            value = None
        if value is None or too_deep(value):
            yield skipped(source, f"YAML nested deeper than {DEPTH_LIMIT} levels (not a paper)")
            continue
        yield paper_from_record(by_shape(_cleaned(value, shared)), source)
    if not found:
        yield skipped(f"{path}:1", "no mapping with a title in it")


def _tabs_as_spaces(line: str) -> str:
    """A tab after a line's indentation (`name:<TAB>Title`) as a space: YAML 1.2 takes a tab
    between tokens, the YAML 1.1 parser refuses the whole file for it. A tab in the
    indentation is left, and refused with its line, as both versions do."""
    if "\t" not in line:
        return line
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)] + body.replace("\t", " ")


def _shared_links(root: Any) -> frozenset[str]:
    """Links that three records or more carry (a programme's room or stream, given on every
    talk of a session): no one paper's link."""
    import yaml

    seen: Counter[str] = Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(value for _, value in node.value)
        elif isinstance(node, yaml.ScalarNode) and str(node.value).startswith(("http://", "https://")):
            seen[node.value] += 1
    return frozenset(link for link, count in seen.items() if count >= 3)


def _paper_nodes(node: Any, shared: frozenset[str] = frozenset()) -> list[Any]:
    """The mappings that hold a paper, in document order, however deep (`- year: 2024`
    groups, `featured:` lists, a programme's `days: rooms: talks:`): each a mapping with a
    title-like text and a second field of a paper (person names, a link, a year). A mapping
    holding a list of such records, or two of them, is a group of papers, never a paper."""
    import yaml

    if isinstance(node, yaml.SequenceNode):
        return [found for value in node.value for found in _paper_nodes(value, shared)]
    if not isinstance(node, yaml.MappingNode):
        return []
    inner: list[Any] = []
    listed = False
    for key, value in node.value:
        if _PERSON_KEYS.search(str(key.value).lower()):
            continue  # `authors: [{name: Ann Lee, link: ...}]`: persons, not papers
        found = _paper_nodes(value, shared)
        inner.extend(found)
        listed |= bool(found) and isinstance(value, yaml.SequenceNode)
    if listed or len(inner) >= 2:
        return inner
    return [node] if _is_paper(node, shared) else inner


def _is_paper(node: Any, shared: frozenset[str] = frozenset()) -> bool:
    """A mapping with a title (a text of two words or more, no address, under a key naming a
    title or a name) and a field that a paper has beside it."""
    keys = {str(k.value).lower(): v for k, v in node.value}
    title = next((keys[k] for k in _title_keys(keys) if _titled(keys[k])), None)
    if title is None:
        return False
    others = [(k, v) for k, v in keys.items() if v is not title]
    return any(_paper_field(k, v) for k, v in others if not _shared(v, shared))


def _shared(value: Any, shared: frozenset[str]) -> bool:
    import yaml

    return isinstance(value, yaml.ScalarNode) and value.value in shared


def _title_keys(keys: Mapping[str, Any]) -> list[str]:
    """The record's keys that may name its title, the most telling first."""
    return sorted(
        (k for k in keys if re.search(r"title|^name$|^paper$", k) and not re.search(r"sub|short|parent", k)),
        key=lambda k: (k != "title", "title" not in k, k),
    )


def _titled(value: Any) -> bool:
    import yaml

    if not isinstance(value, yaml.ScalarNode) or not isinstance(value.value, str):
        return False
    text = value.value.strip()
    return (" " in text or len(text) > 12) and "://" not in text and len(text) <= 1000


_PERSON_KEYS = re.compile(r"author|creator|editor|speaker|presenter|people|by$")


def _paper_field(key: str, value: Any) -> bool:
    """A person list, a link, a year or date, a DOI/venue/abstract: what a paper has beside
    its title (a session's `time_start` is none of them)."""
    import yaml

    if _PERSON_KEYS.search(key) or re.search(r"year|date|doi|venue|journal|abstract|arxiv|pdf", key):
        return True
    if isinstance(value, yaml.ScalarNode):
        text = str(value.value)
        return text.startswith(("http://", "https://")) or bool(re.fullmatch(r"(?:19|20)\d\d", text))
    return False


_LINK_KEYS = re.compile(r"arxiv|pdf|paper|doi|html|openreview|project|code|website")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


_PAPER_LINK = re.compile(r"^(?:url|href|link|pdf|paper|arxiv|doi|publisher|html|official|value)$")
_ADDRESS = re.compile(r"(?:https?://|/|(?!10\.\d{4,9}/)[\w.-]+/)\S*$")  # (a bare DOI is no address)


def _addresses(field: Mapping[str, Any]) -> list[str]:
    """The addresses a mapping of links holds (`{url: ..., display: Here!}`, `{doi: ...,
    arxiv: ..., github: ...}`), the paper's own first: its address, PDF, DOI or arXiv page."""
    found = [
        (str(k).lower(), v.strip())
        for k, v in field.items()
        if isinstance(v, str) and _ADDRESS.match(v.strip()) and " " not in v.strip()
    ]
    return [u for k, u in found if _PAPER_LINK.match(k)] + [u for k, u in found if not _PAPER_LINK.match(k)]


def _cleaned(value: Mapping[str, Any], shared: frozenset[str] = frozenset()) -> dict[str, Any]:
    """HTML markup (`<strong>Me</strong>`) out of text values; the key that names the title
    (`name`, `talk_title`) read as the title; names in one text split into persons (`Olson,
    M. L., Hinck, M.`: surname first); a link or DOI one level down (Hayagriva's `url: {value:
    ...}`, `serial-number: {doi: ...}`) taken up."""
    out = {
        str(k): (html.unescape(_TAG.sub("", v)).strip() if isinstance(v, str) else v)
        for k, v in value.items()
        if not (isinstance(v, str) and v in shared)
    }
    if "title" not in out:
        lowered = {k.lower(): k for k in out}
        titled = [lowered[k] for k in _title_keys(lowered) if isinstance(out[lowered[k]], str)]
        if titled:
            out["title"] = out.pop(titled[0])
    nested: list[str] = []
    for key, field in list(out.items()):
        if _PERSON_KEYS.search(key.lower()) and isinstance(field, str):
            out[key] = split_authors(ET_AL.sub("", field).strip())
        elif isinstance(field, Mapping):
            if isinstance(field.get("value"), str):
                out[key] = field["value"]
            if isinstance(field.get("doi"), str) and "doi" not in out:
                out["doi"] = field["doi"]
            arxiv = field.get("arxiv")
            if (
                isinstance(arxiv, str)
                and re.fullmatch(r"\d{4}\.\d{4,5}(?:v\d+)?", arxiv)
                and "url" not in out
            ):
                out["url"] = f"https://arxiv.org/abs/{arxiv}"
            if addresses := _addresses(field):  # `links: {doi: ..., github: ...}`
                out[key] = addresses
                nested.extend(addresses)
    named = [
        v
        for k, v in out.items()
        if _LINK_KEYS.fullmatch(k.lower()) and isinstance(v, str) and v.startswith(("http", "/"))
    ]  # (a bare DOI is the record's DOI, made a link where the record has none)
    if (named or nested) and "url" not in out and "urls" not in out:  # `arXiv: https://...`, `pdf: ...`
        out["urls"] = named + nested
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
