"""The default embedding back end: a static term-vector model shipped as one small file.

A text is cut into words and word pairs (the TF-IDF vocabulary of the model, English,
lower case); its vector is the TF-IDF-weighted mean of the vectors of its terms, then
L2-normalised. Thousands of abstracts per second on one core; no torch, and no
scikit-learn at run time (`embed/terms.py` cuts text as its vectorizer does). Each term's
vector concatenates blocks built by `scripts/build_static.py` (see there and
docs/bench/embeddings.md):

- meaning: the term embedded by all-MiniLM-L6-v2 (distillation into a static table),
- topics: latent semantic directions of ML abstracts (SVD of TF-IDF),
- areas: how strongly the term points to each ICLR primary area (a linear classifier's
  weights), so that papers of one research area sit together.

Every block was fit on the training part of the ICLR 2026 data only (the papers that
`enrich.areas.is_held_out` leaves out are the evaluation set).
"""

from __future__ import annotations

import json
from importlib import resources
from itertools import repeat
from pathlib import Path

import numpy as np

from paperatlas.embed.base import WARM_UP_TEXT, EmbeddingBackend, file_fingerprint
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.terms import byte_word_finder, english_stopwords, term_analyzer
from paperatlas.errors import PaperatlasError
from paperatlas.text import tfidf_vectorizer

MODEL_FILE = "static-v1.npz"
# Search keeps this share of the area block's weight. The map wants one research area's
# papers together; a topical query wants topical neighbours, whatever their area. Chosen
# among 1, 1/2, 1/4 and 0 on the dev half of benchmarks/queries (docs/bench/search.md).
RETRIEVAL_AREA_SHARE = 0.5
# From this many texts one sparse matrix product (scipy) is faster than a numpy product per
# text; below it, scipy is not imported (0.3 s of a fresh process placing a short list).
SPARSE_FROM = 200


def model_path() -> Path:
    return Path(str(resources.files("paperatlas") / "models" / MODEL_FILE))


def term_vectorizer(vocabulary=None, ngram_range=(1, 2), **kwargs):
    """The tokenisation and weighting every static-model term table is keyed by: the
    project's one TF-IDF set-up (`paperatlas.text.tfidf_vectorizer`), words and word pairs."""
    return tfidf_vectorizer(vocabulary=vocabulary, ngram_range=ngram_range, **kwargs)


def _existing(path: str | Path | None) -> Path:
    path = Path(path) if path is not None else model_path()
    if not path.exists():
        raise PaperatlasError(
            f"{path}: static model file missing; rebuild it with "
            "scripts/build_static.py or reinstall paperatlas"
        )
    return path


def read_meta(path: str | Path | None = None) -> dict:
    """The model file's description (its blocks, their weights, ...) without loading the
    term table (a millisecond instead of two seconds)."""
    with np.load(_existing(path), allow_pickle=False) as z:
        return json.loads(str(z["meta"]))


def area_weights(meta: dict) -> np.ndarray:
    """Per-dimension weights for search: the area block scaled by RETRIEVAL_AREA_SHARE."""
    blocks = meta.get("blocks", {})
    weights = np.ones(sum(blocks.values()), dtype=np.float32)
    start = 0
    for block, size in blocks.items():  # in table order
        if block == "areas":
            weights[start : start + size] = RETRIEVAL_AREA_SHARE
        start += size
    return weights


