"""Search: keywords (BM25 over the store's FTS5 index) and meaning (vectors), fused.

- The query's language is read from its script (and, for Latin script, its function
  words). English goes to BM25 plus the default model's vectors, then one round of
  pseudo-relevance feedback (the centroid of the best hits searched again).
- Chinese (and other non-Latin) queries go to the multilingual model, whose vectors of
  the English abstracts live in the same space, plus feedback in the English model's
  space; Chinese terms the shipped glossary knows are translated word by word and
  searched like an English query (BM25 and English vectors). With no translation,
  BM25 only sees the query's stray Latin-script words ("KV"), down-weighted.
- User text never reaches FTS5 as syntax: it is cut into alphanumeric terms, each one
  quoted, joined with OR (plus the whole phrase for short queries); terms most papers
  contain are dropped.
- The ranked lists are fused (`FUSION`, chosen on the dev half of benchmarks/queries),
  restricted to the caller's filters, and paged.
- Each hit says why it matched (the query terms found, the cosine similarity) and
  carries a snippet as plain-text segments flagged `match` — front ends style those
  segments themselves and escape the text, so nothing from an abstract is ever HTML.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from paperatlas.errors import PaperatlasError, SearchError
from paperatlas.search import keyword as keyword_index

MULTILINGUAL_MODEL = "use-multilingual"
# all-MiniLM-L6-v2 (int8, onnxruntime): fused as a third signal when the atlas has its
# vectors (`paperatlas embed --model minilm-int8`)
MINILM_MODEL = "minilm-int8"
CANDIDATES = 200  # depth of each ranked list before fusion
MAX_QUERY_CHARS = 20_000  # longer text is cut (a pasted paper, not a query)
MAX_TERMS = 32  # distinct keyword terms sent to FTS5
MAX_K = 1000
MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"  # private-use code points: never in real text
SNIPPET_CHARS = 320

# Fusion of the keyword and vector rankings, chosen on the tuning half of the queries in
# benchmarks/queries (see docs/bench/search.md). "rrf": sum of w / (rrf_k + rank).
# "score": weighted sum of scaled scores; `keyword_scale` "ceiling" divides BM25 by the
# most the query's terms can give (`keyword_index.ceiling`), so a paper holding the
# query's one rare word ("CIMemories") keeps its full weight even when it is the only
# match; "minmax" scales each list by its own max and min (the fusion before issue 18,
# under which a list's only hit scores 0). Vector lists are min-max scaled.
# Feedback: see `expansion` below.
# Weights chosen on the tuning half of the known-item queries (benchmarks/search_eval.py,
# English types: names, titles, paraphrases; see docs/bench/search.md). Feedback weight 0:
# the expansion list gained nothing there, so it is not computed.
FUSION: dict[str, Any] = {
    "method": "score",
    "rrf_k": 60,
    "keyword_weight": 2.0,
    "vector_weight": 0.5,
    "feedback_weight": 0.0,
    "keyword_scale": "ceiling",
    "name_weight": 1.0,
    "minilm_weight": 0.5,
    "multilingual_weight": 0.125,
}
# Overrides of FUSION for queries in other languages (their terms come from a learned,
# noisier translation), chosen on the tuning half of the Chinese known-item queries with
# the glossary off.
FUSION_FOREIGN: dict[str, Any] = {
    "keyword_weight": 1.5,
    "vector_weight": 1.0,
    "minilm_weight": 1.0,
    "multilingual_weight": 2.0,
}


def fusion_for(language: str, fusion: dict[str, Any] | None = None) -> dict[str, Any]:
    """The fusion settings a query in `language` gets: FUSION, the foreign-language
    overrides, then the caller's."""
    return {**FUSION, **(FUSION_FOREIGN if language != "en" else {}), **(fusion or {})}


FEEDBACK_DOCS = 3  # papers whose vector centroid re-queries the index (feedback)
# BM25 weight factor for a non-English query the glossary could not translate (only its
# stray Latin-script words, e.g. "KV", can match the index).
FOREIGN_KEYWORD_WEIGHT = 0.3
# The shipped glossary (models/glossary_zh_en.tsv) adds its translation of the Chinese words
# it knows to the terms learned from the atlas's own vocabulary (crosslingual.py); the
# default of search()'s `glossary` parameter.
TRANSLATE = True
# The glossary overrides the learned terms: the Chinese words it knows are not looked up
# in the learned vocabulary (see docs/bench/search.md, need-based queries).
GLOSSARY_OVERRIDES = True
# (FUSION["multilingual_weight"]: the weight of the cross-lingual list beside a translated
# query's own English-model list, which was far better with the glossary: dev queries
# nDCG@10 0.77 vs 0.41, so it only nudged it; learned translations are noisier.)

STOPWORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers how i if in into is it its itself just me more most my
no nor not now of off on once only or other our ours out over own same she should so some
such than that the their them then there these they this those through to too under until
up very was we were what when where which while who whom why will with would you your
paper papers using use via based toward towards new approach method methods study
""".split()
)

# Function words that mark a Latin-script query as not English (need two of them).
_LATIN_LANGS = {
    "fr": "le la les des du une un est et pour dans sur avec pas que qui au aux ces sont par",
    "de": "der die das und ist nicht mit für ein eine den dem von zu auf im des sich wie",
    "es": "el la los las del una es y para en con por que se al como sobre más sin",
    "pt": "o a os as do da dos das um uma é e para em com por que não no na sobre",
    "it": "il lo la gli le del della di un una è e per con che non nel sulla dei",
    "nl": "de het een en van is niet met voor op zijn dat die te bij",
}
_LATIN_WORDS = {lang: frozenset(words.split()) for lang, words in _LATIN_LANGS.items()}

# (language, first, last code point) of scripts that name their language well enough.
_SCRIPT_RANGES = [
    ("ja", 0x3040, 0x30FF),  # hiragana, katakana
    ("ko", 0xAC00, 0xD7AF),  # hangul syllables
    ("ko", 0x1100, 0x11FF),
    ("zh", 0x4E00, 0x9FFF),  # CJK unified ideographs
    ("zh", 0x3400, 0x4DBF),
    ("zh", 0xF900, 0xFAFF),
    ("ru", 0x0400, 0x04FF),  # Cyrillic
    ("ar", 0x0600, 0x06FF),
    ("he", 0x0590, 0x05FF),
    ("el", 0x0370, 0x03FF),
    ("hi", 0x0900, 0x097F),  # Devanagari
    ("th", 0x0E00, 0x0E7F),
]
_CJK = {"zh", "ja", "ko"}
_TERM = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokenizer calls a token


# -- results ---------------------------------------------------------------------------------


@dataclass
class Hit:
    id: str
    title: str | None
    display_title: str | None
    score: float
    rank: int
    matched_terms: list[str] = field(default_factory=list)
    keyword_rank: int | None = None
    semantic_score: float | None = None
    semantic_rank: int | None = None
    # plain-text pieces of the abstract; `match` marks a matched term (render escaped)
    snippet: list[dict[str, Any]] = field(default_factory=list)
    area: str | None = None
    decision: str | None = None
    kind: str | None = None

    @property
    def label(self) -> str:
        return self.title or self.display_title or self.id

    def why(self) -> str:
        parts = []
        if self.matched_terms:
            parts.append("terms: " + ", ".join(self.matched_terms))
        if self.semantic_score is not None:
            parts.append(f"meaning: {self.semantic_score:.2f}")
        return "; ".join(parts) or "—"

    def snippet_text(self, open_mark: str = "[", close_mark: str = "]") -> str:
        return "".join(
            f"{open_mark}{s['text']}{close_mark}" if s["match"] else s["text"] for s in self.snippet
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["why"] = self.why()
        return d


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    total: int  # papers ranked (keyword matches plus nearest by meaning, to the depth)
    offset: int
    k: int
    language: str  # detected: "en", "zh", "fr", ...
    mode: str  # hybrid | keyword | semantic | cross-lingual | similar
    model: str | None  # the vector model used, if any
    notes: list[str] = field(default_factory=list)  # things the user should know

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hits"] = [h.to_dict() for h in self.hits]
        return d


# -- language ----------------------------------------------------------------------------------

DETECT_CHARS = 1000


def detect_language(text: str) -> str:
    """A language code for the query: from its script, or for Latin script from function
    words ("en" unless two or more words of another language say otherwise). The first
    DETECT_CHARS characters decide: they tell a pasted abstract's language as well as all
    of it, and the paper page asks this of every abstract it shows."""
    text = text[:DETECT_CHARS]
    counts: dict[str, int] = {}
    latin = 0
    # ASCII text has no other script to count (a whole abstract: ~1 ms saved per call)
    for ch in "" if text.isascii() else text:
        if not ch.isalpha():
            continue
        cp = ord(ch)
        if cp < 0x250:
            latin += 1
            continue
        for lang, lo, hi in _SCRIPT_RANGES:
            if lo <= cp <= hi:
                counts[lang] = counts.get(lang, 0) + 1
                break
    if counts:
        # Japanese is written with kanji too: any kana makes it Japanese.
        if counts.get("ja"):
            return "ja"
        lang, n = max(counts.items(), key=lambda kv: kv[1])
        # Two CJK characters carry a word; other scripts need a real share of the letters.
        if (lang in _CJK and n >= 2) or n >= max(2, 0.3 * (n + latin)):
            return lang
    words = _TERM.findall(text.lower())
    english = sum(map(STOPWORDS.__contains__, words))  # map: counted without Python frames
    best, best_n = "en", 1
    for lang, vocab in _LATIN_WORDS.items():
        n = sum(map(vocab.__contains__, words))
        if n > best_n and n > english:
            best, best_n = lang, n
    return best


# -- keyword side ------------------------------------------------------------------------------


def query_terms(text: str) -> list[str]:
    """The query's keyword terms as FTS5 will tokenise them: alphanumeric runs of Latin
    (and other alphabetic) script, stop words dropped unless nothing else is left,
    deduplicated, at most MAX_TERMS. CJK runs are left out: the index has no Chinese."""
    text = unicodedata.normalize("NFKC", text).lower()
    # "中的KV缓存" holds the term "kv": cut runs at CJK characters, keep the rest
    raw = [t for run in _TERM.findall(text) for t in _CJK_RUN.split(run) if t]
    content = [t for t in raw if t not in STOPWORDS]
    terms = list(dict.fromkeys(content or raw))
    return terms[:MAX_TERMS]


_CJK_RUN = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def match_expression(terms: list[str], phrase: bool = True) -> str | None:
    """A safe FTS5 MATCH expression: every term quoted, ORed; the whole phrase too when
    the query is short, so papers using the exact phrase rank first."""
    if not terms:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    whole = phrase_expression(terms) if phrase else None
    return " OR ".join(quoted + ([whole] if whole else []))


def phrase_expression(terms: list[str]) -> str | None:
    """The query's terms as one quoted FTS5 phrase, when the query is short enough."""
    if 2 <= len(terms) <= 6:
        return '"' + " ".join(t.replace('"', '""') for t in terms) + '"'
    return None


COMMON_TERM_SHARE = 0.25  # a term in more than this share of papers is dropped
MAX_KEYWORD_TERMS = 8  # FTS5 scores every paper any term matches: keep the rarest
_DF_CACHE: dict[tuple, dict[str, int]] = {}


