"""Stored maps: one per (scope, model), scope a list name or '*' for the whole store;
its topics (broad and fine levels, labels, positions) and each paper's place on it,
replaced whole by each rebuild."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from paperatlas.store.connection import StorePart


class MapRows(StorePart):
    """The `maps`, `topics` and `paper_topics` tables."""

    def save(
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
        with self._store.transaction() as tx:
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

    def get(self, scope: str, model: str | None = None) -> dict[str, Any] | None:
        """The stored map for a scope (newest model if none named): meta, topics, assignments."""
        row = self._newest_map("*", scope, model)
        if row is None:
            return None
        scope, model = row["scope"], row["model"]
        topics = self._map_topics(scope, model)
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

    def paper_texts(self, ids: Iterable[str]) -> dict[str, tuple[str | None, str, str | None, Any]]:
        """paper id -> (title, abstract, area, the facts' predicted area label or None), for
        the stored papers among `ids`: what a map reads of every paper (the text's length,
        the area), without decoding the papers' JSON columns and facts records."""
        return {
            r[0]: (r[1], r[2], r[3], r[4])
            for r in self.conn.execute(
                "SELECT p.id, p.title, p.abstract, p.area, json_extract(f.data, '$.predicted_area.label') "
                "FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
                "WHERE p.id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    # -- reading a big map without holding every paper's row as a dict (the web map at 1M) -------
    def header(self, scope: str, model: str | None = None) -> dict[str, Any] | None:
        """A stored map as `get` returns it, without `assignments` (its paper count is
        `papers`) and without the meta's per-paper `confidence` (SQLite drops it: at 1M
        papers it is ~30 MB of JSON)."""
        columns = "scope, model, signature, json_remove(meta, '$.confidence'), created_at"
        row = self._newest_map(columns, scope, model)
        if row is None:
            return None
        scope, model = row[0], row[1]
        topics = self._map_topics(scope, model)
        (papers,) = self.conn.execute(
            "SELECT count(*) FROM paper_topics WHERE scope = ? AND model = ?", (scope, model)
        ).fetchone()
        return {
            "scope": scope,
            "model": model,
            "signature": row[2],
            "meta": json.loads(row[3]),
            "created_at": row[4],
            "topics": topics,
            "papers": papers,
        }

    def _newest_map(self, columns: str, scope: str, model: str | None) -> sqlite3.Row | None:
        """The newest stored map's row for a scope (of `model` when named), or None."""
        sql = f"SELECT {columns} FROM maps WHERE scope = ?"
        params: list[Any] = [scope]
        if model is not None:
            sql += " AND model = ?"
            params.append(model)
        row: sqlite3.Row | None = self.conn.execute(
            sql + " ORDER BY created_at DESC LIMIT 1", params
        ).fetchone()
        return row

    def _map_topics(self, scope: str, model: str) -> list[dict[str, Any]]:
        """A stored map's topics, broad then fine, each with its `data` decoded."""
        topics = []
        for t in self.conn.execute(
            "SELECT * FROM topics WHERE scope = ? AND model = ? ORDER BY level, topic_id", (scope, model)
        ):
            d = dict(t)
            d["data"] = json.loads(d["data"])
            topics.append(d)
        return topics

    def point_pages(
        self, scope: str, model: str, layer_scope: str | None = None, page: int = 50_000
    ) -> Iterator[list[tuple[Any, ...]]]:
        """Every paper's place on a stored map, `page` rows at a time: (rowid, paper_id, x,
        y, broad, fine, outlier, layer broad, layer fine), the layer's topics -1 where the
        paper is not on the map of `layer_scope` (or none is named)."""
        cursor = self.conn.execute(
            "SELECT a.rowid, a.paper_id, a.x, a.y, a.broad, a.fine, a.outlier, "
            "coalesce(b.broad, -1), coalesce(b.fine, -1) FROM paper_topics a "
            "LEFT JOIN paper_topics b ON b.scope = ? AND b.model = a.model AND b.paper_id = a.paper_id "
            "WHERE a.scope = ? AND a.model = ?",
            (layer_scope, scope, model),
        )
        while rows := cursor.fetchmany(page):
            yield rows

    def point_rows(self, scope: str, model: str, rowids: list[int]) -> dict[int, tuple[Any, ...]]:
        """What a drawn point shows, for the paper_topics rows of one map: rowid ->
        (paper id, title, display title, name, the abstract's start when there is no title)."""
        return {
            r[0]: r[1:]
            for r in self.conn.execute(
                "SELECT pt.rowid, p.id, p.title, f.display_title, f.name, "
                "CASE WHEN coalesce(p.title, '') = '' THEN substr(p.abstract, 1, 400) END "
                # CROSS JOIN: the rows by rowid, one lookup each (the planner would otherwise
                # scan the whole map's rows by its (scope, model) key: seconds at 1M papers)
                "FROM json_each(?) j CROSS JOIN paper_topics pt ON pt.rowid = j.value "
                "JOIN papers p ON p.id = pt.paper_id LEFT JOIN facts f ON f.paper_id = p.id "
                "WHERE pt.scope = ? AND pt.model = ?",
                (json.dumps(rowids), scope, model),
            )
        }

    def places(self, scope: str, model: str, ids: Iterable[str]) -> dict[str, tuple[int, int, int]]:
        """paper id -> (broad, fine, outlier) on one stored map, for the ids on it."""
        return {
            r[0]: (r[1], r[2], r[3])
            for r in self.conn.execute(
                "SELECT paper_id, broad, fine, outlier FROM paper_topics "
                "WHERE scope = ? AND model = ? AND paper_id IN (SELECT value FROM json_each(?))",
                (scope, model, json.dumps(list(ids))),
            )
        }

    def paper_ids(self, rowids: list[int]) -> list[str]:
        """The paper ids of paper_topics rows, in the order of `rowids`."""
        found = dict(
            self.conn.execute(
                "SELECT rowid, paper_id FROM paper_topics WHERE rowid IN (SELECT value FROM json_each(?))",
                (json.dumps(rowids),),
            )
        )
        return [found[r] for r in rowids if r in found]

    def title_matches(self, scope: str, model: str, match: str, limit: int) -> list[int]:
        """The `paper_topics` rows of one map whose papers' titles match an FTS5 MATCH
        expression (the caller builds a safe one), at most `limit`, in the index's order."""
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT t.rowid FROM papers_fts f CROSS JOIN papers p ON p.rowid = f.rowid "
                "CROSS JOIN paper_topics t ON t.scope = ? AND t.model = ? AND t.paper_id = p.id "
                "WHERE papers_fts MATCH ? LIMIT ?",
                (scope, model, match, limit),
            )
        ]
