"""BM25 keyword ranking in memory, equal to SQLite FTS5's bm25() on the store's index.

FTS5 scores every row that any query term matches, at ~2 µs a row inside SQLite: a query
with a common word costs milliseconds, the largest part of a web search page. This module
keeps each token's postings (read from FTS5's own vocabulary, so tokenising and stemming
are the index's; or from the memory-mapped file search/postings_file.py writes beside the
store) as numpy arrays and scores a query's terms with array arithmetic. Exact phrases, rarer by nature, are still scored by FTS5 itself and added.

The score is FTS5's bm25 with the store's column weights, term by term:

    idf(t) * f(t, D) * (k1 + 1) / (f(t, D) + k1 * (1 - b + b * |D| / avgdl))

with f the column-weighted count of t in D, |D| the row's token count over all columns,
idf = ln((N - n + 0.5) / (n + 0.5)) floored at 1e-6, k1 = 1.2, b = 0.75; the total of a
row is the sum over the query's phrases, so terms and the phrase can be scored apart.
A query that FTS5 would tokenise differently (a word that becomes two tokens) is left to
FTS5: `rank` returns None and the caller asks SQLite.

`keyword_ranking` is the keyword side of a search: the query's informative terms (those
most papers contain dropped), ranked here or by FTS5.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Set as AbstractSet

import numpy as np

from paperatlas.cache import StoreCache
from paperatlas.errors import SearchError
from paperatlas.search import postings_file
from paperatlas.search.query import match_expression, phrase_expression, term_counts

K1, B = 1.2, 0.75  # FTS5's bm25 constants
MIN_IDF = 1e-6
POSTING_BYTES = 6  # a posting in memory: int32 rowid + uint16 column-weighted count
MAX_CACHED_BYTES = 48 << 20  # postings read per query, least recently used go
TOKEN_BYTES = 220  # a preloaded token's entry (its string and slice) in a dict, measured
# What a server reads ahead of its queries: at most 1/16 of the machine's memory and 1 GB.
# At 100k papers all 15.5M postings fit (~93 MB); at 1M (~155M postings) the ~105M of the
# terms search keeps need ~630 MB, and without them a query reads its words' postings
# inside SQLite (~2 µs each: ~0.2 s for a word in 10% of a million papers).
PRELOAD_MAX_BYTES = 1 << 30
PRELOAD_RAM_SHARE = 1 / 16


def preload_budget() -> int:
    """Bytes the preload may hold on this machine (PRELOAD_MAX_BYTES when its memory is unknown)."""
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return PRELOAD_MAX_BYTES
    return int(min(PRELOAD_MAX_BYTES, ram * PRELOAD_RAM_SHARE))


def _varints(blob: bytes) -> list[int]:
    """SQLite varints (7 bits a byte, high bit = more; the ninth byte gives 8 bits)."""
    out, value, used = [], 0, 0
    for byte in blob:
        if used == 8:
            out.append((value << 8) | byte)
            value, used = 0, 0
            continue
        value = (value << 7) | (byte & 0x7F)
        used += 1
        if not byte & 0x80:
            out.append(value)
            value, used = 0, 0
    return out


def _record_sums(records: list[bytes]) -> np.ndarray:
    """The sum of each record's varints (FTS5's docsize: a token count per column), by
    array arithmetic: a million rows in a fraction of a second, not a Python loop."""
    sizes = np.fromiter(map(len, records), dtype=np.int64, count=len(records))
    data = np.frombuffer(b"".join(records), dtype=np.uint8)
    if not len(data) or data[-1] >= 0x80:
        return np.array([sum(_varints(r)) for r in records], dtype=np.float64)
    at = np.arange(len(data))
    # the last byte of each varint is below 0x80: each byte's distance to the next such
    left = np.minimum.accumulate(np.where(data < 0x80, at, len(data))[::-1])[::-1] - at
    if left.max() >= 8:  # a nine-byte varint (>= 2**56) is no token count: decode as SQLite does
        return np.array([sum(_varints(r)) for r in records], dtype=np.float64)
    value = (data & 0x7F).astype(np.int64) << (7 * left)
    return np.bincount(np.repeat(np.arange(len(records)), sizes), weights=value, minlength=len(records))


class KeywordIndex:
    """The postings and row sizes of one version of the store's FTS5 index.

    A token's postings are kept compact, (int32 rowids, uint16 weighted counts), and
    turned into BM25 saturations when a query scores them: 6 bytes a posting, not 12."""

    def __init__(self, store, version: bytes):
        self.version = version
        # the postings file of this version, when a server has written one (see preload)
        self._file = postings_file.PostingsFile.open(store.path, version)
        self._ids = postings_file.IdsFile.open(store.path, version)  # rowid -> paper id
        if self._file is not None:
            self.doc_len, self.n_rows = self._file.doc_len, self._file.n_rows
        else:
            rows = store.fts.doc_sizes()
            rowids = np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows))
            self.doc_len = np.zeros(int(rowids.max(initial=0)) + 1, dtype=np.float64)
            self.doc_len[rowids] = _record_sums([bytes(b) for _, b in rows])
            self.n_rows = len(rows)
        self.avgdl = float(self.doc_len.sum()) / self.n_rows if self.n_rows else 1.0
        self._norm: np.ndarray | None = None  # k1(1 - b + b|D|/avgdl) by rowid, on first use
        self._packed = _Packed(0)  # what the preload kept: never evicted
        self._postings: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()  # LRU
        self._cached = 0  # postings in the LRU
        self._names: dict[int, str] = {}
        self._lock = threading.Lock()
        # CPU (of the asking threads) spent reading postings and counts out of FTS5 for want
        # of a file or a preload: what readying this version would save (web/refresh.py)
        self.fts_seconds = 0.0

    def postings(self, store, token: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, BM25 saturation f(k1+1)/(f + k1(1-b+b|D|/avgdl))) of a token."""
        docs, freq = self._compact(store, token)
        f = freq.astype(np.float64)
        if self._norm is None:  # once per index: the same float64 operations, row by row
            self._norm = K1 * (1 - B + B * self.doc_len / self.avgdl)
        return docs, f * (K1 + 1) / (f + self._norm[docs])

    def _compact(self, store, token: str) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            hit = self._packed.get(token)
            if hit is not None:
                return hit
            hit = self._postings.get(token)
            if hit is not None:
                self._postings.move_to_end(token)
                return hit
        if self._file is not None:
            return self._file.get(token)
        started = time.thread_time()
        rows = store.fts.postings(token)
        docs = np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows))
        freq = np.fromiter((f for _, f in rows), dtype=np.float64, count=len(rows))
        entry = _compact_postings(docs, freq)
        with self._lock:
            self.fts_seconds += time.thread_time() - started
            if token in self._postings:
                return self._postings[token]
            self._postings[token] = entry
            self._cached += len(docs)
            while self._cached * POSTING_BYTES > MAX_CACHED_BYTES and len(self._postings) > 1:
                _, (old, _) = self._postings.popitem(last=False)
                self._cached -= len(old)
        return entry

    def cached_doc_freq(self, token: str) -> int | None:
        entry = self._packed.get(token) or self._postings.get(token)
        if entry is None and self._file is not None:
            entry = self._file.get(token)
        return None if entry is None else len(entry[0])

    def preload(self, store, budget: int, to_file: bool = True) -> bool:
        """The postings file of this index version, written now when missing (`to_file`).
        Where it cannot be written, postings read ahead into memory within `budget` bytes:
        the longest lists first (the slowest to read per query, ~2 µs a posting inside
        SQLite), but the terms search drops as common (in more than COMMON_TERM_SHARE of
        the rows) last, as a query scores them only when all its words are that common.
        True when none was left out (or the file is in use). A read-only store gets no file:
        it writes nothing beside the atlas."""
        to_file = to_file and not store.read_only
        if to_file and self._ids is None:
            self._ids = postings_file.open_or_build_ids(store, self.version)
        if self._file is not None:
            return True
        if to_file:
            found = postings_file.open_or_build(store, self.doc_len, self.n_rows, self.version)
            if found is not None:
                self._file = found
                return True
        counts = dict(store.fts.token_counts())
        common = COMMON_TERM_SHARE * self.n_rows
        order = sorted(counts, key=lambda t: (counts[t] > common, -counts[t], t))
        used, size, n_kept = 0, 0, 0
        for token in order:
            used += counts[token] * POSTING_BYTES + TOKEN_BYTES
            if used > budget:
                break
            size += counts[token]
            n_kept += 1
        packed = _Packed(size)
        for token, docs, freqs in store.fts.token_postings(order[:n_kept]):
            if docs.count(",") + 1 == counts[token]:  # else changed since
                packed.add(
                    token,
                    np.array(docs.split(","), dtype=np.int64),
                    np.array(freqs.split(","), dtype=np.float64),
                )
        with self._lock:
            self._packed = packed
        return n_kept == len(order)

    def names(self, store, rowids: list[int]) -> dict[int, str]:
        """rowid -> paper id: from the ids file beside the store when there is one, else
        asked of the store once per row and index version."""
        if self._ids is not None:
            return self._ids.names(rowids)
        missing = [r for r in rowids if r not in self._names]
        if missing:
            found = store.fts.rowids_to_ids(missing)
            with self._lock:
                self._names.update(found)
        return {r: self._names[r] for r in rowids if r in self._names}

    def scores(
        self, store, tokens: list[str], weights: list[float] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, summed BM25) of every row holding any of `tokens` (each token's share
        times its weight, when weights are given)."""
        total = np.zeros(self.doc_len.shape[0], dtype=np.float64)
        for n_token, token in enumerate(tokens):
            docs, saturation = self.postings(store, token)
            if len(docs):
                n = len(docs)
                w = 1.0 if weights is None else weights[n_token]
                total[docs] += w * idf(self.n_rows, n) * saturation
        docs = np.flatnonzero(total)  # every matched row scores > 0 (idf >= MIN_IDF)
        return docs, total[docs]


# One index per database, shared by its threads while the FTS5 index is unchanged.
_INDEXES = StoreCache(max_entries=4)
_TOKENS: dict[str, tuple[str, ...]] = {}  # word -> index tokens (the tokenizer never changes)
_LOCK = threading.Lock()


def _index(store) -> KeywordIndex:
    return _INDEXES.get(
        store, "bm25", lambda: KeywordIndex(store, store.fts.version()), version=store.fts.version
    )


def fts_seconds(store) -> float:
    """CPU the store's current index has spent reading postings and counts out of FTS5."""
    return _index(store).fts_seconds


