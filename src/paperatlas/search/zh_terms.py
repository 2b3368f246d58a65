"""English technical terms written in Chinese, offline: the dictionaries this package
already ships, read the other way round, and the multilingual model choosing among them.

- The shipped glossary (`models/glossary_zh_en.tsv`, Chinese -> English), reversed, gives
  the field's own rendering of a term it holds ("graph neural network" -> 图神经网络);
  it overrides everything else. Published term tables of the field come next
  (`search/zh_terminology.py`: "self-attention" -> 自注意力).
- Each English word's candidates come from the shipped lexicon (`models/zh-lexicon-v2.tsv`,
  built by scripts/build_zh_lexicon.py): the CC-CEDICT headwords whose senses give the
  word (`search/dictionary.py`, read in reverse), the Chinese words the multilingual
  model (use-multilingual) puts nearest to it, and the run of characters the glossary's
  terms holding the word share. A candidate scores by the model's cosine, which sources
  give it, how usual the Chinese word is (jieba's frequencies), how often a Chinese
  textbook of the field writes it (噪声 rather than 噪音) and how close it sits to the field
  (`word_candidates`). A word the lexicon lacks takes CC-CEDICT's senses, scored
  by the model live. The Chinese words that translations of the field's documents put
  beside the word (`search/zh_parallel.py`: "global" -> 全局, "heterogeneous" -> 异构, the
  field senses no dictionary gives) join its candidates, scored the same way plus their
  association with it.
- A term is cut into the fewest known pieces (a glossary or dictionary phrase before its
  words) and the pieces joined in the English order, the order of a Chinese noun phrase
  ("sparse attention" -> 稀疏注意力); the model's cosine between the English term and each
  whole rendering picks among the pieces' best few. A prepositional modifier goes before
  its noun with 的 (`PREPOSITIONS`), fixed morphemes render word formation
  (`COMPOUND_HEADS`, `PREFIXES`, `SUFFIXES`: "target-aware" -> 目标感知).
- Words Chinese writing keeps in English stay English: acronyms, coined and mixed-case
  names (LoRA, GPT-4, CoDeC), words the translations keep ("tokenizer"), and any word no
  source knows.
- So does a term whose rendering is a guess (`gloss`, `FLOOR`): each piece's evidence is how
  many sources give its Chinese for the English (CC-CEDICT, the model's nearest words, the
  field's terms aligned, the translations, the field's writing using the word at all), less
  one where the translations write the word otherwise and one where nothing of the field has
  it, plus its lead over the next candidate; a compound glued from its parts' senses into no word of the field has none. A
  topic label keeps only its doubtful pieces English (`Gloss.partly`).

Terms are matched by light stems (`snippets.stem`: "networks" finds "network").
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from paperatlas.search import zh_parallel, zh_terminology
from paperatlas.search.glossary import terms as glossary_terms
from paperatlas.search.snippets import stem
from paperatlas.search.zh_senses import (
    CJK,
    MAX_PHRASE_WORDS,
    Sense,
    glossary_exact,
    jieba_adjectives,
    jieba_frequency,
    senses,
)
from paperatlas.text import STOPWORDS

# Weights of a candidate's score (tuned on the tuning half of benchmarks/queries/zh_terms.tsv
# and on benchmarks/queries/zh_terms_tune2.tsv)
MODEL_WEIGHT = 1.0  # cosine of the English word and the Chinese word (use-multilingual)
FREQUENCY_WEIGHT = 0.04  # log of the Chinese word's jieba frequency
SENSE_RANK_WEIGHT = 0.1  # 1 / (1 + the sense's place in its entry)
EXACT_WEIGHT = 0.1  # the sense is the word as written, not only its stem
DICTIONARY_WEIGHT = 0.5  # CC-CEDICT gives it for the word
GLOSSARY_WEIGHT = 1.0  # the field's terms (glossary, term tables) align it with the word
FIELD_WEIGHT = 0.5  # cosine with the field (the glossary's Chinese terms' mean vector)
FIELD_FREQUENCY_WEIGHT = 0.15  # log of the word's count in a Chinese textbook of the field
PARALLEL_WEIGHT = 1.0  # Dice of the two words over translated documents of the field
MIN_SCORE = 0.0  # below this no candidate is good enough: the word stays English
MAX_CANDIDATES = 24  # a word's candidates scored by the model (most usual first)
# A term's rendering shows when each of its pieces has at least FLOOR behind it: sources
# that give the Chinese for the English, plus its lead over the next candidate (`_with_lead`).
# A guess from one source alone (the model's nearest word 眼光 for "monocular", a dictionary
# sense 记 for "memorization", 分明 for "counterfactual") is more often wrong than right, and a
# reader is better served by the English. Chosen on the tuning sets by the rule in
# benchmarks/zh_terms.py (the most right minus wrong shown while the Chinese digest and the
# topic labels keep their targets: a higher floor leaves too many of a digest's terms English).
FLOOR = 1.25
# a candidate the field's translations never write for a word they do translate (归功 for
# "attribution", which they write 归因; 之前 for "priors", written 先验): one source less
UNTRANSLATED_DOUBT = 1
# a candidate nothing of the field has (its writing, tables or translations): one source less
UNFIELDED_DOUBT = 1
TABLE_EVIDENCE = 5  # the field's own rendering (glossary, term tables), or English kept as is
LEXICON_FILE = "zh-lexicon-v2.tsv"  # scripts/build_zh_lexicon.py

MACHINE_GLOSS = "机器释义"

# A token kept as written: acronyms, mixed case and digits (LoRA, GPT-4, CoDeC, ResNet50).
_CODED = re.compile(r"[A-Z]{2,}|[a-z][A-Z]|\d|^[A-Z][a-z]+[A-Z]")
_TOKEN = re.compile(r"[A-Za-z0-9][\w'.]*(?:-[\w'.]+)*|[^\sA-Za-z0-9]+")
Option = tuple[float, str, float]  # (score, Chinese, evidence: how many sources give it)


class _Model:
    """use-multilingual, loaded on first use; None when it cannot be loaded."""

    @functools.cached_property
    def backend(self):
        try:
            from paperatlas.embed import get_backend

            return get_backend("use-multilingual", threads=1)
        except Exception:  # no model: candidates are ranked without it
            return None


_MODEL = _Model()


_SEEN: dict[str, np.ndarray] = {}  # text -> its vector (words repeat across terms)
MAX_SEEN = 100_000  # vectors kept (a server translates terms for as long as it runs)


def _vectors(texts: Sequence[str]) -> list[np.ndarray | None]:
    """Each text's use-multilingual vector (None for all without the model)."""
    backend = _MODEL.backend
    if backend is None:
        return [None] * len(texts)
    missing = [t for t in dict.fromkeys(texts) if t not in _SEEN]
    if len(_SEEN) + len(missing) > MAX_SEEN:
        _SEEN.clear()
    if missing:
        for text, row in zip(missing, np.asarray(backend.encode(missing), dtype=np.float32)):
            _SEEN[text] = row
    return [_SEEN[t] for t in texts]


