"""The personal-data file: everything a person put into an atlas (likes and dislikes per
collection, triage states, notes, tags, follows, each list's "last seen") as one JSON
document, and reading it back into an atlas, merged with what is there (`paperatlas
personal export|import`).

A file is checked whole before anything is written: a bad one changes nothing. Marks
name papers through a foreign key, so a mark of a paper this atlas does not hold is
counted and left out; states, notes, tags, follows and "last seen" times are kept
whatever the papers (they wait for the list to be added)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.filters import FIELDS, Filters
from paperatlas.paper import json_text
from paperatlas.store.follows import FOLLOW_KINDS
from paperatlas.store.kept import MAX_NOTE, MERGED_NOTES, check_state, clean_note, clean_tag

if TYPE_CHECKING:
    from paperatlas.store.database import Store

# kind, value, detail (JSON text as stored), created_at (None: now), fed_at
FollowRow = tuple[str, str, str, str | None, str | None]

FORMAT = "paperatlas-personal"
VERSION = 2
# Version 1 had no follows and no "last seen" times; it reads as a file without them. A file
# of version 2 is refused by a paperatlas that reads only 1, rather than its follows being
# dropped without a word.
READS = (1, 2)
MAX_FILE = 256 * 1024 * 1024  # bytes: far above any one person's notes
MAX_ID = 300
MAX_FOLLOW = 1000  # characters of a followed query, name or topic label
MAX_DETAIL = 4000  # characters of a follow's detail, as JSON
SECTIONS = ("marks", "states", "notes", "tags", "follows", "list_seen")


@dataclass
class PersonalData:
    """A personal-data file's rows, checked."""

    marks: list[tuple[str, str, int, str | None]] = field(default_factory=list)  # collection, id, value, at
    states: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, state, at
    notes: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, note, at
    tags: list[tuple[str, str, str | None]] = field(default_factory=list)  # id, tag, at
    follows: list[FollowRow] = field(default_factory=list)
    list_seen: list[tuple[str, str]] = field(default_factory=list)  # list name, seen up to


@dataclass
class RestoreReport:
    """What an import wrote: rows per section, and marks left out for papers not here."""

    marks: int = 0
    states: int = 0
    notes: int = 0
    tags: int = 0
    follows: int = 0  # follows new to the atlas
    list_seen: int = 0  # lists whose "last seen" moved later
    marks_missing: int = 0


def dump_personal(store: Store) -> dict[str, Any]:
    """Everything a person keeps in the store, as the personal-data file's JSON value."""
    kept = store.kept.rows()
    followed = store.follows.data()
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
        # a follow's id is this atlas's own; the file names a follow by what it follows
        "follows": [{k: v for k, v in f.items() if k != "id"} for f in followed["follows"]],
        "list_seen": followed["list_seen"],
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
    version = value.get("version")
    if type(version) is not int or version not in READS:
        shown = " and ".join(str(v) for v in READS)
        raise InputError(path, f"personal-data version {version!r}; this paperatlas reads {shown}")
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


def _time(row: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = row.get(key)
    if value is None and not required:
        return None
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            # as the store writes its times (UTC, to the second): they are compared as text
            if moment.tzinfo is not None:
                moment = moment.astimezone(UTC).replace(tzinfo=None)
            return moment.strftime("%Y-%m-%d %H:%M:%S")
    raise PaperatlasError(f'"{key}" must be a date and time as text (such as "2026-04-23 10:00:00")')


def _short_text(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID:
        raise PaperatlasError(f'"{key}" must be a non-empty string of at most {MAX_ID} characters')
    return value


def _detail(value: Any) -> str:
    """A follow's detail checked key by key (what a follow of its kind may hold), as the
    JSON text the store keeps."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise PaperatlasError('"detail" must be an object')
    for key, item in value.items():
        if key == "filters":
            if not isinstance(item, dict):
                raise PaperatlasError('"detail.filters" must be an object')
            for name, given in item.items():
                if name not in FIELDS:
                    raise PaperatlasError(f'"detail.filters" has an unknown filter {name[:40]!r}')
                if isinstance(given, str):
                    _short_text(given, f"detail.filters.{name}")
            try:
                Filters(**item)  # a kind, state or flag no paper can have is refused here
            except PaperatlasError as exc:
                raise PaperatlasError(f'"detail.filters": {exc}') from None
        elif key == "list":
            _short_text(item, "detail.list")
        elif key in ("level", "topic"):
            if type(item) is not int or item < 0 or (key == "level" and item > 1):
                raise PaperatlasError(f'"detail.{key}" must be a whole number (level: 0 or 1)')
        else:
            raise PaperatlasError(f'"detail" has an unknown key {key[:40]!r}')
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    if len(text) > MAX_DETAIL:
        raise PaperatlasError(f'"detail" is longer than {MAX_DETAIL} characters')
    return text


def check_follow(row: Any) -> FollowRow:
    """One follow of a personal-data file, checked; PaperatlasError says what is wrong."""
    if not isinstance(row, dict):
        raise PaperatlasError("must be an object")
    kind = row.get("kind")
    if kind not in FOLLOW_KINDS:
        shown = repr(kind)[:40]
        raise PaperatlasError(f'"kind" must be one of {", ".join(FOLLOW_KINDS)}, not {shown}')
    # the value as stored: a follow already in the atlas is found by it, character for character
    value = _text(row, "value", MAX_FOLLOW)
    return (kind, value, _detail(row.get("detail")), _time(row, "created_at"), _time(row, "fed_at"))


def check_seen(row: Any) -> tuple[str, str]:
    """One "last seen" row of a personal-data file, checked."""
    if not isinstance(row, dict):
        raise PaperatlasError("must be an object")
    seen = _time(row, "seen_upto", required=True)
    assert seen is not None
    return _short_text(row.get("list"), "list"), seen


def check_follow_data(data: dict[str, Any]) -> tuple[list[FollowRow], list[tuple[str, str]]]:
    """The follows and "last seen" rows of `Store.follows.data`'s shape, checked entry by
    entry; PaperatlasError names the section and entry."""
    checked = PersonalData()
    for name in ("follows", "list_seen"):
        rows = data.get(name, [])
        if not isinstance(rows, list):
            raise PaperatlasError(f'"{name}" must be a list')
        for n, row in enumerate(rows, 1):
            try:
                _add_row(checked, name, row)
            except PaperatlasError as exc:
                raise PaperatlasError(f"{name} entry {n}: {exc}") from None
    return checked.follows, checked.list_seen


def _add_row(data: PersonalData, section: str, row: Any) -> None:
    if section == "follows":
        data.follows.append(check_follow(row))
        return
    if section == "list_seen":
        data.list_seen.append(check_seen(row))
        return
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
    for), tags are added, a note unlike the one here is added below it (a note is
    never lost), a follow the atlas has already is kept as it is, and each list's "last
    seen" is the later of the two."""
    report = RestoreReport()
    with store.transaction(fill_keys=False):
        present = store.papers.existing_ids({pid for _, pid, _, _ in data.marks})
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
            store.kept.set_state(pid, state, updated_at=at)
            report.states += 1
        have = store.kept.notes({pid for pid, _, _ in data.notes})
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
            store.kept.set_note(pid, note, updated_at=at)
            have[pid] = note
            report.notes += 1
        for pid, tag, at in data.tags:
            store.kept.add_tag_row(pid, tag, created_at=at)
            report.tags += 1
        report.follows, report.list_seen = store.follows.put_data(data.follows, data.list_seen)
    return report