def preload(store, budget: int | None = None, to_file: bool = True) -> bool:
    """Ready the store's postings for its queries (what a long-running server wants): the
    postings file beside the store (built when missing), else in memory within `budget`
    bytes (preload_budget() when None); False when some were left out."""
    return _index(store).preload(store, preload_budget() if budget is None else budget, to_file)


class _Packed:
    """Many tokens' postings in two flat arrays, filled token by token: two numpy arrays
    per token would cost ~300 bytes each, as much as the postings of a 100k-paper index's
    ~130k tokens."""

    def __init__(self, size: int):
        self.slot: dict[str, tuple[int, int]] = {}  # token -> (start, stop)
        self.docs = np.empty(size, dtype=np.int32)
        self.freq: np.ndarray = np.empty(size, dtype=np.uint16)
        self.used = 0

    def add(self, token: str, docs: np.ndarray, freq: np.ndarray) -> None:
        docs, freq = _compact_postings(docs, freq)
        start, stop = self.used, self.used + len(docs)
        if stop > len(self.docs):
            return  # the index changed while it was read: this token is read per query
        if freq.dtype != self.freq.dtype:
            self.freq = self.freq.astype(np.float64)
        self.docs[start:stop], self.freq[start:stop] = docs, freq
        self.slot[token] = (start, stop)
        self.used = stop

    def get(self, token: str) -> tuple[np.ndarray, np.ndarray] | None:
        where = self.slot.get(token)
        return None if where is None else (self.docs[where[0] : where[1]], self.freq[where[0] : where[1]])