def score(english: str, candidates: Sequence[Sense]) -> list[Option]:
    """(score, Chinese, evidence) of dictionary candidates, best first, the model asked live."""
    frequency = jieba_frequency()
    pool = sorted(candidates, key=lambda s: (-frequency.get(s.chinese, 0), s.rank))[:MAX_CANDIDATES]
    # one candidate has nothing to be chosen over: the model is not asked (it is the slow part)
    vectors = _vectors([english, *(s.chinese for s in pool)]) if len(pool) > 1 else [None] * (len(pool) + 1)
    out: list[Option] = []
    for sense, vector in zip(pool, vectors[1:]):
        cos = float(vectors[0] @ vector) if vectors[0] is not None and vector is not None else 0.0
        value = (
            MODEL_WEIGHT * cos
            + FREQUENCY_WEIGHT * math.log1p(frequency.get(sense.chinese, 0))
            + FIELD_FREQUENCY_WEIGHT * math.log1p(zh_terminology.field_frequency(sense.chinese))
            + SENSE_RANK_WEIGHT / (1 + sense.rank)
            + EXACT_WEIGHT * sense.exact
        )
        out.append((value, sense.chinese, 1 + _in_field_use(sense.chinese)))
    out.sort(key=lambda t: -t[0])
    return out


@functools.cache
def lexicon() -> dict[str, list[tuple[str, float, str, float]]]:
    """models/zh-lexicon-v2.tsv: English word -> [(Chinese, model cosine, its sources
    (d: CC-CEDICT, m: the model's nearest words, g: the field's terms aligned), cosine with
    the field)]."""
    from importlib import resources

    out: dict[str, list[tuple[str, float, str, float]]] = {}
    path = resources.files("paperatlas") / "models" / LEXICON_FILE
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, *found = line.split("\t")
            out[word] = [
                (zh, float(cos), sources, float(near))
                for zh, cos, sources, near in (f.split(" ") for f in found)
            ]
    return out


