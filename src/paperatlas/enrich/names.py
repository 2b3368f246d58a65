"""Contribution names: what the abstract itself introduces ("We present CIMemories").

Authors mark a coined name in a handful of ways. Each way is a cue rule in CUE_RULES
(name_cues.py: a function yielding Hits), with its weight in WEIGHTS (the W_* constants; the
patterns and name shapes they read are in name_shapes.py):
  - "named / called / dubbed / termed / which we call X", 名为 X           (strongest)
  - "our framework, X," / "the proposed method X" / "our work, X,"
  - an acronym defined in place, "Hessian-Enhanced Token Attribution (HETA)", checked with
    the Schwartz-Hearst letter alignment so "(e.g. ...)" or "(ours)" do not count
  - an appositive, "X, a novel framework for ..." / "X is a new benchmark" / "Using X, a
    suite of ..."
  - an introducing verb, "we present / propose / introduce ... X" (strongest when X comes
    right after the verb and is set off: "we propose X, ..."; also "a framework - X -");
    "X is proposed"; a capitalised run after the verb; 我们提出了 X in Chinese
  - "the X framework", "our X method", a repository named X that the text uses
  - emphasis or quotes on a coined word: \\textsc{X}, \\emph{X}, \\texttt{X}, \\mathrm{X},
    **X**, `X`, “X”, "X"
  - a coined token (inner capitals, digits) that the abstract keeps using as a subject
Candidates are then filtered: undefined LaTeX placeholders (`\\tool`), well-known existing
things the paper only uses (known.py: GRPO, CLIP, Qwen3-Embedding), short acronyms many
unrelated papers use (LR, CE, NN: names_model.is_generic_acronym, from the corpus spread
table), plural acronyms of classes of things (LLMs), and ordinary capitalised words.

Which candidate is the paper's name, if any, is decided by the learned scorer
(names_model.py: a logistic regression over the cues a name collected, its shape, mentions,
position and corpus spread, fit on silver labels from real titles); a paper whose best
candidate is not likely enough gets no name — an invented name is worse than none. Without
the model file the hand weights decide (MIN_SCORE, HEADLINE_MARGIN).
"""

from __future__ import annotations

import re

from paperatlas.enrich import names_model
from paperatlas.enrich.name_cues import candidates
from paperatlas.enrich.name_shapes import INTRO, Candidate, is_name_like
from paperatlas.enrich.text import clean

MIN_SCORE = 3.0  # hand scoring: the evidence a name needs (used without the learned scorer)
HEADLINE_MARGIN = 0.5


def _key(name: str) -> str:
    k = name.lower()
    return k[:-1] if len(k) > 3 and k.endswith("s") else k


def extract_names(raw: str, plain: str | None = None) -> list[str]:
    """Names the abstract introduces, headline first ([] when it coins none).

    `raw` is the abstract with its markup (emphasis is a cue); `plain` its clean() form.
    """
    raw = raw or ""
    plain = clean(raw) if plain is None else plain
    cands = candidates(raw, plain)
    if not cands:
        return []
    return _rank(cands, plain)


_TITLE_HEAD = re.compile(r"^\s*([^\s:：]{2,40})\s*[:：]\s*\S")
_TITLE_CONVENTIONS = frozenset({"sok"})  # "SoK: ..." says the kind of paper, not its name


def _name_key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def title_name(title: str | None) -> str | None:
    """The name a title leads with, "NeuralFur: Animal Fur Reconstruction ..." -> NeuralFur:
    one coined-looking word (inner capitals, letters with digits, all capitals) before a colon."""
    m = _TITLE_HEAD.match(title or "")
    if not m:
        return None
    head = m.group(1).strip("*_`'\"“”")
    if head.casefold() in _TITLE_CONVENTIONS or not is_name_like(head, strong=False):
        return None
    return head


def with_title_name(names: list[str], title: str | None) -> list[str]:
    """`names` with the title's leading name first: the abstract's spelling of it where the
    abstract has one ("FreqCa" for the title's "FREQCA"), the title's otherwise (a dataset the
    abstract names, "ScanNet200", is not the name of "FOLK: Fast Open-Vocabulary ...")."""
    head = title_name(title)
    if head is None:
        return names
    key = _name_key(_SIZE_SUFFIX.sub("", head))  # "Fuyu-8B: ..." is Fuyu at one size
    same = [n for n in names if _name_key(_SIZE_SUFFIX.sub("", n)) == key]
    first = same[0] if same else head
    return [first] + [n for n in names if n != first]


# A model size after a name (AgenTracer-8B); counts such as DeepMath-103K or HSG-12M are
# part of a dataset's name and stay.
_SIZE_SUFFIX = re.compile(r"[-_]\d+(?:\.\d+)?B$")


def _prefer_base_names(kept: list[Candidate]) -> list[Candidate]:
    """`AgenTracer-8B` is one size of `AgenTracer`: size suffixes are dropped, and a name
    that then appears twice keeps its best evidence once."""
    by_key: dict[str, Candidate] = {}
    for c in kept:
        base = _SIZE_SUFFIX.sub("", c.name)
        if base != c.name and len(base) >= 3:
            c.name = base
        k = _key(c.name)
        if k in by_key:
            by_key[k].score = max(by_key[k].score, c.score)
            by_key[k].position = min(by_key[k].position, c.position)
        else:
            by_key[k] = c
    return list(by_key.values())


