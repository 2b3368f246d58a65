"""A paper's Chinese card, offline: its kind, area and decision from fixed tables, its
name as it is, its headline number with what it measures, its keyphrases and topic as
Chinese terms (`search/zh_terms.py`). Marked as a machine gloss (机器释义): the terms are
chosen by dictionaries and a model, not by a translator.

`localise_digest` writes a digest's per-paper lines, areas and topic labels this way for
`digest --lang zh`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from paperatlas.report.digest_data import DigestData, Group, PaperLine
from paperatlas.report.strings import SENTINELS
from paperatlas.search.zh_terms import MACHINE_GLOSS, label_to_chinese, to_chinese

KINDS = {
    "method": "方法",
    "benchmark": "基准",
    "dataset": "数据集",
    "analysis": "分析",
    "theory": "理论",
}

# OpenReview's ICLR primary areas (models/iclr2026_primary_areas.txt)
AREAS = {
    "alignment, fairness, safety, privacy, and societal considerations": "对齐、公平、安全、隐私与社会影响",
    "applications to computer vision, audio, language, and other modalities": "计算机视觉、音频、语言等模态的应用",
    "applications to neuroscience & cognitive science": "神经科学与认知科学应用",
    "applications to physical sciences (physics, chemistry, biology, etc.)": "物理科学应用（物理、化学、生物等）",
    "applications to robotics, autonomy, planning": "机器人、自主系统与规划应用",
    "causal reasoning": "因果推理",
    "datasets and benchmarks": "数据集与基准",
    "foundation or frontier models, including LLMs": "基础模型与前沿模型（含大语言模型）",
    "generative models": "生成模型",
    "infrastructure, software libraries, hardware, systems, etc.": "基础设施、软件库、硬件与系统",
    "interpretability and explainable AI": "可解释性与可解释人工智能",
    "learning on graphs and other geometries & topologies": "图及其他几何与拓扑结构上的学习",
    "learning on time series and dynamical systems": "时间序列与动力系统学习",
    "learning theory": "学习理论",
    "neurosymbolic & hybrid AI systems (physics-informed, logic & formal reasoning, etc.)": (
        "神经符号与混合人工智能系统（物理信息、逻辑与形式推理等）"
    ),
    "optimization": "优化",
    "other topics in machine learning (i.e., none of the above)": "机器学习其他主题",
    "probabilistic methods (Bayesian methods, variational inference, sampling, UQ, etc.)": (
        "概率方法（贝叶斯方法、变分推断、采样、不确定性量化等）"
    ),
    "reinforcement learning": "强化学习",
    "transfer learning, meta learning, and lifelong learning": "迁移学习、元学习与终身学习",
    "unsupervised, self-supervised, semi-supervised, and supervised representation learning": (
        "无监督、自监督、半监督与监督表示学习"
    ),
}

# The words decisions are written with ("Accept (Poster)", "Not accepted", "Withdrawn",
# "Reject", "Spotlight"): the outcome, then the form of presentation in parentheses.
OUTCOMES = {
    "not accepted": "未录用",
    "desk rejected": "直接拒稿",
    "desk reject": "直接拒稿",
    "rejected": "拒稿",
    "reject": "拒稿",
    "withdrawn": "已撤稿",
    "accepted": "录用",
    "accept": "录用",
}
PRESENTATIONS = {"oral": "口头报告", "spotlight": "Spotlight", "poster": "海报"}
CONDITIONAL = "有条件"

# how much of a quantity: the words before a number in the extracted text
QUALIFIERS = {
    "up to": "最高",
    "over": "超过",
    "more than": "超过",
    "at least": "至少",
    "about": "约",
    "around": "约",
    "approximately": "约",
    "nearly": "近",
    "almost": "近",
    "only": "仅",
}
_QUALIFIER = re.compile(r"^(" + "|".join(sorted(QUALIFIERS, key=len, reverse=True)) + r")\s+", re.IGNORECASE)
_TIMES = re.compile(r"(?<=\d)\s*[x×]\b|(?<=\d)\s*[x×]$", re.IGNORECASE)

KEYPHRASES_SHOWN = 5


@dataclass
class ZhCard:
    """What a Chinese reader sees of a paper, before any model summary exists."""

    name: str | None
    kind: str | None
    area: str | None
    decision: str | None
    number: str | None
    keyphrases: list[str] = field(default_factory=list)
    topic: str | None = None
    note: str = MACHINE_GLOSS

    @property
    def about(self) -> str:
        """The paper's subject in a few Chinese terms ("、" between them)."""
        return "、".join(self.keyphrases[:3])


def area_zh(area: str | None) -> str | None:
    """An area in Chinese: the ICLR table, else its words as terms."""
    if not area:
        return None
    return AREAS.get(area.strip().lower()) or AREAS.get(area.strip()) or label_to_chinese(area)


