"""Display titles learned from real (abstract -> title) pairs: a ranker over clause spans.

A paper without a title gets one made of its own words. Every candidate is a span of one of
the abstract's first sentences that starts and ends where a clause or phrase does (the start
of the sentence, after "we propose", after "that", after a comma; before a comma, "which",
"by", "using", ... or the sentence end), so a title is never cut mid-clause. Short
parentheticals ("(LLMs)", "(e.g., ...)") are dropped first, and no span ends on a word that
the abstracts nearly always follow with a preposition ("based", "designed": learned). A named
paper's candidates are composed as "Name: span" (the name taken out of the span).

Each candidate is described by a few dozen numbers (which sentence, where it starts and
ends, its length, how many of its words the abstract repeats, pronouns, digits, cue words,
how likely its words are to be in this paper's title: `title_words.py`, ...) and scored by a
linear model fit to predict the candidate's ROUGE-L against the real title, on the ICLR 2026
papers outside the held-out split (`scripts/build_titles.py`). A second stage may join one of
the best short spans with what the abstract says it is for ("X for Y"; `title_join.py`). The
chosen title then loses the filler a real title would not keep ("A novel framework for X" ->
"Framework for X"; `title_trim.py`). The models ship as `paperatlas/models/titles-v3.json`.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from paperatlas.enrich import title_join
from paperatlas.enrich.title_join import JOIN_FEATURES
from paperatlas.enrich.title_trim import FILLER, TRIM_FEATURES, abstract_counts, trim
from paperatlas.enrich.title_words import SPAN_FEATURES, WORD_FEATURES, span_features, word_chances

MODEL_FILE = "titles-v3.json"
MAX_SENTENCES = 6  # candidates come from the abstract's first sentences
MIN_WORDS, MAX_WORDS = 2, 16  # span length in words (the name prefix not counted)
MIN_SHOWN = 3  # words a shown title has besides the name: "Name: A benchmark" says too little
MAX_CHARS = 110

_WORD = re.compile(r"\w+")
_PAREN = re.compile(r"\s*\((?:[^()]{0,60})\)")
_ENUMERATOR = re.compile(r"(?<!\S)(?:\d|[ivx]{1,4}|[a-e])\)\s+")  # "2) a loss ..." -> "a loss ..."
_INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we|our\s+(?:work|paper))\s+(?:\w+\s+){0,2}?"
    r"(?:present|propose|introduce|develop|design|build|construct|release|curate|create|"
    r"contribute|study|investigate|analy[sz]e|show|prove|establish|derive|provide|examine|"
    r"explore|demonstrate|formulate|find|revisit|identify|address|tackle|offer|put\s+forward)"
    r"\w*\s+(?:(?:that|how|whether|a\s+new|a\s+novel|the\s+first)\s+)?",
    re.I,
)
_NAMED = re.compile(r"\b(?:called|named|termed|dubbed|coined)\s+", re.I)
_AFTER_THAT = re.compile(r"\b(?:that|whether|how)\s+", re.I)
# words a span may end before (the clause or phrase after them is left out)
_END_BEFORE = re.compile(
    r"\s(?=(?:that|which|where|whereby|while|whose|who|when|by|using|via|through|with|"
    r"without|based|and|but|or|to|for|in|on|across|from|under|as|leveraging|achieving|"
    r"enabling|allowing|yielding|resulting|thereby|because|since|if|than)\b)",
    re.I,
)
_PUNCT = re.compile(r"\s*[,;:—–]\s+|\s+-\s+|\s*--+\s*")
_BAD_LAST = frozenset(
    "a an the of to for in on with and or by our its their this these that is are be we "
    "from as at into via it his her than such both either each".split()
)
# A title never ends on a reporting verb that wants its object ("... and show"), and holds no
# half of a bracket, no abbreviation cut off ("(e.g."), no macro left over ("methodname~") and
# no pair of words said again right after itself.
_REPORTING_LAST = frozenset(
    "show shows demonstrate demonstrates propose proposes present presents introduce introduces "
    "find finds reveal reveals prove proves achieve achieves evaluate evaluates analyze analyzes "
    "study studies".split()
)
_LEFTOVER = re.compile(r"[~\\$]|\b(?:e\.g|i\.e|etc|cf)\.?$", re.I)


def readable(text: str) -> bool:
    """Can `text` stand as a title (see the comment above)? "Name: " heads are allowed."""
    body = text.split(": ", 1)[1] if ": " in text else text
    words = body.split()
    if not words:
        return False
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        return False
    if _LEFTOVER.search(text):
        return False
    plain = [w.lower().strip(".,;:") for w in words]
    pairs = list(pairwise(plain))
    if any(pairs[i] in pairs[i + 2 : i + 4] for i in range(len(pairs))):
        return False  # a joined tail that says its head again: "for fairness for fairness"
    return plain[-1] not in _REPORTING_LAST


_BAD_FIRST = frozenset(
    "and or of to for in on with by as at than which who whose where when while but also "
    "then thus however moreover furthermore finally specifically namely is are was were be "
    "it they them its "
    # a subordinate clause does not stand alone: "Although contrastive methods have been explored"
    "although though whereas because since if unless despite given".split()
)
_PRONOUN = frozenset("we our us it its they their this these those".split())
_CUE = frozenset(
    "framework method approach benchmark dataset model models algorithm learning network "
    "networks system analysis theory evaluation towards toward via efficient scalable "
    "robust adaptive unified generalization training language large".split()
)
_RESULT = re.compile(r"\d|%|\b(?:outperform|achiev|experiment|results?|state-of-the-art|sota)", re.I)

FEATURES = (
    "bias",
    "sent0",
    "sent1",
    "sent2",
    "sent3plus",
    "intro_sentence",
    "start_sentence",
    "start_intro",
    "start_named",
    "start_that",
    "start_punct",
    "start_other",
    "end_sentence",
    "end_punct",
    "end_word",
    "len1_3",
    "len4_6",
    "len7_9",
    "len10_12",
    "len13_16",
    "repeated_share",
    "repeated_mean",
    "stop_share",
    "first_article",
    "pronoun",
    "cue_share",
    "filler",
    "result_words",
    "commas",
    "capital_share",
    "named",
    "named_in_span",
    "name_x_len_short",
    "upper_token",
    "first_we",
    "question",
    "rate_mean",
    "rate_f1",
    "rate_low_share",
    "rate_min",
    "rate_f1_x_named",
    "tokens_10",
    "first_verb_s",
    "first_ing",
    "first_ed",
    "name_at_start",
    "background",
    *SPAN_FEATURES,
)
DEFAULT_RATE = 0.15  # title rate of a word the lexicon does not know

NAME_RATE = 0.7  # ... and of the paper's name (most named papers' titles start with it)


def rouge_l(candidate: str, reference: str) -> float:
    """ROUGE-L F1 over lower-cased word tokens (longest common subsequence)."""
    a = _WORD.findall(candidate.lower())
    b = _WORD.findall(reference.lower())
    if not a or not b:
        return 0.0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    lcs = prev[-1]
    if lcs == 0:
        return 0.0
    p, r = lcs / len(a), lcs / len(b)
    return 2 * p * r / (p + r)


def _strip_parens(sentence: str) -> str:
    return re.sub(r"\s+([,.;:])", r"\1", _ENUMERATOR.sub("", _PAREN.sub("", sentence))).strip()


def _starts(s: str) -> list[tuple[int, str]]:
    """(character offset, kind) where a span may start."""
    out = [(0, "sentence")]
    for m in _INTRO.finditer(s):
        out.append((m.end(), "intro"))
    for m in _NAMED.finditer(s):
        out.append((m.end(), "named"))
    for m in _AFTER_THAT.finditer(s):
        out.append((m.end(), "that"))
    for m in _PUNCT.finditer(s):
        out.append((m.end(), "punct"))
    return out


def _ends(s: str) -> list[tuple[int, str]]:
    out = [(len(s.rstrip(" .!?")), "sentence")]
    for m in _PUNCT.finditer(s):
        out.append((m.start(), "punct"))
    for m in _END_BEFORE.finditer(s):
        out.append((m.start(), "word"))
    return out


def _drop_name(text: str, name: str) -> str:
    i = text.find(name)
    if i < 0:
        return text
    text = (text[:i] + text[i + len(name) :]).strip()
    text = re.sub(r"^[,:;\s–—-]+|[,:;\s–—-]+$", "", text)  # "X – a framework": no dash left
    return re.sub(r"\s{2,}", " ", re.sub(r"\s+([,;:])", r"\1", text))


def candidates(
    sents: list[str],
    name: str | None,
    rates: dict[str, float] | None = None,
    needs_complement: frozenset[str] = frozenset(),
    chances: dict[str, float] | None = None,
) -> list[tuple[str, list[float]]]:
    """Every clause span of the first sentences, composed as a title, with its features.
    `rates`: how often a word of the abstract is kept in the paper's title; `needs_complement`:
    words a span may not end on ("based", "designed", "capable": learned, see the model);
    `chances`: each word's chance to be in this paper's title (`title_words.word_chances`)."""
    rates = rates if rates is not None else {}
    chances = chances if chances is not None else {}
    total = sum(chances.values())
    counts: dict[str, int] = {}
    for s in sents:
        for w in set(_WORD.findall(s.lower())):
            counts[w] = counts.get(w, 0) + 1
    out: list[tuple[str, list[float]]] = []
    seen: set[str] = set()
    for index, raw in enumerate(sents[:MAX_SENTENCES]):
        s = _strip_parens(raw)
        intro_sentence = 1.0 if _INTRO.search(s) else 0.0
        starts = _starts(s)
        ends = _ends(s)
        for a, start_kind in starts:
            for b, end_kind in ends:
                if b <= a:
                    continue
                span = s[a:b].strip(" ,;:-–—\"'“”")
                words = span.split()
                if not (MIN_WORDS <= len(words) <= MAX_WORDS):
                    continue
                first, last = words[0].lower(), words[-1].lower().strip(".,;:")
                if first in _BAD_FIRST or last in _BAD_LAST or last in needs_complement:
                    continue
                named_in_span = bool(name and name in span)
                if named_in_span and name and not span.startswith(name):
                    continue  # "we propose X, a ..." without X reads wrong; the span after it is a candidate
                if name:
                    rest = _drop_name(span, name) if named_in_span else span
                    if len(rest.split()) < 2:
                        continue
                    text = f"{name}: {rest[:1].upper()}{rest[1:]}"
                else:
                    text = span[:1].upper() + span[1:]
                if len(text) > MAX_CHARS or text in seen:
                    continue
                seen.add(text)
                out.append(
                    (
                        text,
                        _features(
                            words,
                            index,
                            intro_sentence,
                            start_kind,
                            end_kind,
                            counts,
                            name,
                            named_in_span,
                            span,
                            text,
                            rates,
                        )
                        + span_features(text, chances, total),
                    )
                )
    return out


def _features(
    words, index, intro_sentence, start_kind, end_kind, counts, name, named_in_span, span, text, rates
) -> list[float]:
    n = len(words)
    low = [w.lower().strip(".,;:\"'“”()") for w in words]
    toks = _WORD.findall(span.lower())
    content = [t for t in toks if t not in _BAD_LAST and len(t) > 2]
    repeated = [counts.get(t, 0) for t in content]
    rep_share = sum(1 for c in repeated if c > 1) / len(content) if content else 0.0
    rep_mean = min(sum(repeated) / len(repeated), 5.0) / 5.0 if repeated else 0.0
    stop_share = 1.0 - len(content) / len(toks) if toks else 0.0
    title_toks = _WORD.findall(text.lower())
    name_toks = set(_WORD.findall(name.lower())) if name else set()
    r = [NAME_RATE if t in name_toks else rates.get(t, DEFAULT_RATE) for t in title_toks] or [0.0]
    rate_sum = sum(r)
    rate_f1 = 2 * rate_sum / (len(title_toks) + 10)
    # the span's first word once the name is taken out ("X integrates ..." -> "integrates")
    rest = span[len(name) :].lstrip(" ,:") if named_in_span and span.startswith(name) else span
    head = rest.split()[0] if rest.split() else ""
    return [
        1.0,
        float(index == 0),
        float(index == 1),
        float(index == 2),
        float(index >= 3),
        intro_sentence,
        float(start_kind == "sentence"),
        float(start_kind == "intro"),
        float(start_kind == "named"),
        float(start_kind == "that"),
        float(start_kind == "punct"),
        0.0,
        float(end_kind == "sentence"),
        float(end_kind == "punct"),
        float(end_kind == "word"),
        float(n <= 3),
        float(4 <= n <= 6),
        float(7 <= n <= 9),
        float(10 <= n <= 12),
        float(n >= 13),
        rep_share,
        rep_mean,
        stop_share,
        float(low[0] in ("a", "an", "the")),
        sum(1 for w in low if w in _PRONOUN) / n,
        sum(1 for w in low if w in _CUE) / n,
        float(any(w in FILLER for w in low)),
        float(bool(_RESULT.search(span))),
        float(span.count(",")),
        sum(1 for w in words if w[:1].isupper()) / n,
        float(bool(name)),
        float(named_in_span),
        float(bool(name) and n <= 6),
        float(any(len(w) > 1 and w.isupper() for w in words)),
        float(low[0] == "we"),
        float(span.rstrip().endswith("?")),
        rate_sum / len(r),
        rate_f1,
        sum(1 for x in r if x < 0.1) / len(r),
        min(r),
        rate_f1 * float(bool(name)),
        min(len(title_toks), 20) / 10,
        float(
            head.endswith("s") and not head.endswith(("ss", "is", "us")) and head.isalpha() and head.islower()
        ),
        float(head.endswith("ing")),
        float(head.endswith("ed")),
        float(named_in_span and span.startswith(name)),
        float(index == 0 and not intro_sentence and start_kind == "sentence"),
    ]


class TitleModel(NamedTuple):
    """The display-title models, as read from MODEL_FILE."""

    weights: tuple[float, ...]  # the ranker's, one per FEATURES
    rates: dict[str, float]  # word -> title rate
    needs_complement: frozenset[str]  # words nearly always followed by a preposition in abstracts
    trim_weights: tuple[float, ...]  # the word-deletion model's, one per title_trim.TRIM_FEATURES
    trim_threshold: float  # a droppable word goes when its chance of being kept is below this
    word_weights: tuple[float, ...]  # the word-chance model's, one per title_words.WORD_FEATURES
    join_weights: tuple[float, ...] = ()  # the second stage's, one per title_join.JOIN_FEATURES


@lru_cache(maxsize=1)
def load_model(path: str | None = None) -> TitleModel | None:
    """The ranker and the word-deletion model; None when the file is missing or was built
    for other features."""
    p = Path(path) if path else Path(str(resources.files("paperatlas") / "models" / MODEL_FILE))
    if not p.exists():
        return None
    data = json.loads(p.read_text(encoding="utf-8"))
    if (
        list(data["features"]) != list(FEATURES)
        or list(data["trim"]["features"]) != list(TRIM_FEATURES)
        or list(data["words"]["features"]) != list(WORD_FEATURES)
        or list(data.get("join", {}).get("features", JOIN_FEATURES)) != list(JOIN_FEATURES)
    ):
        return None
    return TitleModel(
        tuple(float(w) for w in data["weights"]),
        dict(data["rates"]),
        frozenset(data["needs_complement"]),
        tuple(float(w) for w in data["trim"]["weights"]),
        float(data["trim"]["threshold"]),
        tuple(float(w) for w in data["words"]["weights"]),
        tuple(float(w) for w in data.get("join", {}).get("weights", ())),
    )


def paper_chances(sents: list[str], name: str | None, model: TitleModel) -> dict[str, float]:
    """Each word of the abstract -> its chance to be in the title (`title_words`)."""
    intro = [bool(_INTRO.search(s)) for s in sents]
    return word_chances(sents, intro, name, model.rates, model.word_weights, DEFAULT_RATE)


def join_options(
    sents: list[str], name: str | None, model: TitleModel, rates: dict[str, float] | None = None
) -> list[tuple[str, list[float]]]:
    """What the second stage chooses from (`title_join`): the ranker's best candidate with at
    least MIN_SHOWN words besides the name, and its best short spans joined with a phrase the
    abstract opens with "for/in/on ..."; [] when there is no candidate. `rates`: the word
    rates to read (the model's unless a build passes others)."""
    rates = rates if rates is not None else model.rates
    intro = [bool(_INTRO.search(s)) for s in sents]
    chances = word_chances(sents, intro, name, rates, model.word_weights, DEFAULT_RATE)
    scored = sorted(
        (
            (text, sum(w * f for w, f in zip(model.weights, feats)))
            for text, feats in candidates(sents, name, rates, model.needs_complement, chances)
        ),
        key=lambda x: -x[1],
    )
    shown = next(
        (
            x
            for x in scored
            if len((x[0].split(": ", 1)[1] if name else x[0]).split()) >= MIN_SHOWN and readable(x[0])
        ),
        None,
    )
    if shown is None:
        return []
    if not model.join_weights:
        return [(shown[0], [])]
    plain = [_strip_parens(s) for s in sents[:MAX_SENTENCES]]
    tails = title_join.tails(plain, _end_offsets, _BAD_LAST | model.needs_complement)
    return title_join.options(
        shown, scored[: title_join.HEADS], tails, chances, sum(chances.values()), MAX_CHARS
    )


def _end_offsets(s: str) -> list[int]:
    return [b for b, _ in _ends(s)]


def ranked(sents: list[str], name: str | None, model: TitleModel) -> str | None:
    """The chosen title before word deletion: the best candidate, or one of its short spans
    joined with what it is for when the second stage scores that higher."""
    options = [o for o in join_options(sents, name, model) if readable(o[0])]
    if not options:
        return None
    if len(options) == 1:
        return options[0][0]
    return max(options, key=lambda o: sum(w * f for w, f in zip(model.join_weights, o[1])))[0]


_WRAPPED = re.compile(r"^((?:[^:]{1,40}: )?)\(([^()]+)\)")


def _unwrapped(title: str) -> str:
    """ "INSTANT: (compressIng gradieNtS ... Training)" -> "INSTANT: compressIng ... Training":
    a name's expansion in brackets reads as the title without them."""
    return _WRAPPED.sub(r"\1\2", title, count=1)


def best_title(sents: list[str], name: str | None, model: TitleModel | None = None) -> str | None:
    """The chosen title (`ranked`) with the droppable words dropped, or None when there is no
    candidate (or no model)."""
    model = model if model is not None else load_model()
    if model is None:
        return None
    best = ranked(sents, name, model)
    if best is not None:
        best = _unwrapped(best)
    if best is None or not model.trim_weights:
        return best
    prefix = f"{name}: " if name else ""
    body = best[len(prefix) :]
    counts = abstract_counts(sents)
    return prefix + trim(body, model.rates, counts, model.trim_weights, model.trim_threshold, DEFAULT_RATE)
