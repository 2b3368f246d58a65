"""Kind of contribution: method, benchmark, dataset, analysis (empirical study) or theory.

Scored by cues in the abstract, weighted up when they sit in the sentence that introduces
the contribution ("we introduce X, a benchmark ..."). The highest score is the kind; other
kinds with solid evidence are the secondary kinds.
"""

from __future__ import annotations

import re

KINDS = ("method", "benchmark", "dataset", "analysis", "theory")

_CUES: dict[str, list[tuple[re.Pattern, float]]] = {
    "benchmark": [
        (re.compile(r"\bbenchmark(?:s|ing)?\b", re.I), 1.0),
        (re.compile(r"\b(?:evaluation|test)\s+(?:suite|framework|protocol|harness|bed)\b|\btestbed\b|"
                    r"\bleaderboard\b|\barena\b", re.I), 1.5),
    ],
    "dataset": [
        (re.compile(r"\b(?:dataset|data\s+set|corpus|corpora)\b", re.I), 1.0),
        (re.compile(r"\b(?:we\s+(?:collect|curate|annotate|release|construct)|annotated|"
                    r"large-scale\s+collection|human-annotated|hours\s+of)\b", re.I), 0.8),
    ],
    "theory": [
        (re.compile(r"\b(?:we\s+prove|prove\s+that|theorem|lower\s+bound|upper\s+bound|"
                    r"minimax|sample\s+complexity|regret\s+bound|convergence\s+rate|"
                    r"provabl[ey]|theoretical(?:ly)?|guarantee[sd]?|tight\s+bound|"
                    r"non-asymptotic|asymptotic|characteriz|we\s+establish|rigorous)\w*", re.I), 1.0),
    ],
    "analysis": [
        (re.compile(r"\b(?:we\s+(?:study|investigate|analy[sz]e|examine|explore|find|observe|"
                    r"show\s+that|reveal|uncover|demonstrate\s+that|ask|revisit|measure|"
                    r"characteri[sz]e|conduct)|empirical\s+study|systematic\s+study|"
                    r"large-scale\s+study|our\s+(?:analysis|findings|study|results\s+suggest)|"
                    r"findings|surprisingly|we\s+hypothesi[sz]e|understanding|sheds?\s+light|"
                    r"case\s+study|position\s+paper|survey)\b", re.I), 0.7),
    ],
    "method": [
        (re.compile(r"\b(?:we\s+propose|novel\s+(?:method|approach|framework|algorithm|technique|"
                    r"architecture)|our\s+(?:method|approach|framework|algorithm|model)|outperform\w*|"
                    r"state-of-the-art|improv\w+|achiev\w+|reduc\w+|speed-?up|plug-and-play|"
                    r"training-free|efficient)\b", re.I), 0.6),
        (re.compile(r"\b(?:method|approach|framework|algorithm|architecture|technique|module|"
                    r"pipeline|strategy|mechanism|objective|loss)\b", re.I), 0.4),
    ],
}

_INTRO_SENTENCE = re.compile(
    r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+)?(?:present|propose|introduce|develop|release|"
    r"construct|build|curate|create|contribute|design)\w*\b", re.I)
_HEAD_NOUN = {
    "benchmark": re.compile(r"\b(?:benchmark|evaluation\s+(?:suite|framework)|testbed|leaderboard|arena)s?\b", re.I),
    "dataset": re.compile(r"\b(?:dataset|corpus|collection)s?\b", re.I),
    "method": re.compile(r"\b(?:method|approach|framework|algorithm|model|architecture|technique|"
                         r"system|agent|pipeline|strategy|paradigm|optimizer|module|mechanism|"
                         r"recipe|objective|loss|attack|defen[cs]e|policy|estimator)s?\b", re.I),
    "theory": re.compile(r"\b(?:theory|theoretical\s+framework|bound|theorem|analysis\s+of\s+the\s+"
                         r"convergence)s?\b", re.I),
    "analysis": re.compile(r"\b(?:study|analysis|investigation|evaluation|audit|survey)\b", re.I),
}


def classify_kind(sents: list[str]) -> tuple[str, list[str]]:
    """(main kind, secondary kinds) from the abstract's clean sentences."""
    score = dict.fromkeys(KINDS, 0.0)
    intro_seen = False
    for sent in sents:
        intro = _INTRO_SENTENCE.search(sent)
        weight = 1.0
        if intro:
            weight = 2.0
            tail = sent[intro.end():intro.end() + 120]
            first = None
            for kind, pat in _HEAD_NOUN.items():
                m = pat.search(tail)
                if m and (first is None or m.start() < first[1]):
                    first = (kind, m.start())
            if first is not None:
                score[first[0]] += 3.0 if not intro_seen else 1.5
            intro_seen = True
        for kind, cues in _CUES.items():
            for pat, w in cues:
                n = len(pat.findall(sent))
                if n:
                    score[kind] += w * weight * min(n, 2)
    if not intro_seen:
        score["analysis"] += 1.0
    main = max(KINDS, key=lambda k: (score[k], -KINDS.index(k)))
    secondary = [k for k in KINDS if k != main and score[k] >= max(3.0, 0.6 * score[main])]
    return main, secondary