def decision_zh(decision: str | None) -> str | None:
    """ "Accept (Poster)" -> 录用（海报）; a decision in other words stays as it is."""
    if not decision:
        return None
    text = decision.strip().lower()
    outcome = next((zh for en, zh in OUTCOMES.items() if re.search(rf"\b{en}\b", text)), None)
    shown = next((zh for en, zh in PRESENTATIONS.items() if re.search(rf"\b{en}\b", text)), None)
    if outcome is None and shown is None:
        return decision
    conditional = CONDITIONAL if "conditional" in text else ""
    if outcome is None:  # "Poster", "Oral": an accepted paper's form
        return conditional + shown if shown else decision
    return f"{conditional}{outcome}（{shown}）" if shown else conditional + outcome


def number_zh(item: dict[str, Any] | None) -> str | None:
    """A headline quantity as "what it measures：how much" ("属性级违反：14%-69%")."""
    if not item or not item.get("text"):
        return None
    text = str(item["text"]).strip()
    qualifier = _QUALIFIER.match(text)
    if qualifier:
        text = f"{QUALIFIERS[qualifier.group(1).lower()]} {text[qualifier.end() :]}"
    text = _TIMES.sub(" 倍", text)
    what = to_chinese(str(item["what"])) if item.get("what") else ""
    return f"{what}：{text}" if what else text


def keyphrases_zh(phrases: list[str], n: int = KEYPHRASES_SHOWN) -> list[str]:
    out: list[str] = []
    for phrase in phrases:
        zh = to_chinese(phrase)
        if zh not in out:
            out.append(zh)
        if len(out) == n:
            break
    return out


def card(row: dict[str, Any], facts: dict[str, Any], topic: str | None = None) -> ZhCard:
    """The Chinese card of a paper (its stored row and facts; `topic` its English label)."""
    from paperatlas.enrich.numbers import headline

    predicted = facts.get("predicted_area")
    area = row.get("area") or (predicted.get("label") if isinstance(predicted, dict) else predicted)
    kind = facts.get("kind") or row.get("kind")
    return ZhCard(
        name=facts.get("name") or row.get("name"),
        kind=KINDS.get(kind, kind) if kind else None,
        area=area_zh(area),
        decision=decision_zh(row.get("decision")),
        number=number_zh(headline(facts.get("numbers") or [])),
        keyphrases=keyphrases_zh(facts.get("keyphrases") or []),
        topic=label_to_chinese(topic) if topic else None,
    )


def paper_line_zh(p: PaperLine, model_title: str | None = None) -> PaperLine:
    """A digest line in Chinese: the Chinese title a model wrote (`llm title`), else what
    the paper is about as Chinese terms in place of a title written from its abstract (a
    title the list gave follows in parentheses); the number with what it measures; the area."""
    about = "、".join(keyphrases_zh(p.keyphrases, 3))
    if model_title:
        title = model_title
    elif about:
        title = f"{about}（{p.title}）" if p.has_title else about
    else:
        title = p.title
    return replace(p, title=title, number=number_zh(p.headline) or p.number, area=area_zh(p.area))


def group_zh(group: Group, lines: dict[str, PaperLine]) -> Group:
    label = group.label if group.label in SENTINELS else label_to_chinese(group.label)
    return replace(
        group,
        label=label,
        papers=[lines[p.id] for p in group.papers],
        also=[label_to_chinese(a) for a in group.also],
    )


def localise_digest(data: DigestData, model_titles: dict[str, str] | None = None) -> DigestData:
    """The digest with every per-paper line, area and topic label in Chinese terms
    (`model_titles`: paper id -> the Chinese title a model wrote, used where there is one)."""
    titles = model_titles or {}
    lines = {p.id: paper_line_zh(p, titles.get(p.id)) for p in data.papers}
    by_area: dict[str | None, int] = {}
    for area, count in data.by_area:
        key = area_zh(area)
        by_area[key] = by_area.get(key, 0) + count
    return replace(
        data,
        papers=[lines[p.id] for p in data.papers],
        groups=[group_zh(g, lines) for g in data.groups],
        by_area=list(by_area.items()),
        named=[lines[p.id] for p in data.named],
        with_code=[lines[p.id] for p in data.with_code],
    )


def localise_map_view(view: dict[str, Any]) -> dict[str, Any]:
    """A map view (`atlas.map_view`, what the web map and atlas.html draw) with its topics'
    labels, and its field layer's, as Chinese terms; each English label kept as `label_en`."""
    for topics in (view.get("topics"), (view.get("layer") or {}).get("topics")):
        for level in ("broad", "fine"):
            for topic in (topics or {}).get(level) or []:
                if topic.get("label"):
                    topic["label_en"] = topic["label"]
                    topic["label"] = label_to_chinese(topic["label"])
    return view
