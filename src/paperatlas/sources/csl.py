"""CSL-JSON (Zotero, Mendeley, Manubot, citeproc): the fields of a CSL item that differ from
the flat records `records.paper_from_record` maps: `author` as `[{"given", "family"}]`,
`issued: {"date-parts": [[2011, 11, 14]]}`, `container-title`, `URL`, `DOI`, `type`
(`article-journal`, `paper-conference`, `report`, ...; software, blog posts, books and web
pages without a paper signal are skipped, see `kinds`). JATS markup in abstracts and CSL's
rich-text tags in titles (`<i>`, `<sup>`, `<span class="nocase">`) are removed, HTML entities
(`R&amp;D`) decoded.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

_CSL_KEYS = {
    "issued",
    "container-title",
    "citation-key",
    "accessed",
    "publisher-place",
    "container-title-short",
    "collection-title",
    "page",
    "DOI",
    "ISSN",
    "URL",
}
_JATS = re.compile(r"</?(?:jats:)?[a-z][\w:-]*(?:\s[^<>]*)?>", re.IGNORECASE)


def is_csl_item(record: Any) -> bool:
    """A CSL item: a `type` and CSL's own keys or its name objects."""
    if not isinstance(record, Mapping) or not isinstance(record.get("type"), str):
        return False
    if any(k in record for k in _CSL_KEYS):
        return True
    authors = record.get("author")
    return (
        isinstance(authors, list)
        and bool(authors)
        and isinstance(authors[0], Mapping)
        and ("family" in authors[0] or "literal" in authors[0])
    )


def date_parts(value: Any) -> tuple[int | None, str | None]:
    """(year, ISO date) from `{"date-parts": [[2011, 11, 14]]}` or `{"raw": "2011-11-14"}`."""
    if not isinstance(value, Mapping):
        return None, None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        nums = []
        for p in parts[0][:3]:
            try:
                nums.append(int(p))
            except (TypeError, ValueError):
                break
        if nums:
            iso = f"{nums[0]:04d}" + "".join(f"-{n:02d}" for n in nums[1:])
            return nums[0], iso if len(nums) > 1 else None
    raw = value.get("raw") or value.get("literal")
    if isinstance(raw, str) and (m := re.search(r"\b(1[89]\d\d|20\d\d)\b", raw)):
        return int(m.group(1)), None
    return None, None


def clean_abstract(text: str) -> str:
    if "<" in text:
        text = _JATS.sub(" ", text)
    if "&" in text:
        text = html.unescape(text)
    return " ".join(text.split())


def clean_title(text: str) -> str:
    """CSL rich text (`<i>de novo</i>`, `E<sup>2</sup>M`) as plain text: tags out without a
    space (they sit inside words), entities decoded."""
    if "<" in text:
        text = _JATS.sub("", text)
    if "&" in text:
        text = html.unescape(text)
    return " ".join(text.split())
