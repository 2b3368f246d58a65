"""Pure pieces of search: language detection, safe FTS5 expressions, fusion, snippets."""

import sqlite3

import pytest

from paperatlas import search as S
from paperatlas.search.snippets import snippet


@pytest.mark.parametrize(
    "text, lang",
    [
        ("大语言模型的机器遗忘", "zh"),
        ("长上下文推理中的KV缓存压缩", "zh"),  # Chinese with a Latin acronym
        ("Transformer 中的 attention 机制", "zh"),  # mostly Latin letters, still Chinese
        ("大規模言語モデルのアンラーニング", "ja"),
        ("대규모 언어 모델의 기계 언러닝", "ko"),
        ("машинное разобучение языковых моделей", "ru"),
        ("GRPO", "en"),
        ("N:M sparsity", "en"),
        ("forgetting specific knowledge in a trained LLM", "en"),
        ("la compression du cache pour les modèles de langue", "fr"),
        ("die Kompression des Caches und der Modelle", "de"),
    ],
)
def test_detect_language(text, lang):
    assert S.detect_language(text) == lang


def test_query_terms_split_cjk_from_latin_and_drop_stopwords():
    assert S.query_terms("长上下文推理中的KV缓存压缩") == ["kv"]
    assert S.query_terms("大语言模型的机器遗忘") == []
    assert S.query_terms("the effect of GRPO on the reasoning") == ["effect", "grpo", "reasoning"]
    assert S.query_terms("the of and") == ["the", "of", "and"]  # all stop words: keep them
    assert len(S.query_terms(" ".join(f"word{i}" for i in range(500)))) == S.MAX_TERMS


@pytest.mark.parametrize(
    "hostile",
    [
        '"unbalanced',
        "NEAR(",
        "'; DROP TABLE papers; --",
        "title:foo",
        "a AND OR NOT",
        "*",
        "^start",
        "x NEAR/3 y",
        'col:"a"',
        "((((",
        "\x00null",
        "emoji 🚀 query",
    ],
)
def test_match_expression_is_valid_fts5_for_hostile_text(hostile):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    conn.execute("INSERT INTO t VALUES ('drop table unbalanced near start foo null query')")
    expr = S.match_expression(S.query_terms(hostile))
    if expr is not None:
        conn.execute("SELECT * FROM t WHERE t MATCH ?", (expr,)).fetchall()  # no error


def test_rrf_rewards_agreement_between_lists():
    keyword = [("a", 9.0), ("b", 5.0), ("c", 1.0)]
    vector = [("b", 0.9), ("d", 0.8), ("a", 0.1)]
    fused = S.fuse([(keyword, 1.0), (vector, 1.0)], method="rrf", rrf_k=60)
    ids = [pid for pid, _ in fused]
    assert set(ids) == {"a", "b", "c", "d"}
    assert ids[:2] == ["b", "a"]  # in both lists, b ranks higher overall (1st + 2nd)
    scores = dict(fused)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)


def test_weights_can_favour_one_list():
    keyword = [("a", 3.0), ("b", 2.0)]
    vector = [("b", 0.9), ("a", 0.8)]
    assert S.fuse([(keyword, 2.0), (vector, 1.0)])[0][0] == "a"
    assert S.fuse([(keyword, 1.0), (vector, 2.0)])[0][0] == "b"
    assert S.fuse([(keyword, 0.0), (vector, 1.0)]) == S.fuse([(vector, 1.0)])


def test_score_fusion_scales_each_list():
    keyword = [("a", 30.0), ("b", 10.0)]  # bm25 scale
    vector = [("b", 0.52), ("a", 0.50)]  # cosine scale
    fused = dict(S.fuse([(keyword, 0.5), (vector, 0.5)], method="score"))
    assert fused["a"] == pytest.approx(0.5)
    assert fused["b"] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        S.fuse([(keyword, 1.0)], method="nope")


def test_stem_and_marking():
    assert S.stem("training") == S.stem("trained") == S.stem("train")
    assert S.stem("forgetting") == S.stem("forget")
    assert S.stem("models") == S.stem("model")
    marked = S.mark_terms("Models forget; a trained model.", {S.stem("model"): "model"})
    segs = snippet(marked)
    assert [s["text"] for s in segs if s["match"]] == ["Models", "model"]
    assert "".join(s["text"] for s in segs) == "Models forget; a trained model."


def test_snippet_centres_on_matches_and_never_leaks_markers():
    text = ("filler " * 100) + "the unlearning method works " + ("tail " * 100)
    segs = snippet(S.mark_terms(text, {S.stem("unlearning"): "unlearning"}))
    joined = "".join(s["text"] for s in segs)
    assert "unlearning" in joined and joined.startswith("…") and joined.endswith("…")
    assert len(joined) <= S.SNIPPET_CHARS + 10
    assert S.MARK_OPEN not in joined and S.MARK_CLOSE not in joined
    # text that itself contains the private marker characters cannot fake a match
    sneaky = f"a {S.MARK_OPEN}fake{S.MARK_CLOSE} match"
    assert not any(s["match"] for s in snippet(S.mark_terms(sneaky, {})))