def informative_terms(store, terms: list[str]) -> list[str]:
    """`terms` without those most papers contain ("model", "data", "training"), as long
    as another term is left: BM25 weighs such terms next to nothing (idf ~ 0), yet each
    makes FTS5 score most of the index."""
    if len(terms) < 2:
        return terms
    total = store.count_papers()
    key = (str(store.path), total)
    cache = _DF_CACHE.setdefault(key, {})
    if len(_DF_CACHE) > 8:  # stale stores
        for old in list(_DF_CACHE)[:-8]:
            _DF_CACHE.pop(old, None)
    missing = [t for t in terms if t not in cache]
    if missing:
        cache.update(keyword_index.doc_freq(store, missing))
    kept = [t for t in terms if cache.get(t, 0) <= COMMON_TERM_SHARE * total]
    if len(kept) > MAX_KEYWORD_TERMS:  # long text: its rarest terms, in its own order
        rarest = set(sorted(kept, key=lambda t: cache.get(t, 0))[:MAX_KEYWORD_TERMS])
        kept = [t for t in kept if t in rarest]
    return kept or [min(terms, key=lambda t: cache.get(t, 0))]


def keyword_ranking(
    store, terms: list[str], depth: int, allowed: set[str] | None, weights: dict[str, float] | None = None
) -> list[tuple[str, float]]:
    kept = informative_terms(store, terms)
    # the exact phrase only makes sense when no word inside it was dropped
    expr = match_expression(terms) if kept == terms else match_expression(kept, phrase=False)
    if expr is None:
        return []
    phrase = phrase_expression(terms) if kept == terms else None
    try:
        ranked = keyword_index.rank(store, kept, phrase, depth, within=allowed, weights=weights)
        if ranked is not None:
            return ranked
        return store.fts_search(expr, limit=depth, within=allowed)
    except sqlite3.OperationalError as exc:  # should not happen: every term is quoted
        raise SearchError(f"keyword search failed for this query ({exc})") from None


# -- names -----------------------------------------------------------------------------------------

_NAMES_CACHE: dict[tuple, tuple[dict[str, list[str]], dict[str, list[str]]]] = {}
MAX_NAME_WORDS = 4  # longest name looked for inside a query ("Relational Execution Tracker")


