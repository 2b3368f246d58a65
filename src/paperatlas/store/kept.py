"""What a person keeps about a paper: a triage state (read, skipped, saved for later), a
Markdown note and tags (tables of migration 14, keyed by paper id with no foreign key, so
that removing a list and adding it again finds them again). An atlas opened read-only
before that migration has none of these tables: it reads as "nothing kept"."""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable

from paperatlas.errors import PaperatlasError
from paperatlas.filters import TRIAGE_STATES, tag_key
from paperatlas.store.connection import StorePart, has_table

STATES = TRIAGE_STATES  # what paper_state holds (migration 14)
MAX_NOTE = 20_000  # characters: a page of notes; the web app's request limit (64 KiB) holds it in any script
MAX_TAG = 64
MAX_TAGS = 50  # per paper
# a tag is one word as Obsidian and Zotero take it: letters, digits and - _ / . + (no spaces:
# they become '-'), so it needs no quoting in a file name, a URL, YAML or a BibTeX field
_TAG = re.compile(r"^[\w\-/.+]+$")
MERGED_NOTES = "\n\n---\n\n"  # between the notes of two twins merged into one paper


def clean_tag(text: str) -> str:
    """A tag as stored: NFKC, lower case, a leading '#' dropped, spaces as '-'; a
    PaperatlasError naming it when it is empty, too long or holds other characters."""
    tag = tag_key(text) or ""
    shown = tag[:40] + ("…" if len(tag) > 40 else "")
    if not tag:
        raise PaperatlasError("a tag needs at least one letter or digit")
    if len(tag) > MAX_TAG:
        raise PaperatlasError(f"tag {shown!r} is longer than {MAX_TAG} characters")
    if not _TAG.match(tag) or tag.strip("-/.+_") == "":
        raise PaperatlasError(f"tag {shown!r}: a tag holds letters, digits and - _ / . + only")
    return tag


def clean_note(text: str) -> str:
    """A note as stored (line ends as \\n, trailing space gone); a PaperatlasError when it
    is longer than MAX_NOTE characters or holds control characters other than tab and
    newline. An empty note means "no note"."""
    note = str(text).replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(note) > MAX_NOTE:
        raise PaperatlasError(f"the note is {len(note):,} characters; a note holds at most {MAX_NOTE:,}")
    bad = next((c for c in note if unicodedata.category(c) in ("Cc", "Cs") and c not in "\t\n"), None)
    if bad is not None:
        raise PaperatlasError(f"the note holds a control character (U+{ord(bad):04X})")
    return note


def check_state(state: str) -> str:
    if state not in STATES:
        raise PaperatlasError(f"unknown state {state!r} (one of {', '.join(STATES)})")
    return state


def move_kept(conn: sqlite3.Connection, old_id: str, new_id: str) -> None:
    """Give what was kept about `old_id` to `new_id` (twins merged into one paper): tags
    joined, notes joined (the kept id's first; never one dropped), the state the newer of
    the two. Inside the caller's transaction; nothing when the tables are not there yet."""
    if not has_table(conn, "paper_notes"):
        return
    conn.execute(
        "INSERT OR IGNORE INTO paper_tags(paper_id, tag, created_at) "
        "SELECT ?, tag, created_at FROM paper_tags WHERE paper_id = ?",
        (new_id, old_id),
    )
    conn.execute("DELETE FROM paper_tags WHERE paper_id = ?", (old_id,))
    conn.execute(
        "INSERT INTO paper_notes(paper_id, note, updated_at) "
        "SELECT ?, note, updated_at FROM paper_notes WHERE paper_id = ? AND true "
        "ON CONFLICT(paper_id) DO UPDATE SET note = CASE WHEN note = excluded.note THEN note "
        "ELSE note || ? || excluded.note END, updated_at = max(updated_at, excluded.updated_at)",
        (new_id, old_id, MERGED_NOTES),
    )
    conn.execute("DELETE FROM paper_notes WHERE paper_id = ?", (old_id,))
    conn.execute(
        "INSERT INTO paper_state(paper_id, state, updated_at) "
        "SELECT ?, state, updated_at FROM paper_state WHERE paper_id = ? AND true "
        "ON CONFLICT(paper_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at "
        "WHERE excluded.updated_at > updated_at",
        (new_id, old_id),
    )
    conn.execute("DELETE FROM paper_state WHERE paper_id = ?", (old_id,))


