"""The personal-data file: everything a person put into an atlas (likes and dislikes per
collection, triage states, notes, tags) as one JSON document, and reading it back into an
atlas, merged with what is there (`paperatlas personal export|import`).

A file is checked whole before anything is written: a bad one changes nothing. Marks
name papers through a foreign key, so a mark of a paper this atlas does not hold is
counted and left out; states, notes and tags are kept whatever the papers (they wait
for the list to be added)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.paper import json_text
from paperatlas.store.kept import MAX_NOTE, MERGED_NOTES, check_state, clean_note, clean_tag

if TYPE_CHECKING:
    from paperatlas.store.database import Store

FORMAT = "paperatlas-personal"
VERSION = 1
MAX_FILE = 256 * 1024 * 1024  # bytes: far above any one person's notes
MAX_ID = 300
SECTIONS = ("marks", "states", "notes", "tags")


@dataclass
class PersonalData:
    """A personal-data file's rows, checked."""

    marks: list[tuple[str, str, int, str | None]] = field(default_factory=list)  # collection, id, value, at
    states: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, state, at
    notes: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, note, at
    tags: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, tag, at


@dataclass
class RestoreReport:
    """What an import wrote: rows per section, and marks left out for papers not here."""

    marks: int = 0
    states: int = 0
    notes: int = 0
    tags: int = 0
    marks_missing: int = 0


def dump_personal(store: Store) -> dict[str, Any]:
    """Everything a person keeps in the store, as the personal-data file's JSON value."""
    kept = store.kept_rows()
    marks = store.conn.execute(
        "SELECT collection, paper_id, value, created_at FROM marks ORDER BY collection, created_at, rowid"
    ).fetchall()
    return {
        "format": FORMAT,
        "version": VERSION,
        "marks": [{"collection": c, "id": i, "value": v, "at": at} for c, i, v, at in marks],
        "states": [{"id": i, "state": s, "at": at} for i, s, at in kept["states"]],
        "notes": [{"id": i, "note": n, "at": at} for i, n, at in kept["notes"]],
        "tags": [{"id": i, "tag": t, "at": at} for i, t, at in kept["tags"]],
    }


def write_personal(store: Store, path: Path) -> dict[str, int]:
    """Write the personal-data file (through a temporary file beside it, so an interrupted
    write leaves any earlier file whole); returns the rows per section."""
    data = dump_personal(store)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as out:
            out.write(json_text(data, ensure_ascii=False, indent=1) + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return {name: len(data[name]) for name in SECTIONS}


def read_personal(path: Path) -> PersonalData:
    """A personal-data file, checked whole; InputError (file, and line or entry) if it is not one."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            raise InputError(path, f"is {size:,} bytes; a personal-data file is at most {MAX_FILE:,}")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory; name a personal-data file") from None
    except UnicodeDecodeError:
        raise InputError(path, "is not UTF-8 text (a personal-data file is JSON)") from None
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc})") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not JSON ({exc.msg}, column {exc.colno})", line=exc.lineno) from None
    except (ValueError, RecursionError):
        raise InputError(path, "not a personal-data file (numbers or nesting out of range)") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise InputError(path, f'not a personal-data file (no "format": "{FORMAT}")')
    if value.get("version") != VERSION:
        raise InputError(
            path, f"personal-data version {value.get('version')!r}; this paperatlas reads {VERSION}"
        )
    data = PersonalData()
    for name in SECTIONS:
        rows = value.get(name, [])
        if not isinstance(rows, list):
            raise InputError(path, f'"{name}" must be a list')
        for n, row in enumerate(rows, 1):
            try:
                _add_row(data, name, row)
            except PaperatlasError as exc:
                raise InputError(path, f"{name} entry {n}: {exc}") from None
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _text(row: dict[str, Any], key: str, limit: int | None = None) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PaperatlasError(f'"{key}" must be a non-empty string')
    if limit is not None and len(value) > limit:
        raise PaperatlasError(f'"{key}" is longer than {limit} characters')
    return value


def _at(row: dict[str, Any]) -> str | None:
    at = row.get("at")
    if at is None:
        return None
    if not isinstance(at, str) or len(at) > 40:
        raise PaperatlasError('"at" must be a date and time as text')
    return at


def _add_row(data: PersonalData, section: str, row: Any) -> None:
    if not isinstance(row, dict):
        raise PaperatlasError("must be an object")
    pid = _text(row, "id", MAX_ID)
    if section == "marks":
        value = row.get("value")
        if type(value) is not int or value not in (1, -1):
            raise PaperatlasError('"value" must be 1 (like) or -1 (dislike)')
        data.marks.append((_text(row, "collection", MAX_ID).strip(), pid, value, _at(row)))
    elif section == "states":
        data.states.append((pid, check_state(_text(row, "state")), _at(row)))
    elif section == "notes":
        data.notes.append((pid, clean_note(_text(row, "note")), _at(row)))
    else:
        data.tags.append((pid, clean_tag(_text(row, "tag", 200)), _at(row)))


def restore_personal(store: Store, data: PersonalData) -> RestoreReport:
    """Merge a checked personal-data file into the store, in one transaction: marks and
    states replace the atlas's own for the same paper (the file's are the ones asked
    for), tags are added, and a note unlike the one here is added below it (a note is
    never lost)."""
    report = RestoreReport()
    with store.transaction(fill_keys=False):
        present = store.existing_ids({pid for _, pid, _, _ in data.marks})
        for collection, pid, value, at in data.marks:
            if pid not in present:
                report.marks_missing += 1
                continue
            store.conn.execute(
                "INSERT OR REPLACE INTO marks(collection, paper_id, value, created_at) "
                "VALUES (?, ?, ?, coalesce(?, datetime('now')))",
                (collection, pid, value, at),
            )
            report.marks += 1
        for pid, state, at in data.states:
            store.set_state(pid, state, updated_at=at)
            report.states += 1
        have = store.notes({pid for pid, _, _ in data.notes})
        for pid, note, at in data.notes:
            mine = have.get(pid)
            if mine is not None and mine != note and note not in mine.split(MERGED_NOTES):
                note = mine + MERGED_NOTES + note
                if len(note) > MAX_NOTE:
                    raise PaperatlasError(
                        f"the note of {pid} and the atlas's own would be {len(note):,} characters "
                        f"together; a note holds at most {MAX_NOTE:,} (nothing was imported)"
                    )
            elif mine is not None:
                continue
            store.set_note(pid, note, updated_at=at)
            have[pid] = note
            report.notes += 1
        for pid, tag, at in data.tags:
            store.add_tag_row(pid, tag, created_at=at)
            report.tags += 1
    return report
