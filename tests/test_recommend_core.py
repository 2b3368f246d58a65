"""Likes, dislikes, collections and recommendations on a 120-paper, four-topic corpus."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from paperatlas import recommend as rec
from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.likes import collection_ids
from paperatlas.text import paper_text, tfidf_matrix

FIXTURES = Path(__file__).parent / "fixtures" / "collections"
CORPUS = FIXTURES / "corpus.jsonl"


def _topics() -> dict[str, str]:
    return {json.loads(line)["id"]: json.loads(line)["topic"] for line in CORPUS.read_text().splitlines()}


def _put_lsa_vectors(store, dims: int = 24) -> None:
    """A cheap embedding: TF-IDF reduced by SVD, stored like any model's vectors."""
    from sklearn.decomposition import TruncatedSVD

    papers = list(store.papers.iter())
    tfidf, _ = tfidf_matrix([paper_text(p) for p in papers])
    vectors = TruncatedSVD(dims, random_state=0).fit_transform(tfidf)
    with store.transaction():
        store.vectors.put("test-lsa", [p["id"] for p in papers], vectors, ["x"] * len(papers))


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("rec") / "atlas.db"
    atlas = Atlas(db)
    report = atlas.add([CORPUS], list_name="corpus", enrich=False)
    assert atlas.store.papers.count() == 120, report
    _put_lsa_vectors(atlas.store)
    atlas.close()
    return db


@pytest.fixture()
def atlas(corpus_db, tmp_path) -> Atlas:
    # each test starts from the same corpus with no marks
    copy = tmp_path / "atlas.db"
    copy.write_bytes(corpus_db.read_bytes())
    a = Atlas(copy)
    yield a
    a.close()


def _by_topic(topic: str) -> list[str]:
    return [pid for pid, t in _topics().items() if t == topic]


def test_like_round_trip_with_prefixes_and_collections(atlas):
    ids = _by_topic("unlearning")[:3]
    done = atlas.like([ids[0][:7], ids[1], ids[2]], collection="reading")
    assert done == ids
    assert [pid for _, pid, _ in atlas.store.marks.rows("reading")] == ids
    assert atlas.store.marks.collections() == {"reading": 3}
    # a dislike replaces the like, an unmark removes it
    atlas.like([ids[0]], collection="reading", value=-1)
    assert collection_ids(atlas.store, "reading") == (ids[1:], [ids[0]])
    assert atlas.unlike([ids[1], ids[0]], collection="reading") == [ids[1], ids[0]]
    assert collection_ids(atlas.store, "reading") == ([ids[2]], [])
    assert atlas.unlike([ids[1]], collection="reading") == []  # no longer marked


def test_unknown_id_is_a_clear_error_and_writes_nothing(atlas):
    good = _by_topic("graphs")[0]
    with pytest.raises(PaperatlasError, match="unknown or ambiguous paper id: nope123"):
        atlas.like([good, "nope123"])
    assert atlas.store.marks.rows() == []
    with pytest.raises(PaperatlasError):
        atlas.like([good], value=5)
    with pytest.raises(PaperatlasError, match="no paper ids"):
        atlas.like([" "])


def test_zero_likes_gives_a_message_not_a_crash(atlas):
    picks = atlas.recommend()
    assert list(picks) == [] and "no liked papers" in picks.message
    atlas.like([_by_topic("graphs")[0]], collection="other")
    picks = atlas.recommend(collection="likes")
    assert list(picks) == [] and "other" in picks.message


def test_one_like_ranks_its_topic_first_by_centroid(atlas):
    liked = _by_topic("speculative")[0]
    atlas.like([liked])
    picks = atlas.recommend(k=10)
    assert picks.method == "centroid similarity" and picks.model == "test-lsa"
    assert liked not in [p.paper_id for p in picks]
    topics = _topics()
    assert sum(topics[p.paper_id] == "speculative" for p in picks) >= 9
    top = picks[0]
    assert top.closest[0]["id"] == liked and top.closest[0]["similarity"] > 0
    assert top.terms and all(isinstance(t, str) for t in top.terms)
    liked_title = top.closest[0]["title"]
    assert top.reasons[0].startswith(f"Close to “{liked_title}”")
    assert all(sentence.endswith(".") for sentence in top.reasons)


