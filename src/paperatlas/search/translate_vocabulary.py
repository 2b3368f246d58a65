"""The atlas's own English vocabulary that Chinese query words are mapped onto
(search/translate.py): its frequent words and word pairs with how many papers use each,
embedded with the multilingual model, their main directions (`principal_basis`), stored as
`embed_models` row VOCAB_NAME (`build_vocabulary`, `load_vocabulary`) and built on demand
for a small atlas's first Chinese query (`query_vocabulary`). `term_key` is the light-stem
key vocabulary terms and dictionary senses are matched by.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from paperatlas.cache import StoreCache
from paperatlas.paper import embedding_text
from paperatlas.search.snippets import stem
from paperatlas.search.vectors import MULTILINGUAL_MODEL, one_blas_thread
from paperatlas.store.generation import model_changes, titles_changes
from paperatlas.text import STOPWORDS

VOCAB_NAME = "zh-vocab-v1"
MAX_WORDS = 8_000  # most frequent single words kept
MAX_PAIRS = 8_000  # most frequent word pairs kept
MIN_DF_LARGE = 3  # papers a term must appear in (atlases of 200 papers or more)
REBUILD_SHARE = 0.1
BASIS_DIMS = 128
# Chinese forms technical words from prefixes as English does (过拟合 "overfitting", 自回归
# "autoregressive", 超分辨率 "super-resolution", 元学习 "meta-learning"), and the
# multilingual model reads such a word as its stem (自回归 -> "regression"). A unit of three
# characters or more that starts with one of these prefixes also gets, as candidates, the
# atlas's terms made of the English prefix and a word sharing its stem with the unit's own
# candidates or with the CC-CEDICT senses of the rest (`affixed_terms`), scored as dictionary
# terms (DICT_BONUS). Measured on the shipped glossary's 22 words of this shape whose English
# the held-out atlas holds (never used to build it; benchmarks/zh_affixes.py): the first
# learned term right for 6 -> 14; the tuning half's 32 such units: 10 better, 1 worse
# (重排序 adds "resort"); Chinese known items, tuning half: glossary off 0.833 -> 0.836 (one
# query), on unchanged (the glossary knows most such words, or a part: it cuts 回归 out of
# 自回归). The table is the common derivational prefixes, not the queries' words.
AFFIXES: dict[str, tuple[str, ...]] = {
    "过": ("over",),
    "欠": ("under",),
    "超": ("super", "hyper", "ultra"),
    "自": ("self", "auto"),
    "非": ("non", "un"),
    "反": ("anti", "counter"),
    "逆": ("inverse", "reverse"),
    "预": ("pre",),
    "重": ("re",),
    "去": ("de",),
    "无": ("un", "non"),
    "多": ("multi", "poly"),
    "半": ("semi",),
    "双": ("bi", "dual"),
    "单": ("mono", "uni", "single"),
    "跨": ("cross", "trans"),
    "子": ("sub",),
    "元": ("meta",),
    "共": ("co",),
    "互": ("inter", "mutual"),
    "后": ("post",),
}
STEM_CHARS = 5  # a term's rest and a base share their first min(len(base), 5) letters
WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_JOINERS = re.compile(r"[\s\-]+")


def term_letters(term: str) -> str:
    """A term's letters, lower case, hyphens and spaces dropped ("Multi-task" -> "multitask")."""
    return _JOINERS.sub("", term.lower())


def corpus_terms(texts: Sequence[str]) -> list[str]:
    """The atlas's frequent English words and adjacent word pairs (no stop words), most
    frequent first: at most MAX_WORDS words and MAX_PAIRS pairs."""
    return list(corpus_term_counts(texts))