def _name_tables(store) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(lower-cased name -> ids, name as written -> ids) of the names papers introduce
    (enrich facts), read once per store change."""
    key = (str(store.path), store.change_counter())
    tables = _NAMES_CACHE.get(key)
    if tables is None:
        lower: dict[str, list[str]] = {}
        exact: dict[str, list[str]] = {}
        for pid, name in store.paper_names():
            name = " ".join(unicodedata.normalize("NFKC", name).split())
            lower.setdefault(name.lower(), []).append(pid)
            exact.setdefault(name, []).append(pid)
        _NAMES_CACHE.clear()
        tables = _NAMES_CACHE[key] = (lower, exact)
    return tables


def name_ranking(store, query: str, allowed: frozenset[str] | None = None) -> list[tuple[str, float]]:
    """Papers whose own name (CIMemories, BRAIN, "Relational Execution Tracker") the query
    is or contains: score 1 when the whole query is the name (any case), 0.5 when a name
    written with a capital or digit appears in the query as written ("CIMemories
    privacy"). A name is the one word that picks its paper out of thousands, even a name
    that is also an everyday word to BM25 (BRAIN, MENTOR)."""
    text = " ".join(unicodedata.normalize("NFKC", query).split())
    if not text or len(text) > 200:
        return []
    lower, exact = _name_tables(store)
    found: dict[str, float] = dict.fromkeys(lower.get(text.lower(), []), 1.0)
    words = [w.strip(".,;:!?()[]{}\"'“”") for w in text.split(" ")]
    for size in range(1, MAX_NAME_WORDS + 1):
        for start in range(len(words) - size + 1):
            piece = " ".join(words[start : start + size])
            if piece == text or not any(c.isupper() or c.isdigit() for c in piece):
                continue
            for pid in exact.get(piece, []):
                found.setdefault(pid, 0.5)
    ranked = [(pid, sc) for pid, sc in found.items() if allowed is None or pid in allowed]
    return sorted(ranked, key=lambda kv: (-kv[1], kv[0]))


# -- vector side ---------------------------------------------------------------------------------

_MODELS_CACHE: dict[tuple, list[str]] = {}


def vector_models_for(store, language: str) -> list[str]:
    """Models to try, best first, for a query in `language`."""
    from paperatlas.embed import DEFAULT_MODEL

    key = (str(store.path), store.change_counter())
    stored = _MODELS_CACHE.get(key)
    if stored is None:  # a scan of the embeddings table: once per database change
        _MODELS_CACHE.clear()
        stored = _MODELS_CACHE[key] = store.vector_models()
    if language == "en":
        order = [DEFAULT_MODEL] + sorted(m for m in stored if m != MULTILINGUAL_MODEL)
        order.append(MULTILINGUAL_MODEL)
    else:
        order = [MULTILINGUAL_MODEL]
    return [m for m in dict.fromkeys(order) if m in stored]


_QUERY_BACKENDS: dict[tuple, Any] = {}
_THREADPOOL: list[Any] = []


def _one_blas_thread():
    """A context where BLAS uses one thread: one query gains nothing from threads, and
    on a busy machine their spinning costs tens of milliseconds a call."""
    if not _THREADPOOL:
        try:
            from threadpoolctl import ThreadpoolController

            _THREADPOOL.append(ThreadpoolController())
        except Exception:  # threadpoolctl missing or confused: run as is
            _THREADPOOL.append(None)
    if _THREADPOOL[0] is None:
        from contextlib import nullcontext

        return nullcontext()
    return _THREADPOOL[0].limit(limits=1, user_api="blas")


def _query_backend(store, model: str):
    from paperatlas import embed

    if model == MULTILINGUAL_MODEL:
        key: tuple = (model,)
        if key not in _QUERY_BACKENDS:  # its own instance, pinned to one thread
            _QUERY_BACKENDS[key] = embed.MultilingualBackend(threads=1)
        return _QUERY_BACKENDS[key]
    if model == MINILM_MODEL:
        key = (model,)
        if key not in _QUERY_BACKENDS:  # one short query: one thread
            from paperatlas.embed.minilm_onnx import OnnxMiniLM

            _QUERY_BACKENDS[key] = OnnxMiniLM(threads=1)
        return _QUERY_BACKENDS[key]
    if model == "lsa":  # fitted per store: reload only when its vectors change
        key = (model, str(store.path), store.vector_signature(model))
        if key not in _QUERY_BACKENDS:
            _QUERY_BACKENDS[key] = embed.get_backend(model, store=store)
        return _QUERY_BACKENDS[key]
    return embed.get_backend(model, store=store)


def _embed(store, model: str, text: str):
    backend = _query_backend(store, model)
    with _one_blas_thread():
        return backend.embed([text])[0]


def _open_index(store, model: str):
    import sys

    from paperatlas.embed.index import open_index

    # the first search after a large embed builds the graph: show progress on a terminal
    return open_index(store, model, progress=sys.stderr.isatty())


# -- fusion ----------------------------------------------------------------------------------------


def fuse(rankings: list[tuple], method: str = "rrf", rrf_k: float = 60.0) -> list[tuple[str, float]]:
    """One ranking from several: each is (list of (id, score) best first, weight) or
    (list, weight, ceiling).

    "rrf": score = sum of weight / (rrf_k + rank). "score": a weighted sum (absent = 0)
    of each list's scores divided by its `ceiling` when one is given (an absolute scale:
    a list's only hit keeps its score), else scaled to [0, 1] by the list's own maximum
    and minimum.
    """
    fused: dict[str, float] = {}
    for ranking, weight, *rest in rankings:
        if not ranking or weight <= 0:
            continue
        ceiling = rest[0] if rest else None
        if method == "rrf":
            for rank, (pid, _) in enumerate(ranking, start=1):
                fused[pid] = fused.get(pid, 0.0) + weight / (rrf_k + rank)
        elif method == "score" and ceiling:
            for pid, s in ranking:
                fused[pid] = fused.get(pid, 0.0) + weight * s / ceiling
        elif method == "score":
            scores = [s for _, s in ranking]
            hi, lo = max(scores), min(scores)
            span = hi - lo or 1.0
            for pid, s in ranking:
                fused[pid] = fused.get(pid, 0.0) + weight * (s - lo) / span
        else:
            raise ValueError(f"unknown fusion method {method!r}")
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


# -- search -----------------------------------------------------------------------------------------


def _filters(list_name, area, kind, decision, has_code) -> dict[str, Any]:
    given = {"list_name": list_name, "area": area, "kind": kind, "decision": decision, "has_code": has_code}
    return {k: v for k, v in given.items() if v is not None}


_ALLOWED_CACHE: dict[tuple, frozenset[str]] = {}


def _allowed_ids(store, filters: dict[str, Any]) -> frozenset[str] | None:
    """The ids that pass `filters`. Filtering scans the papers table (~20 ms at 15k), and
    users repeat their filters: kept per filter set until the store changes."""
    if not filters:
        return None
    key = (str(store.path), store.change_counter(), tuple(sorted(filters.items())))
    allowed = _ALLOWED_CACHE.get(key)
    if allowed is None:
        allowed = frozenset(p["id"] for p in store.iter_papers(id_only=True, **filters))
        if len(_ALLOWED_CACHE) >= 32:
            _ALLOWED_CACHE.clear()
        _ALLOWED_CACHE[key] = allowed
    return allowed


def _check_paging(k: int, offset: int) -> None:
    if not isinstance(k, int) or k < 1 or k > MAX_K:
        raise SearchError(f"k must be between 1 and {MAX_K} (got {k})")
    if not isinstance(offset, int) or offset < 0:
        raise SearchError(f"offset must be 0 or more (got {offset})")


@dataclass
class Rankings:
    """The candidate lists for one query, before fusion."""

    language: str
    terms: list[str]  # keyword terms (of the translation, if any)
    keyword: list[tuple[str, float]]  # (id, bm25) best first
    vector: list[tuple[str, float]]  # (id, cosine) best first
    model: str | None
    notes: list[str]
    # Non-English queries only (empty otherwise):
    # the query translated word by word with the glossary, when any of it is known
    translation: str | None = None
    # the translation searched among the English model's vectors
    translated: list[tuple[str, float]] = field(default_factory=list)
    # neighbours, in the English model's space, of the papers the multilingual model
    # ranked first (pseudo-relevance feedback)
    feedback: list[tuple[str, float]] = field(default_factory=list)
    # neighbours of the papers that keywords and vectors together ranked first, in the
    # English model's space (pseudo-relevance feedback on the hybrid ranking; hybrid only)
    expansion: list[tuple[str, float]] = field(default_factory=list)
    # the most BM25 the keyword terms can give a paper (keyword_index.ceiling)
    keyword_ceiling: float = 0.0
    # papers whose own name the query is or holds (name_ranking)
    named: list[tuple[str, float]] = field(default_factory=list)
    # the query (or its translation) among the MiniLM vectors, when the atlas has them
    minilm: list[tuple[str, float]] = field(default_factory=list)
    # a non-English query translated by the glossary alone (no learned terms): fused with
    # the English weights, since its terms are as reliable as an English query's
    glossary_only: bool = False

    @property
    def fusion_language(self) -> str:
        """The language whose fusion weights apply (`fusion_for`)."""
        return "en" if self.glossary_only else self.language

    def keyword_list(self, fusion: dict[str, Any] | None = None) -> tuple:
        """The keyword list as `fuse` takes it: with its ceiling when the fusion scales
        BM25 by it."""
        fusion = fusion_for(self.fusion_language, fusion)
        if fusion.get("keyword_scale") == "ceiling" and self.keyword_ceiling > 0:
            return (self.keyword, fusion["keyword_weight"], self.keyword_ceiling)
        return (self.keyword, fusion["keyword_weight"])

    def semantic(self, fusion: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """The vector side alone. English: the vector list. Translated queries: the
        translation's English-model list, with the multilingual list as a light second
        opinion. Untranslated ones: the multilingual list and its feedback list."""
        fusion = fusion_for(self.fusion_language, fusion)
        if self.translated:
            return fuse(
                [(self.translated, 1.0), (self.vector, fusion["multilingual_weight"])], method="score"
            )
        if self.feedback:
            return fuse([(self.vector, 1.0), (self.feedback, 1.0)], method="rrf", rrf_k=fusion["rrf_k"])
        return self.vector


def candidate_rankings(
    store,
    query: str,
    depth: int = CANDIDATES,
    allowed: set[str] | None = None,
    keyword: bool = True,
    vectors: bool = True,
    fusion: dict[str, Any] | None = None,
    glossary: bool | None = None,
    learned: bool = True,
) -> Rankings:
    """The keyword (BM25) and vector rankings of `query`, each `depth` deep, among
    `allowed` papers (all when None). Routes by the query's language. `fusion`
    (overrides of FUSION) also shapes the first pass of the feedback expansion.
    `glossary`: add the shipped glossary's translation of a Chinese query to the terms
    learned from the atlas (default TRANSLATE); `learned=False` leaves the learned terms
    out (the translation before issue 18: glossary only)."""
    language = detect_language(query)
    glossary = TRANSLATE if glossary is None else glossary
    translation, weights, used_learned = None, None, False
    if language != "en":
        translation, weights, used_learned = _translate(store, query, language, glossary, learned)
    terms = query_terms(translation or query)
    notes: list[str] = []
    model, vec_ranking = None, []
    if vectors and allowed != set():
        models = vector_models_for(store, language)
        if models:
            model = models[0]
            vec_ranking = _vector_ranking(store, model, query, depth, allowed, notes)
        elif language != "en" and translation:
            notes.append(
                f"{_language_name(language)} query searched as the English terms of this "
                f"atlas it maps to ({translation}); `paperatlas embed --model "
                f"{MULTILINGUAL_MODEL}` adds cross-lingual meaning"
            )
        elif language != "en":
            notes.append(
                f"{_language_name(language)} query: this atlas has no {MULTILINGUAL_MODEL} "
                f"vectors, so it cannot search by meaning across languages; run "
                f"`paperatlas embed --model {MULTILINGUAL_MODEL}` first"
                + ("; showing keyword matches of its known terms" if terms and keyword else "")
            )
        else:
            notes.append(
                "no vectors in this atlas yet: run `paperatlas embed` to search by "
                "meaning" + ("; showing keyword matches only" if keyword else "")
            )
    feedback, translated, english = [], [], []
    if vectors and language != "en" and allowed != set():
        english = [m for m in vector_models_for(store, "en") if m != MULTILINGUAL_MODEL]
        if english and translation:
            translated = _vector_ranking(store, english[0], translation, depth, allowed, notes)
        elif english:
            feedback = _feedback_ranking(store, english[0], vec_ranking, depth, allowed)
    kw_ranking: list[tuple[str, float]] = []
    ceiling = 0.0
    if keyword and allowed != set():
        kw_ranking = keyword_ranking(store, terms, depth, allowed, weights)
        if kw_ranking:
            ceiling = keyword_index.ceiling(store, informative_terms(store, terms), weights)
        if not terms and language != "en" and not vectors:
            notes.append(
                f"keyword search cannot match a {_language_name(language)} query "
                "against English abstracts; search without --mode keyword"
            )
    named = name_ranking(store, query, allowed) if keyword and allowed != set() else []
    r = Rankings(
        language,
        terms,
        kw_ranking,
        vec_ranking,
        model,
        notes,
        translation,
        translated,
        feedback,
        keyword_ceiling=ceiling,
        named=named,
        glossary_only=bool(translation) and not used_learned,
    )
    minilm_text = query if language == "en" else translation
    if (
        vectors
        and allowed != set()
        and minilm_text
        and model != MINILM_MODEL
        and fusion_for(r.fusion_language, fusion).get("minilm_weight", 0.0) > 0
        and MINILM_MODEL in vector_models_for(store, "en")
    ):
        r.minilm = _vector_ranking(store, MINILM_MODEL, minilm_text, depth, allowed, notes)
    semantic = r.semantic()
    english_model = model if language == "en" else (english[0] if vectors and english else None)
    # (tried for translated Chinese queries too: no gain on the dev queries, so English only)
    f = fusion_for(r.fusion_language, fusion)
    if kw_ranking and semantic and english_model and language == "en" and f.get("feedback_weight", 0.0) > 0:
        kw = r.keyword_list(f)
        first = fuse(
            [(kw[0], 1.0, *kw[2:]), (semantic, 1.0), (named, f.get("name_weight", 0.0), 1.0)],
            method=f["method"],
            rrf_k=f["rrf_k"],
        )  # equal weights for the first pass
        r.expansion = _feedback_ranking(store, english_model, first, depth, allowed)
    return r


def _vector_ranking(
    store, model: str, text: str, depth: int, allowed: set[str] | None, notes: list[str]
) -> list[tuple[str, float]]:
    index = _open_index(store, model)
    if index is None:
        return []
    try:
        qvec = _embed(store, model, text)
    except PaperatlasError as exc:  # e.g. vectors whose model cannot load here
        notes.append(f"cannot search by meaning with {model}: {exc}")
        return []
    qvec = np.asarray(qvec, dtype=np.float32)
    if not np.isfinite(qvec).all() or float(np.abs(qvec).max(initial=0.0)) == 0.0:
        return []  # no word of the text is known to the model: it says nothing of meaning
    with _one_blas_thread():
        ranked = index.search(qvec, depth, allowed)
    # a paper with nothing in common with the query (cosine <= 0) is no match by meaning
    return [(pid, s) for pid, s in ranked if s > 0.0]


def _feedback_ranking(
    store, model: str, vec_ranking, depth: int, allowed: set[str] | None
) -> list[tuple[str, float]]:
    """The rank-weighted centroid of the first FEEDBACK_DOCS papers of a ranking,
    searched again among `model`'s vectors. After a cross-lingual search, the English
    model places English abstracts more precisely than the multilingual model; after a
    hybrid search, it finds papers near the best hits that share no word with the query."""
    index = _open_index(store, model) if vec_ranking else None
    if index is None:
        return []
    top = [pid for pid, _ in vec_ranking[:FEEDBACK_DOCS]]
    found, vectors = index.vectors_of(top)
    if not found:
        return []
    weights = [1.0 / (1 + top.index(pid)) for pid in found]
    centroid = (vectors * np.asarray(weights, dtype=np.float32)[:, None]).sum(axis=0)
    with _one_blas_thread():
        return index.search(centroid, depth, allowed)


def fuse_rankings(r: Rankings, fusion: dict[str, Any] | None = None) -> tuple[list[tuple[str, float]], str]:
    """(fused ranking, mode) from the keyword side and the vector side."""
    fusion = fusion_for(r.fusion_language, fusion)
    semantic = r.semantic(fusion)
    named = [(r.named, fusion.get("name_weight", 0.0), 1.0)] if r.named else []
    if not semantic and not named:
        return r.keyword, "keyword"
    if not r.keyword and not named:
        return semantic, "semantic"
    lists = list(named)
    if r.keyword:
        keyword = r.keyword_list(fusion)
        if r.language != "en" and not r.translation:  # only stray Latin words to match
            keyword = (keyword[0], keyword[1] * FOREIGN_KEYWORD_WEIGHT, *keyword[2:])
        lists.append(keyword)
    if semantic:
        lists.append((semantic, fusion["vector_weight"]))
    if r.minilm:
        lists.append((r.minilm, fusion.get("minilm_weight", 0.0)))
    if r.expansion:
        lists.append((r.expansion, fusion["feedback_weight"]))
    mode = "hybrid" if r.keyword and semantic else "keyword" if r.keyword else "semantic"
    fused = fuse(lists, method=fusion["method"], rrf_k=fusion["rrf_k"])
    # a paper that scored nothing on any list (the last of a min-max scaled list) is not
    # a hit: listing it would show a result with no matched term and no meaning
    return [(pid, s) for pid, s in fused if s > 0.0], mode


# -- query translation ---------------------------------------------------------------------------

_GLOSSARY: dict[str, str] = {}


def _glossary() -> dict[str, str]:
    if not _GLOSSARY:
        from importlib import resources

        path = resources.files("paperatlas") / "models" / "glossary_zh_en.tsv"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#") and "\t" in line:
                zh, en = line.split("\t", 1)
                _GLOSSARY[zh.strip()] = en.strip()
    return _GLOSSARY


def _translate(
    store, query: str, language: str, glossary: bool, learned: bool = True
) -> tuple[str | None, dict[str, float] | None, bool]:
    """(English text, keyword term -> weight, whether learned terms are among them) for a
    non-English query: with `glossary`, the glossary's translation of the words it knows
    at weight 1; for Chinese, the words it does not know (all of them without `glossary`)
    as the nearest English terms of the atlas's own vocabulary (crosslingual.translate,
    needs the multilingual model); the query's own Latin-script words ("for video") at
    weight 1."""
    weights: dict[str, float] = {}
    used_learned = False
    rest = query  # what the learned terms look up: the words the glossary does not know
    if glossary:
        known = translate_query(query)
        for word in query_terms(known or ""):
            weights[word] = 1.0
        if known and GLOSSARY_OVERRIDES:
            rest = glossary_rest(query)
    if language == "zh" and learned and _CJK_RUN.search(rest):
        from paperatlas.search import translate as crosslingual

        def embed(texts: list[str]):
            with _one_blas_thread():
                return _query_backend(store, MULTILINGUAL_MODEL).embed(texts)

        try:
            with _one_blas_thread():  # its product with the vocabulary: one thread
                learned = crosslingual.translate(store, rest, embed)
        except (PaperatlasError, ImportError):  # no multilingual model or jieba here
            learned = None
        for term, w in learned.terms.items() if learned else []:
            for word in query_terms(term):
                weights[word] = max(weights.get(word, 0.0), w)
                used_learned = True
    if not weights:
        return None, None, False
    latin = [t for t in query_terms(_CJK_RUN.sub(" ", query)) if t not in weights]
    for word in latin:
        weights[word] = 1.0
    return " ".join(weights), weights, used_learned


def _glossary_spans(piece: str) -> list[tuple[int, int, str]]:
    """(start, end, English) of the glossary's terms in a CJK run, longest match first
    from the left."""
    glossary = _glossary()
    longest = max(map(len, glossary), default=0)
    spans = []
    i = 0
    while i < len(piece):
        for size in range(min(longest, len(piece) - i), 1, -1):
            en = glossary.get(piece[i : i + size])
            if en is not None:
                spans.append((i, i + size, en))
                i += size
                break
        else:
            i += 1  # an unknown character: skip it
    return spans


def glossary_rest(text: str) -> str:
    """`text` with the Chinese terms the glossary knows cut out (a space in their place):
    the words left for the learned translation."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    for piece in re.split(f"({_CJK_RUN.pattern})", text):
        if not _CJK_RUN.fullmatch(piece or "-"):
            out.append(piece)
            continue
        pos = 0
        for start, end, _ in _glossary_spans(piece):
            out.append(piece[pos:start] + " ")
            pos = end
        out.append(piece[pos:])
    return "".join(out)


