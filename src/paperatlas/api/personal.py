"""What a person keeps about papers, as `Atlas` writes and reads it: triage states, notes,
tags, the collections of likes, a schedule of the saved and liked papers, and the
personal-data file (every mark, state, note, tag, follow and list's "last seen")."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.filters import Filters
from paperatlas.results import Collection, Kept, PersonalImport
from paperatlas.store import Store


def full_ids(store: Store, ids: Iterable[str]) -> list[str]:
    """Full ids for ids or unique prefixes as typed; PaperatlasError naming the unknown."""
    from paperatlas.likes import resolve_ids

    return resolve_ids(store, ids)


def liked_ids(store: Store, collection: str) -> list[str]:
    """The ids of the papers liked in a collection, in the order they were liked."""
    from paperatlas.likes import liked_ids

    return list(liked_ids(store, collection))


def set_state(store: Store, ids: Iterable[str], state: str | None) -> list[str]:
    from paperatlas.store.kept import check_state

    if state is not None:
        check_state(state)
    store.require_writable("mark papers")
    full = full_ids(store, ids)
    with store.transaction(fill_keys=False):
        for pid in full:
            store.kept.set_state(pid, state)
    return full


def set_note(store: Store, paper_id: str, note: str) -> str:
    from paperatlas.store.kept import clean_note

    note = clean_note(note)
    store.require_writable("write a note")
    (full,) = full_ids(store, [paper_id])
    with store.transaction(fill_keys=False):
        store.kept.set_note(full, note)
    return full


def tag(store: Store, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
    from paperatlas.store.kept import clean_tag

    cleaned = [clean_tag(t) for t in tags]
    store.require_writable("tag papers")
    full = full_ids(store, ids)
    with store.transaction(fill_keys=False):
        for pid in full:
            store.kept.add_tags(pid, cleaned)
    return full


def untag(store: Store, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
    from paperatlas.store.kept import clean_tag

    cleaned = [clean_tag(t) for t in tags]
    store.require_writable("untag papers")
    full = full_ids(store, ids)
    with store.transaction(fill_keys=False):
        return [pid for pid in full if store.kept.remove_tags(pid, cleaned)]


def kept(store: Store, ids: Iterable[str]) -> dict[str, Kept]:
    return {
        pid: Kept(state, note, tuple(tags)) for pid, (state, note, tags) in store.kept.for_papers(ids).items()
    }


def collections(store: Store) -> list[Collection]:
    counts: dict[str, list[int]] = {}
    for name, _, value in store.marks.rows():
        counts.setdefault(name, [0, 0])[0 if value > 0 else 1] += 1
    return [Collection(name, liked, disliked) for name, (liked, disliked) in sorted(counts.items())]


def import_personal(store: Store, path: Path) -> PersonalImport:
    from paperatlas.store.personal_file import read_personal, restore_personal

    data = read_personal(path)
    store.require_writable("import personal data")
    try:
        report = restore_personal(store, data)
    except PaperatlasError as exc:  # a note merged with the atlas's own past the limit
        raise InputError(path, str(exc)) from None
    return PersonalImport(
        report.marks,
        report.states,
        report.notes,
        report.tags,
        report.marks_missing,
        report.follows,
        report.list_seen,
    )


def put_follow_data(store: Store, data: dict[str, list[dict[str, Any]]]) -> None:
    from paperatlas.store.personal_file import check_follow_data

    follows, seen = check_follow_data(data)
    store.require_writable("import follows")
    with store.transaction(fill_keys=False):
        store.follows.put_data(follows, seen)


def write_schedule(store: Store, path: Path, collection: str) -> tuple[int, int]:
    data, count, chosen = schedule(store, collection)
    path.write_bytes(data)
    return count, chosen


def schedule(store: Store, collection: str) -> tuple[bytes, int, int]:
    """The iCalendar file of the saved papers and the collection's liked ones that their
    program gives a time; (the file, events in it, papers saved or liked)."""
    from paperatlas.report.schedule import calendar_bytes

    saved = (r["id"] for r in store.papers.iter(Filters(state="saved")))
    ids = dict.fromkeys([*saved, *liked_ids(store, collection)])
    data, count = calendar_bytes(store.papers.get_many(ids))
    return data, count, len(ids)


def like(store: Store, ids: Iterable[str], collection: str, value: int) -> list[str]:
    from paperatlas.likes import mark

    store.require_writable("mark papers")
    return list(mark(store, ids, collection=collection, value=value))


def unlike(store: Store, ids: Iterable[str], collection: str) -> list[str]:
    from paperatlas.likes import unmark

    store.require_writable("unmark papers")
    return list(unmark(store, ids, collection=collection))


def mark_seen(store: Store, list_name: str) -> str | None:
    store.require_writable("mark a list seen")
    with store.transaction(fill_keys=False):
        return store.follows.mark_list_seen(list_name)


def export_personal(store: Store, path: Path) -> dict[str, int]:
    from paperatlas.store.personal_file import write_personal

    return write_personal(store, path)
