"""Chinese query words mapped to the corpus's own English terms, learned from data.

A Chinese query is cut into words (jieba). Each word, each pair of neighbouring words and
each short run of Chinese text is embedded with the multilingual model
(use-multilingual), and compared with the English vocabulary of the atlas itself — its
frequent words and word pairs, embedded once with the same model and kept in the store
(`build_vocabulary`, run by `paperatlas embed`, or by the first Chinese query of a small
atlas: `query_vocabulary`). A unit's candidate terms are its nearest
English terms and the senses the CC-CEDICT dictionary gives it (`search/dictionary.py`)
that the vocabulary holds; the model's similarity and how usual each term is in the
atlas choose among them (`candidates`, `choose_terms`). The chosen terms become the
query's weighted BM25 terms and its English text for the English vector model. No hand glossary is needed; the shipped glossary
(`models/glossary_zh_en.tsv`) can still override the words it knows (`glossary=True`,
the default in search).

The vocabulary is stored as `embed_models` row VOCAB_NAME: terms, float16 vectors,
the number of papers it was built from and the main directions of its vectors (which
let a lookup skip most of the full product, `nearest_terms`); it is rebuilt when the
atlas has grown or shrunk by more than REBUILD_SHARE, reusing the vectors of terms it
already had. A unit's terms are kept with the loaded vocabulary (words repeat across
queries).

`query_translation` is what search asks: the glossary's terms and the learned ones of a
non-English query, as weighted English keyword terms.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from paperatlas.errors import PaperatlasError
from paperatlas.search import dictionary
from paperatlas.search.chinese_text import tokens as jieba_tokens
from paperatlas.search.glossary import glossary_rest, translate_query
from paperatlas.search.query import CJK_RUN, phrase_expression, query_terms
from paperatlas.search.translate_vocabulary import (
    AFFIXES,
    STEM_CHARS,
    WORD,
    Vocabulary,
    query_vocabulary,
    term_key,
    term_letters,
)
from paperatlas.search.vectors import MULTILINGUAL_MODEL, one_blas_thread, query_backend
from paperatlas.text import STOPWORDS

TERMS_PER_UNIT = 2  # English terms taken for one Chinese word or phrase
MIN_SIMILARITY = 0.45  # below this, a Chinese word has no English term (tuning half)
NEAR_BEST = 0.08  # a second term must be this close to the unit's best
MAX_RUN_CHARS = 8  # a Chinese run this short is also looked up whole
# weight factor of the terms of a single Chinese word, beside those of a pair or a run of
# words ("扩散" -> "diffuse" vs "离散扩散" -> "discrete diffusion"): a longer unit carries
# its own context, a lone word is ambiguous (tuning half of the Chinese known items:
# MRR@10 0.650 at 0.5 vs 0.641 at 1.0, glossary off; benchmarks/search_zh_tune.py). A
# word of LONG_WORD characters or more is a compound that carries its context as a pair
# does (晶体结构, 天气预报; 强化学习 is two words to jieba): full weight (tuning half: off
# 0.828 -> 0.833, on 0.868 unchanged; 4 or 5: no change; docs/bench/search.md, "dictionary
# phrases and long words").
WORD_WEIGHT = 0.5
LONG_WORD = 3
# A unit's nearest terms without its product with every term's whole vector (16,000 x 512,
# ~9 ms CPU a query, memory-bound). The vocabulary keeps the BASIS_DIMS main directions of
# its vectors (`principal_basis`); a cosine is the dot product of the two projections plus
# a remainder no larger than the product of the two residual norms, so after scoring the
# SEED_TERMS best by projection in full, only terms whose bound reaches the k-th best so
# far are scored in full. The terms found are those of the full product (`nearest_terms`).
SEED_TERMS = 16
# units whose terms are kept per vocabulary: query words repeat across queries
LOOKUP_CACHE = 4096
# CC-CEDICT (`search/dictionary.py`) as a second source of a unit's candidate terms: the
# English senses of its entry, or for a unit of several words without one, the pairs
# formed from its neighbouring words' senses ("数据" + "蒸馏" -> "data distillation"), each
# kept only when the atlas's vocabulary has it (matched by light stems, `term_key`). The
# multilingual model chooses among the senses: a candidate ranks by its cosine to the unit,
# plus DICT_BONUS for coming from the dictionary. A unit's terms are then taken one per
# stem (the index stems: "model" and "models" are one keyword; DISTINCT_STEMS).
# Tuning half of the Chinese known items, glossary off (benchmarks/search_zh_tune.py):
# MRR@10 0.650 without the dictionary; with it, DICT_BONUS 0 / 0.1 / 0.2 / 0.3: 0.663 /
# 0.719 / 0.743 / 0.735 (one term per stem), 0.650 / 0.650 / 0.682 / 0.683 (per term).
# Then glossary off / on (docs/bench/search.md, "the glossary-on gap"): 0.2 0.743 / 0.790,
# 0.35 0.735 / 0.801, 0.5 and 1.0 0.748 / 0.803 (recall@10 0.897 / 0.966 -> 0.914 /
# 0.983). At 0.5 a sense the atlas uses outranks the model's own neighbours (cosines of
# the right sense run 0.3-0.6 where the model's wrong neighbour reaches 0.8: 前缀 "prefix"
# 0.58 vs "previous" 0.81; 多余 "unnecessary"),
# which then come in only where the dictionary has nothing; the model still orders the
# senses, and a weak sense keeps a weight below 1.
# Tried and left out: also ranking senses by their cosine to the mean of the query's unit
# vectors (its context; weight 0.25 / 0.5: 0.706 / 0.728 at bonus 0.2), matching stems by
# their first 6 characters (0.714), a cosine floor for senses (0.1-0.3: no change).
# A unit none of whose senses the vocabulary holds may still have a sense of several words
# it holds one by one (晶体结构: "crystal structure", where the vocabulary's frequent pairs
# lack it but have "crystal" and "structure"): that phrase is a candidate too, its vector
# the sum of its words', scored by cosine alone (`sense_phrases`). With DICT_BONUS as well,
# these phrases outranked the model's right neighbours (作弊: "practice fraud" over
# "hacking"; tuning half, glossary off, 0.743 -> 0.726 at a bonus of 0.1 or 0.2, with
# DICT_BONUS 0.2); without it, 0.743 / 0.790 (off / on), as without the phrases. Once
# candidates gained FREQUENCY_PRIOR, the model's "structure" (a frequent word) outranked
# "crystal structure" (no count), so 晶体结构 lost its crystal: a phrase the atlas's
# papers use now ranks PHRASE_MARGIN above any candidate that is one of its words (not one
# no paper uses: 作弊's "practice fraud" would push out "fraud"; `phrase_in_papers`).
DICTIONARY = True
DICT_BONUS = 0.5
PHRASE_MARGIN = 0.01
DISTINCT_STEMS = True
MODEL_CANDIDATES = 6  # the model's nearest terms a unit's terms are chosen from
# How usual a candidate term is in the atlas counts beside the model's cosine: a unit's
# candidates each gain FREQUENCY_PRIOR x log(papers using the term) / log(papers), so of
# the senses the model and CC-CEDICT offer, the one this field writes wins (偏好:
# "preference" over "preferred"; 视觉: "visual" over "visually"). Tuning half of the
# Chinese known items, with the MiniLM query adapter (search/query_adapter.py), paired
# against 0: 0.2 / 0.3 / 0.5 -> glossary on +0.028 / +0.035 / +0.026 (SE ~0.015; at 0.3 8
# queries better, 1 worse), off +0.041 / +0.049 / +0.044 (SE ~0.026); without the adapter
# +0.019 / +0.016 / +0.022 on at 0.3 / 0.4 / 0.5 (docs/bench/search.md). Sense phrases
# (`sense_phrases`) have no count and gain none (see PHRASE_MARGIN above).
FREQUENCY_PRIOR = 0.3
AFFIX_MIN_CHARS = 3  # 重要, 多数, 自然: two-character words are seldom prefixed terms

_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]+")

# one-character words of Chinese grammar: never looked up alone
_PARTICLES = frozenset("的了和与及或在中对用于把被将从为以是之等其这那个上下后前内外间")
# Chinese function words, the counterpart of the English STOPWORDS (grammar, "method",
# "based on", "using"): never looked up, alone or in a pair. The multilingual model maps
# them to confident nonsense ("的" -> "rely", "中的" -> "among", "与" -> "com").
FUNCTION_WORDS = frozenset(_PARTICLES) | frozenset(
    """