def translate_query(text: str) -> str | None:
    """The query's CJK text translated term by term (longest glossary match first), with
    its Latin-script words kept; None when no term is known."""
    words: list[str] = []
    known = False
    for piece in re.split(f"({_CJK_RUN.pattern})", unicodedata.normalize("NFKC", text)):
        if not piece:
            continue
        if not _CJK_RUN.fullmatch(piece):
            words += _TERM.findall(piece)
            continue
        for _, _, en in _glossary_spans(piece):
            words.append(en)
            known = True
    return " ".join(dict.fromkeys(words)) if known else None


def search(
    store,
    query: str,
    k: int = 20,
    offset: int = 0,
    list_name: str | None = None,
    area: str | None = None,
    kind: str | None = None,
    decision: str | None = None,
    has_code: bool | None = None,
    method: str = "auto",
    fusion: dict[str, Any] | None = None,
    glossary: bool | None = None,
    learned: bool = True,
) -> SearchResult:
    """Rank the store's papers for `query`; return hits offset..offset+k.

    `method`: "auto"/"hybrid" (both when vectors exist), "keyword" (BM25 only) or
    "semantic" (vectors only). `fusion` overrides FUSION (used by the benchmark);
    `glossary=False` translates Chinese queries with learned terms only.
    """
    if query is None or not str(query).strip():
        raise SearchError("empty query: give some words to search for")
    if method not in ("auto", "hybrid", "keyword", "semantic"):
        raise SearchError(f"unknown search method {method!r} (auto, hybrid, keyword, semantic)")
    _check_paging(k, offset)
    query = str(query)
    cut_note = []
    if len(query) > MAX_QUERY_CHARS:
        cut_note.append(f"query cut to its first {MAX_QUERY_CHARS:,} characters")
        query = query[:MAX_QUERY_CHARS]
    allowed = _allowed_ids(store, _filters(list_name, area, kind, decision, has_code))
    r = candidate_rankings(
        store,
        query,
        depth=max(CANDIDATES, offset + k),
        allowed=allowed,
        keyword=method != "semantic",
        vectors=method != "keyword",
        fusion=fusion,
        glossary=glossary,
        learned=learned,
    )
    ranked, mode = fuse_rankings(r, fusion)
    if r.language != "en" and r.vector:
        mode = "cross-lingual"
    if allowed == set():
        r.notes.append("no paper matches the filters")
    elif not ranked and not r.notes:
        r.notes.append("no paper matches this query")
    page = ranked[offset : offset + k]
    seen = {pid for pid, _ in r.vector}
    semantic = r.vector + [h for h in r.translated + r.feedback if h[0] not in seen]
    hits = _make_hits(store, page, offset, r.terms, r.keyword, semantic)
    return SearchResult(
        query=query,
        hits=hits,
        total=len(ranked),
        offset=offset,
        k=k,
        language=r.language,
        mode=mode,
        model=r.model,
        notes=cut_note + r.notes,
    )