@functools.cache
def _lexicon_by_stem() -> dict[str, str]:
    """Stem -> the shortest lexicon word with it ("dependencies" is looked up as "dependency")."""
    out: dict[str, str] = {}
    for word in sorted(lexicon(), key=len):
        out.setdefault(stem(word), word)
    return out


@functools.cache
def _field_terms_text() -> str:
    """The Chinese of every term in the field's tables (glossary, term tables), one a line."""
    return "\n".join(dict.fromkeys([*glossary_terms(), *(zh for _, zh in zh_terminology.table())]))


@functools.lru_cache(maxsize=65536)
def _in_field_use(chinese: str) -> int:
    """1 when the field's Chinese writing uses this word: a Chinese textbook of the field
    writes it, or it is part of a term in the field's tables (a word of two characters or
    more: a single character sits inside too many terms to tell); else 0."""
    if zh_terminology.field_frequency(chinese) > 0:
        return 1
    return int(len(chinese) > 1 and chinese in _field_terms_text())


def word_candidates(word: str) -> list[Option]:
    """(score, Chinese, evidence) for one English word, best first: the lexicon's candidates
    (or the dictionary's scored by the model for a word the lexicon lacks) and the words that
    translations of the field's documents put beside it (`zh_parallel`). The evidence counts
    the sources that give the Chinese for the word, each on its own: CC-CEDICT, the model's
    nearest words, the field's terms aligned, the translations, and the field's writing using
    the Chinese at all (`_in_field_use`); less one where the translations write the word but
    never so, and less one where nothing of the field has it (a general word's general sense:
    鱼 for "fisher", 地面 for "grounding")."""
    word = word.lower()
    found = lexicon().get(word) or lexicon().get(_lexicon_by_stem().get(stem(word), ""))
    frequency = jieba_frequency()

    def usual(zh: str) -> float:
        return FREQUENCY_WEIGHT * math.log1p(frequency.get(zh, 0)) + FIELD_FREQUENCY_WEIGHT * math.log1p(
            zh_terminology.field_frequency(zh)
        )

    if found is None:
        scores = {zh: value for value, zh, _ in score(word, senses([word]))}
        sources = dict.fromkeys(scores, 1)
        aligned: set[str] = set()
    else:
        scores = {
            zh: MODEL_WEIGHT * cos
            + DICTIONARY_WEIGHT * ("d" in given_by)
            + GLOSSARY_WEIGHT * ("g" in given_by)
            + usual(zh)
            + FIELD_WEIGHT * near
            for zh, cos, given_by, near in found
        }
        sources = {zh: len(set(given_by) & set("dmg")) for zh, _, given_by, _ in found}
        aligned = {zh for zh, _, given_by, _ in found if "g" in given_by}
    translated = {zh: (dice, cos, near) for zh, dice, cos, near in zh_parallel.candidates(word)}
    for zh, (dice, cos, near) in translated.items():
        if zh not in scores:
            scores[zh] = MODEL_WEIGHT * cos + usual(zh) + FIELD_WEIGHT * near
        scores[zh] += PARALLEL_WEIGHT * dice
        sources[zh] = sources.get(zh, 0) + 1

    def evidence(zh: str) -> float:
        used = _in_field_use(zh)
        contradicted = bool(translated) and zh not in translated
        unfielded = not (used or zh in translated or zh in aligned)
        return sources[zh] + used - UNTRANSLATED_DOUBT * contradicted - UNFIELDED_DOUBT * unfielded

    return sorted(((value, zh, evidence(zh)) for zh, value in scores.items()), reverse=True)


