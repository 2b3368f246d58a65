"""The full-text index (FTS5 over title, abstract and keywords): ranked matches, and
the raw postings search/keyword.py scores outside SQLite, plus bulk indexing for big
imports. The vocabulary views are per-connection temp tables: reading them writes
nothing to the atlas."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from paperatlas.store.connection import StorePart

FTS_WEIGHTS = (3.0, 1.0, 2.0)  # bm25 weight of title, abstract, keywords (papers_fts columns)
FTS_COLUMNS = ("title", "abstract", "keywords")
_BM25 = "bm25(papers_fts, " + ", ".join(str(w) for w in FTS_WEIGHTS) + ")"
_COLUMN_WEIGHT_SQL = (
    "CASE col " + " ".join(f"WHEN '{c}' THEN {w}" for c, w in zip(FTS_COLUMNS, FTS_WEIGHTS)) + " ELSE 1.0 END"
)
# A filtered full-text search first ranks this many times `limit` matches unfiltered and
# keeps the allowed ones (fast for common filters); rare filters fall back to SQL.
FTS_FILTER_DEPTH = 5
FTS_FILTER_MIN_DEPTH = 1000


class FullText(StorePart):
    """The `papers_fts` index and its vocabulary."""

    def search(
        self, match: str, limit: int = 100, within: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """(paper id, bm25 score; higher is better) for an FTS5 MATCH expression,
        optionally only among the papers `within`.

        The caller builds a safe expression (search quotes user terms); a malformed
        expression raises sqlite3.OperationalError.
        """
        if within is None:
            return self._fts_ranked(match, limit)
        # Filtered: the best matches overall usually include enough allowed ones. Taking
        # them in rank order is exact when `limit` are found, or when the index ran out of
        # matches; otherwise the full filtered query decides.
        within = within if isinstance(within, (set, frozenset)) else set(within)
        depth = max(limit * FTS_FILTER_DEPTH, FTS_FILTER_MIN_DEPTH)
        ranked = self._fts_ranked(match, depth)
        kept = [r for r in ranked if r[0] in within][:limit]
        if len(kept) >= limit or len(ranked) < depth:
            return kept
        rows = self.conn.execute(
            f"SELECT p.id, -{_BM25} FROM papers_fts "
            "JOIN papers p ON p.rowid = papers_fts.rowid WHERE papers_fts MATCH ? "
            "AND p.id IN (SELECT value FROM json_each(?)) "
            f"ORDER BY {_BM25} LIMIT ?",
            (match, json.dumps(list(within)), limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def _fts_ranked(self, match: str, limit: int) -> list[tuple[str, float]]:
        # rank inside the index, join only the `limit` best (~40% faster than joining all)
        rows = self.conn.execute(
            f"SELECT p.id, f.score FROM (SELECT rowid, -{_BM25} AS score FROM papers_fts "
            f"WHERE papers_fts MATCH ? ORDER BY {_BM25} LIMIT ?) f "
            "JOIN papers p ON p.rowid = f.rowid ORDER BY f.score DESC",
            (match, limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def scores(self, match: str) -> list[tuple[int, float]]:
        """(rowid, bm25 score; higher is better) of every row matching `match`, unsorted:
        the part of a ranking that search/keyword.py leaves to FTS5 (exact phrases)."""
        return self.conn.execute(
            f"SELECT rowid, -{_BM25} FROM papers_fts WHERE papers_fts MATCH ?", (match,)
        ).fetchall()

    def postings(self, token: str) -> list[tuple[int, float]]:
        """(rowid, occurrences weighted by column as bm25 weighs them) of one index token
        (already stemmed, as `tokens` gives it), for BM25 scoring outside SQLite."""
        self._fts_vocab_tables()
        return self.conn.execute(
            f"SELECT doc, sum({_COLUMN_WEIGHT_SQL}) FROM temp.papers_fts_instances "
            "WHERE term = ? GROUP BY doc",
            (token,),
        ).fetchall()

    def token_postings(self, tokens: Iterable[str]) -> Iterator[tuple[str, str, str]]:
        """(token, rowids, weighted occurrences) of each of `tokens` the index holds, the
        two lists as comma-separated text (reading millions of postings costs SQLite's
        time, not millions of Python tuples). One lookup a token: grouping every token's
        occurrences in one query would sort them all (~250M rows at a million papers)."""
        self._fts_vocab_tables()
        for token in tokens:
            row = self.conn.execute(
                "SELECT group_concat(doc), group_concat(f) FROM (SELECT doc, "
                f"sum({_COLUMN_WEIGHT_SQL}) AS f FROM temp.papers_fts_instances "
                "WHERE term = ? GROUP BY doc)",
                (token,),
            ).fetchone()
            if row is not None and row[0] is not None:
                yield token, row[0], row[1]

    def token_counts(self) -> list[tuple[str, int]]:
        """(token, rows holding it) of every index token: the length of each postings list."""
        self._fts_vocab_tables()
        return self.conn.execute("SELECT term, doc FROM temp.papers_fts_vocab").fetchall()

    def doc_sizes(self) -> list[tuple[int, bytes]]:
        """(rowid, FTS5 docsize record: one varint token count per column) of every row,
        as plain tuples (a million sqlite3.Row objects would cost a second)."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute("SELECT id, sz FROM papers_fts_docsize").fetchall()

    def version(self) -> bytes:
        """FTS5's averages and structure records, rewritten by every change to the index:
        equal bytes mean the same indexed text (for caches of postings outside SQLite)."""
        rows = self.conn.execute(
            "SELECT block FROM papers_fts_data WHERE id IN (1, 10) ORDER BY id"
        ).fetchall()  # row counts; segments
        return b"|".join(bytes(r[0]) for r in rows)

    def rowids_to_ids(self, rowids: Iterable[int]) -> dict[int, str]:
        """Paper id of each index rowid (the index speaks rowids)."""
        rowids = [int(r) for r in rowids]
        if not rowids:
            return {}
        return dict(
            self.conn.execute(
                "SELECT rowid, id FROM papers WHERE rowid IN (SELECT value FROM json_each(?))",
                (json.dumps(rowids),),
            )
        )

    def row_ids(self) -> list[tuple[int, str]]:
        """(rowid, paper id) of every paper, in no particular order, as plain tuples: read
        from the id index (rowid and id only, ~40 bytes a paper), not the papers' records."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute("SELECT rowid, id FROM papers").fetchall()

    def _fts_vocab_tables(self) -> None:
        """Per-connection temp views of the index's vocabulary (nothing is written to the
        atlas): per-token document counts, per-occurrence rows, and a probe table that
        tokenises words exactly as the index does."""
        if getattr(self._store._local, "vocab_ready", False):
            return
        conn = self.conn
        before = conn.total_changes  # creating a temp fts5 table writes its config rows
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.papers_fts_vocab "
            "USING fts5vocab(main, papers_fts, 'row')"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.papers_fts_instances "
            "USING fts5vocab(main, papers_fts, 'instance')"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_probe "
            "USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_probe_vocab "
            "USING fts5vocab(temp, fts_probe, 'instance')"
        )
        self._store._scratch(conn.total_changes - before)
        self._store._local.vocab_ready = True

    def tokens(self, words: Iterable[str]) -> dict[str, list[str]]:
        """word -> the index tokens it becomes (Porter stems; usually one, none for a word
        the tokenizer drops). Uses per-connection temp tables: nothing is written."""
        words = list(dict.fromkeys(words))
        if not words:
            return {}
        self._fts_vocab_tables()
        conn = self.conn
        before = conn.total_changes
        conn.execute("DELETE FROM temp.fts_probe")
        conn.executemany("INSERT INTO temp.fts_probe(rowid, w) VALUES (?, ?)", list(enumerate(words)))
        self._store._scratch(conn.total_changes - before)
        tokens: dict[int, list[tuple[int, str]]] = {}
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM temp.fts_probe_vocab"):
            tokens.setdefault(doc, []).append((offset, term))
        return {word: [t for _, t in sorted(tokens.get(i, []))] for i, word in enumerate(words)}

    def doc_freq(self, words: Iterable[str]) -> dict[str, int]:
        """word -> number of papers whose index holds it, after the index's own stemming
        (search drops terms most papers contain: BM25 gives them next to no weight, and
        they make a query slow)."""
        out = {}
        for word, tokens in self.tokens(words).items():
            counts = [
                (
                    self.conn.execute("SELECT doc FROM temp.papers_fts_vocab WHERE term = ?", (t,)).fetchone()
                    or (0,)
                )[0]
                for t in tokens
            ]
            out[word] = min(counts) if counts else 0
        return out

    @contextmanager
    def bulk(self) -> Iterator[Callable[[], None]]:
        """Inside a transaction: index inserted papers in bulk, not row by row.

        The insert trigger is dropped for the duration (the DROP is part of the caller's
        transaction, so a rollback brings it back) and the yielded `flush()` indexes every
        paper inserted since the last flush with one INSERT ... SELECT — about twice as
        fast for a big import. Call flush() before updating a paper inserted since the
        last flush (the update trigger expects it indexed); it also runs at the end.
        """
        conn = self.conn
        if not conn.in_transaction:
            raise RuntimeError("store.fts.bulk() needs an open transaction")
        row = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'papers_ai'"
        ).fetchone()
        if row is None:
            yield lambda: None
            return
        columns = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(papers_fts)"))
        last = conn.execute("SELECT coalesce(max(rowid), 0) FROM papers").fetchone()[0]
        conn.execute("DROP TRIGGER papers_ai")

        def flush() -> None:
            nonlocal last
            conn.execute(
                f"INSERT INTO papers_fts(rowid, {columns}) "
                f"SELECT rowid, {columns} FROM papers WHERE rowid > ?",
                (last,),
            )
            last = conn.execute("SELECT coalesce(max(rowid), 0) FROM papers").fetchone()[0]

        yield flush
        flush()
        conn.execute(row[0])