def _language_name(code: str) -> str:
    names = {
        "zh": "Chinese",
        "ja": "Japanese",
        "ko": "Korean",
        "ru": "Russian",
        "ar": "Arabic",
        "he": "Hebrew",
        "el": "Greek",
        "hi": "Hindi",
        "th": "Thai",
        "fr": "French",
        "de": "German",
        "es": "Spanish",
        "pt": "Portuguese",
        "it": "Italian",
        "nl": "Dutch",
        "en": "English",
    }
    return names.get(code, code)


# -- more like this --------------------------------------------------------------------------------


def similar(
    store,
    paper_id: str | None = None,
    text: str | None = None,
    k: int = 10,
    offset: int = 0,
    list_name: str | None = None,
    area: str | None = None,
    kind: str | None = None,
    decision: str | None = None,
    has_code: bool | None = None,
) -> SearchResult:
    """The papers closest in meaning to one paper (by id or unique id prefix) or to a
    free text (an abstract being written, a paragraph from a paper)."""
    if (paper_id is None) == (text is None):
        raise SearchError("give either a paper id or a text to find similar papers")
    _check_paging(k, offset)
    notes: list[str] = []
    exclude: str | None = None
    if paper_id is not None:
        full = store.resolve_id(str(paper_id).strip())
        if full is None:
            raise SearchError(f"no paper with id {paper_id!r} (or the prefix is ambiguous)")
        paper = store.get_paper(full)
        from paperatlas.embed import embedding_text

        text = embedding_text(paper.get("title"), paper.get("abstract"))
        exclude = full
        query_label = full
    else:
        if not text.strip():
            raise SearchError("empty text: paste an abstract or a paragraph")
        if len(text) > MAX_QUERY_CHARS:
            notes.append(f"text cut to its first {MAX_QUERY_CHARS:,} characters")
            text = text[:MAX_QUERY_CHARS]
        query_label = text
    allowed = _allowed_ids(store, _filters(list_name, area, kind, decision, has_code))
    ranking, model, language = similar_ranking(store, text, offset + k, exclude, allowed)
    page = ranking[offset : offset + k]
    hits = _make_hits(store, page, offset, [], [], ranking)
    return SearchResult(
        query=query_label,
        hits=hits,
        total=len(ranking),
        offset=offset,
        k=k,
        language=language,
        mode="similar",
        model=model,
        notes=notes,
    )


