"""The field's term tables (search/zh_terminology.py, models/zh-terminology-v1.tsv and
models/zh-field-frequency-v1.tsv) and how the translator uses them."""

from __future__ import annotations

import pytest

from paperatlas.search import zh_terminology, zh_terms


def test_the_shipped_term_tables_load_with_their_sources():
    pairs = zh_terminology.table()
    assert len(pairs) > 500
    assert ("self-attention", "自注意力") in pairs  # introduced by d2l-zh's chapters
    assert all(english == english.lower() and chinese for english, chinese in pairs)


def test_the_cheatsheets_and_the_ai_system_book_add_terms_the_first_tables_lack():
    # the Chinese CS 229/230 cheatsheets: a table's cells and short lines, paired in order
    assert zh_terminology.lookup(["siamese", "network"]) == "孪生神经网络"
    assert zh_terminology.lookup(["intersection", "over", "union"]) == "交并比"
    assert zh_terminology.lookup(["triplet", "losses"]) == "三重损失"
    # the AI System book's table, its terms of two or more words
    assert zh_terminology.lookup(["heterogeneous", "hardware"]) == "异构硬件"
    assert zh_terminology.lookup(["distributed", "reinforcement", "learning"]) == "分布式强化学习"
    # an earlier table's rendering is not replaced by a later one's
    assert zh_terminology.lookup(["hinge", "loss"]) == "合页损失函数"  # Google's, not 铰链损失
    # nor is a word the textbook keeps in English translated because a cheatsheet does
    assert zh_terminology.kept_spelling("tanh") == "tanh"
    pairs = zh_terminology.table()
    assert not any(en.startswith("[") or en.endswith("]") or "?" in en for en, _ in pairs)
    assert not any(en in {"where", "with", "such that"} for en, _ in pairs)  # connectives


def test_a_term_is_found_as_written_or_plural_blind_but_not_by_stem():
    assert zh_terminology.lookup(["confusion", "matrix"]) == "混淆矩阵"
    assert zh_terminology.lookup(["anchor", "boxes"]) == zh_terminology.lookup(["anchor", "box"]) == "锚框"
    assert zh_terminology.lookup(["Hidden", "Layers"]) == "隐藏层"
    # "modeling" is not "model" in Chinese (建模, 模型): no stem match
    assert zh_terminology.lookup(["modeling"]) != zh_terminology.lookup(["model"])


def test_the_glossary_overrides_the_tables():
    # the tables give 基准 for "baseline" where the shipped glossary writes another word
    glossary = {en.lower(): zh for zh, en in zh_terminology.glossary_terms().items()}
    term = next(en for en, _ in zh_terminology.table() if en in glossary)
    assert zh_terminology.lookup(term.split()) == glossary[term]


def test_a_word_takes_the_chinese_run_its_terms_share():
    assert zh_terminology.aligned("attention") == "注意力"
    assert zh_terminology.aligned("zorbleflux") is None


def test_field_frequency_tells_the_fields_sense_from_the_general_one():
    assert zh_terminology.field_frequency("全局") > zh_terminology.field_frequency("全球")
    assert zh_terminology.field_frequency("策略") > zh_terminology.field_frequency("战略")
    assert zh_terminology.field_frequency("模") == 0  # single characters are not counted


@pytest.mark.slow  # the multilingual model's real weights take part in the choice
@pytest.mark.parametrize(
    ("term", "chinese"),
    [
        ("noise", "噪声"),  # not 噪音: the field's textbook writes 噪声
        ("external tools", "外部工具"),  # not 外工具
        ("human intelligence", "人类智能"),  # not 人性智力
        ("regularization strategy", "正则化策略"),  # not 战略
        ("anchor boxes", "锚框"),  # the term tables, plural-blind
    ],
)
def test_terms_take_the_fields_rendering(term, chinese):
    assert zh_terms.to_chinese(term) == chinese


def test_words_the_fields_chinese_keeps_in_english_are_spelled_as_it_spells_them():
    assert zh_terminology.kept_spelling("transformers") == "Transformer"
    assert zh_terminology.kept_spelling("adam") == "Adam"
    assert zh_terminology.kept_spelling("attention") is None
    assert zh_terms.kept("softmax") and not zh_terms.kept("attention")


@pytest.mark.slow
def test_a_kept_word_stays_english_inside_a_chinese_term():
    # the glossary gives 变换器 for "transformer" (a Chinese query's English); Chinese
    # writing keeps the name
    assert zh_terms.to_chinese("diffusion transformers") == "扩散 Transformer"
    assert zh_terms.to_chinese("adam") == "Adam"


@pytest.mark.slow
def test_a_kept_name_with_a_word_formation_head():
    assert zh_terms.to_chinese("VAE-based representations") == "基于 VAE 的表示"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("term", "chinese"),
    [
        # the longest known pieces, in English order: a table's term, then words
        ("linear projection layer", "线性投影层"),
        ("unit tests", "单元测试"),
        # "X for Y" -> 用于Y的X, kept words inside
        ("optimal transport for diffusion models", "用于扩散模型的最优传输"),
        ("softmax attention for transformers", "用于 Transformer 的 softmax 注意力"),
    ],
)
def test_phrases_are_composed_from_the_fields_pieces(term, chinese):
    assert zh_terms.to_chinese(term) == chinese


@pytest.mark.slow
def test_a_comparative_is_written_with_geng_when_its_base_is_an_adjective():
    assert zh_terms.to_chinese("larger models") == "更大的模型"
    assert zh_terms.to_chinese("easier tasks") == "更容易的任务"
    # "-er" nouns are not comparatives: their base is not an adjective in Chinese
    assert zh_terms.to_chinese("encoder") == "编码器"
    assert zh_terms.to_chinese("computer") == "计算机"
