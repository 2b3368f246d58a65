"""The store: the only module that speaks SQL.

SQLite in WAL mode (readers keep answering while an import writes), schema versioned by
numbered migrations, FTS5 over title/abstract/keywords, and side tables for what later
stages compute per paper: facts (enrich/), vectors (embed), topics (atlas) and user
marks (likes, collections). Every multi-row write goes through `transaction()`, so an
interrupted import leaves the atlas as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.errors import StoreError
from paperatlas.store.file import APPLICATION_ID, can_write, connect_read_only, inspect_file
from paperatlas.store.generation import StoreGeneration

DEFAULT_DB = Path(".paperatlas") / "atlas.db"
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

# Columns of `papers` that hold JSON lists/dicts.
_JSON_COLUMNS = ("authors", "keywords", "urls", "extra", "identifiers", "code_urls")
_JSON_EMPTY = {"extra": "{}", "identifiers": "{}"}  # the others default to '[]'
PAPER_COLUMNS = (
    "id",
    "title",
    "abstract",
    "authors",
    "keywords",
    "venue",
    "year",
    "area",
    "decision",
    "rating",
    "urls",
    "source",
    "extra",
    "identifiers",
    "code_urls",
    "section",
    "date",  # migration 4
)

MIGRATIONS: list[str] = [
    # 1: papers, lists, membership, full-text index, dedup fingerprints
    """
    CREATE TABLE papers (
        id TEXT PRIMARY KEY,
        title TEXT,
        abstract TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]',
        keywords TEXT NOT NULL DEFAULT '[]',
        venue TEXT,
        year INTEGER,
        area TEXT,
        decision TEXT,
        rating REAL,
        urls TEXT NOT NULL DEFAULT '[]',
        source TEXT,
        extra TEXT NOT NULL DEFAULT '{}',
        added_at TEXT NOT NULL DEFAULT (datetime('now')),
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE INDEX papers_area ON papers(area);
    CREATE INDEX papers_decision ON papers(decision);

    CREATE TABLE lists (
        name TEXT PRIMARY KEY,
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE list_members (
        list_name TEXT NOT NULL REFERENCES lists(name) ON DELETE CASCADE,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        position INTEGER,
        PRIMARY KEY (list_name, paper_id)
    );
    CREATE INDEX list_members_paper ON list_members(paper_id);

    -- Normalised-text hashes of every abstract version a paper is known by
    -- (submitted and camera-ready), for exact dedup.
    CREATE TABLE paper_hashes (
        hash TEXT PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE
    );
    CREATE INDEX paper_hashes_paper ON paper_hashes(paper_id);
    -- MinHash signatures (uint64 blobs) for near-duplicate detection.
    CREATE TABLE paper_minhash (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        variant INTEGER NOT NULL DEFAULT 0,
        signature BLOB NOT NULL,
        PRIMARY KEY (paper_id, variant)
    );

    CREATE VIRTUAL TABLE papers_fts USING fts5(
        title, abstract, keywords,
        content='papers', content_rowid='rowid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER papers_ai AFTER INSERT ON papers BEGIN
        INSERT INTO papers_fts(rowid, title, abstract, keywords)
        VALUES (new.rowid, new.title, new.abstract, new.keywords);
    END;
    CREATE TRIGGER papers_ad AFTER DELETE ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, abstract, keywords)
        VALUES ('delete', old.rowid, old.title, old.abstract, old.keywords);
    END;
    CREATE TRIGGER papers_au AFTER UPDATE OF title, abstract, keywords ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, abstract, keywords)
        VALUES ('delete', old.rowid, old.title, old.abstract, old.keywords);
        INSERT INTO papers_fts(rowid, title, abstract, keywords)
        VALUES (new.rowid, new.title, new.abstract, new.keywords);
    END;
    """,
    # 2: per-paper facts from enrich/ (plus the columns filters need), vectors, topics, marks
    """
    CREATE TABLE facts (
        paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
        name TEXT,
        kind TEXT,
        has_code INTEGER NOT NULL DEFAULT 0,
        display_title TEXT,
        predicted_area TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        text_hash TEXT NOT NULL,
        version TEXT NOT NULL,
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE INDEX facts_kind ON facts(kind);

    CREATE TABLE embeddings (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        text_hash TEXT NOT NULL,
        PRIMARY KEY (model, paper_id)
    );

    -- One stored map per (scope, model); scope is a list name or '*' for the whole store.
    CREATE TABLE maps (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        signature TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (scope, model)
    );
    CREATE TABLE topics (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        level INTEGER NOT NULL,          -- 0 = broad, 1 = fine
        topic_id INTEGER NOT NULL,
        parent_id INTEGER,
        label TEXT NOT NULL,
        size INTEGER NOT NULL,
        x REAL, y REAL,
        data TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (scope, model, level, topic_id)
    );
    CREATE TABLE paper_topics (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        x REAL NOT NULL, y REAL NOT NULL,
        broad INTEGER NOT NULL,
        fine INTEGER NOT NULL,
        outlier INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, model, paper_id)
    );

    -- Likes (+1) and dislikes (-1) per named collection; 'likes' is the default.
    CREATE TABLE marks (
        collection TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        value INTEGER NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (collection, paper_id)
    );
    """,
    # 3 (embed): fitted embedding models that live with the corpus (lsa), as opaque blobs
    """
    CREATE TABLE embed_models (
        name TEXT PRIMARY KEY,
        data BLOB NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    """,
    # 4 (ingest): what the readers find beside the abstract, and identifiers for dedup.
    # A title-only paper is stored with abstract '' (no flag: derived from the empty abstract).
    """
    ALTER TABLE papers ADD COLUMN identifiers TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE papers ADD COLUMN code_urls TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE papers ADD COLUMN section TEXT;
    ALTER TABLE papers ADD COLUMN date TEXT;
    -- arXiv id (no version), DOI (lower case), OpenReview id, hash of the normalised title:
    -- the same paper read from two lists or formats finds its stored twin through these
    -- (an identifier equal to the paper's own id is not repeated here).
    CREATE TABLE paper_identifiers (
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        PRIMARY KEY (kind, value)
    ) WITHOUT ROWID;
    CREATE INDEX paper_identifiers_paper ON paper_identifiers(paper_id);
    """,
    # (store) a paper whose title or abstract changes has its facts marked stale
    # (text_hash ''), so what enrich still has to do is one query: facts missing, of an
    # older extractor version, or stale (Store.facts_pending).
    """
    CREATE TRIGGER IF NOT EXISTS papers_text_changed AFTER UPDATE OF title, abstract ON papers
    WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract
    BEGIN
        UPDATE facts SET text_hash = '' WHERE paper_id = new.id;
    END;
    """,
    # (enrich) the list's own code links are links of the paper (facts.has_code): a change
    # of them marks the facts stale too
    """
    CREATE TRIGGER papers_links_changed AFTER UPDATE OF code_urls ON papers
    WHEN old.code_urls IS NOT new.code_urls
    BEGIN
        UPDATE facts SET text_hash = '' WHERE paper_id = new.id;
    END;
    """,
]


def default_db_path() -> Path:
    return Path(os.environ.get("PAPERATLAS_DB") or DEFAULT_DB)


_IS_JSON = tuple(c in _JSON_COLUMNS for c in PAPER_COLUMNS)
_EMPTIES = tuple(_JSON_EMPTY.get(c, "[]") for c in PAPER_COLUMNS)


def _column_value(column: str, value: Any) -> Any:
    """A papers column as stored: JSON for lists/dicts (None -> empty), others as given."""
    if column not in _JSON_COLUMNS:
        return value
    if not value:  # None, [] or {}
        return _JSON_EMPTY.get(column, "[]")
    return json.dumps(value, ensure_ascii=False)


def _row_to_paper_dict(row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for col in _JSON_COLUMNS:
        if col in d:
            value = d[col]
            if value == "[]":
                d[col] = []
            elif value == "{}":
                d[col] = {}
            elif isinstance(value, str):
                d[col] = json.loads(value)
    return d


class Store:
    """A paperatlas SQLite database. Safe to share between threads (one connection each).

    read_only: None (default) opens read-only when this process cannot write the file or
    its directory, True never writes (SQLite `mode=ro`), False refuses a file it cannot
    write. create: a missing file becomes a new atlas (else StoreError). A file that is
    not an atlas (another program's SQLite database, anything not SQLite) is refused
    before anything is written to it (store_file.inspect_file).
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, read_only: bool | None = None, create: bool = True
    ):
        self.path = Path(path) if path is not None else default_db_path()
        self._local = threading.local()
        try:
            exists, is_dir = self.path.exists(), self.path.is_dir()
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the atlas ({exc.strerror})") from None
        if is_dir:
            raise StoreError(f"{self.path}: is a directory, not a database")
        if not exists:
            if read_only or not create:
                raise StoreError(
                    f"{self.path}: no atlas here (create one with 'paperatlas add FILE --db {self.path}')"
                )
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"{self.path.parent}: cannot create the atlas directory ({exc.strerror})"
                ) from None
        writable = can_write(self.path)
        if not exists and not writable:
            raise StoreError(f"{self.path}: cannot create the atlas ({self.path.parent} is not writable)")
        if read_only is False and not writable:
            raise StoreError(
                f"{self.path}: the atlas is read-only (no write permission for the file or its directory)"
            )
        info = inspect_file(self.path)  # refuses what is not an atlas, writing nothing
        self.read_only = bool(read_only) or not writable
        self.read_only_reason = (
            "opened read-only" if read_only else "no write permission for the file or its directory"
        )
        self._immutable = info.immutable
        if info.version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: schema version {info.version} is newer than this paperatlas "
                f"({len(MIGRATIONS)}); upgrade paperatlas"
            )
        if self.read_only:
            if info.kind == "new":
                raise StoreError(
                    f"{self.path}: no atlas in this file yet, and it is read-only ({self.read_only_reason})"
                )
            if info.version < len(MIGRATIONS):
                raise StoreError(
                    f"{self.path}: the atlas (schema {info.version}) needs an upgrade to "
                    f"schema {len(MIGRATIONS)}, and it is read-only "
                    f"({self.read_only_reason}): open it once with write access"
                )
        else:
            self._migrate(stamp=info.kind != "atlas")

    # -- connection and transactions -------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                try:
                    conn, _ = connect_read_only(self.path, self._immutable)
                except sqlite3.DatabaseError as exc:
                    raise StoreError(f"{self.path}: cannot open the atlas ({exc})") from None
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA busy_timeout=30000")
                self._local.conn = conn
                return conn
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            try:
                conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise StoreError(f"{self.path}: cannot open the atlas ({exc})") from None
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
            self._local.scratch_changes = 0

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; rolled back whole on any exception (KeyboardInterrupt too)."""
        if self.read_only:
            self.require_writable("write to it")
        conn = self.conn
        if conn.in_transaction:  # nested use joins the outer transaction
            yield conn
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def require_writable(self, action: str = "change it") -> None:
        """StoreError (one line for the user) when the atlas is open read-only."""
        if self.read_only:
            raise StoreError(
                f"{self.path}: the atlas is read-only ({self.read_only_reason}): cannot {action}"
            )

    def _migrate(self, stamp: bool) -> None:
        """Bring the schema up to date, one transaction per migration (each re-reads the
        version inside its transaction: two processes opening a new atlas at once do
        each migration once), and write paperatlas's application id into the header."""
        try:
            number = self.conn.execute("PRAGMA user_version").fetchone()[0]
            while stamp or number < len(MIGRATIONS):  # (no write lock when up to date)
                with self.transaction() as tx:
                    number = tx.execute("PRAGMA user_version").fetchone()[0]
                    if stamp or number < len(MIGRATIONS):
                        tx.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                        stamp = False
                    if number >= len(MIGRATIONS):
                        break
                    for statement in _split_sql(MIGRATIONS[number]):
                        tx.execute(statement)
                    tx.execute(f"PRAGMA user_version = {number + 1}")
                    number += 1
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc) or "read-only" in str(exc):
                raise StoreError(
                    f"{self.path}: the atlas is read-only (no write permission): cannot prepare it ({exc})"
                ) from None
            raise StoreError(f"{self.path}: cannot prepare the atlas ({exc})") from None

    @property
    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    # -- papers ------------------------------------------------------------------------

    def insert_paper(self, record: dict[str, Any]) -> None:
        """Insert one paper row (keys from PAPER_COLUMNS; lists/dicts stored as JSON)."""
        cols = [c for c in PAPER_COLUMNS if c in record]
        values = [_column_value(c, record[c]) for c in cols]
        self.conn.execute(
            f"INSERT INTO papers ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", values
        )

    def update_paper(self, paper_id: str, changes: dict[str, Any]) -> None:
        if not changes:
            return
        cols = [c for c in changes if c in PAPER_COLUMNS and c != "id"]
        values = [_column_value(c, changes[c]) for c in cols]
        sets = ", ".join(f"{c} = ?" for c in cols)
        self.conn.execute(
            f"UPDATE papers SET {sets}, updated_at = datetime('now') WHERE id = ?", [*values, paper_id]
        )

    def get_paper(self, paper_id: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return _row_to_paper_dict(row) if row else None

    def get_papers(self, ids: Iterable[str]) -> list[dict[str, Any]]:
        """Papers by id, in the order asked (missing ids are left out)."""
        ids = list(ids)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self.conn.execute(
                f"SELECT * FROM papers WHERE id IN ({', '.join('?' * len(chunk))})", chunk
            )
            for row in rows:
                found[row["id"]] = _row_to_paper_dict(row)
        return [found[i] for i in ids if i in found]

    def resolve_id(self, prefix: str) -> str | None:
        """A full paper id from an exact id or a unique prefix (as users type them)."""
        row = self.conn.execute("SELECT id FROM papers WHERE id = ?", (prefix,)).fetchone()
        if row:
            return row[0]
        rows = self.conn.execute(
            "SELECT id FROM papers WHERE id >= ? AND id < ? LIMIT 2", (prefix, prefix + "\U0010ffff")
        ).fetchall()
        return rows[0][0] if len(rows) == 1 else None

    def iter_papers(
        self,
        list_name: str | None = None,
        area: str | None = None,
        decision: str | None = None,
        text: str | None = None,
        kind: str | None = None,
        has_code: bool | None = None,
        ids: Iterable[str] | None = None,
        limit: int | None = None,
        offset: int = 0,
        id_only: bool = False,
        section: str | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Papers matching every filter given, in list order (or insertion order).

        `text` is a plain substring of title or abstract, `section` of the heading a list
        put the paper under (both case-insensitive); keyword search with ranking is
        search.py's job. Each row has the paper's columns plus
        `kind`, `name`, `has_code`, `display_title` and `predicted_area` from facts
        (only `id` with id_only=True: cheap filtering for search).
        """
        where, params, joins = [], [], []
        order = "p.rowid"
        if list_name is not None:
            joins.append("JOIN list_members m ON m.paper_id = p.id AND m.list_name = ?")
            params.append(list_name)
            order = "m.position, p.rowid"
        if area is not None:
            where.append("(p.area = ? OR (p.area IS NULL AND f.predicted_area = ?))")
            params += [area, area]
        if decision is not None:
            where.append("p.decision LIKE ?")
            params.append(decision + "%")
        if text:
            where.append("(instr(lower(coalesce(p.title, '')), ?) > 0 OR instr(lower(p.abstract), ?) > 0)")
            params += [text.lower(), text.lower()]
        if kind is not None:
            where.append("f.kind = ?")
            params.append(kind)
        if section:  # the heading a list put the paper under: a case-insensitive substring
            where.append("instr(lower(coalesce(p.section, '')), ?) > 0")
            params.append(section.lower())
        if has_code is not None:
            where.append("coalesce(f.has_code, 0) = ?")
            params.append(1 if has_code else 0)
        if ids is not None:
            id_list = list(ids)
            where.append("p.id IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(id_list))
        columns = (
            "p.id AS id"
            if id_only
            else "p.*, f.kind AS kind, f.name AS name, coalesce(f.has_code, 0) AS has_code, "
            "f.display_title AS display_title, f.predicted_area AS predicted_area"
        )
        sql = f"SELECT {columns} FROM papers p {' '.join(joins)} LEFT JOIN facts f ON f.paper_id = p.id"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {order}"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        for row in self.conn.execute(sql, params):
            yield {"id": row[0]} if id_only else _row_to_paper_dict(row)

    def count_papers(self, list_name: str | None = None) -> int:
        if list_name is None:
            return self.conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        return self.conn.execute(
            "SELECT count(*) FROM list_members WHERE list_name = ?", (list_name,)
        ).fetchone()[0]

    def all_ids(self, list_name: str | None = None) -> list[str]:
        if list_name is None:
            return [r[0] for r in self.conn.execute("SELECT id FROM papers ORDER BY rowid")]
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT paper_id FROM list_members WHERE list_name = ? ORDER BY position", (list_name,)
            )
        ]

    # -- dedup fingerprints ----------------------------------------------------------------

    def add_hash(self, hash_: str, paper_id: str) -> None:
        self.conn.execute(
            "INSERT OR IGNORE INTO paper_hashes(hash, paper_id) VALUES (?, ?)", (hash_, paper_id)
        )

    def paper_for_hash(self, hash_: str) -> str | None:
        row = self.conn.execute("SELECT paper_id FROM paper_hashes WHERE hash = ?", (hash_,)).fetchone()
        return row[0] if row else None

    def all_hashes(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT hash, paper_id FROM paper_hashes"))

    def set_minhash(self, paper_id: str, variant: int, signature: np.ndarray) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO paper_minhash(paper_id, variant, signature) VALUES (?, ?, ?)",
            (paper_id, variant, np.asarray(signature, dtype=np.uint64).tobytes()),
        )

    def iter_minhashes(self) -> Iterator[tuple[str, int, np.ndarray]]:
        for pid, variant, blob in self.conn.execute("SELECT paper_id, variant, signature FROM paper_minhash"):
            yield pid, variant, np.frombuffer(blob, dtype=np.uint64)

    def count_minhashes(self) -> int:
        return self.conn.execute("SELECT count(*) FROM paper_minhash").fetchone()[0]

    # -- batch writes and look-ups for ingest (one query per batch, not per paper) ----------

    def _in_query(self, sql: str, values: Iterable[str], extra: tuple = ()) -> list[sqlite3.Row]:
        """Run `sql` (with one `IN (SELECT value FROM json_each(?))`) over many values."""
        values = list(values)
        if not values:
            return []
        return self.conn.execute(sql, (*extra, json.dumps(values))).fetchall()

    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        return {
            r[0]
            for r in self._in_query("SELECT id FROM papers WHERE id IN (SELECT value FROM json_each(?))", ids)
        }

    def papers_for_hashes(self, hashes: Iterable[str]) -> dict[str, str]:
        """hash -> paper id, for the hashes that are known."""
        return {
            r[0]: r[1]
            for r in self._in_query(
                "SELECT hash, paper_id FROM paper_hashes WHERE hash IN (SELECT value FROM json_each(?))",
                hashes,
            )
        }

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
        return (
            self.conn.execute("SELECT 1 FROM paper_identifiers WHERE kind = ? LIMIT 1", (kind,)).fetchone()
            is not None
        )

    def iter_titles(self) -> Iterator[tuple[str, str]]:
        """(id, title) of every paper with a title."""
        yield from self.conn.execute("SELECT id, title FROM papers WHERE coalesce(title, '') != ''")

    def add_identifiers(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """(kind, value, paper id) rows; an identifier already known keeps its paper."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO paper_identifiers(kind, value, paper_id) VALUES (?, ?, ?)", rows
        )

    def insert_papers(self, records: list[dict[str, Any]]) -> None:
        """Insert many paper rows (every key of PAPER_COLUMNS present) in one statement."""
        if not records:
            return
        self.conn.executemany(
            f"INSERT INTO papers ({', '.join(PAPER_COLUMNS)}) VALUES ({', '.join('?' * len(PAPER_COLUMNS))})",
            [
                [
                    (json.dumps(v, ensure_ascii=False) if v else empty) if is_json else v
                    for is_json, empty, v in zip(_IS_JSON, _EMPTIES, map(r.get, PAPER_COLUMNS))
                ]
                for r in records
            ],
        )

    def add_hashes(self, rows: Iterable[tuple[str, str]]) -> None:
        """(hash, paper id) rows; a hash already known keeps its paper."""
        self.conn.executemany("INSERT OR IGNORE INTO paper_hashes(hash, paper_id) VALUES (?, ?)", rows)

    def set_minhashes(self, rows: Iterable[tuple[str, int, np.ndarray]]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO paper_minhash(paper_id, variant, signature) VALUES (?, ?, ?)",
            [(pid, variant, np.asarray(sig, dtype=np.uint64).tobytes()) for pid, variant, sig in rows],
        )

    def add_members(self, rows: Iterable[tuple[str, str, int]]) -> None:
        """(list name, paper id, position) rows; existing memberships are kept as they are."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO list_members(list_name, paper_id, position) VALUES (?, ?, ?)", rows
        )

    @contextmanager
    def bulk_fts(self) -> Iterator[Any]:
        """Inside a transaction: index inserted papers in bulk, not row by row.

        The insert trigger is dropped for the duration (the DROP is part of the caller's
        transaction, so a rollback brings it back) and the yielded `flush()` indexes every
        paper inserted since the last flush with one INSERT ... SELECT — about twice as
        fast for a big import. Call flush() before updating a paper inserted since the
        last flush (the update trigger expects it indexed); it also runs at the end.
        """
        conn = self.conn
        if not conn.in_transaction:
            raise RuntimeError("bulk_fts() needs an open transaction")
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

    def rekey_paper(self, old_id: str, new_id: str) -> None:
        """Give a paper a new id (a hash id replaced by the source id of a twin), moving
        every row that refers to it. Finds referring tables from the schema, so tables
        added by later migrations move too. Call inside a transaction."""
        conn = self.conn
        cols = ", ".join(c for c in PAPER_COLUMNS if c != "id")
        conn.execute(
            f"INSERT INTO papers (id, {cols}, added_at, updated_at) "
            f"SELECT ?, {cols}, added_at, datetime('now') FROM papers WHERE id = ?",
            (new_id, old_id),
        )
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "AND name NOT LIKE '%fts%'"
            )
        ]
        for table in tables:
            for fk in conn.execute(f"PRAGMA foreign_key_list({table})").fetchall():
                if fk["table"] == "papers" and fk["to"] in ("id", None):
                    conn.execute(
                        f"UPDATE OR REPLACE {table} SET {fk['from']} = ? WHERE {fk['from']} = ?",
                        (new_id, old_id),
                    )
        conn.execute("DELETE FROM papers WHERE id = ?", (old_id,))

    # -- lists -------------------------------------------------------------------------------

    def ensure_list(self, name: str) -> None:
        self.conn.execute("INSERT OR IGNORE INTO lists(name) VALUES (?)", (name,))

    def add_member(self, list_name: str, paper_id: str, position: int | None = None) -> bool:
        """Put a paper in a list; False if it was already there."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO list_members(list_name, paper_id, position) VALUES (?, ?, ?)",
            (list_name, paper_id, position),
        )
        return cur.rowcount > 0

    def next_position(self, list_name: str) -> int:
        row = self.conn.execute(
            "SELECT coalesce(max(position), -1) + 1 FROM list_members WHERE list_name = ?", (list_name,)
        ).fetchone()
        return row[0]

    def list_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM lists ORDER BY created_at, name")]

    def lists_of(self, paper_id: str) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT list_name FROM list_members WHERE paper_id = ? ORDER BY list_name", (paper_id,)
            )
        ]

    def list_stats(self, list_name: str | None = None) -> dict[str, Any]:
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

    # -- full-text search ------------------------------------------------------------------

    def fts_search(
        self, match: str, limit: int = 100, within: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """(paper id, bm25 score; higher is better) for an FTS5 MATCH expression,
        optionally only among the papers `within`.

        The caller builds a safe expression (search.py quotes user terms); a malformed
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

    def fts_scores(self, match: str) -> list[tuple[int, float]]:
        """(rowid, bm25 score; higher is better) of every row matching `match`, unsorted:
        the part of a ranking that keyword_index leaves to FTS5 (exact phrases)."""
        return self.conn.execute(
            f"SELECT rowid, -{_BM25} FROM papers_fts WHERE papers_fts MATCH ?", (match,)
        ).fetchall()

    def fts_postings(self, token: str) -> list[tuple[int, float]]:
        """(rowid, occurrences weighted by column as bm25 weighs them) of one index token
        (already stemmed, as fts_tokens gives it), for BM25 scoring outside SQLite."""
        self._fts_vocab_tables()
        return self.conn.execute(
            f"SELECT doc, sum({_COLUMN_WEIGHT_SQL}) FROM temp.papers_fts_instances "
            "WHERE term = ? GROUP BY doc",
            (token,),
        ).fetchall()

    def fts_all_postings(self) -> Iterator[tuple[str, str, str]]:
        """(token, rowids, weighted occurrences) of every index token, the two lists as
        comma-separated text: one row per token, so reading ~2M postings costs SQLite's
        time, not two million Python tuples."""
        self._fts_vocab_tables()
        return self.conn.execute(
            "SELECT term, group_concat(doc), group_concat(f) FROM (SELECT term, doc, "
            f"sum({_COLUMN_WEIGHT_SQL}) AS f FROM temp.papers_fts_instances "
            "GROUP BY term, doc) GROUP BY term"
        )

    def fts_doc_sizes(self) -> list[tuple[int, bytes]]:
        """(rowid, FTS5 docsize record: one varint token count per column) of every row."""
        return self.conn.execute("SELECT id, sz FROM papers_fts_docsize").fetchall()

    def fts_version(self) -> bytes:
        """FTS5's averages and structure records, rewritten by every change to the index:
        equal bytes mean the same indexed text (for caches of postings outside SQLite)."""
        rows = self.conn.execute(
            "SELECT block FROM papers_fts_data WHERE id IN (1, 10) ORDER BY id"
        ).fetchall()  # row counts; segments
        return b"|".join(bytes(r[0]) for r in rows)

    def rowids_to_ids(self, rowids: Iterable[int]) -> dict[int, str]:
        rowids = [int(r) for r in rowids]
        if not rowids:
            return {}
        return dict(
            self.conn.execute(
                "SELECT rowid, id FROM papers WHERE rowid IN (SELECT value FROM json_each(?))",
                (json.dumps(rowids),),
            )
        )

    def _fts_vocab_tables(self) -> None:
        """Per-connection temp views of the index's vocabulary (nothing is written to the
        atlas): per-token document counts, per-occurrence rows, and a probe table that
        tokenises words exactly as the index does."""
        if getattr(self._local, "vocab_ready", False):
            return
        conn = self.conn
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
        self._local.vocab_ready = True

    def fts_tokens(self, words: Iterable[str]) -> dict[str, list[str]]:
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
        # scratch rows, not changes to the atlas: change_counter leaves them out
        self._local.scratch_changes = getattr(self._local, "scratch_changes", 0) + conn.total_changes - before
        tokens: dict[int, list[tuple[int, str]]] = {}
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM temp.fts_probe_vocab"):
            tokens.setdefault(doc, []).append((offset, term))
        return {word: [t for _, t in sorted(tokens.get(i, []))] for i, word in enumerate(words)}

    def fts_doc_freq(self, words: Iterable[str]) -> dict[str, int]:
        """word -> number of papers whose index holds it, after the index's own stemming
        (search drops terms most papers contain: BM25 gives them next to no weight, and
        they make a query slow)."""
        out = {}
        for word, tokens in self.fts_tokens(words).items():
            counts = [
                (
                    self.conn.execute("SELECT doc FROM temp.papers_fts_vocab WHERE term = ?", (t,)).fetchone()
                    or (0,)
                )[0]
                for t in tokens
            ]
            out[word] = min(counts) if counts else 0
        return out

    def change_counter(self) -> tuple[int, int, int]:
        """Changes whenever the database may have changed: SQLite's data_version (commits
        by other connections) and this connection's total_changes. Lets readers keep
        derived data (search's vector index) without re-querying on every call. Both
        counts belong to one connection (one per thread), so the connection is part of
        the value: another thread's equal numbers say nothing."""
        return (
            id(self.conn),
            self.conn.execute("PRAGMA data_version").fetchone()[0],
            self.conn.total_changes - getattr(self._local, "scratch_changes", 0),
        )

    def generation(self) -> StoreGeneration:
        """A commit counter shared by every thread (a private connection of its own that
        never writes): for caches that threads share, e.g. the web app's page cache."""
        return StoreGeneration(self.path, read_only=self.read_only)

    def papers_signature(self) -> tuple[int, int, str]:
        """(count, max rowid, newest updated_at) of the papers: changes when papers are
        added, removed or edited (keys derived data kept beside the atlas, e.g. TF-IDF)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(max(rowid), 0), coalesce(max(updated_at), '') FROM papers"
        ).fetchone()
        return (int(row[0]), int(row[1]), str(row[2]))

    def count_vectors(self, model: str | None) -> int:
        """How many vectors of `model` are stored."""
        row = self.conn.execute("SELECT count(*) FROM embeddings WHERE model = ?", (model,)).fetchone()
        return int(row[0])

    def vector_signature(self, model: str) -> tuple[int, int]:
        """(count, max rowid) of the stored vectors of `model`: changes whenever they do
        (INSERT OR REPLACE gives a replaced vector a new rowid; deletes lower the count)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(max(rowid), 0) FROM embeddings WHERE model = ?", (model,)
        ).fetchone()
        return (int(row[0]), int(row[1]))

    # -- facts (enrich/) ---------------------------------------------------------------------

    def set_facts(self, paper_id: str, facts: dict[str, Any], text_hash: str, version: str) -> None:
        """Store one paper's facts. Columns used by filters are lifted out of `facts`:
        name, kind, has_code, display_title, predicted_area (its top label)."""
        predicted = facts.get("predicted_area")
        if isinstance(predicted, dict):
            predicted = predicted.get("label")
        self.conn.execute(
            "INSERT OR REPLACE INTO facts(paper_id, name, kind, has_code, display_title, "
            "predicted_area, data, text_hash, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                paper_id,
                facts.get("name"),
                facts.get("kind"),
                int(bool(facts.get("has_code"))),
                facts.get("display_title"),
                predicted,
                json.dumps(facts, ensure_ascii=False),
                text_hash,
                version,
            ),
        )

    def get_facts(self, paper_id: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT data FROM facts WHERE paper_id = ?", (paper_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def facts_for(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for pid, data in self.conn.execute(
            "SELECT paper_id, data FROM facts WHERE paper_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(ids)),),
        ):
            out[pid] = json.loads(data)
        return out

    def card_facts(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The facts a paper's card shows (name, kind, has_code, display_title, gist),
        without decoding each paper's whole facts record."""
        return {
            pid: {"name": name, "kind": kind, "has_code": bool(code), "display_title": title, "gist": gist}
            for pid, name, kind, code, title, gist in self.conn.execute(
                "SELECT paper_id, name, kind, has_code, display_title, "
                "json_extract(data, '$.gist') FROM facts "
                "WHERE paper_id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    def paper_names(self) -> Iterator[tuple[str, str]]:
        """(paper id, name) for every name a paper's facts say it introduces (the
        headline `name` and the rest of `names`): search finds a paper by its name."""
        for pid, name, names in self.conn.execute(
            "SELECT paper_id, name, json_extract(data, '$.names') FROM facts WHERE name IS NOT NULL"
        ):
            yield pid, name
            for other in json.loads(names) if names else []:
                if isinstance(other, str) and other != name:
                    yield pid, other

    def facts_state(self) -> dict[str, tuple[str, str]]:
        """paper id -> (text_hash, version) of its stored facts, to skip unchanged work."""
        return {
            r[0]: (r[1], r[2]) for r in self.conn.execute("SELECT paper_id, text_hash, version FROM facts")
        }

    def facts_pending(self, version: str | None = None) -> int:
        """How many papers still need their facts extracted: none stored (new papers, or
        a run interrupted before their batch), stale (the paper's title or abstract changed
        since: the papers_text_changed trigger), or, given a `version`, of another one."""
        return self.conn.execute(
            "SELECT count(*) FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
            "WHERE f.paper_id IS NULL OR f.text_hash = '' OR (? IS NOT NULL AND f.version != ?)",
            (version, version),
        ).fetchone()[0]

    # -- vectors (embed) ----------------------------------------------------------------------

    def put_vectors(self, model: str, ids: list[str], vectors: np.ndarray, text_hashes: list[str]) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.conn.executemany(
            "INSERT OR REPLACE INTO embeddings(paper_id, model, dim, vector, text_hash) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (pid, model, vectors.shape[1], vectors[i].tobytes(), text_hashes[i])
                for i, pid in enumerate(ids)
            ],
        )

    def vector_state(self, model: str) -> dict[str, str]:
        """paper id -> text_hash of the stored vector for `model`."""
        return dict(self.conn.execute("SELECT paper_id, text_hash FROM embeddings WHERE model = ?", (model,)))

    def get_vectors(self, model: str, ids: Iterable[str] | None = None) -> tuple[list[str], np.ndarray]:
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

    def vector_models(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT model FROM embeddings")]

    def delete_vectors(self, model: str) -> int:
        """Drop every stored vector of `model` (its space changed, e.g. lsa was refit)."""
        return self.conn.execute("DELETE FROM embeddings WHERE model = ?", (model,)).rowcount

    def put_embed_model(self, name: str, data: bytes, meta: dict[str, Any] | None = None) -> None:
        """Store a fitted embedding model (e.g. lsa's vocabulary and SVD) with the corpus."""
        self.conn.execute(
            "INSERT OR REPLACE INTO embed_models(name, data, meta) VALUES (?, ?, ?)",
            (name, data, json.dumps(meta or {}, ensure_ascii=False)),
        )

    def get_embed_model(self, name: str) -> bytes | None:
        row = self.conn.execute("SELECT data FROM embed_models WHERE name = ?", (name,)).fetchone()
        return bytes(row[0]) if row else None

    # -- maps and topics (atlas) ---------------------------------------------------------------

    def save_map(
        self,
        scope: str,
        model: str,
        signature: str,
        meta: dict[str, Any],
        topics: list[dict[str, Any]],
        assignments: list[dict[str, Any]],
    ) -> None:
        """Replace the stored map of (scope, model) in one transaction.

        topics: dicts with level, topic_id, parent_id, label, size, x, y, data (dict).
        assignments: dicts with paper_id, x, y, broad, fine, outlier.
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
            tx.executemany(
                "INSERT INTO paper_topics(scope, model, paper_id, x, y, broad, fine, outlier) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
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
                ],
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

    # -- marks: likes, dislikes, collections -------------------------------------------------

    def set_mark(self, collection: str, paper_id: str, value: int) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO marks(collection, paper_id, value) VALUES (?, ?, ?)",
            (collection, paper_id, value),
        )

    def remove_mark(self, collection: str, paper_id: str) -> bool:
        cur = self.conn.execute(
            "DELETE FROM marks WHERE collection = ? AND paper_id = ?", (collection, paper_id)
        )
        return cur.rowcount > 0

    def marks(self, collection: str | None = None) -> list[tuple[str, str, int]]:
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
        return dict(
            self.conn.execute("SELECT collection, count(*) FROM marks WHERE value > 0 GROUP BY collection")
        )


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (BEGIN ... END;) whole."""
    statements, current = [], []
    for line in script.splitlines():
        if not line.strip() or line.strip().startswith("--"):
            continue
        current.append(line)
        text = "\n".join(current).strip()
        if sqlite3.complete_statement(text):
            statements.append(text)
            current = []
    if current and "\n".join(current).strip():
        statements.append("\n".join(current).strip())
    return statements