def corpus_term_counts(texts: Sequence[str]) -> dict[str, int]:
    """`corpus_terms`, each with the number of texts that use it."""
    stop = STOPWORDS
    words: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for text in texts:
        tokens = WORD.findall(text.lower())
        seen_words = {t for t in tokens if len(t) > 2 and t not in stop}
        seen_pairs = {
            f"{a} {b}"
            for a, b in itertools.pairwise(tokens)
            if a not in stop and b not in stop and len(a) > 1 and len(b) > 1
        }
        words.update(seen_words)
        pairs.update(seen_pairs)
    min_df = MIN_DF_LARGE if len(texts) >= 200 else 1
    top_words = [(w, n) for w, n in words.most_common(MAX_WORDS) if n >= min_df]
    top_pairs = [(p, n) for p, n in pairs.most_common(MAX_PAIRS) if n >= max(min_df, 2) or len(texts) < 50]
    return dict(top_words + top_pairs)


@dataclass
class Vocabulary:
    terms: list[str]
    vectors: np.ndarray  # float32 [n, dim], rows L2-normalised
    papers: int  # papers it was built from
    basis: np.ndarray | None = None  # float32 [dim, BASIS_DIMS], orthonormal; None: not computed
    df: np.ndarray | None = None  # int32 [n]: papers using each term; None: from before it was kept
    # unit and lookup settings -> its candidate terms (`translate`)
    looked_up: dict[tuple, list[tuple[Any, float]]] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def projection(self) -> tuple[np.ndarray, np.ndarray]:
        """(each term's coordinates in `basis`, the norm of what the basis leaves out)."""
        assert self.basis is not None
        with one_blas_thread():
            coords = np.ascontiguousarray(self.vectors @ self.basis)
        left = np.einsum("ij,ij->i", self.vectors, self.vectors) - np.einsum("ij,ij->i", coords, coords)
        return coords, np.sqrt(np.maximum(left, 0.0))

    @functools.cached_property
    def by_prefix(self) -> dict[str, list[tuple[int, str]]]:
        """English prefix of AFFIXES -> the terms that start with it, each with the rest of
        its letters (hyphens and spaces dropped: "multi-task", "inverse rendering")."""
        by_letter: dict[str, set[str]] = {}
        for p in {p for ps in AFFIXES.values() for p in ps}:
            by_letter.setdefault(p[0], set()).add(p)
        out: dict[str, list[tuple[int, str]]] = {}
        for i, term in enumerate(self.terms):
            letters = term_letters(term)
            for p in by_letter.get(letters[:1], ()):
                if letters.startswith(p) and len(letters) >= len(p) + 3:
                    out.setdefault(p, []).append((i, letters[len(p) :]))
        return out

    @functools.cached_property
    def by_stem(self) -> dict[str, list[int]]:
        """The first STEM_CHARS letters of a one-word term -> the one-word terms that start
        with them ("gauss" -> "gaussian", "gaussians"), for `name_terms`."""
        out: dict[str, list[int]] = {}
        for i, term in enumerate(self.terms):
            if term.isalpha():
                out.setdefault(term[:STEM_CHARS], []).append(i)
        return out

    @functools.cached_property
    def by_key(self) -> dict[str, list[int]]:
        """`term_key` -> the terms with that key (built on the first dictionary lookup)."""
        out: dict[str, list[int]] = {}
        for i, term in enumerate(self.terms):
            out.setdefault(term_key(term), []).append(i)
        return out

    @functools.cached_property
    def prior(self) -> np.ndarray | None:
        """Each term's share of the atlas, log(papers using it) / log(papers) in [0, 1]
        (None without counts): how usual a sense is here (FREQUENCY_PRIOR)."""
        if self.df is None or len(self.df) != len(self.terms):
            return None
        scale = np.log(max(self.papers, 2))
        return np.clip(np.log(np.maximum(self.df, 1)) / scale, 0.0, 1.0).astype(np.float32)

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        extra: dict[str, Any] = {}
        if self.basis is not None:
            extra["basis"] = self.basis.astype(np.float32)
        if self.df is not None:
            extra["df"] = self.df.astype(np.int32)
        np.savez_compressed(
            buf,
            terms=np.asarray(json.dumps(self.terms)),
            vectors=self.vectors.astype(np.float16),
            papers=np.asarray(self.papers),
            **extra,
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, blob: bytes) -> Vocabulary:
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            basis = z["basis"].astype(np.float32) if "basis" in z.files else None
            df = z["df"].astype(np.int32) if "df" in z.files else None
            return cls(
                json.loads(str(z["terms"])), z["vectors"].astype(np.float32), int(z["papers"]), basis, df
            )