中的 之间 之中 其中 进行 基于 通过 用于 以及 或者 对于 关于 利用 使用 采用 一种 一个 一些 如何
什么 哪些 怎样 怎么 为了 以便 从而 因此 所以 但是 而且 并且 以上 以下 之后 之前 期间 方面 方法
方式 研究 问题 相关 有关 可以 能够 如何 这些 那些 这个 那个 我们 他们 它们 是否 没有 不是 以外
之外 当中 里面 中间 及其 与其 以其 等等 针对 面向 实现 提出 提高 一样 同时 分别 各种 多种
""".split()
)


def _sense_keys(word: str) -> list[str]:
    return list(dict.fromkeys(k for k in map(term_key, dictionary.senses(word)) if k))


def dictionary_terms(vocab: Vocabulary, unit: str, names: bool = True) -> list[int]:
    """The vocabulary terms CC-CEDICT gives for a Chinese unit: its entry's senses and the
    words made from a name among them (`name_terms`; `names=False`: not those), or without
    an entry, the pairs of its neighbouring words' one-word senses ("数据蒸馏", "高斯过程":
    "gaussian process")."""
    index = vocab.by_key
    keys = _sense_keys(unit)
    if not keys:
        words = segment(unit)
        for a, b in itertools.pairwise(words):
            left, right = _one_word_keys(vocab, a, names), _one_word_keys(vocab, b, names)
            keys += [f"{x} {y}" for x in left for y in right]
    found = [i for k in keys for i in index.get(k, ())] + (name_terms(vocab, unit) if names else [])
    return list(dict.fromkeys(found))


def _one_word_keys(vocab: Vocabulary, word: str, names: bool = True) -> list[str]:
    named = [term_key(vocab.terms[i]) for i in name_terms(vocab, word)] if names else []
    return list(dict.fromkeys([k for k in _sense_keys(word) if " " not in k] + named))


# Chinese writes an eponym as the bare name (高斯噪声 "Gaussian noise", 黎曼流形 "Riemannian
# manifold", 贝叶斯优化 "Bayesian optimization"), CC-CEDICT gives the person ("Carl
# Friedrich Gauss"), and the multilingual model reads 高斯 as "asr rmse". A name among a
# word's senses also gives the atlas's words made from it (`name_terms`), as dictionary
# terms. benchmarks/zh_names.py (50 eponymous phrases written as a test list): the name's
# word among the phrase's terms for 23 of the 33 the held-out atlas holds vs 15 without
# (same run; the baseline is `translate(..., names=False)`); the names CC-CEDICT lacks
# (马尔可夫, 朗之万, 利普希茨) stay as they were.
NAME_SUFFIX_LETTERS = 4  # "riemann" -> "riemannian", "euclid" -> "euclidean"


def name_terms(vocab: Vocabulary, word: str) -> list[int]:
    """The one-word terms of the vocabulary made from a name CC-CEDICT gives for `word`
    (`dictionary.names`): the name itself or a word that extends it by a few letters (高斯
    "Gauss" -> "gaussian"; 黎曼 "Riemann" -> "riemannian"; 拉普拉斯 "Laplace" -> "laplacian")."""
    out: list[int] = []
    for name in dictionary.names(word):
        if " " in name:  # "monte carlo": the term itself
            out += vocab.by_key.get(term_key(name), [])
            continue
        base = name[:-1] if name.endswith("e") else name  # laplac-ian, euler-ian
        for i in vocab.by_stem.get(name[:STEM_CHARS], ()):
            term = vocab.terms[i]
            if term.startswith(base) and len(term) <= len(name) + NAME_SUFFIX_LETTERS:
                out.append(i)
    return out


def affixed_terms(vocab: Vocabulary, unit: str, nearest: Sequence[int]) -> list[int]:
    """The vocabulary terms a prefixed Chinese unit may stand for (AFFIXES): its first
    character's English prefix followed by a word that shares its stem with a base — one
    of the unit's `nearest` terms or a word of the CC-CEDICT senses of the rest (过平滑:
    "smooth" -> "oversmoothing"; 自回归: "regression" -> "autoregressive")."""
    prefixes = AFFIXES.get(unit[:1], ())
    if len(unit) < AFFIX_MIN_CHARS or not prefixes:
        return []
    words = [term_letters(vocab.terms[i]) for i in nearest if " " not in vocab.terms[i]]
    words += [w for sense in dictionary.senses(unit[1:]) for w in WORD.findall(sense.lower())]
    # "noise" and "noising" share "nois"
    bases = {
        w[:-1] if w.endswith("e") and len(w) > 4 else w for w in words if len(w) >= 3 and w not in STOPWORDS
    }
    found = []
    for p in prefixes:
        for i, rest in vocab.by_prefix.get(p, ()):
            if any(rest[: min(len(b), STEM_CHARS)] == b[:STEM_CHARS] for b in bases):
                found.append(i)
    return found


def nearest_terms(vocab: Vocabulary, queries: np.ndarray, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each row of `queries`: (indices of its k best terms, best first; their cosines),
    as the full product ranks them."""
    k = min(k, len(vocab.terms))
    out = []
    if vocab.basis is None or k < 1:
        for cos in queries @ vocab.vectors.T:
            best = np.argpartition(-cos, k - 1)[:k]
            best = best[np.argsort(-cos[best])]
            out.append((best, cos[best]))
        return out
    coords, left = vocab.projection
    q_coords = queries @ vocab.basis
    q_left = np.sqrt(np.maximum(np.einsum("ij,ij->i", queries, queries) - (q_coords * q_coords).sum(1), 0.0))
    approx_all = q_coords @ coords.T
    for query, approx, q_rest in zip(queries, approx_all, q_left):
        seed = np.argpartition(-approx, min(SEED_TERMS, len(approx) - 1))[:SEED_TERMS]
        rank = vocab.vectors[seed] @ query
        kth = np.partition(rank, len(rank) - k)[len(rank) - k]
        # every term that could beat the k-th best seed (1e-4: float32 rounding of the bound)
        pool = np.flatnonzero(approx + q_rest * left >= kth - 1e-4)
        cos = vocab.vectors[pool] @ query
        best = np.argpartition(-cos, k - 1)[:k]
        best = best[np.argsort(-cos[best])]
        out.append((pool[best], cos[best]))
    return out


