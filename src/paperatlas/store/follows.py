"""What a person follows (saved searches, authors, map topics) and when they last looked
at each list: the `follows` and `list_seen` tables, and the papers' `added_at` times that
"new since" and the feeds read."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from paperatlas.store.connection import StorePart

FOLLOW_KINDS = ("search", "author", "topic")


def _follow(row: Any) -> dict[str, Any]:
    return {
        "id": int(row[0]),
        "kind": str(row[1]),
        "value": str(row[2]),
        "detail": json.loads(row[3]),
        "created_at": str(row[4]),
        "fed_at": None if row[5] is None else str(row[5]),
    }


_FOLLOW_COLUMNS = "id, kind, value, detail, created_at, fed_at"


class FollowRows(StorePart):
    """The `follows` and `list_seen` tables."""

    def add(self, kind: str, value: str, detail: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Follow something; (the follow, whether it is new). Following it again keeps the
        first one (and the time it was made)."""
        text = json.dumps(detail, sort_keys=True, ensure_ascii=False)
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO follows(kind, value, detail) VALUES (?, ?, ?)", (kind, value, text)
        )
        row = self.conn.execute(
            f"SELECT {_FOLLOW_COLUMNS} FROM follows WHERE kind = ? AND value = ? AND detail = ?",
            (kind, value, text),
        ).fetchone()
        return _follow(row), cur.rowcount > 0

    def rows(self) -> list[dict[str, Any]]:
        """Every follow, oldest first (an atlas older than the table has none)."""
        if not self._has_table("follows"):
            return []
        rows = self.conn.execute(f"SELECT {_FOLLOW_COLUMNS} FROM follows ORDER BY id")
        return [_follow(r) for r in rows]

    def remove(self, follow_id: int) -> bool:
        """Stop following; False if there was no such follow (a number outside SQLite's
        64-bit integers names none, and SQLite would refuse to bind it)."""
        if not -(2**63) <= follow_id < 2**63:
            return False
        return self.conn.execute("DELETE FROM follows WHERE id = ?", (follow_id,)).rowcount > 0

    def set_fed(self, follow_ids: Iterable[int]) -> None:
        """Record that a feed of these follows was written now."""
        self.conn.executemany(
            "UPDATE follows SET fed_at = datetime('now') WHERE id = ?", [(i,) for i in follow_ids]
        )

    def papers_added_since(self, since: str) -> list[tuple[str, list[str], str]]:
        """(id, authors, added_at) of the papers added at or after `since`, newest first."""
        rows = self.conn.execute(
            "SELECT id, authors, added_at FROM papers WHERE added_at >= ? ORDER BY added_at DESC, rowid DESC",
            (since,),
        )
        return [(r[0], json.loads(r[1] or "[]"), r[2]) for r in rows]

    def added_times(self, ids: Iterable[str]) -> dict[str, str]:
        """paper id -> when it was added to the atlas."""
        rows = self.conn.execute(
            "SELECT id, added_at FROM papers WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(ids)),),
        )
        return {r[0]: r[1] for r in rows}

    def topic_paper_ids(self, scope: str, level: int, topic_id: int) -> list[str]:
        """The papers of one topic of the newest map stored for `scope` ('*': all papers)."""
        column = "broad" if level == 0 else "fine"
        rows = self.conn.execute(
            f"SELECT paper_id FROM paper_topics WHERE scope = ? AND {column} = ? AND model = "
            "(SELECT model FROM maps WHERE scope = ? ORDER BY created_at DESC LIMIT 1)",
            (scope, topic_id, scope),
        )
        return [r[0] for r in rows]

    def topic_label(self, scope: str, level: int, topic_id: int) -> str | None:
        """The label of a topic of the newest map stored for `scope` (None: no such topic)."""
        row = self.conn.execute(
            "SELECT label FROM topics WHERE scope = ? AND level = ? AND topic_id = ? AND model = "
            "(SELECT model FROM maps WHERE scope = ? ORDER BY created_at DESC LIMIT 1)",
            (scope, level, topic_id, scope),
        ).fetchone()
        return None if row is None else str(row[0])

    def topic_by_label(self, scope: str, level: int, label: str) -> int | None:
        """The id of the topic so labelled on the newest map stored for `scope` (None: no such topic)."""
        row = self.conn.execute(
            "SELECT topic_id FROM topics WHERE scope = ? AND level = ? AND label = ? AND model = "
            "(SELECT model FROM maps WHERE scope = ? ORDER BY created_at DESC LIMIT 1) ORDER BY size DESC LIMIT 1",
            (scope, level, label, scope),
        ).fetchone()
        return None if row is None else int(row[0])

    def list_seen(self) -> dict[str, str]:
        """list name -> the newest paper time the person has seen in it."""
        if not self._has_table("list_seen"):
            return {}
        return {r[0]: r[1] for r in self.conn.execute("SELECT list_name, seen_upto FROM list_seen")}

    def mark_list_seen(self, list_name: str) -> str | None:
        """Everything now in the list counts as seen; the time seen up to (None: empty list)."""
        row = self.conn.execute(
            "SELECT max(p.added_at) FROM list_members m JOIN papers p ON p.id = m.paper_id "
            "WHERE m.list_name = ?",
            (list_name,),
        ).fetchone()
        if row[0] is None:
            return None
        self.conn.execute(
            "INSERT OR REPLACE INTO list_seen(list_name, seen_upto) VALUES (?, ?)", (list_name, row[0])
        )
        return str(row[0])

    def list_new_ids(self, list_name: str, after: str | None) -> list[str]:
        """The list's papers added after `after` (None: all of them), newest first, then in
        list order."""
        rows = self.conn.execute(
            "SELECT p.id FROM list_members m JOIN papers p ON p.id = m.paper_id "
            "WHERE m.list_name = ? AND p.added_at > ? ORDER BY p.added_at DESC, m.position, p.rowid",
            (list_name, after or ""),
        )
        return [r[0] for r in rows]

    def data(self) -> dict[str, list[dict[str, Any]]]:
        """The person's follows and "last seen" times as plain rows (the personal-data
        file's sections; `put_data` stores them, checked, back)."""
        seen = [{"list": name, "seen_upto": upto} for name, upto in sorted(self.list_seen().items())]
        return {"follows": self.rows(), "list_seen": seen}

    def put_data(
        self,
        follows: Iterable[tuple[str, str, str, str | None, str | None]],
        seen: Iterable[tuple[str, str]],
    ) -> tuple[int, int]:
        """Store checked rows of an import of personal data (store.personal_file checks
        them): (kind, value, detail JSON, created_at or None for now, fed_at) and (list,
        seen up to). A follow already here is kept as it is; a list's "last seen" becomes
        the later of the two. Returns (follows added, "last seen" times moved)."""
        added = moved = 0
        for kind, value, detail, created_at, fed_at in follows:
            added += self.conn.execute(
                "INSERT OR IGNORE INTO follows(kind, value, detail, created_at, fed_at) "
                "VALUES (?, ?, ?, coalesce(?, datetime('now')), ?)",
                (kind, value, detail, created_at, fed_at),
            ).rowcount
        for list_name, seen_upto in seen:
            moved += self.conn.execute(
                "INSERT INTO list_seen(list_name, seen_upto) VALUES (?, ?) ON CONFLICT(list_name) "
                "DO UPDATE SET seen_upto = excluded.seen_upto WHERE excluded.seen_upto > seen_upto",
                (list_name, seen_upto),
            ).rowcount
        return added, moved
