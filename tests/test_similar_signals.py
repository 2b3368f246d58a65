"""More like this on every signal (search/similar_signals.py): an abstract's key terms for
BM25, each signal standardised over the atlas, the fused ranking, and what an atlas with
the static model alone is told. On the real abstracts of tests/fixtures/search."""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from paperatlas import search as S
from paperatlas.embed import embed_store, embedding_text
from paperatlas.embed.index import clear_cache
from paperatlas.search import keyword
from paperatlas.search import similar_signals as SS
from paperatlas.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
BY_ID = {p["id"]: p for p in PAPERS}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("similar") / "atlas.db")
    with store.transaction():
        for p in PAPERS:
            store.papers.insert(
                {k: p[k] for k in ("id", "title", "abstract", "keywords", "area", "decision")}
            )
    embed_store(store, model="static")
    clear_cache()
    return store


def text_of(pid: str) -> str:
    return embedding_text(BY_ID[pid]["title"], BY_ID[pid]["abstract"])


def test_key_terms_weigh_repeated_rare_words_and_merge_spellings(store):
    terms = keyword.key_terms(store, text_of("specdec01"))
    # "decoding" three times, "draft" twice; "token" and "tokens" are one index token
    assert terms["decoding"] == pytest.approx(1 + math.log(3))
    assert terms["draft"] == pytest.approx(1 + math.log(2))
    assert len({"token", "tokens"} & set(terms)) == 1
    assert terms.get("token", terms.get("tokens")) == pytest.approx(1 + math.log(3))
    # words most papers hold say nothing of this paper; stop words are no terms
    held = keyword.doc_freq(store, list(terms))
    assert all(0 < held[t] <= keyword.COMMON_TERM_SHARE * len(PAPERS) for t in terms)
    assert "models" not in terms and "the" not in terms and "of" not in terms
    # most telling first: twice each and in this paper alone ("decoding" is in another too)
    assert list(terms)[:2] == ["draft", "speculative"]
    assert keyword.key_terms(store, "the of and") == {}


def test_keyword_ranking_of_weighted_terms_with_its_spread(store):
    terms = keyword.key_terms(store, text_of("unlearn01"))
    ranked, mean, std = keyword.weighted_ranking(store, terms, 5)
    assert ranked[0][0] == "unlearn01" and ranked[1][0] == "unlearn02"
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(ranked))
    # the spread is over every paper of the atlas, those no term matches counted as 0
    everyone = dict(keyword.weighted_ranking(store, terms, len(PAPERS))[0])
    scores = np.array([everyone.get(p["id"], 0.0) for p in PAPERS])
    assert mean == pytest.approx(scores.mean()) and std == pytest.approx(scores.std())
    others, *spread = keyword.weighted_ranking(store, terms, 5, exclude={"unlearn01"})
    assert others == keyword.weighted_ranking(store, terms, 6)[0][1:] and spread == [mean, std]
    within, _, _ = keyword.weighted_ranking(store, terms, 5, within={"unlearn02", "kv01"})
    assert [pid for pid, _ in within] == ["unlearn02"]  # kv01 shares no term


def test_each_signal_is_standardised_and_the_fusion_weighs_them(store):
    weights = {SS.KEYWORD: 1.0, "static": 1.0}
    got = SS.signal_scores(
        store, text_of("unlearn01"), 5, like=["unlearn01"], exclude={"unlearn01"}, weights=weights
    )
    assert set(got.scores) == {SS.KEYWORD, "static"} and "unlearn01" not in got.ids
    assert all(len(z) == len(got.ids) for z in got.scores.values())
    # standardised: the best other paper of each signal stands above the atlas's average (0)
    # (in 24 papers the query paper itself, far above all, widens the spread)
    assert max(got.scores[SS.KEYWORD]) > 0.5 and max(got.scores["static"]) > 0.5
    fused = dict(got.fused())
    for i, pid in enumerate(got.ids):
        assert fused[pid] == pytest.approx(got.scores[SS.KEYWORD][i] + got.scores["static"][i])
    keyword_only = [pid for pid, _ in got.fused({SS.KEYWORD: 1.0})]
    assert keyword_only[0] == "unlearn02"


def test_similar_reads_keywords_and_vectors_and_says_what_embed_adds(store):
    r = S.similar(store, paper_id="specdec01", k=3)
    assert r.model == "static" and "specdec01" not in [h.id for h in r.hits]
    assert any("no minilm-int8 vectors" in n and "`paperatlas embed` adds them" in n for n in r.notes)
    # a hit says why: the key terms it holds and its cosine in the model read
    terms = keyword.key_terms(store, text_of("specdec01"))
    assert all(h.matched_terms and set(h.matched_terms) <= set(terms) for h in r.hits)
    assert all(h.semantic_score is not None and -1 <= h.semantic_score <= 1 for h in r.hits)
    by_text = S.similar(store, text=text_of("specdec01"), k=4)
    assert by_text.hits[0].id == "specdec01"  # the paper itself, by its own text
    assert SS.missing_models(store) == ["minilm-int8"]  # what the paper page names too


def test_weights_of_an_atlas_without_the_learned_models():
    # a model the learned weights do not name reads as the static model
    assert SS.weights_for("en", ["lsa"])["lsa"] == SS.SIGNAL_WEIGHTS["static"]
    # an English text over an atlas of the multilingual model alone still reads its vectors
    assert SS.weights_for("en", ["use-multilingual"])["use-multilingual"] > 0
    assert SS.weights_for("zh", ["use-multilingual"]) == {"use-multilingual": 1.0}


def test_a_servers_table_of_every_papers_similar_papers_is_the_ranking_itself(tmp_path, monkeypatch):
    """precompute_similar works out every paper's similar papers ahead (a server's paper
    pages look them up): the same ranking as asked for then, used while the vectors are
    unchanged (an add while serving keeps it), and not made for a store over its size limit."""
    from paperatlas.search import similar_papers as SP

    st = Store(tmp_path / "atlas.db")
    with st.transaction():
        for p in PAPERS:
            st.papers.insert({k: p[k] for k in ("id", "title", "abstract", "keywords", "area", "decision")})
    embed_store(st, model="static")
    clear_cache()
    expected = {p["id"]: S.similar_ranking(st, text_of(p["id"]), 5, exclude=p["id"])[0] for p in PAPERS}
    assert SP.precompute_similar(st, 5)

    def not_asked(*args, **kwargs):
        raise AssertionError("ranked again")

    monkeypatch.setattr(SP, "similar_ranking", not_asked)
    for pid, ranked in expected.items():
        assert SP.similar_to_paper(st, pid, text_of(pid), 5) == ranked
    with pytest.raises(AssertionError, match="ranked again"):  # another depth: not in the table
        SP.similar_to_paper(st, PAPERS[0]["id"], text_of(PAPERS[0]["id"]), 6)
    with st.transaction():  # a paper added while serving (no vectors yet): the table stays
        st.papers.insert({"id": "later", "title": "A later paper", "abstract": PAPERS[0]["abstract"]})
    assert SP.similar_to_paper(st, PAPERS[1]["id"], text_of(PAPERS[1]["id"]), 5) == expected[PAPERS[1]["id"]]
    embed_store(st, model="static")  # its vectors: every page ranks afresh
    with pytest.raises(AssertionError, match="ranked again"):
        SP.similar_to_paper(st, PAPERS[1]["id"], text_of(PAPERS[1]["id"]), 5)
    monkeypatch.undo()
    monkeypatch.setattr(SP, "SIMILAR_TABLE_MAX_PAPERS", len(PAPERS))
    assert not SP.precompute_similar(st, 5)
    st.close()
