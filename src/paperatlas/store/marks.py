"""User marks: likes (+1) and dislikes (-1) per named collection ('likes' is the
default one)."""

from __future__ import annotations

from paperatlas.store.connection import StorePart


class MarkRows(StorePart):
    """The `marks` table."""

    def set(self, collection: str, paper_id: str, value: int) -> None:
        """Mark a paper in a collection: +1 liked, -1 disliked (replaces an earlier mark)."""
        self.conn.execute(
            "INSERT OR REPLACE INTO marks(collection, paper_id, value) VALUES (?, ?, ?)",
            (collection, paper_id, value),
        )

    def remove(self, collection: str, paper_id: str) -> bool:
        """Take a paper's mark out of a collection; False if it had none."""
        cur = self.conn.execute(
            "DELETE FROM marks WHERE collection = ? AND paper_id = ?", (collection, paper_id)
        )
        return cur.rowcount > 0

    def rows(self, collection: str | None = None) -> list[tuple[str, str, int]]:
        """(collection, paper id, value) rows, oldest first."""
        if collection is None:
            rows = self.conn.execute(
                "SELECT collection, paper_id, value FROM marks ORDER BY created_at, rowid"
            )
        else:
            rows = self.conn.execute(
                "SELECT collection, paper_id, value FROM marks WHERE collection = ? "
                "ORDER BY created_at, rowid",
                (collection,),
            )
        return [(r[0], r[1], r[2]) for r in rows]

    def collections(self) -> dict[str, int]:
        """collection -> how many papers it likes (collections with only dislikes left out)."""
        return dict(
            self.conn.execute("SELECT collection, count(*) FROM marks WHERE value > 0 GROUP BY collection")
        )
