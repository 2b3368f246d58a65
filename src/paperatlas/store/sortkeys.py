"""The keys the paper list sorts by (title, name, rating), stored so an index serves a page.

`paper_sort` (migration 9) holds one row per paper, keyed by the paper's rowid: `title_key`
and `name_key` are Python's `str.lower` of the title (or the facts' display title) and of
the facts' name, which SQLite cannot compute (its lower() is ASCII-only: "École" must sort
as "école"); `rating_key` is plain SQL and kept by the triggers themselves. The triggers
blank (NULL) the two text keys of a paper whose title, name or display title may have
changed, and `fill_stale` computes the blank ones: at the end of every write transaction
(StoreBase.transaction) and after the migration, in batches with a progress bar. A reader
that finds blank keys (a store written by something that bypassed the store, or read-only
before a writer filled them) sorts by the expression instead: slower, the same order.

`paper_titles` (migration 17) is filled by the same pass: a hash of each paper's normalised
title (`title_hash`), whose index finds the papers a query names by their exact title.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from typing import Any

from paperatlas.paper import normalise_text

# the key columns of paper_sort, by the web list's sort names
SORT_COLUMNS = {"title": "title_key", "name": "name_key", "rating": "rating_key"}

BATCH = 5000  # papers whose keys are filled per write (and per transaction in a backfill)


def title_key(title: str | None, display_title: str | None) -> str:
    """The title sort key: the title, else the display title enrich found, lower-cased
    by Python (the order of the expression `PAPER_SORTS["title"]`)."""
    return (title or display_title or "").lower()


def name_key(name: str | None) -> str:
    """The name sort key: named papers first ("0" + the name lower-cased), then the
    unnamed ("1"), as `PAPER_SORTS["name"]` orders them."""
    return "0" + name.lower() if name else "1"


def title_hash(title: str | None) -> str:
    """The key `paper_titles` finds a title by: 16 hex digits of the SHA-1 of the normalised
    title (case, punctuation and spacing aside), so two spellings of one title share it."""
    return hashlib.sha1(normalise_text(title or "").encode("utf-8")).hexdigest()[:16]


def any_stale(conn: sqlite3.Connection) -> bool:
    """Whether some paper's text keys are blank (an index probe, not a scan)."""
    return conn.execute("SELECT 1 FROM paper_sort WHERE title_key IS NULL LIMIT 1").fetchone() is not None


def count_stale(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM paper_sort WHERE title_key IS NULL").fetchone()[0])


def fill_batch(conn: sqlite3.Connection, batch: int | None = None) -> int:
    """Compute up to `batch` (BATCH) blank keys; the number filled (fewer: none left).
    Call inside a write transaction."""
    batch = batch or BATCH
    rows = conn.execute(
        "SELECT s.rowid, p.title, f.display_title, f.name FROM paper_sort s "
        "JOIN papers p ON p.rowid = s.rowid LEFT JOIN facts f ON f.paper_id = p.id "
        "WHERE s.title_key IS NULL LIMIT ?",
        (batch,),
    ).fetchall()
    conn.executemany(
        "UPDATE paper_sort SET title_key = ?, name_key = ? WHERE rowid = ?",
        [(title_key(title, shown), name_key(name), rowid) for rowid, title, shown, name in rows],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO paper_titles(rowid, title_hash) VALUES (?, ?)",
        [(rowid, title_hash(title)) for rowid, title, _, _ in rows],
    )
    # a row whose paper is gone (deleted with the triggers absent) would stay blank forever
    if len(rows) < batch and any_stale(conn):
        conn.execute(
            "DELETE FROM paper_sort WHERE title_key IS NULL AND rowid NOT IN (SELECT rowid FROM papers)"
        )
    return len(rows)


def fill_stale(conn: sqlite3.Connection) -> int:
    """Fill every blank key, inside the caller's transaction (a write's own papers)."""
    filled = 0
    while True:
        n = fill_batch(conn)
        filled += n
        if n < BATCH:
            return filled


def backfill(store: Any, show: bool | None = None) -> int:
    """Fill every blank key of a store (after migration 9: all of them), one transaction
    per batch, so an interrupted backfill keeps what it did and the next open goes on;
    a progress bar on stderr when it is a terminal and the work is more than a few batches."""
    from paperatlas.progress import progress_bar

    conn = store.conn
    total = count_stale(conn)
    if not total:
        return 0
    if show is None:
        show = total > 4 * BATCH and sys.stderr.isatty()
    filled = 0
    with progress_bar(show, stderr=True) as bar:
        task = bar.add_task("sort keys", total=total)
        while True:
            with store.transaction(fill_keys=False) as tx:
                n = fill_batch(tx)
            filled += n
            bar.advance(task, n)
            if n < BATCH:
                return filled