def segment(text: str) -> list[str]:
    """Chinese words of `text` (jieba, precise mode), in order; other scripts left out."""
    out: list[str] = []
    for run in _CJK.findall(text):
        out.extend(w for w in jieba_tokens(run) if _CJK.fullmatch(w))
    return out


def units(text: str) -> list[str]:
    """What is looked up: each Chinese word of two characters or more, each pair of
    neighbouring words, and each Chinese run of at most MAX_RUN_CHARS characters and more
    than one word (FUNCTION_WORDS left out, and runs with no two characters of content)."""
    found: list[str] = []
    for run in _CJK.findall(text):
        words = segment(run)
        # one character alone says too little; function words say nothing
        found += [w for w in words if len(w) > 1 and w not in FUNCTION_WORDS]
        found += [
            a + b for a, b in itertools.pairwise(words) if a not in FUNCTION_WORDS and b not in FUNCTION_WORDS
        ]
        content = [w for w in words if w not in FUNCTION_WORDS]
        if len(run) <= MAX_RUN_CHARS and len(words) > 1 and sum(map(len, content)) > 1:
            found.append(run)
    return list(dict.fromkeys(found))


@dataclass
class Translation:
    terms: dict[str, float] = field(default_factory=dict)  # English term -> weight
    sources: dict[str, list[str]] = field(default_factory=dict)  # Chinese unit -> terms

    @property
    def text(self) -> str:
        return " ".join(self.terms)