def term_key(phrase: str) -> str:
    """A phrase's content words by their light stems ("quantization" and "quantize" alike),
    as vocabulary terms and dictionary senses are matched. (Also matching "fine-tuning"
    with "fine tuning", and a long sense by its word pairs: no gain on the tuning half.)"""
    words = [w for w in WORD.findall(phrase.lower()) if w not in STOPWORDS]
    return " ".join(stem(w) for w in words)


def principal_basis(vectors: np.ndarray, dims: int = BASIS_DIMS) -> np.ndarray | None:
    """The `dims` directions along which `vectors` vary most (orthonormal columns), or
    None when there are too few vectors for a smaller basis to pay."""
    if len(vectors) <= 4 * dims or vectors.shape[1] <= dims:
        return None
    centred = vectors - vectors.mean(axis=0)
    _, eigenvectors = np.linalg.eigh(centred.T @ centred)  # ascending eigenvalues
    return np.ascontiguousarray(eigenvectors[:, ::-1][:, :dims], dtype=np.float32)


def is_current(vocab: Vocabulary, papers: int) -> bool:
    """Whether a vocabulary built from `vocab.papers` papers still serves an atlas of `papers`."""
    return papers >= 1 and abs(papers - vocab.papers) <= REBUILD_SHARE * max(vocab.papers, 1)


def vocabulary_built(store, papers: int) -> bool:
    """Whether a stored vocabulary serves the atlas's `papers` papers (read from its
    meta, without loading it): what `build_vocabulary` would skip."""
    meta = store.vectors.model_meta(VOCAB_NAME)
    built_from = int((meta or {}).get("papers") or 0)  # as is_current reads a loaded one
    return meta is not None and papers >= 1 and abs(papers - built_from) <= REBUILD_SHARE * max(built_from, 1)


def new_vocabulary(
    texts: Sequence[str],
    embed: Callable[[list[str]], np.ndarray],
    old: Vocabulary | None = None,
    progress: bool = False,
) -> tuple[Vocabulary, int]:
    """(The vocabulary of these paper texts, how many terms were embedded): the terms
    `old` has keep their vectors."""
    from paperatlas.progress import progress_bar

    counts = corpus_term_counts(texts)
    terms = list(counts)
    known = {} if old is None else dict(zip(old.terms, old.vectors))
    todo = [t for t in terms if t not in known]
    batch = 512
    with progress_bar(progress, transient=False) as bar:
        task = bar.add_task("English vocabulary for Chinese queries", total=len(todo))
        for start in range(0, len(todo), batch):
            part = todo[start : start + batch]
            for term, vec in zip(part, embed(part)):
                known[term] = np.asarray(vec, dtype=np.float32)
            bar.update(task, advance=len(part))
    dim = len(next(iter(known.values()))) if known else 512
    matrix = np.stack([known[t] for t in terms]) if terms else np.zeros((0, dim), np.float32)
    vocab = Vocabulary(
        terms,
        matrix,
        len(texts),
        principal_basis(matrix),
        np.asarray([counts[t] for t in terms], dtype=np.int32),
    )
    return vocab, len(todo)


