"""The reference atlas: a big list's map (the field) that any other list is placed on.

A reference holds what is needed to read a short list against its field, without the
field's papers: the broad and fine topics of the reference list with their labels and
centroids (in the embedding model's space), the 2D layout of the reference papers (coordinates
and topic of each, to draw the field in grey), the reference papers' vectors reduced to a
few principal components and stored as 8-bit integers (to place new papers by their nearest
reference papers), and the words that are generic across the field (spread evenly over all
its topics), which the labeller never uses to name a topic.

Placing a paper: its vector is projected on the stored components; its K most similar
reference papers vote (by similarity) for a broad topic, then for a fine topic inside it
(a short list's paper, whose text is read too, goes to the best-voted near topic whose label
its text supports: `SupportedChoice`);
the vote share is the confidence, and the position is the similarity-weighted mean of the
voting neighbours of the winning fine topic (so a paper lands inside its topic, not between
two). `scripts/build_reference.py` builds the shipped ICLR 2026 reference (`models/`);
`paperatlas reference build --list NAME` makes any big list of the store a reference, kept
in the store beside the papers.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.atlas.nearest import each_block, top_k
from paperatlas.embed import DEFAULT_MODEL
from paperatlas.errors import PaperatlasError

SHIPPED = "iclr2026"
SHIPPED_FILE = "reference-v1.npz"
FORMAT = 1
# Nearest reference papers that vote for a paper's topic.
K = 15
# Principal components the reference vectors are kept in (of the static model's 277).
DIMS = 96
# A placed paper whose broad-topic vote share is below this is drawn as an outlier.
MIN_CONFIDENCE = 0.34
# A word is generic when it is used by at least this share of the reference papers ...
GENERIC_MIN_SHARE = 0.004
# ... and its use is spread this evenly over the fine topics (normalised entropy of its
# per-topic rates, 1 = the same rate in every topic).
GENERIC_SPREAD = 0.90
# ... unless authors use the word as a whole keyword (at least this share of papers):
# "optimization", "robustness", "generalization" spread over all topics too, yet they name
# research topics. label_words.GENERIC ("benchmark", "dataset", ...) stay generic.
KEYWORD_SHARE = 0.002
# A placed paper may go to a topic its text supports when that topic has at least this
# share of its nearest reference papers' vote (a near topic, not a stray neighbour's).
SUPPORTED_VOTE = 0.2
# Short lists (fewer papers than this) are grouped by the reference by default.
SHORT_LIST = 200
_STORE_PREFIX = "reference:"
_CURRENT = "reference-in-use"
_WORD = re.compile(r"[a-z][a-z0-9\-]*[a-z0-9]")


@dataclass
class Placement:
    """Where each paper of a list sits on a reference."""

    broad: np.ndarray  # [n] reference broad topic id
    fine: np.ndarray  # [n] reference fine topic id (a child of broad)
    broad_conf: np.ndarray  # [n] share of the neighbours' vote for the broad topic
    fine_conf: np.ndarray  # [n] share of the broad topic's neighbours voting for the fine one
    xy: np.ndarray  # [n, 2] position on the reference layout, in [0, 1]


@dataclass
class SupportedChoice:
    """Where a placed paper goes when its own text is read too: the best-voted broad topic
    (at least SUPPORTED_VOTE of its neighbours' vote) whose label the text supports; when
    none is, the best-voted fine topic whose label it supports, in its broad topic; when
    none is either, where the vote puts it (the paper is then in its topic's "other" part).
    Inside the broad topic, the best-voted supported fine topic likewise."""

    papers: list[frozenset[str]]  # each placed paper's content-word stems
    broad: list[frozenset[str]]  # each broad label's
    fine: list[frozenset[str]]
    parent: np.ndarray  # [F] broad topic of each fine topic

    def broad_of(self, start: int, votes_b: np.ndarray, votes_f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(broad topic, fine topic or -1 when the fine level chose it) of each row."""
        b = votes_b.argmax(axis=1)
        forced = np.full(len(b), -1)
        for r in range(len(b)):
            words = self.papers[start + r]
            if not words:  # nothing to read (another script): the vote decides
                continue
            floor = SUPPORTED_VOTE * votes_b[r].sum()
            found = self._best_supported(votes_b[r], self.broad, words, floor)
            if found >= 0:
                b[r] = found
                continue
            fine = self._best_supported(votes_f[r], self.fine, words, floor)
            if fine >= 0:
                b[r], forced[r] = self.parent[fine], fine
        return b, forced

    def fine_of(self, start: int, votes_f: np.ndarray, f: np.ndarray, forced: np.ndarray) -> np.ndarray:
        """Each row's fine topic: the one the fine level chose, else the best-voted fine
        topic of its broad topic (`votes_f`) whose label the text supports, else `f`."""
        f = np.where(forced >= 0, forced, f)
        for r in np.flatnonzero(forced < 0):
            words = self.papers[start + r]
            if words and not words & self.fine[f[r]]:
                found = self._best_supported(votes_f[r], self.fine, words, SUPPORTED_VOTE * votes_f[r].sum())
                f[r] = found if found >= 0 else f[r]
        return f

    @staticmethod
    def _best_supported(
        votes: np.ndarray, labels: list[frozenset[str]], words: frozenset[str], floor: float
    ) -> int:
        for t in np.argsort(-votes, kind="stable"):
            if votes[t] < floor or votes[t] <= 0:
                break
            if words & labels[t]:
                return int(t)
        return -1


@dataclass
class Reference:
    name: str
    meta: dict[str, Any]
    broad_labels: list[str]
    fine_labels: list[str]
    fine_parent: np.ndarray  # [F]
    broad_xy: np.ndarray  # [B, 2] label points on the layout
    fine_xy: np.ndarray  # [F, 2]
    broad_size: np.ndarray  # [B]
    fine_size: np.ndarray  # [F]
    broad_centroids: np.ndarray  # [B, d] unit mean vectors in the model's space (float16)
    fine_centroids: np.ndarray  # [F, d]
    xy: np.ndarray  # [N, 2] reference papers on the layout (float16)
    point_broad: np.ndarray  # [N]
    point_fine: np.ndarray  # [N]
    mean: np.ndarray  # [d] centre of the reference vectors
    basis: np.ndarray  # [d, r] principal components
    codes: np.ndarray  # [N, r] int8 reduced unit vectors (scaled by 127)
    generic_words: list[str]
    ids: list[str]  # [N] the reference papers' ids (to evaluate, to explain)

    @property
    def model(self) -> str:
        return self.meta.get("model", DEFAULT_MODEL)

    # -- placing papers -----------------------------------------------------------------------

    def reduce(self, vectors: np.ndarray) -> np.ndarray:
        from paperatlas.embed.normalise import normalise_rows

        v = normalise_rows(np.asarray(vectors, dtype=np.float32))
        return normalise_rows((v - self.mean) @ self.basis)

    @property
    def common_stems(self) -> list[str]:
        """Stems used by so many of the field's papers that they support no label."""
        return list(self.meta.get("common_stems") or ())

    def label_support(self):
        """The rule that tells whether a paper's text supports one of this reference's labels
        (the labeller's: the field's generic and common words support nothing)."""
        from paperatlas.atlas.labels import support_words

        words = support_words(self.generic_words)
        words.common = set(self.common_stems)
        return words

    def place(self, vectors: np.ndarray, k: int = K, texts: list[str] | None = None) -> Placement:
        """Each paper's broad and fine topic by its K nearest reference papers' vote. With
        `texts` (each paper's title and abstract), a paper goes to the best-voted topic whose
        label its own text supports (`SupportedChoice`), else where the vote puts it."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.basis.shape[0]:
            raise PaperatlasError(
                f"reference {self.name!r} is in a {self.basis.shape[0]}-dimensional space "
                f"({self.model}); these vectors have {vectors.shape[-1]} dimensions"
            )
        n = len(vectors)
        codes = self.codes.astype(np.float32) / 127.0
        k = min(k, len(codes))
        broad = np.zeros(n, dtype=np.int64)
        fine = np.zeros(n, dtype=np.int64)
        bconf = np.zeros(n, dtype=np.float32)
        fconf = np.zeros(n, dtype=np.float32)
        xy = np.zeros((n, 2), dtype=np.float32)
        n_broad, n_fine = len(self.broad_labels), len(self.fine_labels)
        choice = None
        if texts is not None:
            words = self.label_support()
            choice = SupportedChoice(
                papers=[words.stems(t) for t in texts],
                broad=[words.stems(label) for label in self.broad_labels],
                fine=[words.stems(label) for label in self.fine_labels],
                parent=self.fine_parent,
            )

        def place_block(start: int) -> None:
            # the k most similar reference papers, exactly (nearest.top_k: the same set as a
            # full partition of each row, at a fifth of its cost), most similar first
            part, top = top_k(self.reduce(vectors[start : start + 1024]) @ codes.T, k)
            weight = (np.maximum(top, 0.0) ** 2 + 1e-6).astype(np.float64)
            rows = np.repeat(np.arange(len(part)), k)
            nb_broad, nb_fine = self.point_broad[part], self.point_fine[part]
            votes_b = np.zeros((len(part), n_broad))
            np.add.at(votes_b, (rows, nb_broad.ravel()), weight.ravel())
            b = votes_b.argmax(axis=1)
            chosen_fine = np.full(len(part), -1)
            if choice is not None:
                votes_all = np.zeros((len(part), n_fine))
                np.add.at(votes_all, (rows, nb_fine.ravel()), weight.ravel())
                b, chosen_fine = choice.broad_of(start, votes_b, votes_all)
            inside = nb_broad == b[:, None]  # the fine topic is voted among the broad's papers
            w_in = np.where(inside, weight, 0.0)
            votes_f = np.zeros((len(part), n_fine))
            np.add.at(votes_f, (rows, nb_fine.ravel()), w_in.ravel())
            f = votes_f.argmax(axis=1)
            if choice is not None:
                f = choice.fine_of(start, votes_f, f, chosen_fine)
            rows_ = slice(start, start + len(part))
            broad[rows_], fine[rows_] = b, f
            bconf[rows_] = votes_b[np.arange(len(part)), b] / weight.sum(axis=1)
            fconf[rows_] = votes_f[np.arange(len(part)), f] / w_in.sum(axis=1)
            chosen = np.where(nb_fine == f[:, None], weight, 0.0)  # a subset of `inside`
            pts = self.xy[part].astype(np.float64)  # [rows, k, 2]
            xy[rows_] = (pts * chosen[:, :, None]).sum(axis=1) / chosen.sum(axis=1)[:, None]

        # the blocks on every core from nearest.PARALLEL_FROM papers (the same answer)
        each_block(place_block, n, 1024)
        empty = ~np.any(vectors, axis=1)
        bconf[empty] = 0.0
        fconf[empty] = 0.0
        return Placement(broad=broad, fine=fine, broad_conf=bconf, fine_conf=fconf, xy=xy)

    # -- saving and loading ----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            meta=np.array(json.dumps({**self.meta, "name": self.name, "format": FORMAT})),
            broad_labels=np.array(self.broad_labels),
            fine_labels=np.array(self.fine_labels),
            fine_parent=self.fine_parent.astype(np.int16),
            broad_xy=self.broad_xy.astype(np.float32),
            fine_xy=self.fine_xy.astype(np.float32),
            broad_size=self.broad_size.astype(np.int32),
            fine_size=self.fine_size.astype(np.int32),
            broad_centroids=self.broad_centroids.astype(np.float16),
            fine_centroids=self.fine_centroids.astype(np.float16),
            xy=self.xy.astype(np.float16),
            point_broad=self.point_broad.astype(np.int16),
            point_fine=self.point_fine.astype(np.int16),
            mean=self.mean.astype(np.float32),
            basis=self.basis.astype(np.float16),
            codes=self.codes.astype(np.int8),
            generic_words=np.array(self.generic_words or [""]),
            ids=np.array(self.ids),
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes | Path) -> Reference:
        source = io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data
        with np.load(source, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT:
                raise PaperatlasError(
                    f"reference format {meta.get('format')} is not "
                    f"{FORMAT}: rebuild it with `paperatlas reference build`"
                )
            return cls(
                name=meta["name"],
                meta=meta,
                broad_labels=[str(s) for s in z["broad_labels"]],
                fine_labels=[str(s) for s in z["fine_labels"]],
                fine_parent=z["fine_parent"].astype(np.int64),
                broad_xy=z["broad_xy"],
                fine_xy=z["fine_xy"],
                broad_size=z["broad_size"],
                fine_size=z["fine_size"],
                broad_centroids=z["broad_centroids"],
                fine_centroids=z["fine_centroids"],
                xy=z["xy"],
                point_broad=z["point_broad"].astype(np.int64),
                point_fine=z["point_fine"].astype(np.int64),
                mean=z["mean"],
                basis=z["basis"].astype(np.float32),
                codes=z["codes"],
                generic_words=[str(s) for s in z["generic_words"] if str(s)],
                ids=[str(s) for s in z["ids"]],
            )

    def field(self, max_points: int = 6000) -> dict[str, Any]:
        """The reference layout for drawing the field: [x, y, broad] rows (an even sample
        when there are more than max_points) and the broad topics' labels and places."""
        n = len(self.xy)
        rows = np.linspace(0, n - 1, min(n, max_points)).astype(int)
        return {
            "name": self.name,
            "papers": n,
            "title": self.meta.get("title", self.name),
            "points": [
                [round(float(self.xy[i, 0]), 4), round(float(self.xy[i, 1]), 4), int(self.point_broad[i])]
                for i in rows
            ],
            "broad": [
                {
                    "id": b,
                    "label": self.broad_labels[b],
                    "size": int(self.broad_size[b]),
                    "x": float(self.broad_xy[b, 0]),
                    "y": float(self.broad_xy[b, 1]),
                }
                for b in range(len(self.broad_labels))
            ],
        }


# -- which reference is in use --------------------------------------------------------------------


def shipped_path() -> Path:
    return Path(str(resources.files("paperatlas") / "models" / SHIPPED_FILE))


@lru_cache(maxsize=1)
def shipped() -> Reference | None:
    """The ICLR 2026 reference shipped in the package (None if the file is missing)."""
    path = shipped_path()
    return Reference.from_bytes(path) if path.exists() else None


def names(store) -> list[str]:
    """Every reference this store can use: the shipped one and those built from its lists."""
    index = _index(store)
    return ([SHIPPED] if shipped() is not None else []) + [n for n in index if n != SHIPPED]


def _index(store) -> list[str]:
    raw = store.vectors.get_model(_STORE_PREFIX + "*")
    return json.loads(raw.decode()) if raw else []


def in_use_name(store) -> str:
    raw = store.vectors.get_model(_CURRENT)
    return raw.decode() if raw else SHIPPED


def load(store, name: str | None = None) -> Reference | None:
    """A reference by name (default: the one in use); None when there is none."""
    name = name or in_use_name(store)
    if name == SHIPPED:
        return shipped()
    raw = store.vectors.get_model(_STORE_PREFIX + name)
    return Reference.from_bytes(raw) if raw else None


def use(store, name: str) -> None:
    if name not in names(store):
        raise PaperatlasError(f"no reference named {name!r} (references: {', '.join(names(store))})")
    store.vectors.put_model(_CURRENT, name.encode(), {"kind": "reference choice"})


def save(store, reference: Reference) -> None:
    """Keep a reference built from a list in the store, and make it the one in use."""
    if reference.name == SHIPPED:
        raise PaperatlasError(f"{SHIPPED!r} is the shipped reference's name: choose another")
    with store.transaction():
        store.vectors.put_model(
            _STORE_PREFIX + reference.name,
            reference.to_bytes(),
            {"kind": "reference", "papers": len(reference.xy)},
        )
        index = [n for n in _index(store) if n != reference.name] + [reference.name]
        store.vectors.put_model(_STORE_PREFIX + "*", json.dumps(index).encode(), {"kind": "index"})
        store.vectors.put_model(_CURRENT, reference.name.encode(), {"kind": "reference choice"})


# -- building a reference -------------------------------------------------------------------------


def content_words(text: str) -> set[str]:
    from paperatlas.atlas.label_words import FUNCTION, STOP

    return {
        w
        for w in _WORD.findall((text or "").lower())
        if len(w) >= 3 and w not in STOP and w not in FUNCTION and not w.isdigit()
    }


def learn_generic_words(
    texts: list[str],
    topics: np.ndarray,
    min_share: float = GENERIC_MIN_SHARE,
    spread: float = GENERIC_SPREAD,
    keywords: list[list[str]] | None = None,
) -> list[str]:
    """Words used all over the field: common enough, and used at nearly the same rate in
    every topic (normalised entropy of the per-topic rates >= spread). Such words
    ("baselines", "natural", "establishing") say nothing about what a topic is. A word
    authors give as a whole keyword often enough (`keywords`, per paper) is a topic word."""
    from paperatlas.atlas.label_words import GENERIC

    topics = np.asarray(topics)
    as_keyword: Counter = Counter()
    for kws in keywords or []:
        as_keyword.update({k.strip().lower() for k in kws if isinstance(k, str)})
    n_topics = int(topics.max()) + 1
    sizes = np.bincount(topics, minlength=n_topics).astype(np.float64)
    counts: dict[str, np.ndarray] = {}
    for text, t in zip(texts, topics):
        for w in content_words(text):
            row = counts.get(w)
            if row is None:
                row = counts[w] = np.zeros(n_topics)
            row[t] += 1
    n = len(texts)
    out = []
    for w, row in counts.items():
        if row.sum() < min_share * n:
            continue
        rates = row / np.maximum(sizes, 1)
        q = rates / rates.sum()
        nz = q[q > 0]
        entropy = float(-(nz * np.log(nz)).sum()) / math.log(n_topics)
        if entropy >= spread and (w in GENERIC or as_keyword[w] < KEYWORD_SHARE * n):
            out.append(w)
    return sorted(out)
