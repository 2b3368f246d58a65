"""Readable topic labels: distinctive phrases per cluster, composed into a short heading.

Candidate phrases come from what people wrote about each paper: author keywords, the
keyphrases enrich/ extracted, and title n-grams that match one of those; when a list
has neither (a bare list of abstracts, not enriched), noun-ish n-grams of the abstracts.
Each phrase is scored per cluster c-TF-IDF style on document frequencies:

    score(p, c) = (papers in c with p / size of c) * log(1 + papers / papers with p)

so a phrase wins when it covers much of the cluster and little of the rest. The label is
the best phrase, joined with a second one when the second adds a different, well-covered
idea ("Machine unlearning for LLMs", "Federated learning & differential privacy").

Each label is then checked against the cluster's papers (`support.py`: a paper supports a
label when the label holds a content word of its own title or abstract). While fewer than
SUPPORT_TARGET of them do, the label takes the distinctive phrases that cover the most of
the rest (three ideas, six words at most: "LLM reasoning, agents & RAG"); the papers that
still do not support it are the topic's "other" part, counted in `TopicTerms.other`.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from paperatlas.atlas.label_words import (
    ABSTRACT_WORDS,
    ALIASES,
    ARXIV_CLASS,
    DISPLAY,
    DOMAINS,
    EXPANSIONS,
    FUNCTION,
    GENERIC,
    HALF_WORDS,
    KNOWN,
    LIBRARY_TAGS,
    STOP,
    SUPPORT_EXPANSIONS,
    VAGUE,
)
from paperatlas.atlas.support import LabelSupport, PaperSupport
from paperatlas.text import STOPWORDS

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-+]*[A-Za-z0-9+]|[A-Za-z]")
_SPACE = re.compile(r"\s+")
_PARENS = re.compile(r"\s*\([^)]*\)")


@lru_cache(maxsize=1 << 17)
def phrase_key(text: str) -> str:
    """Matching key of a phrase: lower case, single spaces, crude singular, aliases merged."""
    t = _PARENS.sub("", text.strip().lower())  # "large language models (llms)"
    t = _SPACE.sub(" ", t).strip(" .,;:-")
    if t in ALIASES:
        return ALIASES[t]
    words = t.split(" ")
    last = words[-1]
    if len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "is", "us", "ics")):
        words[-1] = last[:-1]
        if last.endswith("ies") and len(last) > 4:
            words[-1] = last[:-3] + "y"
    t = " ".join(words)
    return ALIASES.get(t, t)


@lru_cache(maxsize=1 << 17)
def _usable(key: str) -> bool:
    words = key.split(" ")
    if not key or len(key) > 45 or len(words) > 4 or key in GENERIC:
        return False
    if key in LIBRARY_TAGS or ARXIV_CLASS.match(key) or key in HALF_WORDS:
        return False
    if any(c in key for c in "<>{}[]$\\=/|"):  # markup or maths, not words
        return False
    if words[0] in FUNCTION or words[-1] in FUNCTION:
        return False
    if len(words) == 1 and key in VAGUE:
        return False
    if key in KNOWN:  # abbreviations we expand ("rl", "llm")
        return True
    return any(len(w) > 2 for w in words) and not key.replace(" ", "").isdigit()


@dataclass
class PaperText:
    """What labelling needs from one paper."""

    title: str = ""
    abstract: str = ""
    keywords: list[str] = field(default_factory=list)
    keyphrases: list[str] = field(default_factory=list)
    name: str | None = None


def paper_texts(papers: dict, facts: dict, ids: list[str]) -> list:
    """What the labeller reads of each paper (PaperText), in `ids` order."""
    texts = []
    for pid in ids:
        p, f = papers.get(pid, {}), facts.get(pid, {})
        texts.append(
            PaperText(
                title=p.get("title") or "",
                abstract=p.get("abstract") or "",
                keywords=[k for k in p.get("keywords") or [] if isinstance(k, str)],
                keyphrases=[k for k in f.get("keyphrases") or [] if isinstance(k, str)],
                name=f.get("name"),
            )
        )
    return texts


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text or "")]


_NAME_LIKE = re.compile(r"^(?=.*[a-z])(?=.*[A-Z].*[A-Z])[A-Za-z0-9\-]{3,}$")


def _abstract_phrases(papers: list[PaperText]) -> list[set[str]]:
    """Fallback phrases for bare abstracts: 2-3 word runs without stop words, and
    name-like words (CIMemories, LoRA), each found in at least two papers."""
    per_doc: list[set[str]] = []
    df: Counter[str] = Counter()
    for p in papers:
        raw = _TOKEN.findall(f"{p.title} {p.abstract}")
        toks = [t.lower() for t in raw]
        found = {phrase_key(w) for w in raw if _NAME_LIKE.match(w)}
        for n in (2, 3):
            for i in range(len(toks) - n + 1):
                gram = toks[i : i + n]
                if any(w in STOP or len(w) < 3 for w in gram):
                    continue
                found.add(phrase_key(" ".join(gram)))
        per_doc.append(found)
        df.update(found)
    return [{k for k in s if df[k] >= 2} for s in per_doc]


def paper_phrases(papers: list[PaperText]) -> tuple[list[set[str]], dict[str, Counter]]:
    """Per paper: the set of phrase keys it carries; and per key, the surface forms seen."""
    surface: dict[str, Counter] = defaultdict(Counter)
    given: list[set[str]] = []
    for p in papers:
        keys = set()
        for raw in [*p.keywords, *p.keyphrases]:
            if not isinstance(raw, str):
                continue
            k = phrase_key(raw)
            if _usable(k):
                keys.add(k)
                surface[k][_SPACE.sub(" ", raw.strip())] += 1
        given.append(keys)
    # phrases some author chose as a keyword (more trusted than extracted keyphrases)
    authored = {phrase_key(k) for p in papers for k in p.keywords if isinstance(k, str)}
    surface["\0authored"] = Counter(authored)  # carried along with the surface forms
    keyword_df: Counter[str] = Counter()
    for keys in given:
        keyword_df.update(keys)
    # a title that says "machine unlearning" counts even if the keywords do not; single
    # words only when many authors use them as a keyword ("quantization", not "neural")
    vocab = {k for k, c in keyword_df.items() if " " in k or c >= 10}
    # first words of every spelling that can map to a vocabulary key: n-grams starting
    # with any other word are skipped without normalising them (most of them)
    starts = {k.split(" ")[0] for k in vocab}
    starts |= {src.split(" ")[0] for src, dst in ALIASES.items() if dst in vocab}
    for p, keys in zip(papers, given):
        if p.title:
            tokens = _tokens(p.title)
            for i, first in enumerate(tokens):
                if first not in starts and first.rstrip("s") not in starts:
                    continue
                for n in range(1, 5):
                    if i + n > len(tokens):
                        break
                    k = phrase_key(" ".join(tokens[i : i + n]))
                    if k in vocab:
                        keys.add(k)
    covered = sum(1 for k in given if k) / max(1, len(papers))
    if covered < 0.6:  # bare abstracts: fall back to frequent n-grams
        for keys, extra in zip(given, _abstract_phrases(papers)):
            keys.update(k for k in extra if _usable(k))
    return given, surface


def _display(key: str, surface: dict[str, Counter]) -> str:
    if key in DISPLAY:
        return DISPLAY[key]
    forms = surface.get(key)
    if forms:
        form = forms.most_common(1)[0][0]
        return " ".join(_soften(w) for w in form.split(" "))
    return key


def _soften(word: str) -> str:
    """Lower-case Title-Case words, keep acronyms and names: "Multi-Agent" -> "multi-agent",
    "LoRA", "GRPO", "3D", "LLM-as-a-Judge" -> "LLM-as-a-judge"."""
    parts = word.split("-")
    return "-".join(p.lower() if p[:1].isupper() and p[1:].islower() else p for p in parts)


def _label_key(label: str) -> str:
    """Labels that differ only in word order ("A & B", "B & A") are the same label."""
    return " ".join(sorted(re.split(r"[ \-]+", label.lower().replace("&", " "))))


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text and not text[:2].isupper() else text


@dataclass
class TopicTerms:
    label: str
    terms: list[str]  # best phrases, displayed form, best first
    coverage: list[float]  # share of the topic's papers that carry each term
    other: int = 0  # members whose own text holds no content word of the label


def is_generic(key: str, generic: set[str] | frozenset[str]) -> bool:
    """Whether a phrase key is made only of words generic across the field (learned by
    `reference.learn_generic_words`): "state-of-the-art baseline", "final", "natural
    context". Abbreviations of research topics ("llm", "rl") never are."""
    if not generic or key in KNOWN:
        return False

    def generic_word(w: str) -> bool:
        if w in generic or phrase_key(w) in generic or w.rstrip("s") in generic or w + "s" in generic:
            return True
        parts = [p for p in w.split("-") if p and p not in FUNCTION]  # "state-of-the-art"
        return "-" in w and bool(parts) and all(generic_word(p) for p in parts)

    return all(generic_word(w) for w in key.split(" ") if w and w not in FUNCTION)


