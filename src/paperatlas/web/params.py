"""The pages' query parameters: their types and bounds (the values a paper filter may take:
paperatlas/filters.py, read by web/filtering.py).

Anything out of bounds or of the wrong type is a 400 with one short line
(`parameter_message`, used by error_pages.bad_parameter). Deep pages cost: a search
ranks offset + k candidates, a sorted list reads every paper anyway.

A JSON body is read by `json_body`: what Python's parser would take but the app cannot use
(a 50,000-digit number, NaN, nesting deep enough to recurse out) is a 400 too, and
`is_clean_text` says whether a string from it can be stored at all (a lone surrogate
"\ud800" cannot be written as UTF-8).
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

from fastapi import HTTPException, Query
from fastapi.exceptions import RequestValidationError

PAGE_SIZE = 50
SEARCH_PAGE_SIZE = 10  # as most search pages; each hit's highlighted snippet is costly
SORTS = ("list", "title", "rating", "name")
MAX_PAGE = 10_000  # /papers: 500k papers deep
MAX_SEARCH_PAGE = 100  # /search: the 1,000 best hits
MAX_API_K = 100
MAX_API_OFFSET = 1_000
MAX_QUERY = 1_000  # characters of a search
MAX_NAME = 300  # an area, decision, list or topic name
MAX_JSON_DIGITS = 30  # a number in a request body: far more digits than any the app takes
MAX_TOPIC_DIGITS = 9

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
    number = topic_number(value[1:] if level else value)
    return None if number is None else (level, number)


def _bounded_number(text: str) -> float | int:
    if len(text) > MAX_JSON_DIGITS:
        raise ValueError("number too long")
    if not any(c in text for c in ".eE"):
        return int(text)
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise ValueError("number out of range")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_body(raw: bytes, usage: str = "send JSON") -> Any:
    """A request body's JSON; 400 (`usage`) for anything else: bad JSON, bad UTF-8, a
    number of more than MAX_JSON_DIGITS characters, NaN/Infinity, nesting too deep."""
    try:
        return json.loads(
            raw, parse_int=_bounded_number, parse_float=_bounded_number, parse_constant=_no_constant
        )
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise HTTPException(400, usage) from None


def is_clean_text(text: str) -> bool:
    """Can `text` be stored and shown: valid Unicode (no lone surrogate), no NUL?"""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def topic_number(text: str) -> int | None:
    """'12' -> 12; None for what is not a topic number (not digits, or too long to be one)."""
    ok = text.isascii() and text.isdigit() and len(text) <= MAX_TOPIC_DIGITS
    return int(text) if ok else None
