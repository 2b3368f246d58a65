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
from paperatlas.sources.jsonl import records_list
from paperatlas.sources.records import paper_from_record

_KEYS = r"(?:title|name|paper|abstract|authors?|url|link|year|venue|doi|arxiv)"


def looks_like_yaml_list(head: str) -> bool:
    """`- title: ...` items (or `papers:` over them) with more keys under each."""
    lines = [line for line in head.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines or lines[0].startswith(("<", "{", "[")):
        return False
    items = sum(bool(re.match(rf"^\s*-\s+{_KEYS}\s*:", line, re.I)) for line in lines)
    fields = sum(bool(re.match(rf"^\s+{_KEYS}\s*:", line, re.I)) for line in lines)
    return items >= 2 and fields >= items


def read_yaml_list(path: Path) -> Iterator[Paper]:
    import yaml

    text = "\n".join(line for _, line in iter_lines(path))
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(
            path, f"not valid YAML: {getattr(exc, 'problem', exc)}", mark.line + 1 if mark else None
        ) from None
    loader = yaml.SafeLoader("")
    items: list[Any] = []
    if isinstance(root, yaml.SequenceNode):
        items = list(root.value)
    elif isinstance(root, yaml.MappingNode):
        found = records_list(loader.construct_document(root))
        if found is not None:
            items = next((v.value for k, v in root.value if k.value == found[0]), [])
    for node in items:
        line = node.start_mark.line + 1
        value = loader.construct_document(node)
        if isinstance(value, Mapping):
            yield paper_from_record(value, f"{path}:{line}")
        else:
            yield skipped(f"{path}:{line}", "not a mapping of paper fields")