def label_clusters(
    papers: list[PaperText],
    labels,
    n_topics: int,
    reserved: set[str] | None = None,
    phrases=None,
    cover_power: float = 1.0,
    generic: set[str] | None = None,
    fallback: list[str | None] | None = None,
    support: PaperSupport | None = None,
) -> list[TopicTerms]:
    """One readable label per cluster id 0..n_topics-1 (clusters ordered by size, largest first).

    Labels are kept distinct: a later (smaller) cluster whose best phrase is taken uses its
    next best. `reserved` phrase keys are avoided as the head phrase too. Phrases made only
    of `generic` words are never used; a cluster with no usable phrase is named
    `fallback[t]` (the field's topic most of its papers are in) when given.

    Each label is checked against the cluster's papers (`support`, from `paper_support`;
    computed here when not given): a label most papers' own text does not support gets
    the terms that cover them (`_compose`), and each topic counts its papers that still
    do not support it (`TopicTerms.other`).
    """
    phrases, surface = phrases or paper_phrases(papers)  # (computed once for both levels)
    support = support or paper_support(papers, generic)
    authored = surface.get("\0authored") or Counter()
    n = len(papers)
    df: Counter[str] = Counter()
    for keys in phrases:
        df.update(keys)
    members: dict[int, list[int]] = defaultdict(list)
    for i, t in enumerate(labels):
        members[int(t)].append(i)

    word_df: Counter[str] = Counter()  # computed when a topic needs a word label
    used_heads: set[str] = set(reserved or ())
    used_labels: set[str] = set()
    out: list[TopicTerms] = []
    for t in range(n_topics):
        idx = members.get(t, [])
        size = len(idx)
        counts: Counter[str] = Counter()
        for i in idx:
            counts.update(phrases[i])
        # a label names what papers share: at least two papers once a topic has three
        min_df = 1 if size < 3 else max(2, math.ceil(0.04 * size))
        scored = []
        for key, c in counts.items():
            if c < min_df or (generic and is_generic(key, generic)):
                continue
            cover = c / size
            words = key.count(" ") + 1
            # single words weigh less: "machine unlearning" says more than "unlearning"
            weight = 0.75 if words == 1 else 1 + 0.1 * min(words - 2, 2)
            if authored and key not in authored:  # only machine-extracted: trust it less
                weight *= 0.5
            score = cover**cover_power * math.log(1 + n / df[key]) * weight
            scored.append((score, cover, key))
        scored.sort(key=lambda s: (-s[0], s[2]))
        terms = [_display(k, surface) for _, _, k in scored[:8]]
        coverage = [round(c, 3) for _, c, _ in scored[:8]]
        label = (
            _compose(scored, surface, used_heads, used_labels, _Backers(support, idx, surface))
            if scored
            else ""
        )
        if not label and fallback is not None and t < len(fallback) and (borrowed := fallback[t]):
            label = _distinct(borrowed, used_labels)
        if not label:
            word_df = word_df or _word_document_frequency(papers)
            label = _word_label(papers, idx, word_df, used_labels, generic or set()) or f"Topic {t + 1}"
        used_labels.add(_label_key(label))
        other = support.other(support.label(label), idx)
        out.append(TopicTerms(label=label, terms=terms, coverage=coverage, other=other))
    return out


