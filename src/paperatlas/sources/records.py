"""One mapping from a flat record (a JSON object, a CSV row) to a `Paper`.

Sources name the same thing differently (`abstract`/`summary`, `primary_area`/`area`,
`status`/`decision`, authors as a list or joined by `;`/`and`); column names are matched
case-insensitively. What a record has beyond `Paper`'s fields goes into `Paper.extra`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from paperatlas.identifiers import find_identifiers, split_links, strip_version
from paperatlas.paper import Paper, skipped
from paperatlas.sources.csl import clean_abstract, clean_title, date_parts, is_csl_item
from paperatlas.sources.kinds import not_a_paper

ALIASES: dict[str, tuple[str, ...]] = {
    "title": ("title", "paper_title", "papertitle", "article", "paper", "paper_name", "papername"),
    "abstract": ("abstract", "summary", "abstract_text", "paper_abstract", "abstract_note", "abstractnote"),
    "authors": (
        "authors_parsed",
        "authors",
        "author",
        "author_names",
        "authornames",
        "author_list",
        "authorlist",
        "creators",
        "lead_authors",
    ),
    "keywords": ("keywords", "keyword", "key_words", "author_keywords", "tags"),
    "id": ("id", "paper_id", "openreview_id", "arxiv_id", "forum", "bibkey", "key"),
    "venue": (
        "venue",
        "conference",
        "booktitle",
        "journal",
        "container_title",
        "publicationtitle",
        "proceedingstitle",
    ),
    "year": ("year", "publication_year"),
    "area": ("primary_area", "area", "research_area", "subject_area"),
    "decision": ("decision", "status"),
    "rating": ("rating_avg", "avg_rating", "mean_rating", "rating"),
    "urls": ("url", "urls", "site", "link", "pdf_url", "openreview_url", "paper_url"),
}
# Keys that hold a title in a sheet (`Paper`), but in JSON may hold a link or an object.
_LOOSE_TITLES = frozenset(("paper", "paper_name", "papername"))


def _reads_as_title(value: Any) -> bool:
    return isinstance(value, str) and " " in value.strip() and "://" not in value


# Where a year can be read when there is no `year` (arXiv `update_date`, ...).
_DATE_FIELDS = ("update_date", "published", "date", "publication_date")
# Keys that say nothing about the paper: left out of `extra`.
_DROP = {"", "content", "authors_parsed", "authorids"}

_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{8,14}$")
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")
_CODE_KEYS = {"code", "code_url", "github", "repo", "project_page", "project"}
_LINK_KEY = re.compile(r"(url|link|pdf|href|^abs$|^html$|^site$|^page$)")
_OPENREVIEW_HINTS = frozenset(("primary_area", "forum", "venueid", "number", "decision_source"))
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_ET_AL = re.compile(r"(?:^|\s+)et\.?\s*al\.?$", re.IGNORECASE)


_SUPERSCRIPT = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_TEX_SCRIPT = re.compile(r"\$\s*([\^_])\s*\{?\s*([0-9+\-=()n]{1,4})\s*\}?\s*\$")
_TEX_PLAIN = re.compile(r"\$([A-Za-z0-9.+\-]{1,12})\$")


def tex_title(title: str) -> str:
    """The simple TeX of arXiv titles as text: `CL$^2$GEC` -> CL²GEC, `H$_2$O` -> H₂O,
    `$k$-NN` -> k-NN; any other maths is left as written."""
    if "$" not in title:
        return title
    title = _TEX_SCRIPT.sub(
        lambda m: m.group(2).translate(_SUPERSCRIPT if m.group(1) == "^" else _SUBSCRIPT), title
    )
    return _TEX_PLAIN.sub(r"\1", title)


@lru_cache(maxsize=4096)
def canonical_key(key: str) -> str:
    """`Primary Area` / `primary-area` / `PRIMARY_AREA` -> `primary_area`."""
    return re.sub(r"[\s\-]+", "_", str(key).strip().lower())


@lru_cache(maxsize=1024)
def _shape(keys: tuple[Any, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """What a record's key set decides, worked out once per set (every row of a file
    usually has the same keys): the canonical key of each key in order, and for each
    `ALIASES` field the aliases among them, in order of preference."""
    canonical = tuple(canonical_key(k) for k in keys)
    have = set(canonical)
    fields = tuple(
        (name, found)
        for name, aliases in ALIASES.items()
        if (found := tuple(a for a in aliases if a in have))
    )
    return canonical, fields


def flatten_openreview(record: Mapping[str, Any]) -> dict[str, Any]:
    """OpenReview notes keep fields under `content`, in API v2 as `{"value": ...}`."""
    flat = {k: v for k, v in record.items() if k != "content"}
    for key, value in (record.get("content") or {}).items():
        if isinstance(value, Mapping) and "value" in value:
            value = value["value"]
        flat.setdefault(key, value)
    return flat


def split_list(value: Any, authors: bool = False) -> list[str]:
    """A list field from a list, a JSON list in a string, or a string joined by ; , or `and`."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        items = [item.strip() for item in value if type(item) is str]
        if len(items) == len(value):  # all text (most lists): nothing to convert
            return [i for i in items if i]
        items = []
        for item in value:
            if isinstance(item, str):
                items.append(item.strip())
                continue
            if isinstance(item, (list, tuple)):  # arXiv authors_parsed: [last, first, suffix]
                last, first = [*item, "", ""][:2]
                item = f"{first} {last}".strip()
            elif isinstance(item, Mapping):  # CSL {given, family}, {name: ...}
                item = _name_of(item)
            elif not isinstance(item, (int, float)):
                continue  # None, nested structures: nothing to list
            items.append(str(item).strip())
        return [i for i in items if i]
    if isinstance(value, Mapping):  # {"en": "graphs", "zh": "图"}: its text values
        return [v.strip() for v in value.values() if isinstance(v, str) and v.strip()]
    text = str(value).strip()
    if not text:
        return []
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = json.loads(text)
        except ValueError:
            try:  # Python-repr lists: "['a', 'b']"
                parsed = json.loads(text.replace("'", '"'))
            except ValueError:
                parsed = None
        if isinstance(parsed, list):
            return split_list(parsed, authors)
    if ";" in text:
        parts = text.split(";")
    elif authors:  # "A, B, and C" / "A, B & C"
        parts = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+&\s+", text.replace("\n", " "))
    else:
        parts = text.split(",")
    if authors:  # "Jana Selent et al.", "A, B, et al.": the names written, not the "et al."
        parts = [_ET_AL.sub("", p) for p in parts]
    return [p.strip() for p in parts if p.strip()]


