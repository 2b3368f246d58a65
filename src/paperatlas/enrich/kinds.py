"""Kind of contribution: method, benchmark, dataset, analysis (empirical study) or theory.

The strongest evidence is what the contribution sentence calls the thing: "We present X, a
*benchmark* for ...", "we introduce a *dataset* of ...", "we *prove* that ...", "we *study*
whether ...". Cues elsewhere in the abstract (theorems and bounds, "our findings", "we
collect", leaderboards) add up behind it (rule_scores). The main kind is then decided by the
learned kind model (kinds_model.py: the abstract's words plus these rule scores, fit on silver
labels from real titles), or by the highest rule score without it; other kinds with solid
rule evidence are secondary kinds. Chinese abstracts have their own cue table (_CUES_ZH).
"""

from __future__ import annotations

import re

from paperatlas.enrich import kinds_model
from paperatlas.enrich.text import is_cjk
from paperatlas.filters import KINDS as KINDS  # the kinds a filter may name

_INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we|our\s+(?:work|paper))\s+"
    r"(?:(?:also|further|first|then|additionally|therefore|thus|newly|carefully|systematically)\s+)?"
    r"(?:present|propose|introduce|develop|design|build|construct|release|curate|create|"
    r"contribute|establish|devise|offer|unveil|collect|assemble|put\s+forward|provide)(?:s|d|ed)?\b|"
    # "we decompose the problem ... and introduce X, a benchmark": the verb after "and"
    r"\band\s+(?:then\s+|further\s+|also\s+)?(?:introduce|propose|present|release|curate|construct)(?:s|d)?\b",
    re.I,
)
_STUDY = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we)\s+(?:\w+\s+)?(?:study|investigate|analy[sz]e|"
    r"examine|ask|revisit|audit|probe|conduct\s+(?:a|an|the)?\s*(?:\w+\s+){0,3}?(?:study|analysis|"
    r"investigation|evaluation|experiments)|measure|quantify|explore\s+(?:whether|how|why|what)|"
    r"test\s+whether|systematically\s+\w+)(?:s|d|ed)?\b",
    re.I,
)
_PROVE = re.compile(
    r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+)?(?:prove|derive|establish|characteri[sz]e|"
    r"show\s+theoretically|provide\s+(?:a\s+)?(?:theoretical|rigorous|formal)|develop\s+a\s+theory|"
    r"give\s+(?:a\s+)?(?:tight|sharp|upper|lower))\w*\b",
    re.I,
)

# What the contribution is called, in the words right after the introducing verb.
_HEADS = [
    (
        "benchmark",
        re.compile(
            r"\b(?:benchmark|bench|leaderboard|testbed|test\s+suite|arena|"
            r"evaluation\s+(?:suite|framework|protocol|platform|toolkit|harness)|"
            r"evaluation|challenge)s?\b",
            re.I,
        ),
    ),
    (
        "dataset",
        re.compile(
            r"\b(?:dataset|data\s+set|corpus|corpora|collection|database|"
            r"annotations|data)s?\b",
            re.I,
        ),
    ),
    (
        "theory",
        re.compile(
            r"\b(?:theory|theoretical\s+(?:framework|analysis|account|model)|"
            r"theorem|bound|characteri[sz]ation|(?:formal|unified)\s+(?:framework|theory)|"
            r"analytical\s+framework)s?\b",
            re.I,
        ),
    ),
    (
        "analysis",
        re.compile(
            r"\b(?:study|analysis|investigation|empirical\s+evaluation|"
            r"audit|survey|examination|comparison|perspective|position)\b",
            re.I,
        ),
    ),
    (
        "method",
        re.compile(
            r"\b(?:method|approach|framework|algorithm|model|architecture|technique|"
            r"system|agent|pipeline|strategy|paradigm|optimizer|module|mechanism|"
            r"recipe|objective|loss|attack|defen[cs]e|policy|estimator|network|"
            r"scheme|procedure|tool|library|toolkit|solver|planner|encoder|"
            r"decoder|layer|regularizer|sampler|metric|family|series|variant|"
            r"formulation|training|learning|fine-tuning|prompting|decoding|"
            r"distillation|quantization|pruning|adapter|head|representation)s?\b",
            re.I,
        ),
    ),
]
_ARTICLE = re.compile(r"\b(?:a|an|the|our|two|three|several|new|novel|first)\b", re.I)
_SECOND_CONTRIBUTION = {
    "benchmark": re.compile(
        r"\b(?:a|an|new|our)\s+(?:[\w-]+\s+){0,2}(?:benchmark|testbed|leaderboard)s?\b", re.I
    ),
    "dataset": re.compile(r"\b(?:a|an|new|our)\s+(?:[\w-]+\s+){0,2}(?:dataset|corpus)s?\b", re.I),
}
_EVAL_FRAMEWORK = re.compile(
    r"\b(?:evaluation|evaluating|assessment|benchmarking|testing|diagnostic)\s+"
    r"(?:\w+\s+)?(?:framework|suite|protocol|pipeline|platform|toolkit)|"
    r"(?:framework|suite|protocol|pipeline|platform|toolkit|testbed|metrics)\s+(?:for|to|that)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:re-?)?(?:evaluat|assess|benchmark|measur|test)",
    re.I,
)