def kept(token: str) -> bool:
    """Is this token written in English in Chinese text (an acronym, a coined name, a word
    the field's Chinese writing keeps: Transformer, softmax)?"""
    return bool(_CODED.search(token)) or _kept_spelling(token) is not None


def _kept_spelling(token: str) -> str | None:
    """How Chinese writing spells a word it keeps: the textbook's usage, then the translations'
    (for a word; an acronym or a coined name is kept as written: "VLMs")."""
    return zh_terminology.kept_spelling(token) or (
        None if _CODED.search(token) else zh_parallel.kept_spelling(token)
    )


# English word-formation whose Chinese is a fixed morpheme: a hyphenated compound's last
# part ("target-aware" -> 目标感知, "parameter-free" -> 无参数), a word's first part
# ("multi-source" -> 多来源, "self-supervised" -> 自监督) and its derivational suffix
# ("learnable" -> 可学习, "transferability" -> 可迁移性). {} is the rest, in Chinese.
COMPOUND_HEADS = {
    "aware": "{}感知",
    "based": "基于{}的",
    "free": "无{}",
    "level": "{}级",
    "specific": "{}特定",
    "driven": "{}驱动",
    "guided": "{}引导",
    "independent": "{}无关",
    "agnostic": "{}无关",
    "wise": "逐{}",
    "like": "类{}",
    "efficient": "{}高效",
    "scale": "{}规模",
}
PREFIXES = {
    "multi": "多{}",
    "self": "自{}",
    "cross": "跨{}",
    "non": "非{}",
    "pre": "预{}",
    "semi": "半{}",
    "sub": "子{}",
    "hyper": "超{}",
    "super": "超{}",
    "post": "{}后",
    "anti": "反{}",
    "inter": "{}间",
    "intra": "{}内",
}
SUFFIXES = (  # suffix, what the base ends with instead, Chinese
    ("ability", ("e", "", "ate"), "可{}性"),
    ("ibility", ("e", ""), "可{}性"),
    ("able", ("e", "", "ate"), "可{}"),
    ("ible", ("e", ""), "可{}"),
    ("ness", ("",), "{}性"),
    ("ity", ("", "e"), "{}性"),
    ("ive", ("e", "", "ion"), "{}"),
)
MIN_BASE_LETTERS = 4  # a shorter base ("cap" in "capability") is seldom the word's root
MIN_STEM_LETTERS = 3  # letters of the word a suffix's base keeps (its added ending aside)
# a compound's parts rendered one by one and glued, when the whole is no word of the field's
# Chinese (关闭来源 for "closed-source", where the field writes 闭源): characters glued from
# senses, below any floor
GLUED_EVIDENCE = 0.0
DERIVED_PENALTY = 0.05  # a derived rendering must beat the word's own by this much
OPTIONS = 3  # renderings of a piece kept for the phrase's second look
MAX_COMBINATIONS = 27
PHRASE_WEIGHT = 0.5  # cosine of the English term and a whole Chinese rendering
GLOSSARY_SCORE = 2.0  # the glossary's rendering: above any candidate's score


def _direct(word: str) -> list[Option]:
    """The glossary's rendering of a word as written, else its scored candidates."""
    zh = glossary_exact().get(word) or zh_terminology.lookup([word])
    return [(GLOSSARY_SCORE, zh, TABLE_EVIDENCE)] if zh else word_candidates(word)