def test_a_reason_names_a_long_liked_title_whole():
    from paperatlas.recommend import Pick

    long_title = (
        "Scaling Laws for Mixture-of-Experts Language Models Under Fixed Compute and Data Budgets Revisited"
    )
    pick = Pick(
        "p1",
        0.5,
        "A pick",
        closest=[
            {"id": "a", "title": long_title, "similarity": 0.8},
            {"id": "b", "title": "Short", "similarity": 0.7},
        ],
        terms=["mixture of experts", "scaling"],
    )
    assert pick.reasons == [
        f"Close to “{long_title}” and “Short”, which you liked.",
        "Shares the terms mixture of experts, scaling.",
    ]
    assert pick.to_dict()["reasons"] == pick.reasons


def test_five_likes_use_the_linear_model(atlas):
    liked = _by_topic("proteins")[:5]
    atlas.like(liked)
    picks = atlas.recommend(k=20)
    assert picks.method == "linear SVM" and picks.n_likes == 5
    topics = _topics()
    precision = np.mean([topics[p.paper_id] == "proteins" for p in picks])
    assert precision >= 0.9
    assert not set(liked) & {p.paper_id for p in picks}
    assert all(p.closest[0]["id"] in liked for p in picks)
    scores = [p.score for p in picks]
    assert scores == sorted(scores, reverse=True)


def test_fifty_likes_from_two_topics(atlas):
    liked = _by_topic("graphs")[:25] + _by_topic("unlearning")[:25]
    atlas.like(liked)
    picks = atlas.recommend(k=10)
    topics = _topics()
    assert {topics[p.paper_id] for p in picks} == {"graphs", "unlearning"}
    assert len(picks) == 10 and not set(liked) & {p.paper_id for p in picks}


def test_dislikes_push_their_topic_down(atlas):
    # likes from one topic plus a paper of another; then dislike more of that other topic
    atlas.like(_by_topic("unlearning")[:2] + _by_topic("graphs")[:1])

    def mean_rank(topic):
        picks = atlas.recommend(k=200)
        ranks = [i for i, p in enumerate(picks) if _topics()[p.paper_id] == topic]
        return np.mean(ranks)

    before = mean_rank("graphs")
    atlas.like(_by_topic("graphs")[5:8], value=-1)
    after = mean_rank("graphs")
    assert after > before + 5


def test_filters_narrow_the_candidates(atlas, tmp_path):
    other = tmp_path / "small.jsonl"
    rows = [json.loads(line) for line in CORPUS.read_text().splitlines()]
    keep = [r for r in rows if r["topic"] in ("graphs", "proteins")][::3]
    other.write_text("".join(json.dumps(r) + "\n" for r in keep))
    atlas.add([other], list_name="small", enrich=False)
    atlas.like(_by_topic("proteins")[:2])
    picks = atlas.recommend(k=50, filters=Filters(list_name="small"))
    allowed = {r["id"] for r in keep} - set(_by_topic("proteins")[:2])
    assert picks and {p.paper_id for p in picks} <= allowed


def test_works_without_any_vectors(tmp_path):
    atlas = Atlas(tmp_path / "plain.db")
    atlas.add([CORPUS], enrich=False)
    atlas.like(_by_topic("graphs")[:6])
    picks = atlas.recommend(k=10)
    assert picks.model is None and picks.method == "linear SVM"
    assert all(_topics()[p.paper_id] == "graphs" for p in picks)
    assert picks[0].closest and picks[0].terms


def test_pure_ranking_helpers():
    assert list(rec.top_unseen(np.array([0.1, 0.9, 0.5, 0.7]), [1], 2)) == [3, 2]
    allowed = np.array([True, False, True, True])
    assert list(rec.top_unseen(np.array([0.1, 0.9, 0.5, 0.7]), [], 3, allowed)) == [3, 2, 0]
    assert len(rec.top_unseen(np.array([0.3]), [0], 5)) == 0


def test_cli_like_recommend_and_errors(corpus_db, cli):
    cli.db.write_bytes(corpus_db.read_bytes())
    liked = _by_topic("unlearning")[:2]
    code, _, err = cli("like", *liked, "--into", "mine")
    assert code == 0, err
    assert "liked 2 papers in 'mine'" in err
    code, _, err = cli("like", "zzzz-not-an-id")
    assert code == 2 and "unknown or ambiguous" in err
    assert "Traceback" not in err
    code, out, _ = cli("recommend", "--collection", "mine", "--k", "5", "--json")
    data = json.loads(out)
    assert data["method"] == "centroid similarity" and len(data["picks"]) == 5
    assert all(_topics()[p["paper_id"]] == "unlearning" for p in data["picks"])
    code, out, _ = cli("collections")
    assert "mine" in out
    code, _, err = cli("recommend", "--collection", "empty")
    assert code == 0 and "no liked papers" in err