# A survey or review says so of itself early ("This survey ...", "In this review ...", "we
# provide a comprehensive survey of ...", "we review recent ..."). The kind model, fit on ICLR
# papers (4 surveys in 15,602), reads a survey's words (benchmarks, datasets, methods) as a
# benchmark's; on the real-world lists 1 in 70 papers is one. "Literature review" alone is
# often the topic (benchmarks of review automation), so only the paper speaking of itself counts.
_SURVEY = re.compile(
    r"\b(?:(?:this|our|the\s+present)\s+(?:survey|review|overview)\b|in\s+this\s+(?:survey|review)\b|"
    r"(?:we|this\s+(?:paper|article|work))\s+(?:\w+\s+){0,2}?(?:survey|review)s?\s+(?:the|recent|"
    r"existing|current|state|advances|progress|developments|methods|approaches|techniques|literature|"
    r"research)\b|(?:we|this\s+(?:paper|article|work))\s+(?:present|provide|give|offer|conduct|perform)s?"
    r"\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:survey|review|overview)\s+of\b)",
    re.I,
)

# Cues anywhere in the abstract, with weights (counted at most twice each).
_CUES: dict[str, list[tuple[re.Pattern, float]]] = {
    "benchmark": [
        (re.compile(r"\bbenchmark(?:s|ing)?\b", re.I), 0.5),
        (
            re.compile(
                r"\b(?:we\s+evaluate\s+\d+|evaluat\w+\s+(?:\d+|several|many|a\s+wide\s+range\s+of)\s+"
                r"(?:state-of-the-art\s+|frontier\s+|leading\s+|popular\s+)?(?:models|LLMs|VLMs|MLLMs|methods|agents)|"
                r"leaderboard|(?:frontier|leading|state-of-the-art)\s+models\s+(?:struggle|fail|achieve\s+only))\b",
                re.I,
            ),
            1.0,
        ),
    ],
    "dataset": [
        (re.compile(r"\b(?:dataset|corpus|corpora)\b", re.I), 0.4),
        (
            re.compile(
                r"\b(?:we\s+(?:collect|curate|annotate|release|crawl)|human-annotated|"
                r"manually\s+annotated|hours\s+of|(?:\d[\d,.]*\s*[KMB]?|millions\s+of|thousands\s+of)\s+"
                r"(?:images|videos|samples|examples|annotations|pairs|hours|documents|"
                r"questions|conversations|trajectories))\b",
                re.I,
            ),
            0.8,
        ),
    ],
    "theory": [
        (
            re.compile(
                r"\b(?:we\s+prove|prove\s+that|theorem|lower\s+bound|upper\s+bound|minimax|"
                r"sample\s+complexity|regret\s+bound|convergence\s+rate|provabl[ey]|"
                r"theoretical(?:ly)?|tight\s+bound|non-asymptotic|asymptotic|"
                r"necessary\s+and\s+sufficient|polynomial[-\s]time|np-hard|rigorous(?:ly)?|"
                r"closed-form|generalization\s+bound|we\s+characteri[sz]e|lemma|"
                r"\\Omega|\\Theta|O\(\S+\))\w*",
                re.I,
            ),
            0.8,
        ),
    ],
    "analysis": [
        (
            re.compile(
                r"\b(?:empirical\s+(?:study|analysis|investigation)|systematic\s+(?:study|analysis|"
                r"investigation|evaluation)|large-scale\s+(?:study|analysis)|our\s+(?:analysis|"
                r"findings|study|results\s+(?:suggest|reveal|show|indicate))|we\s+find\s+that|"
                r"surprisingly|we\s+observe|we\s+hypothesi[sz]e|sheds?\s+light|case\s+study|"
                r"position\s+paper|these\s+findings|our\s+results\s+highlight|"
                r"we\s+(?:investigate|study|analy[sz]e|examine)|understand(?:ing)?\s+(?:how|why|whether|what))\b",
                re.I,
            ),
            0.7,
        ),
    ],
    "method": [
        (
            re.compile(
                r"\b(?:we\s+propose|novel\s+(?:method|approach|framework|algorithm|technique|"
                r"architecture)|our\s+(?:method|approach|framework|algorithm|model)|outperform\w*|"
                r"state-of-the-art\s+(?:performance|results)|speed-?up|plug-and-play|"
                r"training-free|surpass\w*|improves?\s+(?:the\s+)?(?:performance|accuracy)|"
                r"consistently\s+improv\w+)\b",
                re.I,
            ),
            0.6,
        ),
    ],
}