def merge(cands: list[Candidate], plain: str, df=None) -> list[tuple[Candidate, dict]]:
    """One (Candidate, features) per distinct name: its sightings merged.

    The Candidate carries the hand score (strongest cue plus a little per further cue and
    per mention); the features feed the learned scorer (names_model). `df(token)` gives the
    token's spread across other papers (default: the shipped table)."""
    if df is None:
        table = names_model.term_df()
        df = lambda tok: table.get(tok, 0)  # noqa: E731
    by_key: dict[str, list[Candidate]] = {}
    for c in cands:
        by_key.setdefault(_key(c.name), []).append(c)
    merged = []
    for group in by_key.values():
        best = max(group, key=lambda c: c.score)
        cues = {c.cue for c in group}
        score = best.score + 0.4 * min(len(cues) - 1, 2)
        if " " not in best.name:
            mentions = plain.count(best.name)
            score += 0.3 * min(max(mentions - 1, 0), 4)
        merged.append(
            (Candidate(best.name, score, min(c.position for c in group), best.cue), cues, best.score)
        )
    if not merged:
        return []
    first = min(m[0].position for m in merged)
    top = max(m[0].score for m in merged)
    out = []
    all_names = [m[0].name for m in merged]
    # the first sentence that introduces something ("we propose ..."): the headline is there
    intro = INTRO.search(plain)
    if intro:
        sent_lo = max(plain.rfind(". ", 0, intro.start()), -1) + 1
        sent_hi = plain.find(". ", intro.end())
        sent_hi = len(plain) if sent_hi < 0 else sent_hi
    counts = {m[0].name: plain.count(m[0].name) for m in merged}
    most = max(counts.values()) if counts else 0
    for cand, cues, best_weight in merged:
        base = _SIZE_SUFFIX.sub("", cand.name)
        feats = names_model.features(
            cand.name,
            cues,
            best_weight,
            cand.position,
            plain,
            cand.position == first,
            cand.score == top,
            len(merged),
            0 if " " in base else df(base),
        )
        others = [n for n in all_names if n != cand.name]
        # RoboInter with RoboInter-VQA: the base of a family of variants is the headline;
        # GS inside GSCV, GSPG inside C2GSPG: a part, not the name
        feats["base_of_variants"] = float(any(n.startswith(cand.name + "-") for n in others))
        feats["inside_other"] = float(
            any(cand.name in n and not n.startswith(cand.name + "-") for n in others)
        )
        feats["in_first_intro"] = float(bool(intro) and sent_lo <= cand.position <= sent_hi)
        feats["most_mentioned"] = float(counts[cand.name] == most and most > 1)
        out.append((cand, feats))
    return out


# an opening sentence about this paper: its voice, or the name itself introducing something
# ("TIPO (Text-to-Image Prompt Optimization) introduces an efficient approach ...")
_SELF_REFERENCE = re.compile(
    r"\b(?:we|our|us|this\s+(?:paper|work|study|article)|introduces|proposes|presents)\b", re.I
)
# cues that say an acronym is defined or used as a subject, never that the paper introduces it
_ONLY_DEFINED = frozenset(("cue=acronym", "cue=subject-acronym", "cue=subject"))


def _background_acronym(cand: Candidate, feats: dict[str, float], plain: str) -> bool:
    """An acronym only ever defined (or used as a subject), and defined in an opening sentence
    that speaks of the field rather than of this paper ("Multivariate time series anomaly
    detection (MTS-AD) is ..."): the topic, not a contribution. On the training papers 21 of
    the 22 such headlines were topics (the other, Acc-MD, is arguable)."""
    cues = {k for k in feats if k.startswith("cue=")}
    if "cue=acronym" not in cues or not cues <= _ONLY_DEFINED:
        return False
    if plain.startswith(cand.name):
        return False  # "SELECT (Sensitivity-based ...) targets ...": the paper opens on its name
    first_end = plain.find(". ")
    first = plain if first_end < 0 else plain[: first_end + 1]
    return cand.position < len(first) and not _SELF_REFERENCE.search(first)


def _rank(cands: list[Candidate], plain: str) -> list[str]:
    """Merge evidence per name and order: headline first.

    With the learned scorer, the headline is the candidate it finds likeliest, when that clears
    its threshold; further names need the hand score. Without it (no model file): a name's
    strength is its strongest cue, plus a little for each further kind of cue and for recurring
    mentions; the headline is the earliest name nearly as strong as the best one.
    """
    merged = [(c, f) for c, f in merge(cands, plain) if not _background_acronym(c, f, plain)]
    if not merged:
        return []
    model = names_model.load_model()
    if model is not None:
        probs = [(names_model.score(model, f), c) for c, f in merged]
        p_best, head = max(probs, key=lambda pc: (pc[0], -pc[1].position))
        if p_best < model["threshold"]:
            return []
        kept = [head] + [
            c for p, c in probs if c is not head and (c.score >= MIN_SCORE or p >= model["threshold"])
        ]
        kept = _prefer_base_names(kept)
        head = kept[0]
        rest = sorted(kept[1:], key=lambda c: (-c.score, c.position))
        return [head.name] + [c.name for c in rest]
    kept = [c for c, _ in merged if c.score >= MIN_SCORE]
    if not kept:
        return []
    kept = _prefer_base_names(kept)
    top = max(c.score for c in kept)
    head = min((c for c in kept if c.score >= top - HEADLINE_MARGIN), key=lambda c: c.position)
    rest = sorted((c for c in kept if c is not head), key=lambda c: (-c.score, c.position))
    return [head.name] + [c.name for c in rest]
