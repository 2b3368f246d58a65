"""The pages' query parameters: their types, bounds and the values a filter may take.

Anything out of bounds or of the wrong type is a 400 with one short line
(`parameter_message`, used by error_pages.bad_parameter). Deep pages cost: a search
ranks offset + k candidates, a sorted list reads every paper anyway.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Query
from fastapi.exceptions import RequestValidationError

PAGE_SIZE = 50
SEARCH_PAGE_SIZE = 10  # as most search pages; each hit's highlighted snippet is costly
SORTS = ("list", "title", "rating", "name")
KINDS = ("method", "benchmark", "dataset", "analysis", "theory")
MAX_PAGE = 10_000  # /papers: 500k papers deep
MAX_SEARCH_PAGE = 100  # /search: the 1,000 best hits
MAX_API_K = 100
MAX_API_OFFSET = 1_000
MAX_QUERY = 1_000  # characters of a search
MAX_NAME = 300  # an area, decision, list or topic name

Name = Annotated[str | None, Query(max_length=MAX_NAME)]
Page = Annotated[int, Query(ge=1, le=MAX_PAGE)]
SearchPage = Annotated[int, Query(ge=1, le=MAX_SEARCH_PAGE)]
Query_ = Annotated[str, Query(max_length=MAX_QUERY)]
Level = Annotated[int, Query(ge=0, le=1)]
ApiK = Annotated[int, Query(ge=1, le=MAX_API_K)]
ApiOffset = Annotated[int, Query(ge=0, le=MAX_API_OFFSET)]


def parameter_message(exc: RequestValidationError) -> str:
    """'bad parameter page: Input should be less than or equal to 10000' (the first error)."""
    errors = exc.errors()
    if not errors:
        return "bad parameters"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    return f"bad parameter {where}: {first.get('msg', 'invalid')}"[:200]


def parse_topic(value: str | None) -> tuple[int, int] | None:
    """'12' -> broad topic 12; 'f40' -> fine topic 40."""
    if not value:
        return None
    level = 1 if value.startswith("f") else 0
    digits = value[1:] if level else value
    ok = digits.isascii() and digits.isdigit() and len(digits) <= 9
    return (level, int(digits)) if ok else None