# Substrings without which each cue above cannot match (same order as _CUES).
_TRIGGERS: dict[str, list[tuple[str, ...]]] = {
    "benchmark": [
        ("benchmark",),
        ("evaluat", "leaderboard", "models struggle", "models fail", "models achieve only"),
    ],
    "dataset": [
        ("dataset", "corpus", "corpora"),
        (
            "collect",
            "curate",
            "annotat",
            "release",
            "crawl",
            "hours of",
            "millions of",
            "thousands of",
            "images",
            "videos",
            "samples",
            "examples",
            "pairs",
            "hours",
            "documents",
            "questions",
            "conversations",
            "trajectories",
        ),
    ],
    "theory": [
        (
            "prove",
            "theorem",
            "bound",
            "minimax",
            "complexity",
            "regret",
            "convergence",
            "provabl",
            "theoretic",
            "asymptotic",
            "necessary and sufficient",
            "polynomial",
            "np-hard",
            "rigorous",
            "closed-form",
            "characteri",
            "lemma",
            "\\omega",
            "\\theta",
            "o(",
        )
    ],
    "analysis": [
        (
            "empirical",
            "systematic",
            "large-scale",
            "our analysis",
            "our findings",
            "our study",
            "our results",
            "we find",
            "surprisingly",
            "we observe",
            "hypothes",
            "shed",
            "case study",
            "position paper",
            "these findings",
            "we investigate",
            "we study",
            "we analy",
            "we examine",
            "understand",
        )
    ],
    "method": [
        (
            "propose",
            "novel",
            "our method",
            "our approach",
            "our framework",
            "our algorithm",
            "our model",
            "outperform",
            "state-of-the-art",
            "speed",
            "plug-and-play",
            "training-free",
            "surpass",
            "improve",
        )
    ],
}


def _head_kind(tail: str) -> str | None:
    """The kind named by the first head noun in `tail` (the words after an introducing verb).

    Only nouns after the first article count: in "EdiVal-Agent, an evaluation framework" the
    name's own parts ("Agent") say nothing."""
    article = _ARTICLE.search(tail)
    if article is not None and article.start() < 60:
        tail = tail[article.start() :]
    found = _EVAL_FRAMEWORK.search(tail[:90])
    first_eval = found.start() if found else None
    best = None
    for kind, pat in _HEADS:
        m = pat.search(tail)
        if m and (best is None or m.start() < best[1]):
            best = (kind, m.start())
    if first_eval is not None and (best is None or first_eval <= best[1] + 30):
        return "benchmark"
    return best[0] if best else None


def rule_scores(sents: list[str], name: str | None = None) -> dict[str, float]:
    """Each kind's evidence from the cue rules: what the contribution sentence calls the thing,
    then the cues anywhere in the abstract (_CUES)."""
    score = dict.fromkeys(KINDS, 0.0)
    intro_weight = 3.0
    introduced = False
    for sent in sents:
        low = sent.lower()
        if "we " not in low and "this " not in low and "our " not in low and "here" not in low:
            continue  # none of the contribution patterns can match (a cheap test first)
        intro = _INTRO.search(sent)
        if intro:
            introduced = True
            tail = sent[intro.end() :]
            kind = _head_kind(tail[:110])
            # something introduced but not called anything we know: most often a method
            score[kind or "method"] += intro_weight if kind else intro_weight / 2
            # "a benchmark ..., together with a new dataset of ...": a second contribution
            for other, pattern in _SECOND_CONTRIBUTION.items():
                if other != kind and pattern.search(tail):
                    score[other] += 1.5
            intro_weight = max(1.0, intro_weight / 2)
            continue
        # "we prove ..." / "we conduct an analysis ...": the contribution is knowledge
        if _PROVE.search(sent):
            score["theory"] += max(1.5, intro_weight * 0.8)
            intro_weight = max(1.0, intro_weight / 2)
        elif _STUDY.search(sent):
            score["analysis"] += max(1.0, intro_weight * 0.6)
            intro_weight = max(1.0, intro_weight / 2)
    text = " ".join(sents)
    low = text.lower()
    for kind, cues in _CUES.items():
        for (pat, weight), triggers in zip(cues, _TRIGGERS[kind]):
            if any(t in low for t in triggers):  # the regex only where it can match
                n = len(pat.findall(text))
                score[kind] += weight * min(n, 2)
    if name:
        score["method"] += NAMED_METHOD
    elif not introduced:  # nothing was introduced: a study or a theory paper
        score["analysis"] += NOTHING_INTRODUCED
    return score


