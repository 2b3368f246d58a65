"""English terms written in Chinese offline (search/zh_terms.py): the glossary read in
reverse, the shipped lexicon's candidates chosen by dictionary and model agreement, word
formation, and what Chinese writing keeps in English."""

from __future__ import annotations

import pytest

from paperatlas.search import zh_terms

pytestmark = pytest.mark.slow  # the multilingual model's real weights choose among renderings


@pytest.mark.parametrize(
    ("term", "chinese"),
    [
        ("graph neural networks", "图神经网络"),  # the glossary, found by stems (plural)
        ("large language models", "大语言模型"),
        ("diffusion models", "扩散模型"),
        ("sparse attention", "稀疏注意力"),  # composed word by word, in English order
        ("self-supervised learning", "自监督学习"),
    ],
)
def test_field_terms_are_written_in_chinese(term, chinese):
    assert zh_terms.to_chinese(term) == chinese


def test_a_general_dictionary_word_takes_its_technical_sense():
    # CC-CEDICT offers 典型, 原型, 型号, 楷模, ... for "model": the model and the
    # dictionary agree on 模型
    assert zh_terms.word_options("model")[0][1] == "模型"
    assert "模型" in {s.chinese for s in zh_terms.senses(["model"])}


@pytest.mark.parametrize("term", ["LoRA", "CoDeC", "GPT-4", "ResNet50", "CLIP"])
def test_acronyms_and_coined_names_stay_english(term):
    assert zh_terms.to_chinese(term) == term


def test_a_kept_name_sits_in_the_chinese_with_a_space():
    assert zh_terms.to_chinese("Multimodal RAG") == "多模态 RAG"
    assert zh_terms.to_chinese("GPT-4 agents") == "GPT-4 智能体"


def test_word_formation_by_fixed_morphemes():
    assert zh_terms.to_chinese("target-aware distillation") == "目标感知蒸馏"
    assert zh_terms.to_chinese("learnable positional encodings") == "可学习位置编码"


def test_an_unknown_word_stays_english_and_the_rest_is_translated():
    out = zh_terms.to_chinese("zorbleflux attention")
    assert out.startswith("zorbleflux ") and out.endswith("注意力")