def test_tfidf_cache_is_reused_and_refreshed_when_papers_change(atlas, tmp_path):
    atlas.like(_by_topic("graphs")[:2])
    first = atlas.recommend(k=5)
    cache = atlas.path.with_name(atlas.path.name + ".tfidf.npz")
    assert cache.exists()
    rec._cache.clear()  # force the disk path
    assert [p.paper_id for p in atlas.recommend(k=5)] == [p.paper_id for p in first]
    # a new paper changes the store: the cached matrix no longer fits and is refit
    new = tmp_path / "new.jsonl"
    new.write_text(
        json.dumps(
            {
                "id": "NEWgraph01",
                "title": "Graph neural networks and message passing expressivity",
                "abstract": "Graph neural networks learn node representations by message passing over "
                "edges. We characterise the expressive power of message passing networks "
                "with the Weisfeiler-Leman test and graph rewiring.",
            }
        )
        + "\n"
    )
    atlas.add([new], enrich=False)
    rec._cache.clear()
    picks = atlas.recommend(k=120)
    assert "NEWgraph01" in [p.paper_id for p in picks]
    assert picks.n_likes == 2


def test_rank_is_pure_and_explains_each_pick():
    texts = (
        ["draft model speculative decoding latency tokens"] * 4
        + ["machine unlearning forget retain privacy"] * 4
        + ["speculative decoding verification draft tokens accept"]
    )
    tfidf, terms = tfidf_matrix(texts)
    emb = rec.normalise_rows(np.array([[1.0, 0.1]] * 4 + [[0.1, 1.0]] * 4 + [[0.9, 0.2]]))
    features = rec.Features(ids=[f"p{i}" for i in range(9)], emb=emb, tfidf=tfidf, terms=terms)
    ids, scores, why = rec.rank(features, liked=[0, 1], disliked=[4], k=3)
    assert ids[0] in {"p2", "p3", "p8"} and "p0" not in ids and "p4" not in ids
    assert scores == sorted(scores, reverse=True) and len(ids) == len(why) == 3
    assert why[0]["closest"][0][0] in {"p0", "p1"} and why[0]["terms"]
    assert set(why[0]["terms"]) <= set(terms)


def test_recommendations_fuse_each_other_model_at_its_modes_weight(atlas):
    from paperatlas.embed import embed_store

    embed_store(atlas.store, model="static")
    liked = _by_topic("speculative")[:5]
    atlas.like(liked)
    picks = atlas.recommend(k=10)
    topics = _topics()
    assert sum(topics[p.paper_id] == "speculative" for p in picks) >= 9
    # from 5 likes: the classifier on static, and each other model (test-lsa reads as
    # MiniLM) ranked apart, by its cosine to the likes' centroid, fused at the weight the
    # tuning users chose, each standardised over every paper
    weight = rec.RECOMMEND_WEIGHTS[rec.CLASSIFIER][rec.MINILM]
    assert weight > 0 and picks.method == rec.CLASSIFIER and picks.model == "static + test-lsa"
    assert "no minilm-int8 vectors" in picks.message and "paperatlas embed" in picks.message
    features = rec.load_features(atlas.store)
    ids, static = atlas.store.vectors.get("static", features.ids)
    _, lsa = atlas.store.vectors.get("test-lsa", features.ids)
    assert list(ids) == features.ids and list(features.side) == ["test-lsa"]
    static, lsa = rec.normalise_rows(static), rec.normalise_rows(lsa)
    assert np.allclose(features.emb, static, atol=1e-6)
    where = features.index()
    rows = [where[pid] for pid in liked]
    svm, _ = rec.rank_linear(features, rows)
    z = lambda v: (v - v.mean()) / v.std()  # noqa: E731
    fused, _ = rec.rank_scores(features, rows)
    assert fused == pytest.approx(z(svm) + weight * z(lsa @ rec._centroid(lsa, rows)), abs=1e-5)
    assert [p.paper_id for p in picks] == [features.ids[i] for i in rec.top_unseen(fused, rows, 10)]
    # below 5 likes the centroid reads static alone: its tuning users lost with any other model
    atlas.unlike(liked[2:])
    few = atlas.recommend(k=10)
    assert few.method == rec.CENTROID and few.model == "static" and few.message == ""
    centroid = rec.rank_centroid(features, rows[:2])
    assert rec.rank_scores(features, rows[:2])[0] == pytest.approx(centroid)
    assert [p.paper_id for p in few] == [features.ids[i] for i in rec.top_unseen(centroid, rows[:2], 10)]
    # weights given to split_models hold in both modes (what a benchmark tries)
    mixed = rec.split_models(
        features.ids,
        {"static": static, "test-lsa": lsa},
        features.tfidf,
        features.terms,
        {"static": 1.0, "test-lsa": 0.5},
    )
    assert mixed.side_weights(2) == mixed.side_weights(5) == {"test-lsa": 0.5}
    # whichever order the blocks come in, the most weighted model is the classifier's
    flipped = rec.split_models(
        features.ids,
        {"test-lsa": lsa, "static": static},
        features.tfidf,
        features.terms,
        {"static": 1.0, "test-lsa": 0.5},
    )
    assert flipped.model == "static + test-lsa" and flipped.side_weights(5) == {"test-lsa": 0.5}
    # an atlas of one model reads it, whatever its weight; a model weighted 0 is not read
    assert rec.recommend_weights(["test-lsa"], rec.CENTROID) == {"test-lsa": 1.0}
    assert rec.recommend_weights(["static", "minilm-int8"], rec.CENTROID) == {
        "static": 1.0,
        "minilm-int8": 0.0,
    }
    assert rec.split_models(features.ids, {"static": static}, None, None, {"static": 0.0}).emb is None
    assert rec.load_features(atlas.store, model="test-lsa").model == "test-lsa"


