"""The fields of a JSON or YAML record whose keys are not the usual ones, found by what their
values look like: a title under a key of its own (`talk_title`), persons under a key naming people (`talk-speakers`, a feed's `creator`),
persons written as mappings with no name key `records` knows (`{label: Ann Lee,
series_ordinal: 1}`), and an abstract under another name (a feed's `description`): prose of
an abstract's length. `by_shape(record)` gives the record with those fields under the names
`records.paper_from_record` reads; a record that has them already comes back as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from paperatlas.sources.records import ALIASES, canonical_key, split_list

_PERSON_KEY = re.compile(r"author|creator|speaker|presenter|people|contributor|(?:^|_)by$")
_AUTHOR_KEYS = frozenset(ALIASES["authors"])
_TITLE_KEYS = frozenset(ALIASES["title"])
# a key naming a paper's title in a programme's or a tool's own words, not a page's or a session's
_TITLE_KEY = re.compile(
    r"^(?!.*(?:sub|short|parent|page|site|session|track|section|day|series|journal|book)).*title"
)
_ABSTRACT_KEYS = frozenset(ALIASES["abstract"])
_NOT_PROSE = frozenset(ALIASES["title"]) | frozenset(ALIASES["urls"]) | frozenset(ALIASES["venue"])
_CITATION_KEY = re.compile(r"bib|cit|ref|html|markdown|json|note")  # a citation or markup of the paper
_ABSTRACT_LENGTH = 300  # characters: a paper's abstract, not a teaser line
# a person's name: letters, dots, hyphens and apostrophes, one to six words
_NAME = re.compile(r"[^\W\d_][\w.'’\- ]{0,80}")


@lru_cache(maxsize=512)
def _plan(keys: tuple[Any, ...]) -> tuple[str | None, str | None, tuple[str, ...], tuple[str, ...]]:
    """For one key set (rows of a file share it): the key naming the title where no title key
    is there (`talk_title`), the key naming people where no author key is there, the keys
    that may hold the abstract where no abstract key is there, and the author keys present
    (whose persons may be mappings)."""
    named = [(k, canonical_key(k)) for k in keys if isinstance(k, str)]
    has_title = any(c in _TITLE_KEYS for _, c in named)
    title = None if has_title else next((k for k, c in named if _TITLE_KEY.search(c)), None)
    authors = tuple(k for k, c in named if c in _AUTHOR_KEYS)
    person = None if authors else next((k for k, c in named if _PERSON_KEY.search(c)), None)
    has_abstract = any(c in _ABSTRACT_KEYS for _, c in named)
    prose = (
        ()
        if has_abstract
        else tuple(k for k, c in named if c not in _NOT_PROSE and k != person and not _CITATION_KEY.search(c))
    )
    return title, person, prose, authors


def by_shape(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record with its persons and abstract where `paper_from_record` reads them."""
    title, person, prose, authors = _plan(tuple(record))
    out: dict[str, Any] | None = None
    if title is not None and isinstance(record.get(title), str):
        out = dict(record)
        out["title"] = out.pop(title)
    for key in authors:
        value = record[key]
        if isinstance(value, list) and value and isinstance(value[0], Mapping):
            out = out or dict(record)
            out[key] = persons(value)
    if person is not None and record.get(person):
        out = out or dict(record)
        out["authors"] = persons(record[person])
    if prose:
        texts = [v for k in prose if isinstance(v := record.get(k), str) and _is_prose(v)]
        if texts:
            out = out or dict(record)
            out["abstract"] = max(texts, key=len)
    return record if out is None else out


def persons(value: Any) -> Any:
    """Persons as names: a mapping per person gives its name key's text, else its one text
    that reads as a name (`{label: Ann Lee, series_ordinal: 1}`); text is left to the
    reader's splitting."""
    if not isinstance(value, list):
        return value
    names = []
    for item in value:
        if isinstance(item, Mapping):
            known = split_list([item])
            name = known[0] if known else next((v for v in item.values() if _is_name(v)), None)
            if name:
                names.append(name)
        elif isinstance(item, str):
            names.append(item)
    return names


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 1 <= len(value.split()) <= 6 and bool(_NAME.fullmatch(value.strip()))


def _is_prose(text: str) -> bool:
    """Sentences of an abstract's length, not a citation, markup or a list of links."""
    return (
        len(text) >= _ABSTRACT_LENGTH
        and not text.lstrip().startswith(("@", "{", "<", "[", "http"))
        and text.count(" ") * 12 >= len(text)
    )


def unnamed_keys(record: Mapping[str, Any]) -> str | None:
    """A record with no key naming a title or an abstract: its first keys, for a message
    (`reference, TRAITS, VIS`); None when it has such a key (an empty title is another fault)."""
    keys = [str(k) for k in record]
    if any(canonical_key(k) in _TITLE_KEYS or canonical_key(k) in _ABSTRACT_KEYS for k in keys):
        return None
    shown = ", ".join(k if len(k) <= 30 else k[:30] + "…" for k in keys[:6])
    return shown + (", …" if len(keys) > 6 else "") if keys else None
