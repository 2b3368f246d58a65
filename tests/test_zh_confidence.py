"""How sure a Chinese gloss is (search/zh_terms.py: `gloss`, FLOOR): a term whose rendering
rests on too little evidence stays English, a topic label keeps its sure pieces in Chinese,
and the causes of glosses readers found garbled."""

from __future__ import annotations

import pytest

from paperatlas.search import zh_terms

pytestmark = pytest.mark.slow  # the multilingual model's real weights choose among renderings


@pytest.mark.parametrize(
    "term",
    [
        "memorization",  # CC-CEDICT's 记 alone
        "monocular depth estimation",  # the model's nearest word 眼光 alone
        "stereo spike streams",  # 音响设备 and 分流: one source each
        "closed-source LLMs",  # 关闭 + 来源 glued, where the field writes 闭源
        "generative priors",  # 之前: the field's translations write "priors" 先验
        "textual modalities",  # 文中 and 调性: the model's nearest words
        "fisher information",  # 鱼 and "visual grounding"'s 地面: general senses nothing of the field has
        "visual grounding",
    ],
)
def test_a_doubtful_gloss_stays_english(term):
    found = zh_terms.gloss(term)
    assert zh_terms.is_chinese(found.text) and found.evidence < zh_terms.FLOOR
    assert zh_terms.to_chinese(term) == term


@pytest.mark.parametrize(
    ("term", "chinese"),
    [
        ("diffusion models", "扩散模型"),
        ("persistent memory", "持久内存"),
        ("learnable positional encodings", "可学习位置编码"),
    ],
)
def test_a_sure_gloss_is_shown(term, chinese):
    assert zh_terms.gloss(term).evidence >= zh_terms.FLOOR
    assert zh_terms.to_chinese(term) == chinese


def test_the_fields_own_rendering_has_the_most_evidence():
    assert zh_terms.gloss("graph neural networks") == ("图神经网络", zh_terms.TABLE_EVIDENCE, "图神经网络")


def test_a_topic_label_keeps_its_sure_pieces_in_chinese():
    # a label is never left all English: the doubtful word alone stays English
    assert (
        zh_terms.label_to_chinese("Counterfactual explanations for GNNs")
        == "用于 GNNs 的 Counterfactual 解释"
    )
    assert (
        zh_terms.label_to_chinese("Alignment, reasoning models & memorization")
        == "对齐、推理模型与 memorization"
    )


def test_a_word_the_dictionary_knows_whole_takes_no_prefix():
    # "interfaces" is not inter- + faces (人脸间)
    assert zh_terms.to_chinese("interfaces") == "接口"


def test_a_suffixs_base_keeps_the_words_own_letters():
    # "stable" is not st- + "ate" + -able (可状态)
    assert zh_terms.to_chinese("stable") == "稳定"


def test_the_field_tables_are_read_plural_blind_not_by_stem():
    # "transformations" and "transformer" share a stem, not a Chinese word (变换器)
    assert zh_terms.to_chinese("transformations") == "变换"
    assert zh_terms.to_chinese("graph neural networks") == "图神经网络"
