"""The part of a query that names its topic, without the words that ask for papers.

People type requests, not only topics: "有哪些关于扩散模型的论文？", "我想找一篇研究图神经网络
的文章", "papers about federated learning", "I'm looking for work on X". The request words
are not about the topic, yet each signal reads them as if they were: a Chinese query's
learned translation turns 论文 into "literature writing" and 推荐 into "recommendation" (a
research area of its own), and the vector models move the query toward papers on writing.
On the Chinese tuning half wrapped in such requests, MRR@10 fell from 0.868 to 0.826 (see
docs/bench/search.md). `topic_part` cuts the request words at the edges of the query (and
the Chinese ones that ask for papers anywhere), keeping the query whole when nothing else
would be left.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from paperatlas.search.chinese_text import tokens

# Chinese: what asks (cut at the start), what is asked for (papers, work: cut at the end),
# and the words that link them to the topic. Cuts fall between jieba's words only, so no
# word loses a character (目的 keeps its 的, 相关性 its 相关). Left out of the start on
# purpose, as they start topics: 有 (有监督), 求 (求解), 搜索 (搜索增强), 工作 (工作记忆),
# 相关 (相关性), 方面 (方面级), 领域 (领域自适应); and from the end, as they end them: 领域
# (跨领域), 方向 (语义方向), 相关 (时间相关).
_ZH_OPENERS = (
    "请问 请帮我 帮我 麻烦 求助 求推荐 推荐一下 推荐一些 推荐几篇 推荐 我想找 我想要 我想了解 我想 想找 "
    "想要 想了解 找一下 找一些 找几篇 找一篇 找 搜一下 查一下 查找 有没有人做过 有没有人研究过 有没有人 "
    "有没有 有哪些 有什么 哪些 什么 列出 给我 能否 可否 是否有 最近 最新 近期 近年 经典 代表性 研究 "
    "关于 有关 针对 讲 做 一些 几篇 一篇 好的 的 请 请推荐 能不能 可不可以 有谁做过 谁做过 谁研究过 "
    "我在找 在找 我需要 有没有推荐 介绍一下 总结一下 整理一下"
).split()
_ZH_ASKED = (
    "相关论文 相关文章 相关工作 相关研究 相关文献 代表性工作 代表工作 论文推荐 文章推荐 论文 文章 文献 "
    "paper papers 工作 研究 进展 成果 推荐 有哪些 有什么 是什么 方面的 方面 相关的 的 了 吗 呢 吧 哪些 什么 "
    "值得读的 值得一读的 值得读 必读的 必读 这个方向 这一方向 这个领域 这一领域 这方面 有推荐 推荐的 可以读 可以看"
).split()
_ZH_PUNCT = "，。？！、：；,.?!:; \t"


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_PUNCT_CLASS = f"[{re.escape(_ZH_PUNCT)}]"
_ZH_LEAD = re.compile(f"(?:{_alternation(_ZH_OPENERS)}|{_PUNCT_CLASS})+")
_ZH_TAIL = re.compile(f"(?:{_alternation(_ZH_ASKED)}|{_PUNCT_CLASS})+")
# 推荐 opens a request ("推荐几篇…") but also a topic ("推荐系统"): not cut before these
_ZH_TOPIC_AFTER = re.compile("^(?:系统|算法|模型|任务|场景)")
# a request clause after the topic: "…，有什么好的文章吗"
_ZH_CLAUSE = re.compile(f"{_PUNCT_CLASS}+(?:{_alternation(_ZH_OPENERS + _ZH_ASKED)})+{_PUNCT_CLASS}*$")

_EN_OPENER = (
    r"(?:(?:please|pls|hi|hey)\W+)?(?:"
    r"(?:i\s*'?\s*m|i am|we\s*'?\s*re|we are)\s+(?:looking|searching)\s+for|(?:looking|searching)\s+for|"
    r"(?:can|could)\s+you\s+(?:find|recommend|suggest|show)(?:\s+me)?|"
    r"(?:find|show|give|get|recommend|suggest|list)(?:\s+me)?|search\s+for|"
    r"(?:is|are)\s+there|do\s+you\s+know|what\s+are|which|(?:i|we)\s+(?:need|want)|(?:i|we)\s*'?d\s+like"
    r")"
)
_EN_ASKED = r"(?:papers?|works?|research|articles?|publications?|literature)"
_EN_LINK = (
    r"(?:on|about|regarding|for|that|which|who|in|into|of|doing|does|do|addressing|tackling|studying|"
    r"study|studies|propose|proposes|proposing|use|uses|using|with|show|shows|is|are|address|addresses|"
    r"tackle|tackles|explore|explores|exploring|investigate|investigates|investigating|solve|solves|"
    r"improve|improves|improving)"
)
_EN_ADJECTIVES = r"(?:(?:any|some|a|an|the|good|recent|new|latest|classic|key|important|relevant)\s+)*"
# "papers on X", "find me recent work about X", "recommend papers: X" (a colon only after a
# verb of asking: "PAPER: Privacy-Preserving ResNet…" is a title)
_EN_LEAD = re.compile(
    rf"^(?:{_EN_OPENER}\s+)?{_EN_ADJECTIVES}{_EN_ASKED}\s+(?:{_EN_LINK}\s+){{1,2}}"
    rf"|^{_EN_OPENER}\s+{_EN_ADJECTIVES}{_EN_ASKED}\s*[:\-\u2013]\s*",
    re.IGNORECASE,
)
# a request with no word for papers ("looking for protein design"): only verbs that ask
# to be shown something, never a title's opening ("Which…", "Get…")
_EN_REQUEST_ONLY = re.compile(
    r"^(?:(?:please|pls)\W+)?(?:(?:i\s*'?\s*m|i am|we\s*'?\s*re|we are)\s+(?:looking|searching)\s+for|"
    r"looking\s+for|(?:find|show|recommend|suggest)\s+me|search\s+for|"
    r"(?:can|could)\s+you\s+(?:find|recommend|suggest|show)(?:\s+me)?)\s+",
    re.IGNORECASE,
)
_EN_END_PUNCT = re.compile(r"\s*[?!.]+$")
_HAN = re.compile("[\u3400-\u9fff]")  # a Chinese character


def topic_part(query: str) -> str:
    """`query` without the request words around its topic ("有哪些关于X的论文？" -> "X",
    "papers about X" -> "X"); unchanged when it has none, or when they are all it has."""
    text = unicodedata.normalize("NFKC", query).strip()
    if not text:
        return query
    out = _zh_topic(text) if _HAN.search(text) else _en_topic(text)
    # no word cut (at most end punctuation): the query as typed
    return out if out != _bare(text) and _has_content(out) else query


def _bare(text: str) -> str:
    return _EN_END_PUNCT.sub("", text).strip(_ZH_PUNCT)


def _zh_topic(text: str) -> str:
    text = _EN_LEAD.sub("", text, count=1)  # "papers about 扩散模型"
    text = _ZH_CLAUSE.sub("", text)
    bounds = list(itertools.accumulate(len(t) for t in tokens(text)))
    # the longest run of request words at the start, and then at the end, ending (starting)
    # between two words
    start = max((b for b in bounds if _ZH_LEAD.fullmatch(text, 0, b)), default=0)
    if start and text[:start].endswith("推荐") and _ZH_TOPIC_AFTER.match(text[start:]):
        start -= len("推荐")  # "帮我找推荐系统的论文": the topic is 推荐系统
    text = text[start:]
    bounds = [0, *itertools.accumulate(len(t) for t in tokens(text))]
    end = min((b for b in bounds if b > 0 and _ZH_TAIL.fullmatch(text, b)), default=len(text))
    return text[:end].strip(_ZH_PUNCT)


def _en_topic(text: str) -> str:
    text = _EN_END_PUNCT.sub("", text)
    cut = _EN_LEAD.sub("", text, count=1)
    # (a trailing "papers" is left: "scientific papers", "deep research" are topics)
    return (cut if cut != text else _EN_REQUEST_ONLY.sub("", text, count=1)).strip()


def _has_content(text: str) -> bool:
    """Two CJK characters, or a Latin word of three letters or more, are a topic."""
    return len(_HAN.findall(text)) >= 2 or bool(re.search(r"[A-Za-z0-9]{3,}", text))