def _name_of(item: Mapping[str, Any]) -> str:
    for key in ("name", "literal", "fullname", "full_name", "display_name", "value"):
        if isinstance(item.get(key), str):
            return item[key]
    parts = [item.get(k) for k in ("given", "non-dropping-particle", "family", "suffix")]
    if not any(parts):  # Zotero {firstName, lastName}, others {first, last}
        parts = [item.get(k) for k in ("firstName", "first", "first_name", "lastName", "last", "last_name")]
    return " ".join(str(p) for p in parts if p)


def _as_year(value: Any) -> int | None:
    if type(value) is int and 1800 <= value <= 2099:  # most sources: the year as a number
        return value
    match = _YEAR.search(str(value)) if value is not None else None
    return int(match.group(1)) if match else None


def _as_float(value: Any) -> float | None:
    """A finite number, else None (1e999 or "nan" is no rating)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _as_rating(value: Any) -> tuple[float | None, list[float] | None]:
    """(mean rating, individual ratings) from 5.5, "5.5", [6, 4, 8], "6;4;8"."""
    if value is None or value == "":
        return None, None
    if isinstance(value, str) and (";" in value or value.startswith("[")):
        value = split_list(value)
    if isinstance(value, (list, tuple)):
        numbers = [n for n in (_as_float(v) for v in value) if n is not None]
        return (sum(numbers) / len(numbers) if numbers else None), numbers
    return _as_float(value), None


def _text(value: Any) -> str | None:
    """A text field's text; a dict is never written out as its Python repr (its `value` or
    `name` when it has one, else nothing)."""
    if isinstance(value, str):
        return value.strip() or None
    if value is None:
        return None
    if isinstance(value, Mapping):
        value = value.get("value", value.get("name"))
        if not isinstance(value, (str, int, float)):
            return None
    if isinstance(value, (list, tuple)):
        value = " ".join(t for v in value if (t := _text(v)))
    text = str(value).strip()
    return text or None


_JSON_TYPES = (str, int, float, bool, list, dict)  # what json/csv give


@lru_cache(maxsize=4096)
def _is_link_key(key: str) -> bool:
    return bool(_LINK_KEY.search(key))


def check_types(record: Mapping[str, Any], canonical: bool = False) -> str | None:
    """Why a record cannot be a paper because a text field has the wrong type (an abstract
    that is a number, a dict or a list; a null abstract with no title), or None.
    `canonical`: the record's keys are canonical already."""
    by_key = record if canonical else {canonical_key(k): v for k, v in record.items()}
    found: dict[str, tuple[bool, Any]] = {}
    for name in ("title", "abstract"):
        for alias in ALIASES[name]:
            if alias in by_key:
                found[name] = (True, by_key[alias])
                break
    for name, (_, value) in found.items():
        if value is None or isinstance(value, str):
            continue
        kind = (
            "a number"
            if isinstance(value, (int, float))
            else "a list"
            if isinstance(value, (list, tuple))
            else "a dict"
            if isinstance(value, Mapping)
            else type(value).__name__
        )
        return f"{name} is {kind}, not text"
    if (
        "abstract" in found
        and found["abstract"][1] is None
        and not (isinstance(found.get("title", (0, None))[1], str) and found["title"][1].strip())
    ):
        return "abstract is null and there is no title"
    return None