# a candidate term: a vocabulary term's index, or a phrase of vocabulary words (`sense_phrases`)
Candidate = int | tuple[int, ...]


def candidates(
    vocab: Vocabulary,
    unit: str,
    vector: np.ndarray,
    best: np.ndarray,
    cos: np.ndarray,
    min_similarity: float,
    attested: Callable[[str], bool] | None = None,
    names: bool = True,
) -> list[tuple[Candidate, float]]:
    """A unit's candidate terms [(index, score)], best first: its nearest terms by the
    model (`best`, `cos`: score its cosine; none unless the first has min_similarity)
    and its dictionary terms (score: cosine to `vector`, the unit's, plus DICT_BONUS;
    `names`: with the words made from a name among its senses, `name_terms`),
    each plus FREQUENCY_PRIOR x how usual it is in the atlas (`Vocabulary.prior`); or
    without dictionary terms, its dictionary senses made of vocabulary words (score: cosine;
    a phrase the atlas's papers use, `attested`, just above any candidate that is one of
    its words)."""
    confident = len(cos) > 0 and cos[0] >= min_similarity
    scored: dict[Candidate, float] = {int(i): float(c) for i, c in zip(best, cos)} if confident else {}
    from_dict = dictionary_terms(vocab, unit, names) if DICTIONARY else []
    # the dictionary's terms, and a prefixed word's terms (AFFIXES), count alike
    boosted = from_dict + (affixed_terms(vocab, unit, [int(i) for i in best]) if DICTIONARY else [])
    if boosted:
        for i, c in zip(boosted, vocab.vectors[boosted] @ vector):
            scored[i] = max(scored.get(i, -1.0), float(c) + DICT_BONUS)
    prior = vocab.prior if FREQUENCY_PRIOR > 0 else None
    if prior is not None:
        scored = {i: s + FREQUENCY_PRIOR * float(prior[i]) for i, s in scored.items()}
    if DICTIONARY and not from_dict:
        for words in sense_phrases(vocab, unit):
            phrase = vocab.vectors[list(words)].sum(axis=0)
            score = float(phrase @ vector) / (float(np.linalg.norm(phrase)) or 1.0)
            # a phrase papers use is the whole sense, a candidate among its words only a
            # part of it (晶体结构: "crystal structure" over "structure"); one no paper uses
            # is an explanation (作弊: "practice fraud", where "fraud" is the sense)
            parts = [scored[w] for w in words if w in scored]
            if parts and attested is not None and attested(term_text(vocab, words)):
                score = max(score, max(parts) + PHRASE_MARGIN)
            scored[words] = score
    return sorted(scored.items(), key=lambda item: -item[1])


