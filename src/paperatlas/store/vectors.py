"""Embedding vectors (float32, one row per paper and model, with the hash of the text
they were computed from) and the fitted embedding models that live with the corpus."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from paperatlas.store.connection import StorePart
from paperatlas.store.generation import vector_changes


class VectorRows(StorePart):
    """The `embeddings` and `embed_models` tables."""

    def put(self, model: str, ids: list[str], vectors: npt.ArrayLike, text_hashes: list[str]) -> None:
        """Store (or replace) the vectors of `ids` for `model`, row i for ids[i]."""
        matrix = np.ascontiguousarray(vectors, dtype=np.float32)
        self.conn.executemany(
            "INSERT OR REPLACE INTO embeddings(paper_id, model, dim, vector, text_hash) "
            "VALUES (?, ?, ?, ?, ?)",
            [(pid, model, matrix.shape[1], matrix[i].tobytes(), text_hashes[i]) for i, pid in enumerate(ids)],
        )

    def state(self, model: str) -> dict[str, str]:
        """paper id -> text_hash of the stored vector for `model`."""
        return dict(self.conn.execute("SELECT paper_id, text_hash FROM embeddings WHERE model = ?", (model,)))

    def inputs_page(
        self, model: str, after: int = 0, limit: int = 1000
    ) -> list[tuple[int, str, str | None, str, str | None]]:
        """One page of the papers after rowid `after`, in rowid order, as (rowid, id, title,
        abstract, text_hash of the stored vector for `model` or None). Paging by rowid (not
        OFFSET) costs one seek a page, so a reader of a million papers holds one page."""
        return self.conn.execute(
            "SELECT p.rowid, p.id, p.title, p.abstract, e.text_hash FROM papers p "
            "LEFT JOIN embeddings e ON e.model = ? AND e.paper_id = p.id "
            "WHERE p.rowid > ? ORDER BY p.rowid LIMIT ?",
            (model, after, limit),
        ).fetchall()

    def get(self, model: str, ids: Iterable[str] | None = None) -> tuple[list[str], npt.NDArray[np.float32]]:
        """(ids, float32 matrix [n, d]) of the stored vectors for `model`, in rowid order of
        papers (or in the order of `ids`, leaving out papers without a vector)."""
        if ids is None:
            rows = self.conn.execute(
                "SELECT e.paper_id, e.vector, e.dim FROM embeddings e JOIN papers p "
                "ON p.id = e.paper_id WHERE e.model = ? ORDER BY p.rowid",
                (model,),
            ).fetchall()
        else:
            wanted = list(ids)
            got = {
                r[0]: r
                for r in self.conn.execute(
                    "SELECT paper_id, vector, dim FROM embeddings WHERE model = ? AND paper_id IN "
                    "(SELECT value FROM json_each(?))",
                    (model, json.dumps(wanted)),
                )
            }
            rows = [got[i] for i in wanted if i in got]
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        dim = rows[0][2]
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
        return [r[0] for r in rows], matrix

    def dim(self, model: str) -> int:
        """The dimension of `model`'s stored vectors (0: none stored)."""
        row = self.conn.execute("SELECT dim FROM embeddings WHERE model = ? LIMIT 1", (model,)).fetchone()
        return int(row[0]) if row else 0

    def models(self) -> list[str]:
        """The models that have stored vectors."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT model FROM embeddings")]

    def count(self, model: str | None) -> int:
        """How many vectors of `model` are stored."""
        row = self.conn.execute("SELECT count(*) FROM embeddings WHERE model = ?", (model,)).fetchone()
        return int(row[0])

    def signature(self, model: str) -> tuple[int, int]:
        """(count, max rowid) of the stored vectors of `model`: changes whenever they do
        (INSERT OR REPLACE gives a replaced vector a new rowid; deletes lower the count)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(max(rowid), 0) FROM embeddings WHERE model = ?", (model,)
        ).fetchone()
        return (int(row[0]), int(row[1]))

    def version(self, model: str) -> Hashable:
        """A value that changes whenever `model`'s stored vectors do, for caches of what is
        derived from them: their change count (migration 10), one indexed row, where
        `signature` counts every vector of the model (read after each commit);
        the signature itself on a store that keeps no count."""
        changes = vector_changes(self, model)
        return ("changes", changes) if changes is not None else self.signature(model)

    def models_version(self) -> Hashable:
        """A value that changes whenever any model's stored vectors do (so whenever
        `models` may): every model's change count, a few rows; on a store that
        keeps none, a new object at each call (equal to nothing: read them again)."""
        try:
            rows = self.conn.execute(
                "SELECT name, changes FROM change_counts WHERE name >= 'vectors ' AND name < 'vectors!'"
            ).fetchall()
        except sqlite3.OperationalError:  # no such table: schema 9 or older, read-only
            return object()
        return tuple((str(name), int(changes)) for name, changes in rows)

    def delete(self, model: str) -> int:
        """Drop every stored vector of `model` (its space changed, e.g. lsa was refit)."""
        return self.conn.execute("DELETE FROM embeddings WHERE model = ?", (model,)).rowcount

    def put_model(self, name: str, data: bytes, meta: dict[str, Any] | None = None) -> None:
        """Store a fitted embedding model (e.g. lsa's vocabulary and SVD) with the corpus."""
        self.conn.execute(
            "INSERT OR REPLACE INTO embed_models(name, data, meta) VALUES (?, ?, ?)",
            (name, data, json.dumps(meta or {}, ensure_ascii=False)),
        )

    def model_meta(self, name: str) -> dict[str, Any] | None:
        """What put_model stored beside a model (not the model itself), None if none:
        from the triggers' copy (migration 18), not from behind the model's blob, on an
        atlas that has it."""
        table = "embed_model_meta" if self._has_meta_copy() else "embed_models"
        row = self.conn.execute(f"SELECT meta FROM {table} WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0] or "{}") if row else None

    def _has_meta_copy(self) -> bool:
        """Whether the atlas has `embed_model_meta` (not a read-only atlas older than 18)."""
        return self._has_table("embed_model_meta")

    def get_model(self, name: str) -> bytes | None:
        """A fitted embedding model stored with put_model, None if there is none."""
        row = self.conn.execute("SELECT data FROM embed_models WHERE name = ?", (name,)).fetchone()
        return bytes(row[0]) if row else None