def _rating_fields(fields: dict[str, Any], by_key: dict[str, Any], extra: dict[str, Any]) -> float | None:
    """The mean rating. Paper Copilot writes `rating_avg: [mean, std]` beside `rating:
    "6;4;8"` (each reviewer's): the pair is a mean and a spread, not two ratings."""
    value = fields.get("rating")
    if type(value) is float:  # one mean rating (most sources)
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2 and "rating" in by_key:
        mean, std = (_as_float(v) for v in value)
        if std is not None:
            extra.setdefault("rating_std", std)
        _, ratings = _as_rating(by_key["rating"])
        if ratings is not None:
            extra.setdefault("ratings", ratings)
        return mean
    rating, ratings = _as_rating(value)
    if ratings is not None and "ratings" not in extra:
        extra["ratings"] = ratings
    return rating


def _first_version_date(record: Mapping[str, Any]) -> str | None:
    """arXiv snapshot rows: the date of the first entry of `versions` (`created`), ISO."""
    versions = record.get("versions")
    if not isinstance(versions, list) or not versions:
        return None
    first = versions[0]
    created = first.get("created") if isinstance(first, Mapping) else None
    return iso_date(created) if created else None


_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}


def iso_date(value: Any) -> str | None:
    """`2024-01-05`, `2024/1/5`, `Mon, 2 Apr 2007 19:18:42 GMT`, `2 Apr 2007`, `Apr 2007`,
    `2007` -> ISO `YYYY-MM-DD` / `YYYY-MM` / None (a year alone is `year`, not a date)."""
    if value is None:
        return None
    text = str(value).strip()
    if match := re.search(r"\b(1[89]\d\d|20\d\d)[-/.](\d{1,2})(?:[-/.](\d{1,2}))?\b", text):
        year, month, day = match.groups()
        if 1 <= int(month) <= 12:
            return f"{year}-{int(month):02d}" + (f"-{int(day):02d}" if day and 1 <= int(day) <= 31 else "")
    if match := re.search(r"\b(\d{1,2})?\s*([A-Za-z]{3})[a-z]*\.?,?\s+(1[89]\d\d|20\d\d)\b", text):
        day, month, year = match.groups()
        if month.lower() in _MONTHS:
            iso = f"{year}-{_MONTHS[month.lower()]:02d}"
            return iso + (f"-{int(day):02d}" if day and 1 <= int(day) <= 31 else "")
    return None