def _compact_postings(docs: np.ndarray, freq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int32 rowids, counts as uint16 when they are whole numbers that fit, as the
    store's integer column weights give them; float64 otherwise)."""
    whole = len(freq) == 0 or (freq.max() < 2**16 and bool(np.all(freq == np.floor(freq))))
    return docs.astype(np.int32), freq.astype(np.uint16) if whole else freq


def doc_freq(store, words: list[str]) -> dict[str, int]:
    """word -> papers holding it (as store.fts.doc_freq), from postings in memory when
    they are there."""
    index = _index(store)  # the ranking that follows needs it too
    tokens = tokens_of(store, words)
    out: dict[str, int] = {}
    for word in words:
        counts = [index.cached_doc_freq(t) for t in tokens[word]]
        known = [c for c in counts if c is not None]
        if counts and len(known) == len(counts):
            out[word] = min(known)
    missing = [w for w in words if w not in out]
    if missing:
        started = time.thread_time()
        out.update(store.fts.doc_freq(missing))
        with index._lock:
            index.fts_seconds += time.thread_time() - started
    return out


def idf(n_rows: int, df: int) -> float:
    """FTS5's idf of a token held by `df` of `n_rows` rows (floored at MIN_IDF)."""
    return max(float(np.log((n_rows - df + 0.5) / (df + 0.5))), MIN_IDF)


def ceiling(store, terms: list[str], weights: dict[str, float] | None = None) -> float:
    """The most BM25 the query `terms` can give a row, sum of idf(t) * (k1 + 1) (a
    row holding every term infinitely often): dividing a row's score by it says how
    much of the query's rare evidence the row holds, whatever else the query matched.
    A row holding only a query's one rare word scores near the top; a row holding one
    common word of a long query scores near 0. Terms no row holds (a typo) add nothing."""
    if not terms:
        return 0.0
    index = _index(store)
    freq = known_doc_freq(store, terms)
    weights = weights or {}
    return sum(weights.get(t, 1.0) * idf(index.n_rows, freq[t]) for t in terms if freq.get(t, 0) > 0) * (
        K1 + 1
    )


def tokens_of(store, words: list[str]) -> dict[str, tuple[str, ...]]:
    missing = [w for w in words if w not in _TOKENS]
    if missing:
        found = store.fts.tokens(missing)
        with _LOCK:
            if len(_TOKENS) > 200_000:
                _TOKENS.clear()
            _TOKENS.update({w: tuple(t) for w, t in found.items()})
    return {w: _TOKENS[w] for w in words}


def rank(
    store,
    terms: list[str],
    phrase: str | None,
    limit: int,
    within: AbstractSet[str] | None = None,
    weights: dict[str, float] | None = None,
) -> list[tuple[str, float]] | None:
    """(paper id, bm25; higher first) of the best `limit` rows matching any of `terms`
    or the FTS5 `phrase` expression, among `within` when given: the ranking FTS5 gives
    for `"t1" OR "t2" ... [OR phrase]`. None when a term is not one index token."""
    tokens = tokens_of(store, terms)
    if any(len(t) != 1 for t in tokens.values()):
        return None
    index = _index(store)
    # one phrase per term, as in the MATCH expression: "network" and "networks" both count
    docs, scores = index.scores(
        store,
        [tokens[t][0] for t in terms],
        None if weights is None else [weights.get(t, 1.0) for t in terms],
    )
    if phrase:
        extra = store.fts.scores(phrase)
        if extra:
            extra_docs = np.fromiter((r for r, _ in extra), dtype=np.int64, count=len(extra))
            extra_scores = np.fromiter((s for _, s in extra), dtype=np.float64, count=len(extra))
            all_docs = np.concatenate([docs, extra_docs])
            docs, where = np.unique(all_docs, return_inverse=True)
            merged = np.zeros(len(docs))
            np.add.at(merged, where, np.concatenate([scores, extra_scores]))
            scores = merged
    return _named_best(store, index, docs, scores, limit, within)


def _named_best(
    store,
    index: KeywordIndex,
    docs: np.ndarray,
    scores: np.ndarray,
    limit: int,
    within: AbstractSet[str] | None,
) -> list[tuple[str, float]]:
    """(paper id, score) of the best `limit` rows, among `within` when given."""
    if not len(docs):
        return []
    if within is None:
        top = _best(docs, scores, limit)
        names = index.names(store, docs[top].tolist())
        return [(names[d], float(s)) for d, s in zip(docs[top].tolist(), scores[top].tolist()) if d in names]
    out: list[tuple[str, float]] = []
    order = _best(docs, scores, len(docs))
    step = max(limit * 5, 1000)
    for start in range(0, len(order), step):  # walk down the ranking until enough allowed
        part = order[start : start + step]
        names = index.names(store, docs[part].tolist())
        for d, s in zip(docs[part].tolist(), scores[part].tolist()):
            pid = names.get(d)
            if pid is not None and pid in within:
                out.append((pid, float(s)))
                if len(out) >= limit:
                    return out
    return out


def _best(docs: np.ndarray, scores: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the `limit` best scores, best first; equal scores by rowid (the
    order SQLite visits rows in)."""
    if limit < len(scores):
        cut = np.partition(-scores, limit - 1)[limit - 1]
        candidates = np.flatnonzero(-scores <= cut)  # ties at the cut all compete
    else:
        candidates = np.arange(len(scores))
    order = candidates[np.lexsort((docs[candidates], -scores[candidates]))]
    return order[:limit]


COMMON_TERM_SHARE = 0.25  # a term in more than this share of papers is dropped
MAX_KEYWORD_TERMS = 8  # FTS5 scores every paper any term matches: keep the rarest
# (papers, word -> papers holding it), kept while the indexed text is unchanged
_DOC_FREQ = StoreCache(max_entries=8)


def _doc_freqs(store, words: list[str]) -> tuple[int, dict[str, int]]:
    """(papers, word -> papers holding it) with every one of `words` in it, each word
    looked up once per version of the index: one query's typo check, common-term cut and
    ceiling ask about the same words, and a word's count is only read from FTS5 until its
    postings are loaded."""
    total, cache = _DOC_FREQ.get(
        store, "doc_freq", lambda: (store.papers.count(), {}), version=store.fts.version
    )
    missing = [w for w in dict.fromkeys(words) if w not in cache]
    if missing:
        cache.update(doc_freq(store, missing))
    return total, cache


def known_doc_freq(store, words: list[str]) -> dict[str, int]:
    """word -> papers holding it, as `doc_freq` counts them, asked of the index once per
    word and version of the indexed text."""
    cache = _doc_freqs(store, words)[1]
    return {w: cache.get(w, 0) for w in words}


def informative_terms(store, terms: list[str]) -> list[str]:
    """`terms` without those most papers contain ("model", "data", "training"), as long
    as another term is left: BM25 weighs such terms next to nothing (idf ~ 0), yet each
    makes FTS5 score most of the index."""
    if len(terms) < 2:
        return terms
    total, cache = _doc_freqs(store, terms)
    kept = [t for t in terms if cache.get(t, 0) <= COMMON_TERM_SHARE * total]
    if len(kept) > MAX_KEYWORD_TERMS:  # long text: its rarest terms, in its own order
        rarest = set(sorted(kept, key=lambda t: cache.get(t, 0))[:MAX_KEYWORD_TERMS])
        kept = [t for t in kept if t in rarest]
    return kept or [min(terms, key=lambda t: cache.get(t, 0))]


def keyword_ranking(
    store,
    terms: list[str],
    depth: int,
    allowed: AbstractSet[str] | None,
    weights: dict[str, float] | None = None,
) -> list[tuple[str, float]]:
    """(id, bm25) of the `depth` best papers for the query `terms` (term -> weight when
    `weights` are given) among `allowed`."""
    kept = informative_terms(store, terms)
    # the exact phrase only makes sense when no word inside it was dropped
    expr = match_expression(terms) if kept == terms else match_expression(kept, phrase=False)
    if expr is None:
        return []
    phrase = phrase_expression(terms) if kept == terms else None
    try:
        ranked = rank(store, kept, phrase, depth, within=allowed, weights=weights)
        if ranked is not None:
            return ranked
        return store.fts.search(expr, limit=depth, within=allowed)
    except sqlite3.OperationalError as exc:  # should not happen: every term is quoted
        raise SearchError(f"keyword search failed for this query ({exc})") from None


KEY_TERMS = 60  # a long text's terms (an abstract as the query) that its BM25 list uses


def key_terms(store, text: str, n: int = KEY_TERMS) -> dict[str, float]:
    """A long text's `n` most telling terms -> their weight, 1 + ln(count): the terms
    weighed by count times idf among the store's papers (ignoring terms no paper or more
    than COMMON_TERM_SHARE of them hold). An abstract's rarest words are often its
    one-off names and typos; its most telling ones are those it repeats that are rare.
    Words of one index token ("network", "networks") count as one term."""
    counts = term_counts(text)
    tokens = tokens_of(store, list(counts))
    by_token: dict[str, list[str]] = {}
    for word in sorted(counts, key=lambda w: -counts[w]):  # the commonest spelling first
        if len(tokens[word]) == 1:
            by_token.setdefault(tokens[word][0], []).append(word)
    if not by_token:
        return {}
    words = [spellings[0] for spellings in by_token.values()]
    total, cache = _doc_freqs(store, words)
    count = {spellings[0]: sum(counts[w] for w in spellings) for spellings in by_token.values()}
    usable = [w for w in words if 0 < cache.get(w, 0) <= COMMON_TERM_SHARE * total]

    def telling(word: str) -> float:
        return (1.0 + np.log(count[word])) * idf(max(total, 1), cache[word])

    best = sorted(usable, key=lambda w: (-telling(w), w))[:n]
    return {w: 1.0 + float(np.log(count[w])) for w in best}


def weighted_ranking(
    store,
    weights: dict[str, float],
    limit: int,
    within: AbstractSet[str] | None = None,
    exclude: AbstractSet[str] = frozenset(),
) -> tuple[list[tuple[str, float]], float, float]:
    """(the best `limit` papers for the weighted terms (`key_terms`), among `within` and
    less `exclude`; the mean and standard deviation of that BM25 over every paper): the
    statistics put the list on the scale of the store's other signals."""
    if not weights:
        return [], 0.0, 0.0
    tokens = tokens_of(store, list(weights))
    terms = [t for t in weights if len(tokens[t]) == 1]
    index = _index(store)
    docs, scores = index.scores(store, [tokens[t][0] for t in terms], [weights[t] for t in terms])
    n = max(index.n_rows, 1)
    mean = float(scores.sum()) / n
    std = float(np.sqrt(max(float(np.square(scores).sum()) / n - mean * mean, 0.0)))
    ranked = _named_best(store, index, docs, scores, limit + len(exclude), within)
    return [(pid, s) for pid, s in ranked if pid not in exclude][:limit], mean, std