def similar_ranking(
    store, text: str, depth: int, exclude: str | None = None, allowed: frozenset[str] | None = None
) -> tuple[list[tuple[str, float]], str, str]:
    """(the `depth` papers closest to `text`, model, language). With `exclude` (the paper
    whose text it is), that paper's stored vector is the query and it is left out."""
    language = detect_language(text)
    models = vector_models_for(store, language)
    if not models:
        wanted = "" if language == "en" else f" --model {MULTILINGUAL_MODEL}"
        raise SearchError(f"no vectors to compare with: run `paperatlas embed{wanted}` first")
    model = models[0]
    index = _open_index(store, model)
    if exclude is not None and allowed is None and hasattr(index, "neighbours"):
        known = index.neighbours(exclude, depth)  # see precompute_similar
        if known is not None:
            return known, model, language
    qvec = None
    if exclude is not None:
        got, matrix = store.get_vectors(model, [exclude])
        qvec = matrix[0] if got else None
    if qvec is None:
        qvec = _embed(store, model, text)
    ranked = index.search(qvec, depth + (1 if exclude else 0), allowed)
    return [h for h in ranked if h[0] != exclude][:depth], model, language


SIMILAR_TABLE_K = 20  # similar papers kept per paper by precompute_similar
SIMILAR_TABLE_MAX_PAPERS = 25_000  # a table costs n² products: ~3 s at 15k, ~8 s at 25k