def paper_from_record(record: Mapping[str, Any], source: str) -> Paper:
    """Map one record to a Paper. A record without an abstract is a title-only paper; one
    whose title/abstract has the wrong type comes back as skipped (`Paper.skip`)."""
    is_note = isinstance(record.get("content"), Mapping)
    if is_note:
        record = flatten_openreview(record)
    title = record.get("title")
    csl = "type" in record and is_csl_item(record)
    kind = record.get("type") or record.get("itemType")  # CSL, programs; Zotero JSON
    if isinstance(kind, str) and kind:
        links = [str(record.get(k)) for k in ("URL", "url", "link", "pdf", "abs") if record.get(k)]
        venues = [
            str(record.get(k) or "")
            for k in ("container-title", "publisher", "venue", "journal", "booktitle")
        ]
        if reason := not_a_paper(
            kind, links, [str(record.get("DOI") or record.get("doi") or "")], venues, label=f"type {kind}"
        ):
            return skipped(source, reason, title if isinstance(title, str) else None)
    fields: dict[str, Any] = {}
    canonical, field_aliases = _shape(tuple(record))
    # (a true value is never one of the empties: the truth test spares four comparisons)
    by_key = {k: v for k, v in zip(canonical, record.values()) if v or v not in (None, "", [], {})}
    all_keys = dict(by_key)  # also: which keys the record has (with a value)
    for name, aliases in field_aliases:
        for alias in aliases:
            if alias in by_key and (alias not in _LOOSE_TITLES or _reads_as_title(by_key[alias])):
                fields[name] = by_key.pop(alias)
                break
    if (
        not (isinstance(fields.get("abstract", ""), str) and isinstance(fields.get("title", ""), str))
        or ("abstract" not in fields and "title" not in fields)
    ) and (bad := check_types(record)):  # a field of the wrong type, a null abstract
        return skipped(source, bad, title if isinstance(title, str) else None)
    if "authors_parsed" in all_keys:  # arXiv: the parsed names replace the joined string
        by_key.pop("authors", None)
    extra = {
        k: v if isinstance(v, _JSON_TYPES) else str(v)  # what json/csv give, else its text
        for k, v in by_key.items()
        if k not in _DROP
    }

    paper_id = _text(fields.get("id"))
    if paper_id and paper_id.isdigit():  # a row number, not an id: two sheets share them
        extra.setdefault("number", int(paper_id))
        paper_id = None
    rating = _rating_fields(fields, all_keys, extra)
    extra.pop("rating", None) if "rating_std" in extra else None
    date = _first_version_date(record) if "versions" in record else None
    if csl and date is None:
        csl_year, date = date_parts(record.get("issued"))
        if csl_year and "year" not in fields:
            fields["year"] = csl_year
    year = int(date[:4]) if date else _as_year(fields.get("year"))
    if year is None:
        year = next((_as_year(record[k]) for k in _DATE_FIELDS if record.get(k)), None)
    if date is None:
        for key in ("published", "date", "publication_date", "created"):
            if (value := record.get(key)) and (date := iso_date(value)):
                break
    urls, code_urls, ids = _record_links(record, fields, paper_id, by_key, all_keys, extra, is_note)
    abstract = _text(fields.get("abstract")) or ""
    if csl and abstract:
        abstract = clean_abstract(abstract)
    if title := _text(fields.get("title")):
        title = clean_title(title) if csl else tex_title(" ".join(title.split()))
    return Paper(
        abstract=abstract,
        title=title or None,
        id=paper_id,
        authors=split_list(fields.get("authors"), authors=True),
        keywords=split_list(fields.get("keywords")),
        venue=_text(fields.get("venue")),
        year=year,
        area=_text(fields.get("area")),
        decision=_text(fields.get("decision")),
        rating=rating,
        urls=urls,
        source=source,
        extra=extra,
        identifiers=ids,
        code_urls=code_urls,
        date=date,
    )


def _record_links(
    record: Mapping[str, Any],
    fields: dict[str, Any],
    paper_id: str | None,
    by_key: dict[str, Any],
    all_keys: dict[str, Any],
    extra: dict[str, Any],
    is_note: bool,
) -> tuple[list[str], list[str], dict[str, str]]:
    """A record's paper links, code links and identifiers: its link fields and columns, the
    pages its id names (an arXiv abs page, an OpenReview forum), its DOI."""
    urls = split_list(fields.get("urls"))
    if isinstance(paper_id, str) and paper_id[:4] == "http" and paper_id not in urls:
        urls.append(paper_id)  # an id column holding the paper's page (`forum`: an OpenReview link)
    for key in [k for k in by_key if _is_link_key(k)]:  # `PDF Link (OpenReview)`, `abs`, `pdf`
        value = by_key[key]
        if isinstance(value, str) and value[:4] == "http" and value not in urls:
            urls.append(value)
    forum = None
    if paper_id and _ARXIV_ID.match(paper_id) and ("categories" in extra or "abs" in record):
        urls = urls or [f"https://arxiv.org/abs/{paper_id}"]
    elif (
        paper_id
        and _OPENREVIEW_ID.match(paper_id)
        and (
            is_note or not _OPENREVIEW_HINTS.isdisjoint(all_keys) or any("openreview.net" in u for u in urls)
        )
    ):
        forum = f"https://openreview.net/forum?id={paper_id}"
        if forum not in urls:
            urls.insert(0, forum)
    doi_text = _text(all_keys.get("doi")) if "doi" in all_keys else None
    if paper_id and len(urls) == 1 and urls[0] == forum and doi_text is None:
        # the one link is the forum page built from the id (OpenReview dumps): a paper link
        # whose only identifier is that id, so the scans below would find just that
        code_urls: list[str] = []
        ids = {"openreview": paper_id}
    else:
        urls, code_urls = split_links(urls)
        ids = find_identifiers(*urls, doi_text)
    if not _CODE_KEYS.isdisjoint(extra):  # in the record's order (a set's order varies by run)
        for key, value in extra.items():
            if (
                key in _CODE_KEYS
                and isinstance(value, str)
                and value.startswith("http")
                and value not in code_urls
            ):
                code_urls.append(value)
    if (
        paper_id
        and _ARXIV_ID.match(paper_id)
        and ("categories" in extra or "abs" in record or "arxiv_id" in all_keys)
    ):
        ids.setdefault("arxiv", strip_version(paper_id))
    if paper_id and is_note:
        ids.setdefault("openreview", paper_id)
    if not urls and doi_text and ids.get("doi"):
        urls = [doi_text if doi_text.startswith("http") else f"https://doi.org/{doi_text}"]
    return urls, code_urls, ids
