"""Named lists (a conference's accepted papers, a reading list) and their members, in
the order the list gave them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from paperatlas.store.connection import StorePart, has_index

# The orders of a list's page that an index serves (migration 11): the list order
# (list_members' position index), and the rating sort (list_rating: the members' paper_sort
# rating keys beside their positions), ties broken by list position and then the papers'
# rowid, as Store.papers.iter orders them. sort: (the members' source, its order keys).
LIST_ORDERS = {
    None: ("list_members m CROSS JOIN papers p ON p.id = m.paper_id AND m.list_name = ?", ("m.position",)),
    "rating": (
        "list_rating r CROSS JOIN list_members m ON m.rowid = r.rowid AND r.list_name = ? "
        "CROSS JOIN papers p ON p.id = m.paper_id",
        ("r.rating_key", "r.position"),
    ),
}


def has_list_keys(conn: sqlite3.Connection) -> bool:
    """Whether the store has the list order indexes (schema 11 on; a read-only older
    store does not, and sorts as it did)."""
    return has_index(conn, "list_rating_order")


def list_page_sql(columns: str, where: str, sort: str | None, paging: str) -> str:
    """A SELECT of one list's papers in the order of LIST_ORDERS[sort] (then p.rowid),
    walking the list's index (papers p and facts f joined by key). Its parameters: the
    list's name, those of `where` (papers' and facts' filters), then the paging's. With
    no filter, a page is chosen among the index's entries and the papers' rowids (from
    the id index: no paper row read; OFFSET skips index entries) and only its rows are
    read."""
    source, keys = LIST_ORDERS[sort]
    order = ", ".join([*keys, "p.rowid"])
    facts = "LEFT JOIN facts f ON f.paper_id = p.id"
    if where or not paging:
        return f"SELECT {columns} FROM {source} {facts}{where} ORDER BY {order}{paging}"
    named = ", ".join(f"{key} AS k{i}" for i, key in enumerate(keys))
    inner = f"SELECT p.rowid AS r, {named} FROM {source} ORDER BY {order}{paging}"
    outer = ", ".join([*(f"pg.k{i}" for i in range(len(keys))), "pg.r"])
    return (
        f"SELECT {columns} FROM ({inner}) pg CROSS JOIN papers p ON p.rowid = pg.r {facts} ORDER BY {outer}"
    )


class ListRows(StorePart):
    """The `lists` and `list_members` tables."""

    def ensure(self, name: str) -> None:
        """Create the list if it does not exist yet."""
        self.conn.execute("INSERT OR IGNORE INTO lists(name) VALUES (?)", (name,))

    def records(self, name: str) -> str | None:
        """The records pattern a list was read with (`add --records`), if one was named."""
        row = self.conn.execute("SELECT records FROM list_reading WHERE list_name = ?", (name,)).fetchone()
        return str(row[0]) if row else None

    def set_records(self, name: str, records: str) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO list_reading(list_name, records) VALUES (?, ?)", (name, records)
        )

    def members_state(self, name: str) -> str:
        """A short text that changes whenever the list gains or loses a member: its count
        and its newest membership's rowid (a paper removed and another added moves it)."""
        count, newest = self.conn.execute(
            "SELECT count(*), coalesce(max(rowid), 0) FROM list_members WHERE list_name = ?", (name,)
        ).fetchone()
        return f"{count}:{newest}"

    def file(self, name: str, path: str) -> dict[str, Any] | None:
        """How `path` was when it was last added to the list (size, mtime_ns, sha256,
        reading) and the list's members state after that add; None: never added."""
        row = self.conn.execute(
            "SELECT size, mtime_ns, sha256, reading, members FROM list_files WHERE list_name = ? AND path = ?",
            (name, path),
        ).fetchone()
        if row is None:
            return None
        return dict(zip(("size", "mtime_ns", "sha256", "reading", "members"), row, strict=True))

    def set_file(self, name: str, path: str, size: int, mtime_ns: int, sha256: str, reading: str) -> None:
        """Record the file just added to the list, and the list's members state now on
        every file of it (any add to a list changes what its other files would find)."""
        self.conn.execute(
            "INSERT OR REPLACE INTO list_files(list_name, path, size, mtime_ns, sha256, reading, members) "
            "VALUES (?, ?, ?, ?, ?, ?, '')",
            (name, path, size, mtime_ns, sha256, reading),
        )
        self.conn.execute(
            "UPDATE list_files SET members = ? WHERE list_name = ?", (self.members_state(name), name)
        )

    def add_member(self, list_name: str, paper_id: str, position: int | None = None) -> bool:
        """Put a paper in a list; False if it was already there."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO list_members(list_name, paper_id, position) VALUES (?, ?, ?)",
            (list_name, paper_id, position),
        )
        return cur.rowcount > 0

    def add_members(self, rows: Iterable[tuple[str, str, int]]) -> None:
        """(list name, paper id, position) rows; existing memberships are kept as they are."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO list_members(list_name, paper_id, position) VALUES (?, ?, ?)", rows
        )

    def next_position(self, list_name: str) -> int:
        """The position after the list's last member (0 for an empty list)."""
        row = self.conn.execute(
            "SELECT coalesce(max(position), -1) + 1 FROM list_members WHERE list_name = ?", (list_name,)
        ).fetchone()
        return int(row[0])

    def names(self) -> list[str]:
        """Every list, oldest first."""
        return [r[0] for r in self.conn.execute("SELECT name FROM lists ORDER BY created_at, name")]

    def containing(self, paper_id: str) -> list[str]:
        """The lists a paper is in, by name."""
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT list_name FROM list_members WHERE paper_id = ? ORDER BY list_name", (paper_id,)
            )
        ]

    def members_among(self, list_name: str, ids: Iterable[str]) -> set[str]:
        """Which of `ids` are already in the list."""
        return {
            r[0]
            for r in self._in_query(
                "SELECT paper_id FROM list_members WHERE list_name = ? AND paper_id IN "
                "(SELECT value FROM json_each(?))",
                ids,
                (list_name,),
            )
        }

    def kind_counts(self, list_name: str | None = None) -> tuple[dict[str, int], int]:
        """Papers by kind of contribution ('(unknown)': no facts or no kind) and how many
        link their code, for one list or the whole store: one aggregate query."""
        join, params = "", []
        if list_name is not None:
            join = "JOIN list_members m ON m.paper_id = p.id AND m.list_name = ?"
            params = [list_name]
        kinds: dict[str, int] = {}
        with_code = 0
        for kind, n, code in self.conn.execute(
            f"SELECT coalesce(nullif(f.kind, ''), '(unknown)') AS k, count(*), sum(coalesce(f.has_code, 0) != 0) "
            f"FROM papers p {join} LEFT JOIN facts f ON f.paper_id = p.id GROUP BY k ORDER BY count(*) DESC",
            params,
        ):
            kinds[kind] = n
            with_code += int(code or 0)
        return kinds, with_code

    def stats(self, list_name: str | None = None) -> dict[str, Any]:
        """Counts for one list (or the whole store): papers, with titles, by area, by decision."""
        join, params = "", []
        if list_name is not None:
            join = "JOIN list_members m ON m.paper_id = p.id AND m.list_name = ?"
            params = [list_name]
        total, titled = self.conn.execute(
            f"SELECT count(*), count(nullif(p.title, '')) FROM papers p {join}", params
        ).fetchone()
        by_area = dict(
            self.conn.execute(
                f"SELECT coalesce(p.area, f.predicted_area, '(unknown)') AS a, count(*) FROM papers p "
                f"{join} LEFT JOIN facts f ON f.paper_id = p.id GROUP BY a ORDER BY count(*) DESC",
                params,
            )
        )
        by_decision = dict(
            self.conn.execute(
                f"SELECT coalesce(p.decision, '(unknown)') AS d, count(*) FROM papers p {join} "
                "GROUP BY d ORDER BY count(*) DESC",
                params,
            )
        )
        return {"papers": total, "with_title": titled, "by_area": by_area, "by_decision": by_decision}
