"""Papers by their own name: a query that is or holds the name a paper introduces
(CIMemories, BRAIN, "Relational Execution Tracker") finds that paper.

The names come from every paper's facts (enrich). Reading them all takes one pass over
the facts table: ~0.1 s at 15k papers, tens of seconds at a million (783k named papers,
1.3M names), which a cold `paperatlas search` would pay on every run. So the table is
also written beside the store (`<db>.names`, the layout of search/postings_file.py),
keyed by the store's facts change count (store/generation.py): a process finds a name
by a binary search of the mapped file, reading a few pages. Without a count (an older
store opened read-only) or a file (a read-only folder) the names are read into memory.

The file records the facts table it was read from (store/generation.py `TableMark`). When
the facts have only grown since (a `paperatlas add` while the app serves: new papers, an
old paper's names never change), a process reads the names of the new rows alone and
looks in both; the file is written again once they are a quarter as many as its rows.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Set as AbstractSet
from pathlib import Path

import numpy as np

from paperatlas.cache import StoreCache
from paperatlas.search import postings_file
from paperatlas.store.generation import TableMark, facts_changes, table_mark

_NAME_TABLES = StoreCache(max_entries=4)
MAX_NAME_WORDS = 4  # longest name looked for inside a query ("Relational Execution Tracker")
SUFFIX = ".names"
REWRITE_AT = 4  # the file is written again once the rows added after it are 1/4 of its own


class _Tables:
    """Names in memory: lower-cased name -> ids, name as written -> ids."""

    def __init__(self, pairs) -> None:
        self.lower: dict[str, list[str]] = {}
        self.exact: dict[str, list[str]] = {}
        for pid, name in pairs:
            self.lower.setdefault(name.lower(), []).append(pid)
            self.exact.setdefault(name, []).append(pid)

    def by_lower(self, key: str) -> list[str]:
        return self.lower.get(key, [])

    def by_exact(self, name: str) -> list[str]:
        return self.exact.get(name, [])


class NamesFile:
    """The names table beside the store, memory-mapped: keys (names lower-cased, sorted
    bytewise) and, per key, its entries (the name as written, the paper id)."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self._a = arrays
        self._n = len(arrays["key_at"]) - 1

    @classmethod
    def open(cls, db_path) -> tuple[NamesFile, TableMark] | None:
        """The file beside the store and the facts table it was read from; None when
        there is none or it is unreadable. A file written before marks holds the facts'
        change count alone: its mark's rows and last rowid are -1 (it answers at that
        count only; a read-only atlas may have nothing newer)."""
        path = file_path(db_path)
        found = postings_file._read_header(path, None)
        if found is None:
            return None
        try:
            numbers = [int(n) for n in bytes.fromhex(found[0]["version"]).split(b" ")]
            changes, rows, last = numbers if len(numbers) == 3 else (numbers[0], -1, -1)
            return cls(postings_file._map_arrays(path, *found)), TableMark(changes, rows, last)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _text(self, blob: str, at: str, i: int) -> bytes:
        return self._a[blob][self._a[at][i] : self._a[at][i + 1]].tobytes()

    def _entries(self, key: str) -> list[tuple[str, str]]:
        want = key.encode("utf-8")
        lo, hi = 0, self._n
        while lo < hi:
            mid = (lo + hi) // 2
            if self._text("keys", "key_at", mid) < want:
                lo = mid + 1
            else:
                hi = mid
        if lo >= self._n or self._text("keys", "key_at", lo) != want:
            return []
        start, stop = int(self._a["starts"][lo]), int(self._a["starts"][lo + 1])
        return [
            (
                self._text("names", "name_at", i).decode("utf-8"),
                self._text("pids", "pid_at", i).decode("utf-8"),
            )
            for i in range(start, stop)
        ]

    def by_lower(self, key: str) -> list[str]:
        return [pid for _, pid in self._entries(key)]

    def by_exact(self, name: str) -> list[str]:
        return [pid for written, pid in self._entries(name.lower()) if written == name]


class _Joined:
    """The names of a file and of the facts rows written after it, in that order (the
    order one read of every row gives)."""

    def __init__(self, base: NamesFile, added: _Tables) -> None:
        self.base, self.added = base, added

    def by_lower(self, key: str) -> list[str]:
        return self.base.by_lower(key) + self.added.by_lower(key)

    def by_exact(self, name: str) -> list[str]:
        return self.base.by_exact(name) + self.added.by_exact(name)