NAMED_METHOD = 1.0  # a paper that coins a name introduces something, most often a method
NOTHING_INTRODUCED = 1.0  # a paper that introduces nothing is a study (or theory)


def classify_kind(sents: list[str], name: str | None = None) -> tuple[str, list[str]]:
    """(main kind, secondary kinds) from the abstract's clean sentences (and its name, if any).

    The main kind comes from the learned kind model (kinds_model: words of the abstract and
    the rule scores) where it is installed and the text is English; the rule scores alone
    decide otherwise (and for Chinese abstracts, whose cues are in _CUES_ZH). Secondary kinds
    are kinds with solid rule evidence."""
    cjk = is_cjk(" ".join(sents[:3]))
    if sents and cjk:
        score = _cjk_scores(" ".join(sents), name)
    else:
        score = rule_scores(sents, name)
    main = None
    model = kinds_model.load_model()
    if model is not None and not cjk:
        main = kinds_model.predict(model, " ".join(sents), score, name)
    rule_main = max(KINDS, key=lambda k: (score[k], -KINDS.index(k)))
    main = main or rule_main
    if not cjk and _SURVEY.search(" ".join(sents[:4])):
        main = "analysis"  # a survey maps a field: the knowledge kind, whatever its words are about
    top = max(score[main], score[rule_main])
    secondary = [k for k in KINDS if k != main and score[k] >= max(2.5, 0.5 * top)]
    return main, secondary


# Chinese abstracts: what the contribution is called, with weights (counted at most twice).
_CUES_ZH: dict[str, list[tuple[re.Pattern, float]]] = {
    "benchmark": [(re.compile(r"基准(?:测试)?|评测(?:基准|集|框架)?|排行榜|测评"), 2.0)],
    "dataset": [(re.compile(r"数据集|语料库?|数据资源"), 1.5)],
    "theory": [(re.compile(r"证明|定理|理论(?:分析|框架|保证)?|上界|下界|收敛(?:性|速率)|复杂度"), 1.2)],
    "analysis": [
        (
            re.compile(
                r"实证研究|系统(?:性)?(?:地)?(?:研究|分析|评估)|我们(?:发现|研究|分析|探究|考察)|"
                r"研究表明|结果表明|揭示"
            ),
            1.2,
        )
    ],
    "method": [
        (
            re.compile(
                r"(?:我们|本文)(?:提出|设计|开发|构建)了?(?:一种|一个)?(?:新的|新颖的)?|"
                r"方法|框架|算法|模型|优于|超越"
            ),
            0.8,
        )
    ],
}
_CUE_INTRO_ZH = re.compile(
    r"(?:我们|本文|本研究)(?:首先|进一步)?(?:提出|推出|构建|发布|引入|介绍)了?"
    r"(?:一个|一种|一套)?([^，。；]{0,30}?)(基准|数据集|框架|方法|算法|模型|理论)"
)
_HEAD_KIND_ZH = {
    "基准": "benchmark",
    "数据集": "dataset",
    "框架": "method",
    "方法": "method",
    "算法": "method",
    "模型": "method",
    "理论": "theory",
}


def _cjk_scores(text: str, name: str | None) -> dict[str, float]:
    score = dict.fromkeys(KINDS, 0.0)
    m = _CUE_INTRO_ZH.search(text)
    if m:
        score[_HEAD_KIND_ZH[m.group(2)]] += 3.0
    for kind, cues in _CUES_ZH.items():
        for pat, weight in cues:
            score[kind] += weight * min(len(pat.findall(text)), 2)
    if name:
        score["method"] += NAMED_METHOD
    elif not m:
        score["analysis"] += NOTHING_INTRODUCED
    return score