class StaticBackend(EmbeddingBackend):
    name = "static"
    description = (
        "static word vectors distilled from all-MiniLM-L6-v2 and tuned on ML abstracts (default; fastest)"
    )

    def __init__(
        self,
        vocab: list[str],
        idf: np.ndarray,
        table: np.ndarray,
        name: str = "static",
        meta: dict | None = None,
        ngram_range=(1, 2),
    ):
        self.name = name
        self.vocabulary = {t: i for i, t in enumerate(vocab)}
        self.idf = np.asarray(idf, dtype=np.float32)
        self.ngram_range = tuple(ngram_range)
        self.table = np.asarray(table, dtype=np.float32)
        self.dim = int(self.table.shape[1])
        self.meta = meta or {}
        # the vectorizer's tokens without importing scikit-learn (embed/terms.py)
        self._analyzer = term_analyzer(self.ngram_range[1])
        self._codes: _TermCodes | bool | None = None  # made by the first batch; False: none

    @property
    def vectorizer(self):
        """The equivalent fitted scikit-learn vectorizer (for scripts that fit with it)."""
        vectorizer = term_vectorizer(self.vocabulary, ngram_range=self.ngram_range)
        vectorizer.idf_ = self.idf
        return vectorizer

    @classmethod
    def load(
        cls, path: str | Path | None = None, name: str = "static", *, store=None, threads=None
    ) -> StaticBackend:
        path = _existing(path)
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            return cls(
                json.loads(str(z["vocab"])),
                z["idf"],
                z["table"],
                name=name,
                meta=meta,
                ngram_range=tuple(meta.get("ngram_range", (1, 2))),
            )

    @classmethod
    def fingerprint(cls) -> str:
        """The shipped file's bytes: a rebuilt model file makes old vectors stale."""
        return file_fingerprint(model_path())

    @classmethod
    def retrieval_weights(cls) -> np.ndarray:
        return area_weights(read_meta())

    @classmethod
    def info(cls) -> dict:
        meta = read_meta()
        return {k: meta[k] for k in ("blocks", "version") if k in meta}

    def save(self, path: str | Path) -> None:
        vocab = sorted(self.vocabulary, key=self.vocabulary.__getitem__)
        np.savez_compressed(
            path,
            vocab=np.asarray(json.dumps(vocab)),
            idf=self.idf.astype(np.float32),
            table=self.table.astype(np.float16),
            meta=np.asarray(json.dumps(self.meta)),
        )

    def encode(self, texts: list[str]) -> np.ndarray:
        if len(texts) < SPARSE_FROM:
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for i, text in enumerate(texts):
                out[i] = self._embed_one(text)
        else:
            out = np.asarray(self._weights(texts) @ self.table, dtype=np.float32)
        return normalise_rows(out)  # a text with no known term stays the zero vector

    def warm_up(self) -> None:
        """Also the batch path's term codes (~2 s, built by the first batch of SPARSE_FROM
        texts or more, which a short text does not take)."""
        self._weights([WARM_UP_TEXT])
        super().warm_up()

    def _counts(self, text: str) -> dict[int, int]:
        """How often each known term (by its row) occurs in the text, in the order of first
        occurrence (the order the sums run in)."""
        vocabulary = self.vocabulary
        counts: dict[int, int] = {}
        for term in self._analyzer(text):
            j = vocabulary.get(term)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        return counts

    def _tfidf(self, rows: np.ndarray, tf: np.ndarray) -> np.ndarray:
        """Sublinear tf x idf, as TfidfVectorizer weighs terms before its l2 norm (which
        drops out when the embedding is normalised)."""
        return (1.0 + np.log(tf.astype(np.float32))) * self.idf[rows]

    def _embed_one(self, text: str) -> np.ndarray:
        counts = self._counts(text)
        rows = np.fromiter(counts, dtype=np.int64, count=len(counts))
        tf = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        return self._tfidf(rows, tf) @ self.table[rows]

    def _weights(self, texts: list[str]):
        """The texts' term weights as one sparse matrix (texts x vocabulary): the same
        matrix, entry for entry and in the same order, as `_counts` of each text gives."""
        from scipy import sparse

        if self._codes is None:
            self._codes = _TermCodes.of(self.vocabulary, self.ngram_range) or False
        if isinstance(self._codes, _TermCodes):
            docs, indices, tf = self._codes.counts(texts)
            indptr = np.zeros(len(texts) + 1, dtype=np.int64)
            np.cumsum(np.bincount(docs, minlength=len(texts)), out=indptr[1:])
        else:  # a model with longer n-grams: text by text
            ends, rows, counts = [0], list[int](), list[int]()
            for text in texts:
                found = self._counts(text)
                rows.extend(found)
                counts.extend(found.values())
                ends.append(len(rows))
            indptr = np.asarray(ends, dtype=np.int64)
            indices = np.asarray(rows, dtype=np.int64)
            tf = np.asarray(counts, dtype=np.float32)
        data = self._tfidf(indices, tf.astype(np.float32))
        return sparse.csr_matrix((data, indices, indptr), shape=(len(texts), len(self.vocabulary)))


# words of a text: a vocabulary word's number; a stopword (dropped before pairs are made);
# any other word (it still breaks a pair)
_STOP, _UNKNOWN = -2, -1


