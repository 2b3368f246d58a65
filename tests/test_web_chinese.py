"""The web app in Chinese: content, not only headings — a paper's Chinese card, kinds,
areas, decisions and topic labels as Chinese terms — and the language chosen from the
browser's Accept-Language when the URL names none."""

from __future__ import annotations

import re
from html import unescape

import pytest

from atlas_fixture import web_atlas_db, web_client  # noqa: F401  (module fixtures)
from paperatlas.web.i18n import lang_from_header

CJK = re.compile("[\u3400-\u9fff]")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("zh-TW", "zh"),
        ("en-US,en;q=0.9,zh;q=0.8", "en"),
        ("fr-FR,fr;q=0.9,zh-CN;q=0.5", "zh"),  # the only one offered
        ("de, fr", "en"),
        ("zh;q=0", "en"),
        ("zh;q=abc, en", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_language_from_accept_language(header, lang):
    assert lang_from_header(header) == lang


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_paper_page_shows_the_chinese_card(client):
    html = client.get("/papers/protein-03", params={"lang": "zh"}).text
    assert 'id="zh-card"' in html and "机器释义" in html and "中文卡片" in html
    card = html[html.index('id="zh-card"') : html.index("</section>", html.index('id="zh-card"'))]
    assert CJK.search(card.split("主题词")[-1])  # the keyphrases as Chinese terms
    english = client.get("/papers/protein-03", params={"lang": "en"}).text
    assert 'id="zh-card"' not in english


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_the_browser_language_chooses_chinese_and_pages_are_cached_per_language(client):
    zh = client.get("/papers/protein-03", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert "Accept-Language" in zh.headers["vary"]
    assert 'lang="zh-CN"' in zh.text and 'id="zh-card"' in zh.text
    # the switch names English: without it the browser's language would choose Chinese again
    assert 'href="/papers/protein-03?lang=en"' in zh.text
    en = client.get("/papers/protein-03", headers={"Accept-Language": "en-US"})
    assert 'lang="en"' in en.text and 'id="zh-card"' not in en.text
    again = client.get("/papers/protein-03", headers={"Accept-Language": "zh-CN"})
    assert 'id="zh-card"' in again.text
    # ?lang= wins over the header
    assert (
        'id="zh-card"' not in client.get("/papers/protein-03?lang=en", headers={"Accept-Language": "zh"}).text
    )


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_topic_labels_in_chinese_on_pages_and_the_map(client):
    data = client.get("/api/map").json()
    topic = data["topics"]["broad"][0]
    zh = client.get("/api/map", params={"lang": "zh"}).json()
    zh_topic = zh["topics"]["broad"][0]
    assert zh_topic["label_en"] == topic["label"] and CJK.search(zh_topic["label"])
    assert all(CJK.search(t["label"]) for t in zh["topics"]["broad"])
    page = client.get(f"/topics/{topic['id']}", params={"lang": "zh"}).text
    h1 = re.search(r'<h1 id="topic-label"[^>]*>([^<]*)</h1>', page)
    assert h1 and h1.group(1) == zh_topic["label"]
    overview = client.get("/", params={"lang": "zh"}).text
    assert zh_topic["label"] in overview


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_cards_badges_follow_the_language(client):
    html = client.get("/papers", params={"lang": "zh", "kind": "method"}).text
    assert 'class="badge kind kind-method"' in html
    assert re.search(r'class="badge kind kind-method" href="[^"]*">方法</a>', html)
    english = client.get("/papers", params={"kind": "method"}).text
    assert re.search(r'class="badge kind kind-method" href="[^"]*">method</a>', english)


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_a_models_answers_show_beside_the_offline_card(client, db):
    from paperatlas import Atlas

    with Atlas(db) as atlas:
        atlas.store.llm.put_result(
            "protein-04", "summarize", "qwen", "v1", "本文研究蛋白质结构。", True, None, 9, 0.1
        )
        atlas.store.llm.put_result("protein-04", "title", "qwen", "v1", "蛋白质结构预测", True, None, 9, 0.1)
        atlas.store.llm.put_result(
            "protein-05", "summarize", "qwen", "v1", "准确率 99%。", False, "number", 9, 0.1
        )
    html = client.get("/papers/protein-04", params={"lang": "zh"}).text
    assert 'id="model-summary"' in html and "本文研究蛋白质结构。" in html and "qwen" in html
    assert 'id="model-title"' in html and 'id="zh-card"' in html  # the card stays
    english = client.get("/papers/protein-04").text
    assert "本文研究蛋白质结构。" not in english
    rejected = client.get("/papers/protein-05", params={"lang": "zh"}).text
    assert "准确率 99%" not in rejected and 'id="zh-card"' in rejected
    digest = Atlas(db).digest(lang="zh")
    assert re.search(r"^- .*蛋白质结构预测", digest, flags=re.M)


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_cards_show_a_models_chinese_summary_in_chinese(client, db):
    from paperatlas import Atlas

    with Atlas(db) as atlas:
        atlas.store.llm.put_result(
            "robots-03", "summarize", "qwen", "v1", "本文研究机器人抓取。", True, None, 9, 0.1
        )
    zh = client.get("/papers", params={"lang": "zh", "q": "", "kind": ""}).text
    page = (
        zh if "robots-03" in zh else client.get("/search", params={"q": "robot grasping", "lang": "zh"}).text
    )
    cards = re.findall(r'<article class="card" data-paper="robots-03">.*?</article>', page, flags=re.S)
    assert cards and '<p class="gist" lang="zh-CN">本文研究机器人抓取。</p>' in cards[0]
    english = client.get("/papers").text + client.get("/search", params={"q": "robot grasping"}).text
    assert "本文研究机器人抓取。" not in english


ORIGIN = {"origin": "http://127.0.0.1"}


def _like(client, paper_id: str) -> None:
    assert client.post("/api/marks", json={"id": paper_id, "liked": True}, headers=ORIGIN).status_code == 200


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_recommendation_reasons_method_and_hints_are_chinese(client):
    from atlas_fixture import fixture_records

    hostile = next(r for r in fixture_records() if "<script" in (r.get("title") or ""))
    for paper_id in ("unlearning-01", hostile["id"]):
        _like(client, paper_id)
    html = client.get("/recommend", params={"lang": "zh"}).text
    lists = re.findall(r'<ul class="reasons">(.*?)</ul>', html, flags=re.S)
    reasons = [unescape(r) for block in lists for r in re.findall(r"<li>(.*?)</li>", block)]
    assert lists and reasons
    assert all(
        CJK.search(r) and not re.search(r"\b(Close to|Shares the terms|which you liked)\b", r)
        for r in reasons
    )
    closest = [r for r in reasons if r.startswith("与你喜欢的“")]
    assert closest and all(r.endswith("相近。") for r in closest)
    shared = [r for r in reasons if r.startswith("共有关键词：")]
    assert shared and any(CJK.search(r.removeprefix("共有关键词：")) for r in shared)
    used = re.search(r'id="recommend-used">(.*?)</p>', html).group(1)
    assert "质心" in used and "centroid" not in used
    assert "再喜欢 3 篇论文" in html and "Like 3 more" not in html
    # a liked title named in a Chinese reason is still text, not markup
    assert "<script>alert" not in html
    assert any(f"“{hostile['title']}”" in r for r in closest)
    english = client.get("/recommend").text
    assert "which you liked." in english and "与你喜欢的" not in english
    # five likes: the classifier, which would fuse MiniLM's vectors this atlas lacks
    for paper_id in ("unlearning-02", "unlearning-03", "unlearning-04"):
        _like(client, paper_id)
    html = client.get("/recommend", params={"lang": "zh"}).text
    hints = re.findall(r'<p class="note hint">(.*?)</p>', html)
    assert hints == [
        "本图谱缺少 minilm-int8 向量，而根据 5 个喜欢所做的推荐会融合它们；`paperatlas embed` 可添加。"
    ]
    assert "this atlas has no" in client.get("/recommend").text


@pytest.mark.slow  # area names through the glosses (topic labels load the model's weights)
def test_overview_bars_and_the_paper_page_facts_are_chinese(client):
    from paperatlas.report.zh_card import AREAS

    overview = client.get("/", params={"lang": "zh"}).text
    bars = [unescape(b) for b in re.findall(r'<text x="0" y="12" class="bar-label">([^<]*)</text>', overview)]
    assert bars and all(CJK.search(b) for b in bars)
    assert AREAS["learning on graphs and other geometries & topologies"] in bars
    assert "录用（海报）" in bars and "方法" in bars
    english = client.get("/").text
    assert "learning on graphs and other geometries &amp; topologies" in english
    page = client.get("/papers/unlearning-05", params={"lang": "zh"}).text
    area = AREAS["alignment, fairness, safety, privacy, and societal considerations"]
    assert re.search(rf'<dt>研究领域</dt><dd><a [^>]*title="alignment, fairness[^"]*">{area}</a>', page)
    assert f'{area} <span class="muted">(' in page  # the predicted area
    chips = re.findall(r'<a class="chip" href="/search\?q=([^"&]+)[^"]*" title="([^"]+)">([^<]+)</a>', page)
    assert chips and any(CJK.search(shown) for _, _, shown in chips)
    assert '<span class="badge">代码</span>' in page and ">code</span>" not in page


def _search_page_parts(html: str) -> dict[str, str]:
    return {
        "summary": re.search(r'id="search-summary">(.*?)</p>', html, flags=re.S).group(1),
        "note": unescape(re.search(r'<p class="note">(.*?)</p>', html).group(1)),
        "signals": re.search(r'id="signals">(.*?)</p>', html).group(1),
        "why": "\n".join(re.findall(r'<p class="why">(.*?)</p>', html)),
    }


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
@pytest.mark.parametrize(
    ("params", "headers"),
    [({"lang": "zh"}, {}), ({}, {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})],
    ids=["url", "browser-language"],
)
def test_the_search_pages_own_words_are_chinese(client, params, headers):
    # the fixture atlas has lsa vectors only: the search layer notes the missing MiniLM
    html = client.get("/search", params={"q": "protein structure", **params}, headers=headers).text
    zh = _search_page_parts(html)
    assert zh["note"] == "本图谱还没有 minilm-int8 向量，语义排序只用 lsa；`paperatlas embed` 可补上"
    assert "模式: 混合" in zh["summary"] and "hybrid" not in zh["summary"]
    assert zh["signals"].startswith("搜索目前使用：关键词；")
    assert "匹配词: protein, structure; 语义相似度: 0." in zh["why"]
    assert not re.search(r"\b(terms|meaning|keywords|this atlas)\b", " ".join(zh.values()))
    en = _search_page_parts(client.get("/search", params={"q": "protein structure"}).text)
    assert en["note"] == (
        "this atlas has no minilm-int8 vectors, so meaning is ranked by lsa alone; `paperatlas embed` adds them"
    )
    assert "Mode: hybrid" in en["summary"] and en["signals"].startswith("Search answers with keywords now;")
    assert "terms: protein, structure; meaning: 0." in en["why"]


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_a_search_no_paper_matches_says_so_in_chinese(client):
    html = client.get("/search", params={"q": "protein structure", "tag": "no-such-tag", "lang": "zh"}).text
    assert '<p class="note">没有论文符合筛选条件</p>' in html
    english = client.get("/search", params={"q": "protein structure", "tag": "no-such-tag"}).text
    assert '<p class="note">no paper matches the filters</p>' in english


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_a_topic_pages_terms_and_areas_are_chinese(client):
    from paperatlas.report.zh_card import AREAS

    topic = client.get("/api/map").json()["topics"]["broad"][0]
    english = client.get(f"/topics/{topic['id']}").text
    areas = re.findall(r'<li>([^<]+) <span class="muted">\d+</span></li>', english)
    terms = re.findall(r'<a class="chip" href="/search\?q=[^"]*">([^<]+)</a>', english)
    assert areas and terms
    zh = client.get(f"/topics/{topic['id']}", headers={"Accept-Language": "zh-CN"}).text
    for area in areas:  # each in Chinese, the English as its tooltip
        assert f'<li title="{area}">{AREAS[unescape(area)]} <span class="muted">' in zh
    chips = re.findall(r'<a class="chip" href="/search\?q=[^"]*" title="([^"]+)">([^<]+)</a>', zh)
    assert [title for title, _ in chips] == terms
    assert any(CJK.search(shown) for _, shown in chips)


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_the_paper_pages_missing_vectors_note_is_punctuated_in_chinese(client):
    note = re.search(r'id="similar-embed-note">(.*?)</p>', client.get("/papers/protein-03?lang=zh").text)
    assert note and note.group(1).startswith("本图谱缺少以下模型的向量：")
    assert note.group(1).endswith("。") and "；" in note.group(1) and "; " not in note.group(1)


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_the_likes_collection_is_named_in_the_pages_language(client):
    zh = client.get("/recommend", headers={"Accept-Language": "zh-CN"}).text
    assert '<option value="likes" selected>收藏</option>' in zh
    assert '<option value="likes" selected>Likes</option>' in client.get("/recommend").text
