"""Stored maps: one per (scope, model), scope a list name or '*' for the whole store;
its topics (broad and fine levels, labels, positions) and each paper's place on it,
replaced whole by each rebuild."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from paperatlas.store.connection import StoreBase


class MapRows(StoreBase):
    """The `maps`, `topics` and `paper_topics` tables."""

    def save_map(
        self,
        scope: str,
        model: str,
        signature: str,
        meta: dict[str, Any],
        topics: list[dict[str, Any]],
        assignments: Iterable[dict[str, Any]],
    ) -> None:
        """Replace the stored map of (scope, model) in one transaction.

        topics: dicts with level, topic_id, parent_id, label, size, x, y, data (dict).
        assignments: dicts with paper_id, x, y, broad, fine, outlier (any iterable: read once).
        """
        with self.transaction() as tx:
            for table in ("maps", "topics", "paper_topics"):
                tx.execute(f"DELETE FROM {table} WHERE scope = ? AND model = ?", (scope, model))
            tx.execute(
                "INSERT INTO maps(scope, model, signature, meta) VALUES (?, ?, ?, ?)",
                (scope, model, signature, json.dumps(meta, ensure_ascii=False)),
            )
            tx.executemany(
                "INSERT INTO topics(scope, model, level, topic_id, parent_id, label, size, x, y, data) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        scope,
                        model,
                        t["level"],
                        t["topic_id"],
                        t.get("parent_id"),
                        t["label"],
                        t["size"],
                        t.get("x"),
                        t.get("y"),
                        json.dumps(t.get("data", {}), ensure_ascii=False),
                    )
                    for t in topics
                ],
            )
            # a generator: the rows go to SQLite as they are made, never a list of all of them
            tx.executemany(
                "INSERT INTO paper_topics(scope, model, paper_id, x, y, broad, fine, outlier) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (
                        scope,
                        model,
                        a["paper_id"],
                        a["x"],
                        a["y"],
                        a["broad"],
                        a["fine"],
                        int(bool(a.get("outlier"))),
                    )
                    for a in assignments
                ),
            )

    def get_map(self, scope: str, model: str | None = None) -> dict[str, Any] | None:
        """The stored map for a scope (newest model if none named): meta, topics, assignments."""
        sql = "SELECT * FROM maps WHERE scope = ?"
        params: list[Any] = [scope]
        if model is not None:
            sql += " AND model = ?"
            params.append(model)
        row = self.conn.execute(sql + " ORDER BY created_at DESC LIMIT 1", params).fetchone()
        if row is None:
            return None
        scope, model = row["scope"], row["model"]
        topics = []
        for t in self.conn.execute(
            "SELECT * FROM topics WHERE scope = ? AND model = ? ORDER BY level, topic_id", (scope, model)
        ):
            d = dict(t)
            d["data"] = json.loads(d["data"])
            topics.append(d)
        assignments = [
            dict(a)
            for a in self.conn.execute(
                "SELECT paper_id, x, y, broad, fine, outlier FROM paper_topics WHERE scope = ? AND model = ?",
                (scope, model),
            )
        ]
        return {
            "scope": scope,
            "model": model,
            "signature": row["signature"],
            "meta": json.loads(row["meta"]),
            "created_at": row["created_at"],
            "topics": topics,
            "assignments": assignments,
        }