class _TermCodes:
    """The vocabulary's words and word pairs as numbers, so a batch of texts is counted with
    one dictionary look-up per word of each text and array operations for the rest: no pair
    string is built or hashed (that and the per-term Python loop were ~3/4 of embedding a
    store; docs/bench/scale.md, "static embed and ANN build at 1M"). The counts come out as `_counts` gives them: every
    known word of a text in text order, then every known pair, each term at its first
    occurrence, so the sparse sums run in the same order and the vectors are identical."""

    def __init__(
        self, words: dict[bytes, int], word_rows: np.ndarray, pair_codes: np.ndarray, pair_rows: np.ndarray
    ):
        self.words = words  # word (UTF-8) -> number (stopwords -> _STOP)
        self.word_rows = word_rows  # number -> vocabulary row of the word alone, or -1
        self.pair_codes = pair_codes  # sorted: first word's number * len(word_rows) + second's
        self.pair_rows = pair_rows  # their vocabulary rows
        self.n_terms = 0
        self.words_of = byte_word_finder()

    @classmethod
    def of(cls, vocabulary: dict[str, int], ngram_range) -> _TermCodes | None:
        """The codes of a words-and-pairs vocabulary (ngram_range (1, 1) or (1, 2)); None
        for any other (the text-by-text path counts those)."""
        if tuple(ngram_range) not in ((1, 1), (1, 2)):
            return None
        words: dict[str, int] = {}
        split = [(term.split(" "), row) for term, row in vocabulary.items()]
        longest = 1 if tuple(ngram_range) == (1, 1) else 2
        if any(len(parts) > longest or "" in parts for parts, _ in split):
            return None
        for parts, _ in split:
            for word in parts:
                words.setdefault(word, len(words))
        word_rows = np.full(len(words), -1, dtype=np.int64)
        codes, rows = [], []
        for parts, row in split:
            if len(parts) == 1:
                word_rows[words[parts[0]]] = row
            else:
                codes.append(words[parts[0]] * len(words) + words[parts[1]])
                rows.append(row)
        stop = english_stopwords()
        if any(word in stop for word in words):  # the analyzer never makes such a term
            return None
        for word in stop:
            words[word] = _STOP
        coded = {word.encode("utf-8"): number for word, number in words.items()}
        order = np.argsort(np.asarray(codes, dtype=np.int64), kind="stable")
        codes_sorted = np.asarray(codes, dtype=np.int64)[order]
        if np.any(np.diff(codes_sorted) == 0):
            return None
        codes_obj = cls(coded, word_rows, codes_sorted, np.asarray(rows, dtype=np.int64)[order])
        codes_obj.n_terms = len(vocabulary)
        return codes_obj

    def counts(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(text number, vocabulary row, count) of every known term of the texts, text by
        text, each text's terms in `_counts` order."""
        get, words_of = self.words.get, self.words_of
        numbers: list[int] = []
        lengths: list[int] = []
        for text in texts:
            before = len(numbers)
            numbers.extend(map(get, words_of(text), repeat(_UNKNOWN)))
            lengths.append(len(numbers) - before)
        ids = np.asarray(numbers, dtype=np.int64)
        doc = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        kept = ids != _STOP
        ids, doc = ids[kept], doc[kept]  # the analyzer's words, stopwords out
        known = ids >= 0
        word_row = np.full(ids.shape[0], -1, dtype=np.int64)
        word_row[known] = self.word_rows[ids[known]]
        # pairs of neighbouring words of one text, both in the vocabulary's words
        pair_row = np.full(max(ids.shape[0] - 1, 0), -1, dtype=np.int64)
        if pair_row.shape[0] and self.pair_codes.shape[0]:
            first, second = ids[:-1], ids[1:]
            valid = (doc[:-1] == doc[1:]) & (first >= 0) & (second >= 0)
            code = first[valid] * self.word_rows.shape[0] + second[valid]
            at = np.minimum(np.searchsorted(self.pair_codes, code), self.pair_codes.shape[0] - 1)
            hit = self.pair_codes[at] == code
            rows_valid = np.full(code.shape[0], -1, dtype=np.int64)
            rows_valid[hit] = self.pair_rows[at[hit]]
            pair_row[valid] = rows_valid
        # the analyzer's term order: a text's words, then its pairs
        term_doc = np.concatenate([doc, doc[: pair_row.shape[0]]])
        term_row = np.concatenate([word_row, pair_row])
        term_kind = np.concatenate(
            [np.zeros(word_row.shape[0], np.int8), np.ones(pair_row.shape[0], np.int8)]
        )
        order = np.lexsort((term_kind, term_doc))  # stable: text order within a kind
        order = order[term_row[order] >= 0]
        key = term_doc[order] * self.n_terms + term_row[order]
        unique, first_at, count = np.unique(key, return_index=True, return_counts=True)
        by_first = np.argsort(first_at, kind="stable")  # each term where it first occurs
        unique, count = unique[by_first], count[by_first]
        return unique // self.n_terms, unique % self.n_terms, count