def build_vocabulary(
    store, embed: Callable[[list[str]], np.ndarray] | None = None, progress: bool = False, force: bool = False
) -> dict[str, int]:
    """Embed the atlas's English vocabulary with the multilingual model and store it
    (skipped while the stored one is current). Returns {"terms", "embedded"}."""
    texts = [embedding_text(p.get("title"), p.get("abstract")) for p in store.papers.iter()]
    old = load_vocabulary(store, cached=False)
    # a vocabulary from before the term counts is rebuilt (its terms' vectors reused)
    current = old is not None and not force and old.df is not None and is_current(old, len(texts))
    if old is not None and current and old.basis is None:
        old.basis = principal_basis(old.vectors)  # a vocabulary from before the basis: add it
        if old.basis is not None:
            with store.transaction():
                store.vectors.put_model(
                    VOCAB_NAME, old.to_bytes(), {"terms": len(old.terms), "papers": old.papers}
                )
            _VOCABULARY.clear()
    if old is not None and current:
        return {"terms": len(old.terms), "embedded": 0}
    if embed is None:
        from paperatlas.embed import get_backend

        # loaded on the first term to embed: a vocabulary only gaining its term counts
        # (stored before them) embeds none
        def embed(texts: list[str]):
            return get_backend(MULTILINGUAL_MODEL).embed(texts)

    vocab, embedded = new_vocabulary(texts, embed, old, progress)
    with store.transaction():
        store.vectors.put_model(
            VOCAB_NAME, vocab.to_bytes(), {"terms": len(vocab.terms), "papers": len(texts)}
        )
    _VOCABULARY.clear()
    return {"terms": len(vocab.terms), "embedded": embedded}


# the stored vocabulary, and the one a query uses (`query_vocabulary`): ~30 MB each at 16k terms
_VOCABULARY = StoreCache(max_entries=3)


def _stored_version(store) -> Hashable:
    """Equal while the stored vocabulary is (its model's change count, migration 19); on
    an older store a new object each time (read it again after every change)."""
    if titles_changes(store) is None:
        return object()
    return model_changes(store, VOCAB_NAME)  # None: never stored, a state like any other


def load_vocabulary(store, cached: bool = True) -> Vocabulary | None:
    """The stored vocabulary (None before `build_vocabulary`), read once per change of it."""
    if cached:
        return _VOCABULARY.get(
            store,
            VOCAB_NAME,
            lambda: load_vocabulary(store, cached=False),
            version=lambda: _stored_version(store),
        )
    blob = store.vectors.get_model(VOCAB_NAME)
    return Vocabulary.from_bytes(blob) if blob else None


# A Chinese query in an atlas of at most ON_DEMAND_PAPERS papers builds the vocabulary
# when it is missing or out of date: a list just added and mapped (`map` leaves it out, a
# cost its picture does not need) answers a Chinese query without `paperatlas embed`.
# Embedding the terms beside the model's load, which the query needs anyway, measured
# 2026-12-02 (load 5): 19 papers, 2,731 terms, 1.5 s CPU; 300 papers, 2,831 terms, 1.5 s;
# 1,000 papers, 7,182 terms, 1.9 s. A full atlas has up to 16,000 terms, too many to embed
# inside a query: there `paperatlas embed` builds them, and until then a query's words
# match only the glossary's terms.
ON_DEMAND_PAPERS = 1_000


def query_vocabulary(store, embed: Callable[[list[str]], np.ndarray]) -> Vocabulary | None:
    """The vocabulary a Chinese query looks up (None: none usable): the stored one, built
    first in a small atlas (ON_DEMAND_PAPERS) when it is missing or out of date, and kept
    in memory only when the store is read-only."""
    return _VOCABULARY.get(
        store,
        (VOCAB_NAME, "query"),
        lambda: _ready_vocabulary(store, embed),
        # the papers decide too (their count, ON_DEMAND_PAPERS; their text, read-only): the
        # indexed text's version moves with both
        version=lambda: (_stored_version(store), store.fts.version()),
    )


def _ready_vocabulary(store, embed: Callable[[list[str]], np.ndarray]) -> Vocabulary | None:
    stored = load_vocabulary(store)  # the same object as the stored one's cache: one lookup table
    papers = store.papers.count()
    if (
        papers == 0
        or papers > ON_DEMAND_PAPERS
        or (stored is not None and stored.df is not None and is_current(stored, papers))
    ):
        return stored
    if store.read_only:
        texts = [embedding_text(p.get("title"), p.get("abstract")) for p in store.papers.iter()]
        return new_vocabulary(texts, embed, stored)[0]
    build_vocabulary(store, embed)
    return load_vocabulary(store)