def precompute_similar(store) -> bool:
    """Find every paper's SIMILAR_TABLE_K most similar papers now (in the English model's
    index, the one `similar_ranking` uses for English papers), for a server: a paper page
    then looks them up. False when the store is too large or has no vectors."""
    models = vector_models_for(store, "en")
    index = _open_index(store, models[0]) if models else None
    if index is None or len(index) > SIMILAR_TABLE_MAX_PAPERS or not hasattr(index, "build_neighbours"):
        return False
    index.build_neighbours(SIMILAR_TABLE_K)
    return True


# -- hits and snippets -------------------------------------------------------------------------------


def _make_hits(
    store,
    page: list[tuple[str, float]],
    offset: int,
    terms: list[str],
    kw_ranking: list[tuple[str, float]],
    vec_ranking: list[tuple[str, float]],
) -> list[Hit]:
    if not page:
        return []
    ids = [pid for pid, _ in page]
    kw_rank = {pid: r for r, (pid, _) in enumerate(kw_ranking, start=1)}
    vec = {pid: (r, s) for r, (pid, s) in enumerate(vec_ranking, start=1)}
    rows = {p["id"]: p for p in store.iter_papers(ids=ids)}
    stems = {stem(t): t for t in terms if len(t) > 1}
    hits = []
    for n, (pid, score) in enumerate(page):
        row = rows.get(pid)
        if row is None:  # deleted between ranking and now
            continue
        abstract_m = mark_terms(row.get("abstract") or "", stems)
        head = " ".join([row.get("title") or "", *(row.get("keywords") or [])])
        matched = _matched(mark_terms(head, stems) + " " + abstract_m, stems)
        snippet = _snippet(abstract_m)
        v = vec.get(pid)
        hits.append(
            Hit(
                id=pid,
                title=row.get("title"),
                display_title=row.get("display_title"),
                score=float(score),
                rank=offset + n + 1,
                matched_terms=matched,
                keyword_rank=kw_rank.get(pid),
                semantic_score=v[1] if v else None,
                semantic_rank=v[0] if v else None,
                snippet=snippet,
                area=row.get("area") or row.get("predicted_area"),
                decision=row.get("decision"),
                kind=row.get("kind"),
            )
        )
    return hits


_MARKED = re.compile(re.escape(MARK_OPEN) + "(.*?)" + re.escape(MARK_CLOSE), re.S)


_SUFFIXES = (
    "ational",
    "ations",
    "ation",
    "ments",
    "ment",
    "ness",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "ed",
    "er",
    "es",
    "ly",
    "s",
    "e",
)


@functools.lru_cache(maxsize=65536)  # abstracts repeat their words: stem each once
def stem(word: str) -> str:
    """A light suffix-stripping stem, close enough to FTS5's Porter stemmer to show which
    words of a paper a query term matched (training/trained/train, models/model)."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":  # forgetting -> forget
        w = w[:-1]
    return w


def mark_terms(text: str, stems: dict[str, str]) -> str:
    """`text` with every word whose stem is among `stems` wrapped in the private markers."""
    text = text.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
    if not stems:
        return text
    return _stem_prefixes(tuple(stems)).sub(
        lambda m: f"{MARK_OPEN}{m.group(0)}{MARK_CLOSE}" if _word_stem(m.group(0)) in stems else m.group(0),
        text,
    )


@functools.lru_cache(maxsize=256)
def _stem_prefixes(stems: tuple[str, ...]) -> re.Pattern:
    """Words starting with one of `stems` (a stem is a prefix of its word: only those
    words need stemming); compiled once per query, not once per hit."""
    return re.compile(r"(?i)(?<![^\W_])(?:" + "|".join(map(re.escape, stems)) + r")[^\W_]*")


def _word_stem(word: str) -> str:
    return stem(unicodedata.normalize("NFKC", word))


def _matched(marked: str, stems: dict[str, str]) -> list[str]:
    """The query terms found (in query order)."""
    found = {_word_stem(m) for m in _MARKED.findall(marked)}
    return [term for st, term in stems.items() if st in found]


def _snippet(marked: str, width: int = SNIPPET_CHARS) -> list[dict[str, Any]]:
    """The stretch of the abstract with the most distinct matched terms (its start when
    nothing matched), cut at word boundaries, as [{text, match}] segments."""
    text = " ".join(marked.split())
    starts = [m.start() for m in _MARKED.finditer(text)]
    begin = 0
    if starts:
        best, best_n = starts[0], 0
        for s in starts:
            window = text[s : s + width]
            n = len(set(m.lower() for m in _MARKED.findall(window)))
            if n > best_n:
                best, best_n = s, n
        # start a little before the first match, at a word boundary
        begin = max(0, best - width // 4)
        if begin > 0:
            space = text.find(" ", begin)
            begin = space + 1 if 0 <= space < best else begin
    end = min(len(text), begin + width)
    if end < len(text):
        space = text.rfind(" ", begin, end)
        end = space if space > begin else end
    # never cut inside a marked term
    opened = text.rfind(MARK_OPEN, begin, end)
    if opened > text.rfind(MARK_CLOSE, begin, end):
        close = text.find(MARK_CLOSE, end)
        end = close + 1 if close >= 0 else end
    piece = text[begin:end]
    segments: list[dict[str, Any]] = []
    if begin > 0:
        segments.append({"text": "…", "match": False})
    pos = 0
    for m in _MARKED.finditer(piece):
        if m.start() > pos:
            segments.append({"text": piece[pos : m.start()], "match": False})
        segments.append({"text": m.group(1), "match": True})
        pos = m.end()
    if pos < len(piece):
        segments.append({"text": piece[pos:], "match": False})
    if end < len(text):
        segments.append({"text": "…", "match": False})
    # stray marker characters (a cut we did not foresee) must not reach the user
    for seg in segments:
        seg["text"] = seg["text"].replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
    return segments
