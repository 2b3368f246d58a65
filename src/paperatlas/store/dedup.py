"""What ingest's dedup finds a stored twin by: hashes of normalised abstracts, MinHash
signatures, and identifiers (arXiv id, DOI, OpenReview id, title hash). Reads and
writes go a batch at a time (one query per batch, not per paper)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

import numpy as np

from paperatlas.store.connection import StorePart


class DedupRows(StorePart):
    """The `paper_hashes`, `paper_minhash` and `paper_identifiers` tables."""

    def add_hashes(self, rows: Iterable[tuple[str, str]]) -> None:
        """(hash, paper id) rows; a hash already known keeps its paper."""
        self.conn.executemany("INSERT OR IGNORE INTO paper_hashes(hash, paper_id) VALUES (?, ?)", rows)

    def papers_for_hashes(self, hashes: Iterable[str]) -> dict[str, str]:
        """hash -> paper id, for the hashes that are known."""
        return {
            r[0]: r[1]
            for r in self._in_query(
                "SELECT hash, paper_id FROM paper_hashes WHERE hash IN (SELECT value FROM json_each(?))",
                hashes,
            )
        }

    def set_minhashes(self, rows: Iterable[tuple[str, int, np.ndarray]]) -> None:
        """(paper id, variant, uint64 signature) rows; a variant stored before is replaced."""
        self.conn.executemany(
            "INSERT OR REPLACE INTO paper_minhash(paper_id, variant, signature) VALUES (?, ?, ?)",
            [(pid, variant, np.asarray(sig, dtype=np.uint64).tobytes()) for pid, variant, sig in rows],
        )

    def iter_minhashes(self) -> Iterator[tuple[str, int, np.ndarray]]:
        """(paper id, variant, uint64 signature) of every stored signature."""
        for pid, variant, blob in self.conn.execute("SELECT paper_id, variant, signature FROM paper_minhash"):
            yield pid, variant, np.frombuffer(blob, dtype=np.uint64)

    def count_minhashes(self) -> int:
        """How many signatures are stored."""
        return int(self.conn.execute("SELECT count(*) FROM paper_minhash").fetchone()[0])

    def add_identifiers(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """(kind, value, paper id) rows; an identifier already known keeps its paper."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO paper_identifiers(kind, value, paper_id) VALUES (?, ?, ?)", rows
        )

    def papers_for_identifiers(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """(kind, value) -> paper id, for the identifiers that are known (migration 4)."""
        keys = list(keys)
        if not keys:
            return {}
        rows = self.conn.execute(
            "SELECT i.kind, i.value, i.paper_id FROM paper_identifiers i JOIN json_each(?) j "
            "ON i.kind = json_extract(j.value, '$[0]') AND i.value = json_extract(j.value, '$[1]')",
            (json.dumps(keys),),
        )
        return {(r[0], r[1]): r[2] for r in rows}

    def has_identifiers(self, kind: str) -> bool:
        """Whether any paper has an identifier of this kind."""
        row = self.conn.execute("SELECT 1 FROM paper_identifiers WHERE kind = ? LIMIT 1", (kind,)).fetchone()
        return row is not None
