"""A recommendation's reasons, method and hints in Chinese (report/zh_reasons.py), made from
the picks' fields: liked titles kept as they are, words of those titles never read as the
sentence's own."""

from __future__ import annotations

import re

from paperatlas.recommend import CENTROID, CLASSIFIER, Pick, Recommendations
from paperatlas.report.zh_reasons import hints_zh, method_zh, reasons_zh

CJK = re.compile("[\u3400-\u9fff]")


def _pick(titles: list[str]) -> Pick:
    closest = [{"id": f"p{i}", "title": t, "similarity": 0.5} for i, t in enumerate(titles)]
    return Pick(paper_id="x", score=1.0, title="X", closest=closest)


def test_the_liked_titles_are_named_in_a_chinese_sentence_as_they_are():
    assert reasons_zh(_pick(["Flow Matching"])) == ["与你喜欢的“Flow Matching”相近。"]
    two = reasons_zh(_pick(["A", "B"]))[0]
    three = reasons_zh(_pick(["A", "B", "C"]))[0]
    assert two == "与你喜欢的“A”和“B”相近。" and three == "与你喜欢的“A”、“B”和“C”相近。"
    # a title holding the English sentence's words is only a title
    title = "Close to <script>alert(1)</script>, which you liked."
    assert reasons_zh(_pick([title])) == [f"与你喜欢的“{title}”相近。"]


def test_how_the_picks_were_made_is_chinese():
    assert CJK.search(method_zh(CENTROID)) and CJK.search(method_zh(CLASSIFIER))
    assert method_zh(Recommendations().method) == "无"  # no likes yet: nothing was ranked
    assert method_zh("some-new-mode") == "some-new-mode"  # a mode the table lacks stays as it is


def test_every_hint_is_chinese_with_the_commands_kept():
    missing = Recommendations(
        [_pick(["A"])],
        method=CLASSIFIER,
        n_likes=6,
        message="this atlas has no ...",
        missing_model="minilm-int8",
    )
    assert hints_zh(missing) == [
        "本图谱缺少 minilm-int8 向量，而根据 6 个喜欢所做的推荐会融合它们；`paperatlas embed` 可添加。"
    ]
    no_likes = Recommendations(collection="读书<会>", message="no liked papers in collection '读书<会>'")
    assert hints_zh(no_likes) == ["收藏夹“读书<会>”中还没有喜欢的论文：先用 `paperatlas like ID…` 收藏一些。"]
    nothing_left = Recommendations(method=CENTROID, n_likes=2, message="no unseen papers match the filters")
    hints = hints_zh(nothing_left)
    assert hints[0] == "筛选条件下没有尚未看过的论文。" and "再喜欢 3 篇论文" in hints[1]
    assert all(CJK.search(h) and "likes" not in h for h in hints)
    assert hints_zh(Recommendations([_pick(["A"])], method=CLASSIFIER, n_likes=7)) == []