def file_path(db_path) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + SUFFIX)


def _version(mark: TableMark) -> bytes:
    return f"{mark.changes} {mark.rows} {mark.last}".encode("ascii")


def _normal(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def _pairs(store, after: int = 0) -> list[tuple[str, str]]:
    return [(pid, _normal(name)) for pid, name in store.facts.paper_names(after=after)]


def _blob(texts: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    at = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)), out=at[1:])
    return np.frombuffer(b"".join(texts), dtype=np.uint8), at


def write_names(store, pairs: list[tuple[str, str]], mark: TableMark) -> None:
    """Write the names file of the facts as `mark` says they were when `pairs` were read."""
    keyed = sorted(
        ((name.lower().encode("utf-8"), n) for n, (_, name) in enumerate(pairs)),
        key=lambda kn: kn[0],  # stable: a key's entries stay in the order they were read
    )
    keys: list[bytes] = []
    starts: list[int] = []
    for n, (key, _) in enumerate(keyed):
        if not keys or keys[-1] != key:  # a new key: its entries start here
            keys.append(key)
            starts.append(n)
    starts.append(len(keyed))
    order = [n for _, n in keyed]
    key_blob, key_at = _blob(keys)
    name_blob, name_at = _blob([pairs[n][1].encode("utf-8") for n in order])
    pid_blob, pid_at = _blob([pairs[n][0].encode("utf-8") for n in order])
    arrays = {
        "keys": key_blob,
        "key_at": key_at,
        "starts": np.asarray(starts, dtype=np.int64),
        "names": name_blob,
        "name_at": name_at,
        "pids": pid_blob,
        "pid_at": pid_at,
    }
    postings_file._write(file_path(store.path), _version(mark), arrays)


def _open_tables(store) -> _Tables | NamesFile | _Joined:
    if facts_changes(store) is None:  # an older store opened read-only
        return _Tables(_pairs(store))
    found = NamesFile.open(store.path)
    if found is not None:
        kept, since = found
        if since.rows < 0:  # written before marks: it answers at its own count only
            if facts_changes(store) == since.changes:
                return kept
        else:
            now = table_mark(store, "facts", since=since.last)
            if now is not None and now.only_added(since) and now.added * REWRITE_AT <= since.rows:
                return kept if now.added == 0 else _Joined(kept, _Tables(_pairs(store, after=since.last)))
    mark = table_mark(store, "facts")
    pairs = _pairs(store)
    # written only when no commit came between the mark and the read: the file must hold
    # exactly the rows up to the mark's last rowid, those after it are read beside it
    if mark is not None and not store.read_only and facts_changes(store) == mark.changes:
        with contextlib.suppress(OSError):  # a read-only folder: read them again next time
            write_names(store, pairs, mark)
    return _Tables(pairs)


def _name_tables(store) -> _Tables | NamesFile | _Joined:
    """The names papers introduce (enrich facts), kept while the facts are unchanged."""

    def version() -> object:
        count = facts_changes(store)
        return object() if count is None else count  # no count: never taken as unchanged

    return _NAME_TABLES.get(store, "names", lambda: _open_tables(store), version=version)


def name_ranking(store, query: str, allowed: AbstractSet[str] | None = None) -> list[tuple[str, float]]:
    """Papers whose own name (CIMemories, BRAIN, "Relational Execution Tracker") the query
    is or contains: score 1 when the whole query is the name (any case), 0.5 when a name
    written with a capital or digit appears in the query as written ("CIMemories
    privacy"). A name is the one word that picks its paper out of thousands, even a name
    that is also an everyday word to BM25 (BRAIN, MENTOR)."""
    text = " ".join(unicodedata.normalize("NFKC", query).split())
    if not text or len(text) > 200:
        return []
    tables = _name_tables(store)
    found: dict[str, float] = dict.fromkeys(tables.by_lower(text.lower()), 1.0)
    words = [w.strip(".,;:!?()[]{}\"'“”") for w in text.split(" ")]
    for size in range(1, MAX_NAME_WORDS + 1):
        for start in range(len(words) - size + 1):
            piece = " ".join(words[start : start + size])
            if piece == text or not any(c.isupper() or c.isdigit() for c in piece):
                continue
            for pid in tables.by_exact(piece):
                found.setdefault(pid, 0.5)
    ranked = [(pid, sc) for pid, sc in found.items() if allowed is None or pid in allowed]
    return sorted(ranked, key=lambda kv: (-kv[1], kv[0]))
