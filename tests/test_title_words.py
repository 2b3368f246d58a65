"""The word-chance model behind display titles (enrich/title_words.py): which words of an
abstract its title is likely to have, and how a candidate title is scored by them."""

from __future__ import annotations

from paperatlas.enrich import title_words, titles
from paperatlas.enrich.text import sentences

ABSTRACT = (
    "Large language models often forget facts after fine-tuning. We propose MemGuard, a "
    "regularisation method for preserving factual knowledge during fine-tuning of large "
    "language models, which penalises drift in attention heads. Experiments on five "
    "benchmarks show that MemGuard reduces forgetting by 35% compared with LoRA."
)


def chances() -> dict[str, float]:
    model = titles.load_model()
    assert model is not None and len(model.word_weights) == len(title_words.WORD_FEATURES)
    return titles.paper_chances(sentences(ABSTRACT), "MemGuard", model)


def test_the_name_and_the_topic_are_likelier_title_words_than_the_prose():
    p = chances()
    assert set(p) >= {"memguard", "we", "forgetting", "experiments"}
    assert all(0.0 < x < 1.0 for x in p.values())
    assert p["memguard"] > 0.5 > p["we"]
    # the same corpus-wide rate matters less than what this abstract does with the word
    assert p["knowledge"] > p["experiments"] and p["fine"] > p["show"]
    assert p["we"] < 0.02 and p["propose"] < 0.02


def test_a_span_of_title_words_scores_above_a_span_of_prose():
    p = chances()
    total = sum(p.values())
    topical = title_words.span_features("Regularisation method for preserving factual knowledge", p, total)
    prose = title_words.span_features("Experiments on five benchmarks show", p, total)
    names = title_words.SPAN_FEATURES
    for feature in ("word_precision", "word_f1", "word_f1_len"):
        i = names.index(feature)
        assert topical[i] > prose[i], feature
    assert title_words.span_features("", p, total) == [0.0] * len(names)


def test_word_features_read_the_abstract_not_only_the_rate():
    sents = sentences(ABSTRACT)
    intro = [bool(titles._INTRO.search(s)) for s in sents]
    words, rows = title_words.word_features(sents, intro, "MemGuard", {}, titles.DEFAULT_RATE)
    f = dict(zip(words, rows))
    i = title_words.WORD_FEATURES.index
    assert f["memguard"][i("in_name")] == 1.0 and f["we"][i("in_name")] == 0.0
    assert f["regularisation"][i("in_intro")] == 1.0 and f["forget"][i("in_intro")] == 0.0
    assert f["memguard"][i("log_count")] > f["regularisation"][i("log_count")]
    assert f["large"][i("in_first")] == 1.0 and f["lora"][i("in_last")] == 1.0