def _comparative(word: str) -> Option | None:
    """An English comparative ("larger", "richer", "easier") as 更...的, when its base is a
    word the lexicon knows whose best Chinese is an adjective; else None."""
    if not word.endswith("er"):
        return None
    bases = [word[:-3] + "y"] if word.endswith("ier") else [word[:-1], word[:-2]]
    if len(word) > 4 and word[-3] == word[-4]:  # bigger -> big
        bases.append(word[:-3])
    for base in bases:
        if len(base) >= 3 and base in lexicon():
            options = _direct(base)
            if options and options[0][1] in jieba_adjectives():
                return (GLOSSARY_SCORE, f"更{options[0][1]}的", options[0][2])
    return None


@functools.lru_cache(maxsize=65536)
def word_options(word: str) -> tuple[Option, ...]:
    """A word's Chinese renderings, best first: its own candidates and those made from its
    parts (`COMPOUND_HEADS`, `PREFIXES`, `SUFFIXES`) when the parts are known."""
    word = word.lower()
    comparative = _comparative(word)
    if comparative:
        return (comparative,)
    options = list(_direct(word))
    own = options[0][0] if options else float("-inf")
    derived: list[Option] = []
    parts = [p for p in word.split("-") if p]
    if len(parts) > 1:
        head, rest = parts[-1], "-".join(parts[:-1])
        first, tail = parts[0], "-".join(parts[1:])
        rest_options = word_options(rest)
        if head in COMPOUND_HEADS and rest_options:
            derived += [(v, COMPOUND_HEADS[head].format(zh), e) for v, zh, e in rest_options]
        elif first in PREFIXES and word_options(tail):
            derived += [(v, PREFIXES[first].format(zh), e) for v, zh, e in word_options(tail)]
        else:
            head_options = word_options(head)
            if rest_options and head_options:
                derived += [
                    (min(a, b), x + y, min(c, d) if _in_field_use(x + y) else min(c, d, GLUED_EVIDENCE))
                    for a, x, c in rest_options[:2]
                    for b, y, d in head_options[:2]
                ]
    else:
        for prefix, pattern in PREFIXES.items():
            base = word[len(prefix) :]
            if (
                word.startswith(prefix)
                and len(base) >= MIN_BASE_LETTERS
                and base in lexicon()
                and not senses([word])  # a word the dictionary knows whole has no prefix ("interfaces")
            ):
                derived += [(v, pattern.format(zh), e) for v, zh, e in _direct(base)[:2]]
        for suffix, endings, pattern in SUFFIXES:
            if word.endswith(suffix):
                for ending in endings:
                    base = word[: -len(suffix)] + ending
                    # the base keeps the word's own letters ("stable" is not "st" + "ate")
                    kept_letters = len(base) - len(ending)
                    if (
                        len(base) >= MIN_BASE_LETTERS
                        and kept_letters >= MIN_STEM_LETTERS
                        and base in lexicon()
                    ):
                        derived += [(v, pattern.format(zh), e) for v, zh, e in _direct(base)[:2]]
                break
    derived = [option for option in derived if option[0] > own + DERIVED_PENALTY]
    merged: dict[str, Option] = {}
    for option in sorted(derived + options, reverse=True):
        merged.setdefault(option[1], option)
    return tuple(merged.values())[:OPTIONS]


def _kept_compound(token: str) -> str:
    """A kept token as Chinese writing spells it, and a kept name with an English
    word-formation head written in Chinese around it ("VAE-based" -> 基于 VAE 的)."""
    rest, _, head = token.rpartition("-")
    if rest and head.lower() in COMPOUND_HEADS and kept(rest):
        return _spaced(COMPOUND_HEADS[head.lower()].format(_kept_compound(rest)))
    return _kept_spelling(token) or token


def _phrase_options(tokens: Sequence[str]) -> list[Option]:
    """Renderings of a run of words as one phrase (the glossary's, the dictionary's)."""
    words = [t.lower() for t in tokens]
    # the field's tables by the words as written or plural-blind, not by stems: "transformations"
    # and "transformer" share a stem but not a Chinese word (变换, 变换器)
    zh = glossary_exact().get(" ".join(words)) or zh_terminology.lookup(words)
    if zh:
        return [(GLOSSARY_SCORE, zh, TABLE_EVIDENCE)]
    if len(words) == 1:
        return _with_lead(list(word_options(words[0])))
    return _with_lead(
        [option for option in score(" ".join(words), senses(words)) if option[0] >= MIN_SCORE][:OPTIONS]
    )


