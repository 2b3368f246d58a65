"""JSON Lines and JSON documents: ICLR rows, OpenReview notes (API v1 and v2), arXiv
metadata snapshot rows, Paper Copilot lists. Each object becomes one Paper through
`records.paper_from_record`; an array at the top level is streamed element by element."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from paperatlas.errors import InputError
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import CutLine, iter_lines
from paperatlas.sources.limits import (
    DEPTH_LIMIT,
    RECORD_LIMIT,
    may_hold_surrogates,
    may_nest_too_deep,
    size,
    too_deep,
    without_surrogates,
)
from paperatlas.sources.record_shape import by_shape, unnamed_keys
from paperatlas.sources.records import paper_from_record

# Keys under which a JSON document may hold its list of papers ({"notes": [...]}).
_LIST_KEYS = ("notes", "papers", "data", "results", "items", "entries", "rows", "submissions")
_CHUNK_LINES = 2000
_MAX_OBJECT_CHARS = 16 * 1024 * 1024  # read ahead for one object before calling it malformed
_TOO_DEEP = f"JSON nested deeper than {DEPTH_LIMIT} levels (not a paper)"
_TOO_BIG = f"record over {size(RECORD_LIMIT)} (not read)"


def read_jsonl(path: Path) -> Iterator[Paper]:
    decode = json.loads
    for lineno, line in iter_lines(path):
        if isinstance(line, CutLine):
            yield skipped(f"{path}:{lineno}", _TOO_BIG)
            continue
        if not line.strip():
            continue
        try:
            record = decode(line)
        except ValueError as exc:
            raise InputError(path, f"malformed JSON: {_reason(exc)}", lineno) from None
        except RecursionError:
            yield skipped(f"{path}:{lineno}", _TOO_DEEP)
            continue
        yield _paper(path, record, lineno, line)


def read_json(path: Path) -> Iterator[Paper]:
    """A JSON document: an array of papers (streamed), an object holding one, or one paper."""
    lines = iter_lines(path, max_line=None)  # a whole document may be one line
    first, lineno = "", 1
    for number, line in lines:
        lineno = number
        if line.strip():
            first = line.lstrip()
            break
    if first.startswith("["):
        yield from _stream_array(path, lines, first, lineno)
        return
    text = "\n".join([first, *(line for _, line in lines)])
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise InputError(
            path, f"malformed JSON: {_reason(exc)}", lineno + getattr(exc, "lineno", 1) - 1
        ) from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply to read", lineno) from None
    if isinstance(document, Mapping) and (found := records_list(document)) is not None:
        key, items = found
        starts = _item_lines(text, key, len(items), lineno)
        for item, start in zip(items, starts):
            yield _paper(path, item, start, text)
        return
    yield _paper(path, document, lineno, text)


def records_list(document: Mapping[str, Any]) -> tuple[str, list] | None:
    """(key, list) of the paper records a JSON object holds: under a known key (`notes`,
    `papers`, ...), else its one big list of objects (`{"meta": {...}, "accepted": [...]}`)."""
    for key in _LIST_KEYS:
        if isinstance(document.get(key), list):
            return key, document[key]
    if "title" in document or "abstract" in document:
        return None  # one paper
    lists = [
        (k, v)
        for k, v in document.items()
        if isinstance(v, list) and v and sum(isinstance(x, Mapping) for x in v) >= 0.9 * len(v)
    ]
    if not lists:  # one level down: {"data": {"papers": [...]}}
        inner = [
            found
            for v in document.values()
            if isinstance(v, Mapping) and (found := records_list(v)) is not None
        ]
        return max(inner, key=lambda kv: len(kv[1])) if inner else None
    return max(lists, key=lambda kv: len(kv[1]))


def _item_lines(text: str, key: str, count: int, first_line: int) -> list[int]:
    """The line each element of the document's `key` list starts on (for skip reports)."""
    fallback = [first_line] * count
    match = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if not match:
        return fallback
    decoder, pos, lines = json.JSONDecoder(), match.end(), []
    line = first_line + text.count("\n", 0, pos)
    try:
        for _ in range(count):
            while text[pos] in " \t\r\n,":
                if text[pos] == "\n":
                    line += 1
                pos += 1
            lines.append(line)
            _, end = decoder.raw_decode(text, pos)
            line += text.count("\n", pos, end)
            pos = end
    except (ValueError, IndexError):
        return fallback
    return lines


def _stream_array(
    path: Path, lines: Iterator[tuple[int, str]], first: str, first_line: int
) -> Iterator[Paper]:
    """Decode `[obj, obj, ...]` one object at a time, reading lines as needed, so a big
    file never sits in memory whole. Line numbers of errors are the real ones."""
    decoder = json.JSONDecoder()
    buf, base_line, pos, eof = first, first_line, first.index("[") + 1, False

    def more() -> bool:
        nonlocal buf, base_line, pos
        chunk = []
        for _, line in lines:
            chunk.append(line)
            if len(chunk) >= _CHUNK_LINES:
                break
        if not chunk:
            return False
        base_line += buf.count("\n", 0, pos)  # drop what is consumed
        buf = buf[pos:] + "\n" + "\n".join(chunk)
        pos = 0
        return True

    while True:
        while True:  # skip whitespace and separators
            while pos < len(buf) and buf[pos] in " \t\r\n,":
                pos += 1
            if pos < len(buf) or eof:
                break
            eof = not more()
        if pos >= len(buf):
            raise InputError(
                path, "malformed JSON: the array is never closed ']'", base_line + buf.count("\n")
            )
        if buf[pos] == "]":
            return
        try:
            value, end = decoder.raw_decode(buf, pos)
        except RecursionError:
            raise InputError(
                path, "JSON nested too deeply to read", base_line + buf.count("\n", 0, pos)
            ) from None
        except ValueError as exc:
            if not eof and len(buf) - pos < _MAX_OBJECT_CHARS and more():
                continue  # the object may continue on lines not read yet
            eof = True
            line = base_line + buf.count("\n", 0, getattr(exc, "pos", pos))
            raise InputError(path, f"malformed JSON: {_reason(exc)}", line) from None
        line = base_line + buf.count("\n", 0, pos)
        start, pos = pos, end
        if end - start > RECORD_LIMIT:
            yield skipped(f"{path}:{line}", _TOO_BIG)
            continue
        yield _paper(path, value, line, buf[start:end])


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's own words."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds = {str: "a string", int: "a number", float: "a number", list: "an array"}
    return kinds.get(type(value), type(value).__name__)


def _paper(path: Path, record: Any, lineno: int, text: str) -> Paper:
    """`text`: the JSON the record was decoded from (or the document holding it), looked at
    for what may need a closer look: nesting past the limit, `\\ud800`-style escapes (lone
    surrogates, which cannot be stored or printed)."""
    if not isinstance(record, Mapping):
        raise InputError(path, f"expected a JSON object per paper, got {_json_kind(record)}", lineno)
    if may_nest_too_deep(text) and too_deep(record):
        return skipped(f"{path}:{lineno}", _TOO_DEEP)
    if may_hold_surrogates(text):
        record = without_surrogates(record)
    paper = paper_from_record(by_shape(record), f"{path}:{lineno}")
    if not paper.skip and paper.title is None and not paper.abstract and (keys := unnamed_keys(record)):
        paper.skip = (
            f"no title and no abstract: none of its keys ({keys}) names one (name them title, abstract)"
        )
    return paper


def _reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (column {exc.colno})"
    return str(exc)
