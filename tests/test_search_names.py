"""A paper's own name, or a word only it holds, finds it first (issue 18 item 0): in the
library, the CLI and the web app, on the bundled sample list with the default model."""

import json
from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas import search as S
from paperatlas.search.vectors import embed_query

SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"

NEW_PAPER = (
    "We study how quickly small recurrent controllers adapt when the reward changes "
    "during training. Our analysis covers the zorblaxian regime, where the learning rate "
    "exceeds the curvature of the loss, and shows that adaptation then slows down sharply. "
    "Experiments on standard control tasks confirm the predicted slowdown."
)


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    atlas = Atlas(tmp_path_factory.mktemp("names") / "atlas.db")
    atlas.add([SAMPLE], list_name="sample")  # enrich runs: facts carry each paper's name
    atlas.embed()  # default model
    return atlas


def _paper_with(atlas, word: str) -> str:
    ids = [p["id"] for p in atlas.store.papers.iter() if word in (p.get("abstract") or "")]
    assert len(ids) == 1, ids
    return ids[0]


def test_sample_list_name_is_first(atlas):
    target = _paper_with(atlas, "CIMemories")
    result = atlas.search("CIMemories", k=5)
    assert result.hits[0].id == target
    assert "cimemories" in result.hits[0].matched_terms


def test_every_named_sample_paper_is_found_by_its_name(atlas):
    named = [(pid, name) for pid, name in atlas.store.facts.paper_names()]
    heads = {}
    for pid, name in named:
        heads.setdefault(name.lower(), set()).add(pid)
    unique = [(pid, name) for pid, name in named if len(heads[name.lower()]) == 1]
    assert len(unique) >= 8  # the sample list names most of its papers
    for pid, name in unique:
        assert atlas.search(name, k=3).hits[0].id == pid, name
        # typed in another case too
        assert atlas.search(name.lower(), k=3).hits[0].id == pid, name


def test_name_inside_a_longer_query(atlas):
    target = _paper_with(atlas, "CIMemories")
    hits = atlas.search("CIMemories privacy of memory", k=5).hits
    assert hits[0].id == target


def test_a_single_keyword_hit_is_not_scored_zero(atlas):
    """Without any name facts: a word only one paper holds lifts it above the papers that
    merely sit near the query by meaning (the fused score of a lone keyword hit used to
    be 0 under min-max scaling)."""
    target = _paper_with(atlas, "CIMemories")
    # "learning" is in most papers: dropped from the keyword terms (one keyword hit), but
    # known to the model (a vector ranking to fuse with)
    query = "CIMemories learning"
    r = S.candidate_rankings(atlas.store, query)
    r.named = []
    assert [pid for pid, _ in r.keyword] == [target] and r.vector
    ranked, mode = S.fuse_rankings(r)
    assert mode == "hybrid" and ranked[0][0] == target
    # the old scaling (min-max per list) ranked it below papers that only matched by meaning
    before = {"learned": False, "keyword_scale": "minmax", "name_weight": 0.0}
    r = S.candidate_rankings(atlas.store, query, config=S.SearchConfig(fusion=before))
    old, _ = S.fuse_rankings(r, before)
    assert old[0][0] != target


def test_fresh_paper_found_by_its_unique_word(atlas, tmp_path):
    extra = tmp_path / "new.txt"
    extra.write_text(NEW_PAPER + "\n", encoding="utf-8")
    atlas.add([extra], list_name="new", enrich=False)
    atlas.embed()
    target = _paper_with(atlas, "zorblaxian")
    assert atlas.search("zorblaxian", k=3).hits[0].id == target
    assert atlas.search("zorblaxian regime adaptation", k=3).hits[0].id == target


def test_cli_and_web_rank_the_name_first(atlas, cli):
    target = _paper_with(atlas, "CIMemories")
    db = str(atlas.store.path)
    code, out, err = cli("search", "CIMemories", "--json", "--k", "3", "--db", db, use_db=False)
    assert code == 0, err
    assert json.loads(out)["hits"][0]["id"] == target

    from fastapi.testclient import TestClient

    from paperatlas.web.app import create_app

    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        got = client.get("/api/search", params={"q": "CIMemories", "k": 3})
        assert got.status_code == 200
        assert got.json()["hits"][0]["id"] == target


def test_unknown_word_lists_only_papers_that_match_it(atlas, tmp_path):
    """QA: `search "SpecMoE"` listed, after the one paper holding the word, papers with no
    matched term and "meaning: 0.00" (the model knows no word of the query, so its vector
    is zero and every cosine 0). Only papers that match something are hits."""
    extra = tmp_path / "quendril.txt"
    extra.write_text(
        "We present Quendrilax, a scheduler for mixture-of-experts inference that predicts "
        "which experts the next tokens will need and loads them ahead of time, cutting "
        "latency on memory-bound accelerators.\n",
        encoding="utf-8",
    )
    atlas.add([extra], list_name="quendril", enrich=False)
    atlas.embed()
    target = _paper_with(atlas, "Quendrilax")
    # the precondition of the bug: the default model has no vector for the word
    from paperatlas.embed import DEFAULT_MODEL

    assert not embed_query(atlas.store, DEFAULT_MODEL, "Quendrilax").any()
    result = atlas.search("Quendrilax", k=5)
    assert [h.id for h in result.hits] == [target]
    assert result.total == 1
    for hit in atlas.search("Quendrilax", k=5, method="semantic").hits:
        assert hit.semantic_score and hit.semantic_score > 0  # (none: nothing is known)
    # a query the model knows still mixes meaning in, and every hit says why it matched
    hits = atlas.search("Quendrilax expert scheduling latency", k=10).hits
    assert hits[0].id == target
    assert len(hits) == 10
    for hit in hits:
        assert hit.matched_terms or (hit.semantic_score or 0) > 0, hit.why()