def support_words(generic: set[str] | frozenset[str] | list[str] | None = None) -> LabelSupport:
    """What decides whether a paper supports a label: every word of label_words.py's lists that
    names no topic (function words, abstract filler, the words of too-general phrases), the
    field's `generic` words, and abbreviations read as the words they stand for."""
    ignore = set(FUNCTION) | set(STOP) | set(STOPWORDS) | ABSTRACT_WORDS | HALF_WORDS
    ignore |= {w for phrase in GENERIC for w in re.split(r"[ \-]+", phrase) if w}
    ignore |= set(generic or ())
    return LabelSupport(ignore, SUPPORT_EXPANSIONS)


def paper_support(papers: list[PaperText], generic=None, common=()) -> PaperSupport:
    """Each paper's content-word stems (title and abstract), for checking labels against
    their members: words more than a quarter of these papers use support nothing, nor
    the field's `common` stems (`Reference.meta["common_stems"]`)."""
    return PaperSupport.of([f"{p.title} {p.abstract}" for p in papers], support_words(generic), common)


class _Backers:
    """Which members of one topic support a phrase (cached per phrase key)."""

    def __init__(self, support: PaperSupport, members: list[int], surface):
        self.support, self.surface = support, surface
        self.members = {i for i in members if support.papers[i]}  # papers with words to check
        self._cache: dict[str, frozenset[int]] = {}

    @property
    def size(self) -> int:
        return len(self.members)

    def of(self, key: str) -> frozenset[int]:
        found = self._cache.get(key)
        if found is None:
            words = self.support.label(f"{key} {_display(key, self.surface)}")
            found = self._cache[key] = frozenset(self.support.holding(words) & self.members)
        return found