def _with_lead(options: list[Option]) -> list[Option]:
    """The first option's evidence plus its lead over the second (up to 1: a clear winner is
    as good as one more source; candidates scored nearly alike are a guess between them)."""
    if not options:
        return options
    (value, zh, evidence), rest = options[0], options[1:]
    lead = min(1.0, value - rest[0][0]) if rest else 1.0
    return [(value, zh, evidence + lead), *rest]


def _join(pieces: Sequence[str]) -> str:
    """Chinese pieces run together; a space where Latin script meets Chinese or Latin."""
    out = ""
    for piece in pieces:
        if out and not (CJK.search(out[-1]) and CJK.search(piece[0])):
            out += " "
        out += piece
    return out


_LATIN_CJK = re.compile(r"(?<=[A-Za-z0-9+\-.)])(?=[\u3400-\u9fff])|(?<=[\u3400-\u9fff])(?=[A-Za-z0-9(])")


def _spaced(text: str) -> str:
    """A space where Latin script meets Chinese, as Chinese technical writing sets it."""
    return _LATIN_CJK.sub(" ", text)


def _segments(tokens: Sequence[str]) -> list[tuple[str, list[Option]]]:
    """The term cut into the fewest pieces with the fewest English words left: each piece's
    English and its renderings (one, with no score, for a kept or unknown word)."""
    n = len(tokens)
    # best[i]: (English words left, pieces, (English, renderings) of each piece) for tokens[i:]
    best: list[tuple[int, int, list[tuple[str, list[Option]]]]] = [(0, 0, [])] * (n + 1)
    for i in range(n - 1, -1, -1):
        token = tokens[i]
        rest = best[i + 1]
        if kept(token) or not token[:1].isalnum():
            kept_piece = _kept_compound(token)
            best[i] = (rest[0], rest[1] + 1, [(kept_piece, [(0.0, kept_piece, TABLE_EVIDENCE)]), *rest[2]])
            continue
        if token.lower() in STOPWORDS:  # "due", "where": grammar the Chinese needs no word for
            best[i] = rest
            continue
        choice = None
        for size in range(min(MAX_PHRASE_WORDS, n - i), 0, -1):
            run = tokens[i : i + size]
            if any(kept(t) or not t[:1].isalnum() for t in run):
                continue
            options = _phrase_options(run)
            if options:
                after = best[i + size]
                option = (after[0], after[1] + 1, [(" ".join(run), options), *after[2]])
                if choice is None or option[:2] < choice[:2]:
                    choice = option
        best[i] = choice or (rest[0] + 1, rest[1] + 1, [(token, [(0.0, token, TABLE_EVIDENCE)]), *rest[2]])
    return best[0][2]


# English puts a modifier after its noun, behind a preposition; Chinese puts it before,
# with 的 ("optimal transport for diffusion models" -> 用于扩散模型的最优传输)
PREPOSITIONS = {
    "for": "用于{b}的{a}",
    "of": "{b}的{a}",
    "in": "{b}中的{a}",
    "on": "{b}上的{a}",
    "with": "带{b}的{a}",
    "via": "基于{b}的{a}",
    "through": "通过{b}的{a}",
    "under": "{b}下的{a}",
    "without": "无需{b}的{a}",
    "from": "来自{b}的{a}",
}


def _preposition_at(tokens: Sequence[str]) -> int | None:
    """Where the term parts into a noun and its modifier: the first preposition with words
    on both sides that no glossary phrase spans ("mixture of experts" is one term)."""
    for p in range(1, len(tokens) - 1):
        if tokens[p].lower() not in PREPOSITIONS:
            continue
        spanned = any(
            glossary_exact().get(" ".join(tokens[i:j]).lower())
            for i in range(max(0, p - MAX_PHRASE_WORDS + 1), p)
            for j in range(p + 2, min(len(tokens), i + MAX_PHRASE_WORDS) + 1)
        )
        if not spanned:
            return p
    return None