class KeptRows(StorePart):
    """The `paper_state`, `paper_notes` and `paper_tags` tables."""

    def _has_kept(self) -> bool:
        return self._has_table("paper_state")

    def for_papers(self, ids: Iterable[str]) -> dict[str, tuple[str | None, str, list[str]]]:
        """paper id -> (state, note, tags) for those of `ids` with anything kept: one query
        for a page of cards."""
        if not self._has_kept():
            return {}
        rows = self._in_query(
            "WITH wanted(id) AS (SELECT value FROM json_each(?)) "
            "SELECT 's', paper_id, state FROM paper_state WHERE paper_id IN wanted "
            "UNION ALL SELECT 'n', paper_id, note FROM paper_notes WHERE paper_id IN wanted "
            "UNION ALL SELECT 't', paper_id, tag FROM paper_tags WHERE paper_id IN wanted",
            ids,
        )
        out: dict[str, tuple[str | None, str, list[str]]] = {}
        for kind, pid, value in rows:
            state, note, tags = out.get(pid, (None, "", []))
            if kind == "s":
                state = value
            elif kind == "n":
                note = value
            else:
                tags.append(value)
            out[pid] = (state, note, tags)
        return {pid: (state, note, sorted(tags)) for pid, (state, note, tags) in out.items()}

    # -- triage state -----------------------------------------------------------------

    def set_state(self, paper_id: str, state: str | None, updated_at: str | None = None) -> None:
        """Set a paper's state (read | skipped | saved); None clears it."""
        if state is None:
            self.conn.execute("DELETE FROM paper_state WHERE paper_id = ?", (paper_id,))
            return
        self.conn.execute(
            "INSERT OR REPLACE INTO paper_state(paper_id, state, updated_at) "
            "VALUES (?, ?, coalesce(?, datetime('now')))",
            (paper_id, check_state(state), updated_at),
        )

    def states(self, ids: Iterable[str] | None = None) -> dict[str, str]:
        """paper id -> state, for `ids` (every paper with one when None)."""
        if not self._has_kept():
            return {}
        if ids is None:
            return dict(self.conn.execute("SELECT paper_id, state FROM paper_state"))
        return {
            r[0]: r[1]
            for r in self._in_query(
                "SELECT paper_id, state FROM paper_state WHERE paper_id IN (SELECT value FROM json_each(?))",
                ids,
            )
        }

    def ids_in_state(self, state: str) -> list[str]:
        """The ids of the papers in a state, most recently marked first."""
        check_state(state)
        if not self._has_kept():
            return []
        rows = self.conn.execute(
            "SELECT paper_id FROM paper_state WHERE state = ? ORDER BY updated_at DESC, rowid DESC", (state,)
        )
        return [r[0] for r in rows]

    def state_counts(self) -> dict[str, int]:
        """state -> how many papers are in it."""
        if not self._has_kept():
            return {}
        return dict(self.conn.execute("SELECT state, count(*) FROM paper_state GROUP BY state"))

    # -- notes ------------------------------------------------------------------------

    def set_note(self, paper_id: str, note: str, updated_at: str | None = None) -> None:
        """Store a paper's note (cleaned by clean_note); an empty note removes it."""
        note = clean_note(note)
        if not note:
            self.conn.execute("DELETE FROM paper_notes WHERE paper_id = ?", (paper_id,))
            return
        self.conn.execute(
            "INSERT OR REPLACE INTO paper_notes(paper_id, note, updated_at) "
            "VALUES (?, ?, coalesce(?, datetime('now')))",
            (paper_id, note, updated_at),
        )

    def notes(self, ids: Iterable[str] | None = None) -> dict[str, str]:
        """paper id -> note, for `ids` (every note when None)."""
        if not self._has_kept():
            return {}
        if ids is None:
            return dict(self.conn.execute("SELECT paper_id, note FROM paper_notes"))
        return {
            r[0]: r[1]
            for r in self._in_query(
                "SELECT paper_id, note FROM paper_notes WHERE paper_id IN (SELECT value FROM json_each(?))",
                ids,
            )
        }

    # -- tags -------------------------------------------------------------------------

    def add_tags(self, paper_id: str, tags: Iterable[str]) -> list[str]:
        """Tag a paper (tags cleaned by clean_tag); returns the tags it did not have yet.
        A PaperatlasError when it would carry more than MAX_TAGS."""
        wanted = list(dict.fromkeys(clean_tag(t) for t in tags))
        have = set(self.tags_of([paper_id]).get(paper_id, []))
        new = [t for t in wanted if t not in have]
        if len(have) + len(new) > MAX_TAGS:
            raise PaperatlasError(f"a paper carries at most {MAX_TAGS} tags")
        self.conn.executemany(
            "INSERT OR IGNORE INTO paper_tags(paper_id, tag) VALUES (?, ?)", [(paper_id, t) for t in new]
        )
        return new

    def remove_tags(self, paper_id: str, tags: Iterable[str]) -> list[str]:
        """Take tags off a paper; returns those it had."""
        removed = []
        for tag in dict.fromkeys(clean_tag(t) for t in tags):
            cur = self.conn.execute("DELETE FROM paper_tags WHERE paper_id = ? AND tag = ?", (paper_id, tag))
            if cur.rowcount:
                removed.append(tag)
        return removed

    def tags_of(self, ids: Iterable[str] | None = None) -> dict[str, list[str]]:
        """paper id -> its tags (alphabetical), for `ids` (every tagged paper when None)."""
        if not self._has_kept():
            return {}
        if ids is None:
            rows = list(self.conn.execute("SELECT paper_id, tag FROM paper_tags ORDER BY paper_id, tag"))
        else:
            rows = self._in_query(
                "SELECT paper_id, tag FROM paper_tags WHERE paper_id IN (SELECT value FROM json_each(?)) "
                "ORDER BY tag",
                ids,
            )
        out: dict[str, list[str]] = {}
        for pid, tag in rows:
            out.setdefault(pid, []).append(tag)
        return out

    def tag_counts(self) -> dict[str, int]:
        """tag -> how many papers carry it, most used first (then alphabetical)."""
        if not self._has_kept():
            return {}
        rows = self.conn.execute(
            "SELECT tag, count(*) AS n FROM paper_tags GROUP BY tag ORDER BY n DESC, tag"
        )
        return {r[0]: r[1] for r in rows}

    def ids_with_tag(self, tag: str) -> list[str]:
        """The ids of the papers that carry a tag, most recently tagged first."""
        tag = clean_tag(tag)
        if not self._has_kept():
            return []
        rows = self.conn.execute(
            "SELECT paper_id FROM paper_tags WHERE tag = ? ORDER BY created_at DESC, rowid DESC", (tag,)
        )
        return [r[0] for r in rows]

    # -- everything, for a backup -----------------------------------------------------

    def rows(self) -> dict[str, list[tuple[str, ...]]]:
        """Every kept row: states (id, state, updated_at), notes (id, note, updated_at) and
        tags (id, tag, created_at), in a stable order."""
        if not self._has_kept():
            return {"states": [], "notes": [], "tags": []}
        return {
            "states": [
                tuple(r)
                for r in self.conn.execute("SELECT paper_id, state, updated_at FROM paper_state ORDER BY 1")
            ],
            "notes": [
                tuple(r)
                for r in self.conn.execute("SELECT paper_id, note, updated_at FROM paper_notes ORDER BY 1")
            ],
            "tags": [
                tuple(r)
                for r in self.conn.execute("SELECT paper_id, tag, created_at FROM paper_tags ORDER BY 1, 2")
            ],
        }

    def add_tag_row(self, paper_id: str, tag: str, created_at: str | None = None) -> None:
        """One tag row as a backup holds it (the tag cleaned; kept if already there)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO paper_tags(paper_id, tag, created_at) "
            "VALUES (?, ?, coalesce(?, datetime('now')))",
            (paper_id, clean_tag(tag), created_at),
        )