def _content_words(p: PaperText) -> set[str]:
    return {
        w
        for w in _tokens(f"{p.title} {p.abstract}")
        if len(w) >= 4 and w not in STOP and w not in VAGUE and w not in ABSTRACT_WORDS and not w.isdigit()
    }


def _word_document_frequency(papers: list[PaperText]) -> Counter:
    df: Counter[str] = Counter()
    for p in papers:
        df.update(_content_words(p))
    return df


def _distinct(label: str, used_labels: set[str]) -> str:
    """The label itself when unused, else the same with a number ("Graph (2)")."""
    for n in range(1, 50):
        candidate = label if n == 1 else f"{label} ({n})"
        if _label_key(candidate) not in used_labels:
            return candidate
    return ""


def _word_label(
    papers,
    idx: list[int],
    word_df: Counter,
    used_labels: set[str],
    generic: set[str] | frozenset[str] = frozenset(),
) -> str:
    """For a topic with no shared phrase and no field topic to borrow a name from: its two
    most distinctive words (never a generic one, never a list of paper names)."""
    counts: Counter[str] = Counter()
    for i in idx:
        counts.update(w for w in _content_words(papers[i]) if w not in generic)
    n = len(papers)
    need = 2 if len(idx) >= 3 else 1
    ranked = sorted(
        ((c / len(idx)) * math.log(1 + n / word_df[w]), w) for w, c in counts.items() if c >= need
    )
    words = [w for _, w in sorted(ranked, key=lambda r: (-r[0], r[1]))[:2]]
    label = _capitalise(" & ".join(words))
    return label if words and _label_key(label) not in used_labels else ""


def _words(key: str, surface) -> set[str]:
    text = f"{key} {_display(key, surface).lower()}"
    return set(re.split(r"[ \-]+", text)) | EXPANSIONS.get(key, set())


def _initials(key: str) -> str:
    return "".join(w[0] for w in re.split(r"[ \-]+", key) if w and w not in FUNCTION)


def _overlaps(a: str, b: str, surface) -> bool:
    """Whether two phrases say the same thing: shared words or word stems ("jailbreak",
    "jailbreaking"), one inside the other, or one the acronym of the other."""
    if a in b or b in a:
        return True
    wa, wb = _words(a, surface), _words(b, surface)
    if wa & wb:
        return True
    stems_a = {w[:5] for w in wa if len(w) >= 5}
    if stems_a & {w[:5] for w in wb if len(w) >= 5}:
        return True
    return (" " not in a and a == _initials(b)) or (" " not in b and b == _initials(a))


def _expand(head: str, scored, cover_of: dict[str, float]) -> str:
    """A longer phrase that contains the head and still covers much of the topic
    ("unlearning" -> "machine unlearning"), else the head itself."""
    head_words = head.split(" ")
    best, best_cover = head, 0.0
    for _, cover, key in scored[:30]:
        words = key.split(" ")
        if len(words) <= len(head_words) or not all(w in words for w in head_words):
            continue
        if cover >= 0.4 * cover_of[head] and cover > best_cover:
            best, best_cover = key, cover
    return best