class Gloss(NamedTuple):
    """A term's rendering, the evidence for its weakest piece, and the rendering with each
    piece below FLOOR left in English (for text that must be Chinese where it can: a topic
    label keeps its sure pieces, 用于 GNNs 的 Counterfactual 解释)."""

    text: str
    evidence: float
    partly: str


@functools.lru_cache(maxsize=65536)
def gloss(term: str) -> Gloss:
    """`term` written in Chinese as far as the dictionaries know it (`Gloss`); a table's
    rendering, a kept or an unknown word counts as TABLE_EVIDENCE. Kept tokens and unknown
    words stay English. Where several pieces each have a few renderings, the model's cosine
    between the English term and each whole rendering joins the pieces' scores (a word's
    sense is chosen in its phrase: "function spaces" -> 函数空间)."""
    tokens = _TOKEN.findall(term)
    p = _preposition_at(tokens)
    if p is not None:
        noun, modifier = gloss(" ".join(tokens[:p])), gloss(" ".join(tokens[p + 1 :]))
        if not noun.text:
            return modifier
        pattern = PREPOSITIONS[tokens[p].lower()]
        return Gloss(
            _spaced(pattern.format(a=noun.text, b=modifier.text)),
            min(noun.evidence, modifier.evidence),
            _spaced(pattern.format(a=noun.partly, b=modifier.partly)),
        )
    pieces = _segments(tokens)
    if not pieces:
        return Gloss(term, TABLE_EVIDENCE, term)
    # (each piece's (English, Chinese, evidence), total score)
    combinations: list[tuple[list[tuple[str, str, float]], float]] = [([], 0.0)]
    for english, options in pieces:
        combinations = [
            ([*chosen, (english, zh, evidence)], total + value)
            for chosen, total in combinations
            for value, zh, evidence in options
        ]
        combinations = sorted(combinations, key=lambda c: -c[1])[:MAX_COMBINATIONS]
    best = combinations[0][0]
    if len(combinations) > 1 and PHRASE_WEIGHT:
        texts = [_join([zh for _, zh, _ in chosen]) for chosen, _ in combinations]
        vectors = _vectors([term, *texts])
        if vectors[0] is not None:
            scored = [
                (total + PHRASE_WEIGHT * float(vectors[0] @ vector), i)
                for i, ((_, total), vector) in enumerate(zip(combinations, vectors[1:]))
            ]
            best = combinations[max(scored)[1]][0]
    return Gloss(
        _join([zh for _, zh, _ in best]),
        min(evidence for _, _, evidence in best),
        _join([zh if evidence >= FLOOR else english for english, zh, evidence in best]),
    )


def to_chinese(term: str) -> str:
    """`term` in Chinese (`gloss`), or as written where the evidence for a piece of its
    rendering is below FLOOR: Chinese writing keeps a term in English rather than guess."""
    found = gloss(term)
    return found.text if found.evidence >= FLOOR else term


def is_chinese(text: str) -> bool:
    return bool(CJK.search(text))


# how a label joins its terms, and the Chinese for each joint
_LABEL_JOINTS = re.compile(r"\s*(&|\band\b|,|/|;|:)\s*")
_JOINT_ZH = {"&": "与", "and": "与", ",": "、", "/": "/", ";": "；", ":": "："}


@functools.lru_cache(maxsize=8192)
def label_to_chinese(label: str) -> str:
    """A topic label written in Chinese term by term ("Policy & reinforcement learning"
    -> 策略与强化学习): its terms translated, its joints ("&", "and", ",") in Chinese. A
    label is always shown in Chinese where any of it can be, so a term's doubtful pieces stay
    English inside its Chinese (`Gloss.partly`) rather than the whole term."""
    parts = _LABEL_JOINTS.split(label.strip())
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(_JOINT_ZH[part.lower()])
        elif part:
            out.append(gloss(part).partly)
    return _spaced("".join(out))
