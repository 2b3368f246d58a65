"""Term candidates from translated documents of the field (search/zh_parallel.py,
models/zh-parallel-v1.tsv, scripts/build_zh_parallel.py) and how the translator uses them."""

from __future__ import annotations

import importlib.util
import sys
from importlib import resources
from pathlib import Path

import numpy as np

from paperatlas.search import zh_parallel, zh_terms

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "zh_parallel"


def _build_script():
    spec = importlib.util.spec_from_file_location(
        "build_zh_parallel", REPO / "scripts" / "build_zh_parallel.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_translations_give_a_words_field_sense_no_dictionary_gives():
    # CC-CEDICT and the term tables give 异质 / 全球 / 模型; the field writes 异构, 全局, 建模
    assert zh_parallel.candidates("heterogeneous")[0][0] == "异构"
    assert zh_parallel.candidates("global")[0][0] == "全局"
    assert "建模" in [zh for zh, *_ in zh_parallel.candidates("modeling")]
    assert zh_terms.to_chinese("heterogeneous graphs") == "异构图"
    assert zh_terms.to_chinese("global data") == "全局数据"


def test_a_word_is_looked_up_plural_blind_but_not_by_stem():
    assert zh_parallel.lookup("regularizations") == zh_parallel.lookup("regularization") is not None
    assert zh_parallel.lookup("Modeling") == zh_parallel.lookup("modeling") != zh_parallel.lookup("model")
    assert zh_parallel.lookup("qwertyuiop") is None
    assert zh_parallel.candidates("qwertyuiop") == []


def test_a_word_the_translators_keep_in_english_stays_english():
    assert zh_parallel.kept_spelling("tokenizer") == "tokenizer"
    assert zh_terms.kept("tokenizers")
    assert zh_terms.to_chinese("tokenizer training") == "tokenizer 训练"
    # a word kept now and then is not kept ("embedding" is 嵌入 in most translations)
    assert zh_parallel.kept_spelling("embedding") is None


def test_a_name_the_translators_keep_is_not_the_common_word():
    # "AWS Neuron" stays English in the Chinese documents; "neurons" are 神经元
    assert zh_parallel.kept_spelling("neurons") is None
    assert zh_terms.to_chinese("neurons") == "神经元"
    # an acronym is kept as written, not respelled from the translations' singular
    assert zh_terms.to_chinese("VLMs") == "VLMs"


def test_a_hyphenated_compound_is_one_word_as_the_translator_reads_it():
    assert zh_parallel.candidates("high-level")[0][0] == "高级"
    assert zh_parallel.candidates("high")[0][0] == "高"
    assert zh_terms.to_chinese("high-level logical model") == "高级逻辑模型"


def test_the_shipped_table_names_each_source_and_its_commit():
    header = [
        line
        for line in (resources.files("paperatlas") / "models" / zh_parallel.PARALLEL_FILE)
        .read_text(encoding="utf-8")
        .splitlines()
        if line.startswith("#")
    ]
    for source in _build_script().SOURCES.values():
        assert any(
            source.repo in line and source.commit in line and source.licence in line for line in header
        )


def test_a_document_is_cut_into_prose_blocks_in_order():
    script = _build_script()
    english = script.blocks((FIXTURES / "guide.en.md").read_text(encoding="utf-8"))
    chinese = script.blocks((FIXTURES / "guide.zh.md").read_text(encoding="utf-8"))
    assert english == [
        "Sparse attention",
        "A sparse model attends to a few positions only.",
        "Heterogeneous graphs mix node types.",
        "Global pooling reads every node.",
        "term meaning",
        "Train the tokenizer first.",
    ]
    # front matter, code and links' targets left out; the translator's note is a block of its own
    assert chinese[0] == "稀疏注意力" and chinese[1] == "注意：本文由社区翻译。"
    assert not any("build(" in b or "example.org" in b for b in english + chinese)


def test_blocks_are_aligned_in_order_and_an_added_block_is_left_out():
    script = _build_script()
    # English blocks 0..2; Chinese has a note (1) the English lacks; English 2 is untranslated
    similarity = np.array(
        [
            [0.90, 0.30, 0.20, 0.10],
            [0.20, 0.35, 0.80, 0.30],
            [0.10, 0.20, 0.30, 0.40],
        ]
    )
    assert script.align(similarity) == [(0, 0), (1, 2)]
    # a better pair out of order is not taken at the cost of two in order
    crossed = np.array([[0.70, 0.90], [0.90, 0.70]])
    assert script.align(crossed) == [(0, 0), (1, 1)]


def test_the_association_counts_a_word_pair_by_the_aligned_pairs_holding_both():
    script = _build_script()
    both, english, chinese, total = 8, 10, 9, 1000
    assert script.g2(both, english, chinese, total) > script.MIN_G2
    assert script.g2(10, 100, 100, 1000) < script.MIN_G2  # as often together as by chance
    assert script.g2(1, 100, 100, 1000) < script.MIN_G2  # less often: no association either