def phrase_in_papers(store, phrase: str) -> bool:
    """Whether some paper of the atlas uses `phrase`, word for word (its FTS index)."""
    expression = phrase_expression(query_terms(phrase))
    return bool(expression and store.fts.search(expression, limit=1))


def sense_phrases(vocab: Vocabulary, unit: str) -> list[tuple[int, ...]]:
    """The senses of a unit's dictionary entry that the vocabulary lacks as a term but
    holds word by word ("crystal structure": "crystal", "structure"), as tuples of those
    words' indices."""
    index = vocab.by_key
    out: list[tuple[int, ...]] = []
    for key in _sense_keys(unit):
        parts = key.split()  # a one-word key is held by one-word terms (pairs have two)
        if len(parts) > 1 and key not in index and all(index.get(p) for p in parts):
            out.append(tuple(index[p][0] for p in parts))
    return list(dict.fromkeys(out))


def term_text(vocab: Vocabulary, term: Candidate) -> str:
    """A candidate's English: a vocabulary term (its index) or a phrase of them (a tuple)."""
    return vocab.terms[term] if isinstance(term, int) else " ".join(vocab.terms[i] for i in term)


def choose_terms(vocab: Vocabulary, found: list[tuple[Candidate, float]]) -> list[tuple[Candidate, float]]:
    """A unit's English terms [(index, weight)] among its candidates (best first): one
    per stem, at most TERMS_PER_UNIT, within NEAR_BEST of the first; a term's weight is
    its score (at most 1)."""
    out: list[tuple[Candidate, float]] = []
    keys: set[str] = set()
    for i, score in found:
        if len(out) >= TERMS_PER_UNIT or score < found[0][1] - NEAR_BEST:
            break
        key = term_key(term_text(vocab, i)) if DISTINCT_STEMS else term_text(vocab, i)
        if key not in keys:
            keys.add(key)
            out.append((i, min(score, 1.0)))
    return out


