"""Why a paper was recommended, in Chinese: the liked papers it is closest to (their titles
as they are, in Chinese quotation marks) and the terms it shares with them as Chinese terms
(`search/zh_terms.py`), plus how the picks were made and what would make them better.

Built from the picks' structured reasons (`recommend.Pick.closest`, `.terms`), not by
translating the English sentences, so a title holding words of those sentences cannot
change them.
"""

from __future__ import annotations

from paperatlas.recommend import CENTROID, CLASSIFIER, MIN_LIKES_FOR_CLASSIFIER, Pick, Recommendations
from paperatlas.search.zh_terms import to_chinese

# "none": no likes yet, so nothing was ranked (`Recommendations.method` before any pick)
METHODS = {CENTROID: "与所喜欢论文质心的相似度", CLASSIFIER: "线性 SVM 分类器", "none": "无"}


def _listed(items: list[str]) -> str:
    """ "A", "A和B", "A、B和C": how Chinese lists two or more things."""
    return items[0] if len(items) == 1 else "、".join(items[:-1]) + "和" + items[-1]


def reasons_zh(pick: Pick) -> list[str]:
    """A pick's reasons as Chinese sentences (`Pick.reasons` in Chinese)."""
    sentences = []
    if pick.closest:
        titles = [f"“{c['title']}”" for c in pick.closest]
        sentences.append(f"与你喜欢的{_listed(titles)}相近。")
    if pick.terms:
        terms = list(dict.fromkeys(to_chinese(t) for t in pick.terms))  # two words may share one
        sentences.append(f"共有关键词：{'、'.join(terms)}。")
    return sentences


def method_zh(method: str) -> str:
    """How the picks were ranked, in Chinese (a mode this table lacks stays as it is)."""
    return METHODS.get(method, method)


def message_zh(recs: Recommendations) -> str:
    """`Recommendations.message` in Chinese, from the fields it was made from: a model's
    vectors the atlas lacks, no likes in the collection, nothing unseen left by the filters."""
    if not recs.message:
        return ""
    if recs.missing_model:
        return (
            f"本图谱缺少 {recs.missing_model} 向量，而根据 {recs.n_likes} 个喜欢所做的推荐会融合它们；"
            "`paperatlas embed` 可添加。"
        )
    if not recs.picks and recs.n_likes == 0:
        return f"收藏夹“{recs.collection}”中还没有喜欢的论文：先用 `paperatlas like ID…` 收藏一些。"
    if not recs.picks:
        return "筛选条件下没有尚未看过的论文。"
    return recs.message


def hints_zh(recs: Recommendations) -> list[str]:
    """What would make the picks better, in Chinese: the message, more likes for the classifier."""
    message = message_zh(recs)
    out = [message] if message else []
    if 0 < recs.n_likes < MIN_LIKES_FOR_CLASSIFIER:
        more = MIN_LIKES_FOR_CLASSIFIER - recs.n_likes
        out.append(
            f"再喜欢 {more} 篇论文（共 {MIN_LIKES_FOR_CLASSIFIER} 篇），推荐就会由{METHODS[CLASSIFIER]}"
            f"学习你的偏好，而不再只用{METHODS[CENTROID]}。"
        )
    return out