def test_the_first_recommend_saves_the_words_the_next_reads_instead_of_fitting(
    corpus_db, cli, monkeypatch, tmp_path
):
    from paperatlas.embed import words

    cli.db.write_bytes(corpus_db.read_bytes())
    saved = cli.db.with_name(cli.db.name + ".tfidf.npz")
    code, out, err = cli("embed", "--model", "static")
    assert code == 0, err
    assert not saved.exists()  # embed leaves the words to the first recommendation
    code, _, err = cli("like", *_by_topic("graphs")[:5])
    assert code == 0, err
    rec._cache.clear()
    code, out, err = cli("recommend", "--k", "5", "--json")
    assert code == 0, err
    first = json.loads(out)["picks"]
    assert saved.exists()
    rec._cache.clear()  # a fresh process: nothing in memory

    def no_fit(texts):
        raise AssertionError("refit although the first recommendation saved the matrix")

    monkeypatch.setattr(words, "tfidf_matrix", no_fit)
    code, out, err = cli("recommend", "--k", "5", "--json")
    assert code == 0, err
    picks = json.loads(out)["picks"]
    assert len(picks) == 5 and all(_topics()[p["paper_id"]] == "graphs" for p in picks)
    assert [p["paper_id"] for p in picks] == [p["paper_id"] for p in first]
    assert all(p["terms"] for p in picks)  # explained by the saved vocabulary
    # a paper added later makes the saved matrix stale: the next recommendation refits it
    more = tmp_path / "more.jsonl"
    more.write_text(
        json.dumps({"id": "NEW1", "title": "Graph rewiring", "abstract": "Message passing."}) + "\n"
    )
    code, _, err = cli("add", str(more), "--no-enrich")
    assert code == 0, err
    later = Atlas(cli.db)
    with pytest.raises(AssertionError, match="refit"):
        words.word_matrix(later.store)
    later.close()


def test_design_matrix_is_tfidf_beside_the_embedding_as_the_svm_reads_it():
    from scipy import sparse

    texts = ["graph neural message passing", "", "speculative decoding draft tokens", "graph decoding"]
    tfidf, terms = tfidf_matrix(texts)
    emb = rec.normalise_rows(np.array([[1.0, 0.0, 0.5], [0.2, 0.9, 0.1], [0.0, 1.0, 0.0], [0.5, 0.5, 0.5]]))
    features = rec.Features(ids=["a", "b", "c", "d"], emb=emb, tfidf=tfidf, terms=terms)
    design = rec.design_matrix(features)
    expected = sparse.hstack([tfidf, sparse.csr_matrix(rec.EMBEDDING_WEIGHT * emb)]).toarray()
    assert design.dtype == np.float64 and design.shape == expected.shape
    assert np.allclose(design.toarray(), expected)  # the empty text's row: its embedding alone
