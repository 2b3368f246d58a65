"""A query made ready before it is searched: the words of a request around its topic
(search/framing.py), what is cut and what is kept, and traditional Chinese written as
simplified (search/chinese_text.py); each finds the paper its plain topic finds."""

import pytest

from paperatlas import search as S
from paperatlas.search.chinese_text import to_simplified
from paperatlas.search.framing import topic_part


@pytest.mark.parametrize(
    ("query", "topic"),
    [
        ("有哪些关于扩散模型的论文？", "扩散模型"),
        ("我想找一篇研究图神经网络的文章", "图神经网络"),
        ("请问有没有离散扩散模型的相关论文", "离散扩散模型"),
        ("求推荐：大模型幻觉方面的论文", "大模型幻觉"),
        ("视觉Transformer有哪些代表性工作？", "视觉Transformer"),
        ("找几篇讲知识蒸馏的paper", "知识蒸馏"),
        ("想了解联邦学习，有什么好的文章吗", "联邦学习"),
        ("推荐几篇推荐系统的论文", "推荐系统"),  # the second 推荐 is the topic's
        ("帮我搜一下KV缓存压缩", "KV缓存压缩"),
        ("papers about federated learning", "federated learning"),
        ("I'm looking for a paper on speculative decoding", "speculative decoding"),
        ("any recent work on graph transformers?", "graph transformers"),
        ("recommend papers: unlearning in LLMs", "unlearning in LLMs"),
        ("which papers study grokking", "grokking"),
        ("find me research on reward hacking", "reward hacking"),
        ("papers about 扩散模型", "扩散模型"),  # an English request around Chinese words
    ],
)
def test_request_words_around_the_topic_are_cut(query, topic):
    assert topic_part(query) == topic


@pytest.mark.parametrize(
    "query",
    [
        "推荐系统的公平性",  # 推荐 starts a topic here
        "有监督对比学习",  # 有, 求, 搜索, 工作, 相关, 方面, 领域 start topics
        "求解偏微分方程的神经算子",
        "搜索增强大模型强化学习中的奖励建模",
        "工作记忆机制",
        "相关性分析",
        "方面级情感分析",
        "领域自适应",
        "跨分辨率行人重识别中的语义方向",  # 方向 ends one
        "基线方法对比目的",  # 目的 keeps its 的: cuts fall between words
        "大语言模型的机器遗忘",
        "扩散模型 for video",
        "论文",  # nothing but request words: searched as typed
        "papers",
        "PAPER: Privacy-Preserving ResNet Models",  # a title, not a request
        "Which Formal Languages Can Large Language Models Learn in Context?",
        "A Study of Posterior Stability in Time-Series Latent Diffusion",
        "Searching for Privacy Risks in LLM Agents via Simulation",
        "a method that removes memorised passages from a chatbot",
        "CIMemories",
        "scientific papers",
    ],
)
def test_topics_and_titles_are_left_whole(query):
    assert topic_part(query) == query


def test_an_english_request_searches_its_topic_only(embedded_search_atlas):
    store = embedded_search_atlas.store
    r = S.candidate_rankings(store, "papers about speculative decoding")
    assert r.terms == S.query_terms("speculative decoding")
    assert any("searched for “speculative decoding”" in n for n in r.notes)
    hits = S.search(store, "Are there any papers on speculative decoding?", k=3).hits
    assert hits[0].id == "specdec01"


@pytest.mark.parametrize(
    ("request_query", "topic", "target"),
    [
        ("有哪些关于联邦学习的论文？", "联邦学习", "fed01"),
        ("推荐几篇讲投机解码的文章", "投机解码", "specdec01"),
        ("请问有没有脉冲神经网络的相关论文", "脉冲神经网络", "spiking01"),
    ],
)
def test_a_chinese_request_ranks_as_its_topic_does(embedded_search_atlas, request_query, topic, target):
    """The learned translation of 论文 / 文章 ("literature", "writing", "article") no
    longer joins the query: the request's translation and hits are its topic's."""
    store = embedded_search_atlas.store
    asked = S.candidate_rankings(store, request_query, config=S.SearchConfig(glossary=False))
    bare = S.candidate_rankings(store, topic, config=S.SearchConfig(glossary=False))
    assert asked.translation == bare.translation and asked.terms == bare.terms
    hits = S.search(store, request_query, k=3, config=S.SearchConfig(glossary=False)).hits
    assert [h.id for h in hits] == [
        h.id for h in S.search(store, topic, k=3, config=S.SearchConfig(glossary=False)).hits
    ]
    assert target in [h.id for h in hits]


def test_traditional_characters_are_written_simplified():
    assert to_simplified("大型語言模型的機器遺忘") == "大型语言模型的机器遗忘"
    assert to_simplified("視覺自迴歸圖像生成模型的訓練後量化") == "视觉自回归图像生成模型的训练后量化"
    assert to_simplified("擴散模型 for video") == "扩散模型 for video"
    assert to_simplified("大语言模型的机器遗忘") == "大语言模型的机器遗忘"  # simplified already


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [("聯邦學習", "联邦学习"), ("有哪些關於投機解碼的論文？", "投机解码"), ("脈衝神經網路", "脉冲神经网路")],
)
def test_a_traditional_query_is_searched_as_its_simplified_twin(
    embedded_search_atlas, traditional, simplified
):
    """The glossary, jieba and the learned lookups read simplified characters: the same
    words in traditional ones used to translate to other (or no) English terms."""
    store = embedded_search_atlas.store
    asked = S.candidate_rankings(store, traditional, config=S.SearchConfig(glossary=False))
    twin = S.candidate_rankings(store, simplified, config=S.SearchConfig(glossary=False))
    assert asked.translation == twin.translation and asked.translation
    assert any(f"searched for “{simplified}” (in simplified characters" in n for n in asked.notes)
    assert [h.id for h in S.search(store, traditional, k=3).hits] == [
        h.id for h in S.search(store, simplified, k=3).hits
    ]


def test_a_search_config_can_search_a_query_as_typed(embedded_search_atlas):
    """What benchmarks/search_requests.py measures its baseline with: a SearchConfig that
    keeps the request's words, or its traditional characters, instead of overwriting the
    engine's functions."""
    store = embedded_search_atlas.store

    def cut(r) -> bool:
        return any("the words asking for papers left out" in n for n in r.notes)

    def simplified(r) -> bool:
        return any("in simplified characters" in n for n in r.notes)

    request = "有哪些关于联邦学习的论文？"
    assert cut(S.candidate_rankings(store, request, config=S.SearchConfig(glossary=False)))
    assert not cut(
        S.candidate_rankings(store, request, config=S.SearchConfig(glossary=False, topic_framing=False))
    )
    assert simplified(S.candidate_rankings(store, "聯邦學習", config=S.SearchConfig(glossary=False)))
    assert not simplified(
        S.candidate_rankings(store, "聯邦學習", config=S.SearchConfig(glossary=False, simplify=False))
    )