def translate(
    store,
    text: str,
    embed: Callable[[list[str]], np.ndarray],
    glossary: dict[str, str] | None = None,
    min_similarity: float | None = None,
    names: bool = True,
) -> Translation | None:
    """The query's Chinese words as weighted English terms of this atlas: each unit's
    terms chosen among its nearest vocabulary terms (when the nearest has min_similarity)
    and its dictionary senses (`candidates`, `choose_terms`; `names=False`: without the
    words made from names, the baseline of benchmarks/zh_names.py), weighted by their score;
    words the `glossary` knows take its translation at weight 1. None when nothing maps
    (or the atlas has no vocabulary yet)."""
    looked = units(text)
    if not looked:
        return None
    if min_similarity is None:  # read at call time, so the tuning script can set it
        min_similarity = MIN_SIMILARITY
    out = Translation()
    todo = []
    for unit in looked:
        if glossary and unit in glossary:
            out.sources[unit] = [glossary[unit]]
            out.terms[glossary[unit]] = 1.0
        else:
            todo.append(unit)
    vocab = query_vocabulary(store, embed) if todo else None
    if vocab is not None and len(vocab.terms):
        settings = (
            min_similarity,
            MODEL_CANDIDATES,
            DICTIONARY,
            DICT_BONUS,
            FREQUENCY_PRIOR,
            names,
        )
        # read once: another thread may clear the shared table meanwhile
        cands = {unit: vocab.looked_up.get((unit, *settings)) for unit in todo}
        new = [unit for unit in todo if cands[unit] is None]
        if new:
            vectors = np.asarray(embed(new), dtype=np.float32)
            found = nearest_terms(vocab, vectors, MODEL_CANDIDATES)
            if len(vocab.looked_up) + len(new) > LOOKUP_CACHE:
                vocab.looked_up.clear()
            attested = functools.partial(phrase_in_papers, store)
            for unit, vector, (best, cos) in zip(new, vectors, found):
                vocab.looked_up[(unit, *settings)] = cands[unit] = candidates(
                    vocab, unit, vector, best, cos, min_similarity, attested, names
                )
        for unit in todo:
            found_terms = choose_terms(vocab, cands[unit] or [])
            if not found_terms:
                continue
            out.sources[unit] = [term_text(vocab, i) for i, _ in found_terms]
            factor = WORD_WEIGHT if len(segment(unit)) == 1 and len(unit) < LONG_WORD else 1.0
            for i, weight in found_terms:
                term = term_text(vocab, i)
                out.terms[term] = max(out.terms.get(term, 0.0), factor * weight)
    return out if out.terms else None


# The glossary overrides the learned terms by default: the Chinese words it knows are not
# looked up in the learned vocabulary (see docs/bench/search.md, need-based queries).
# (FUSION["multilingual_weight"]: the weight of the cross-lingual list beside a translated
# query's own English-model list, which was far better with the glossary: dev queries
# nDCG@10 0.77 vs 0.41, so it only nudged it; learned translations are noisier.)


def query_translation(
    store, query: str, language: str, glossary: bool, learned: bool = True, glossary_overrides: bool = True
) -> tuple[str | None, dict[str, float] | None, bool]:
    """(English text, keyword term -> weight, whether learned terms are among them) for a
    non-English query: with `glossary`, the glossary's translation of the words it knows
    at weight 1; for Chinese, the words it does not know (all of them without `glossary`,
    or with `glossary_overrides=False`) as the nearest English terms of the atlas's own
    vocabulary (`translate`, needs the multilingual model); the query's own Latin-script
    words ("for video") at weight 1."""
    weights: dict[str, float] = {}
    used_learned = False
    rest = query  # what the learned terms look up: the words the glossary does not know
    if glossary:
        known = translate_query(query)
        for word in query_terms(known or ""):
            weights[word] = 1.0
        if known and glossary_overrides:
            rest = glossary_rest(query)
    if language == "zh" and learned and CJK_RUN.search(rest):

        def embed(texts: list[str]):
            with one_blas_thread():
                return query_backend(store, MULTILINGUAL_MODEL).embed(texts)

        try:
            with one_blas_thread():  # its product with the vocabulary: one thread
                found = translate(store, rest, embed)
        except (PaperatlasError, ImportError):  # no multilingual model or jieba here
            found = None
        for term, w in found.terms.items() if found else []:
            for word in query_terms(term):
                weights[word] = max(weights.get(word, 0.0), w)
                used_learned = True
    if not weights:
        return None, None, False
    latin = [t for t in query_terms(CJK_RUN.sub(" ", query)) if t not in weights]
    for word in latin:
        weights[word] = 1.0
    return " ".join(weights), weights, used_learned
