"""Gist and display title of a Chinese (CJK) abstract.

The English rules count words and look for "we propose"; Chinese has no spaces and says
我们提出了. Here the gist is the contribution sentence (the first sentence saying 提出 / 构建 /
发布 / 研究 …, else the first), whole, ending in 。; a display title is that sentence without
its lead-in (我们提出了 / 本文提出), its final mark and the name, cut at a clause mark, at most
MAX_TITLE_CJK characters, as "Name: what it is" when the paper has a name.
"""

from __future__ import annotations

import re

MAX_GIST_CJK = 80  # characters
MAX_TITLE_CJK = 30  # characters of the part after "Name: "

_CONTRIBUTION = re.compile(
    r"(?:我们|本文|本研究|本工作|作者)(?:首先|进一步|还|也)?(?:提出|推出|构建|发布|引入|"
    r"介绍|设计|开发|建立|研究|分析|证明|探究|考察)"
)
_LEAD_IN = re.compile(
    r"^(?:为(?:此|了解决(?:这一|该|上述)?问题)[,，]?\s*)?(?:在本文中[,，]?\s*)?"
    r"(?:我们|本文|本研究|本工作|作者)(?:首先|进一步|还|也)?(?:提出|推出|构建|发布|引入|介绍|"
    r"设计|开发|建立|研究|分析|证明|探究|考察)了?\s*"
)
_ARTICLE = re.compile(r"^(?:一个|一种|一套|一款|新的|新颖的|全新的|名为)+")
_CLAUSE = re.compile(r"[,，;；:：]")


def _clip(text: str, limit: int) -> str:
    """At most `limit` characters, cut at the last clause mark inside the limit if any."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    marks = [m.start() for m in _CLAUSE.finditer(cut) if m.start() >= limit // 3]
    return cut[: marks[-1]] if marks else cut


def gist(sents: list[str]) -> str:
    """The contribution sentence, whole when it fits MAX_GIST_CJK characters."""
    if not sents:
        return ""
    best = next((s for s in sents if _CONTRIBUTION.search(s)), sents[0])
    if len(best) <= MAX_GIST_CJK:
        return best
    return _clip(best, MAX_GIST_CJK - 1).rstrip("，,；;：: ") + "…"


def display_title(sents: list[str], name: str | None) -> str:
    """ "Name: what it is" (or the contribution without its lead-in), short, no final 。."""
    source = next((s for s in sents if name and name in s and _CONTRIBUTION.search(s)), None) or next(
        (s for s in sents if _CONTRIBUTION.search(s)), sents[0] if sents else ""
    )
    what = _LEAD_IN.sub("", source.strip().rstrip("。.!?！？"))
    if not name or name not in what:
        what = _clip(_ARTICLE.sub("", what.strip(" ,，:：")), MAX_TITLE_CJK).strip(" ,，;；:：")
        return f"{name}: {what}" if name and what else (name or what)
    before, _, after = what.partition(name)
    before = _ARTICLE.sub("", _NAMING.sub("", before).strip(" ,，:：、"))
    after = after.strip()
    first_after = _CLAUSE.split(after.lstrip(" ,，:：的"), maxsplit=1)[0].strip()
    if after.startswith("的"):  # 一种名为 X 的缓存压缩方法
        desc = first_after
    elif before:  # 一个新的基准 X，包含 5000 个问题
        desc = before + (f"，{first_after}" if after[:1] in ",，" and first_after else "")
    else:  # X，一种快速训练框架
        desc = _ARTICLE.sub("", first_after)
    desc = _clip(desc, MAX_TITLE_CJK).strip(" ,，;；:：")
    return f"{name}: {desc}" if desc else name


_NAMING = re.compile(r"(?:名为|称为|叫做|命名为)\s*$")