# A label should be supported by this share of its topic's papers; terms are added (at
# most MAX_TERMS, MAX_WORDS words in all) while it is not and a term still covers MIN_GAIN
# more of them. An added term must also be distinctive of the topic: its score at least
# COVER_SCORE of the head's (a word every topic holds, "optimization", is not added).
SUPPORT_TARGET = 0.8
MAX_TERMS = 3
MAX_WORDS = 6
MIN_GAIN = 0.05
COVER_SCORE = 0.4
# Head phrases tried per topic, and the phrases a label may add to cover its papers.
HEADS = 12
COVER_CANDIDATES = 30


def _compose(scored, surface, used_heads: set[str], used_labels: set[str], backers: _Backers) -> str:
    """The label of one topic: the best unused head phrase, plus a second idea when it is
    strong and different ("Machine unlearning for LLMs"); then, while most of the topic's
    papers do not support it, the phrases that cover the most of them ("Reasoning, agents &
    multimodal LLMs"). The first head, in score order, whose label reaches SUPPORT_TARGET
    wins; when none does, the one supported by the most papers."""
    cover_of = {key: cover for _, cover, key in scored}
    score_of = {key: score for score, _, key in scored}
    best: tuple[int, str, str] | None = None  # (papers supporting, label, head)
    for score_h, _cover_h, head in scored[:HEADS]:
        head = _expand(head, scored, cover_of)
        if head in used_heads:
            continue
        terms = [head]
        for score_s, cover_s, key in scored[:10]:
            if key == head or _overlaps(key, head, surface):
                continue
            if cover_s >= 0.15 and score_s >= 0.45 * score_of.get(head, score_h):
                terms.append(key)
                break
        covered = _cover(terms, scored, surface, backers, score_of.get(head, score_h))
        label = _capitalise(_phrase_terms(terms, surface))
        if _label_key(label) in used_labels:
            continue
        if covered >= SUPPORT_TARGET * backers.size:
            best = (covered, label, head)
            break
        if best is None or covered > best[0]:
            best = (covered, label, head)
    if best is None:
        return ""
    used_heads.add(best[2])
    return best[1]


def _cover(terms: list[str], scored, surface, backers: _Backers, head_score: float) -> int:
    """Add to `terms` (in place) the phrases that cover the most papers not yet supporting
    them (per word of the phrase: short terms first), while under SUPPORT_TARGET; returns
    how many papers support the terms."""
    covered: frozenset[int] = frozenset().union(*(backers.of(t) for t in terms))
    need = max(1, math.ceil(MIN_GAIN * backers.size))
    words = sum(len(_display(t, surface).split()) for t in terms)
    while len(terms) < MAX_TERMS and len(covered) < SUPPORT_TARGET * backers.size:
        gain, pick = 0.0, None
        for score, _, key in scored[:COVER_CANDIDATES]:
            shown = _display(key, surface)
            n_words = len(shown.split())
            if score < COVER_SCORE * head_score or words + n_words > MAX_WORDS or "(" in shown:
                continue
            if key in terms or any(_overlaps(key, t, surface) for t in terms):
                continue
            new = len(backers.of(key) - covered)
            if new >= need and new / math.sqrt(n_words) > gain:
                gain, pick = new / math.sqrt(n_words), key
        if pick is None:
            break
        terms.append(pick)
        words += len(_display(pick, surface).split())
        covered |= backers.of(pick)
    return len(covered)


def _phrase_terms(terms: list[str], surface) -> str:
    """Up to three ideas as a heading: "A", "A for B" / "A & B", "A, B & C"."""
    two = _phrase(terms[0], terms[1] if len(terms) > 1 else None, surface)
    if len(terms) < 3:
        return two
    third = _display(terms[2], surface)
    if "&" in two:
        return f"{_display(terms[0], surface)}, {_display(terms[1], surface)} & {third}"
    return f"{two} & {third}"


def _phrase(head: str, second: str | None, surface) -> str:
    """Two ideas as a heading: "LLM quantization", "Machine unlearning for LLMs",
    "Federated learning & differential privacy"."""
    head_text = _display(head, surface)
    if second is None:
        return head_text
    second_text = _display(second, surface)
    if second in DOMAINS and head not in DOMAINS:
        if " " not in head_text:
            return f"{DOMAINS[second]} {head_text}"
        return f"{head_text} for {second_text}"
    if head in DOMAINS and second not in DOMAINS:
        if " " not in second_text:
            return f"{DOMAINS[head]} {second_text}"
        return f"{second_text} for {head_text}"
    return f"{head_text} & {second_text}"
