"""Typo-tolerant search: misspelt words searched as the atlas's nearest title words (and
said so), rare real words left alone, the words as typed on request; a query that names a
paper (arXiv id, DOI, OpenReview id, exact title) puts it first; hostile queries stay fast."""

import json
from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas.search import MAX_TERMS
from paperatlas.search.spelling import MAX_LENGTH, corrections

IDENTIFIED = Path(__file__).parent / "fixtures" / "search" / "identified.bib"


@pytest.fixture(scope="module")
def atlas(embedded_search_atlas):
    return embedded_search_atlas


@pytest.fixture(scope="module")
def identified(tmp_path_factory):
    atlas = Atlas(tmp_path_factory.mktemp("identified") / "atlas.db")
    atlas.add([IDENTIFIED], enrich=False)
    atlas.embed()
    return atlas


@pytest.mark.parametrize(
    ("query", "paper"),
    [
        ("speculatve decodng", "specdec01"),
        ("gausian spalting real time rendering", "gs01"),
        ("confromal predicton distribution shfit", "conformal01"),
        ("halucinations vision languge models", "halluc01"),
    ],
)
def test_misspelt_query_finds_its_paper_and_says_what_it_searched(atlas, query, paper):
    typed = atlas.search(query, k=3, exact=True)
    assert typed.corrected is None
    result = atlas.search(query, k=3)
    assert result.hits[0].id == paper
    assert result.corrected and result.corrected != query
    # the corrected words are what every signal searched: the keyword matches show them
    assert set(result.hits[0].matched_terms) - set(query.split())


def test_corrected_words_are_title_words(atlas):
    assert (
        atlas.search("difusion modles protein backbone", k=1).corrected == "diffusion models protein backbone"
    )


def test_rare_real_word_is_not_corrected(atlas):
    # "autoencoders" is in one paper: a real word of this atlas, not a slip of another
    result = atlas.search("sparse autoencoders", k=3)
    assert result.corrected is None
    assert result.hits[0].id == "sae01"
    # words of one or two papers, each one edit from a title word ("deep", "tree", "find",
    # "with"), are searched as typed
    assert corrections(atlas.store, "keep free wind width") == {}


def test_acronyms_short_and_long_words_left_alone(atlas):
    assert corrections(atlas.store, "grpo moe kv") == {}
    assert corrections(atlas.store, "x" * 200) == {}


@pytest.mark.parametrize(
    ("query", "paper", "how"),
    [
        ("2401.01234", "chen2024lowrank", "arXiv id"),
        ("arXiv:2401.01234v2", "chen2024lowrank", "arXiv id"),
        ("https://arxiv.org/abs/2401.01234v3", "chen2024lowrank", "arXiv id"),
        ("10.1145/3580305.3599999", "rossi2023sheaf", "DOI"),
        ("https://doi.org/10.1145/3580305.3599999", "rossi2023sheaf", "DOI"),
        ("https://openreview.net/forum?id=Xy7Rq2LmNa", "okafor2025reward", "OpenReview id"),
        ("Xy7Rq2LmNa", "okafor2025reward", "OpenReview id"),
        ("okafor2025reward", "okafor2025reward", "id"),
        ("sheaf neural-networks on heterophilic graphs!", "rossi2023sheaf", "title"),
        ("REWARD MODELS THAT KNOW WHEN THEY ARE WRONG", "okafor2025reward", "title"),
    ],
)
def test_a_query_naming_a_paper_opens_it_first(identified, query, paper, how):
    result = identified.search(query, k=3)
    assert result.hits[0].id == paper
    assert (result.identified_by, result.identified) == (how, [paper])


def test_words_of_a_title_or_a_sentence_with_an_id_name_no_paper(identified):
    assert identified.search("sheaf neural networks", k=3).identified_by is None
    assert identified.search("papers citing arXiv:2401.01234 on continual tuning", k=3).identified_by is None


def test_hostile_queries_correct_a_bounded_number_of_words(atlas):
    # ~10k characters of distinct unknown words, some very long: at most MAX_TERMS words
    # are looked at, and words longer than a typed word never are
    words = [f"difusion{i}x" if i % 2 else "modles" + "abcdefgh" * (i % 6) for i in range(900)]
    query = " ".join(words)[:10_000]
    assert len(corrections(atlas.store, query)) <= MAX_TERMS
    assert all(len(w) <= MAX_LENGTH for w in corrections(atlas.store, query))
    result = atlas.search(query, k=5)
    assert result.query == query
    assert atlas.search("x" * 10_000, k=5).corrected is None


def test_cli_says_what_it_searched_and_shows_a_named_paper_first(cli, identified):
    cli.db = identified.store.path
    code, out, _ = cli("search", "sheef neural netwroks heterophilic", "-k", "2")
    assert code == 0
    assert "showing results for “sheaf neural networks heterophilic” (as typed: --exact)" in out
    code, out, _ = cli("search", "sheef neural netwroks heterophilic", "-k", "2", "--exact")
    assert code == 0 and "showing results for" not in out
    code, out, _ = cli("search", "arXiv:2401.01234", "-k", "2")
    assert "the query is the arXiv id of chen2024lowrank: shown first" in out
    assert out.index("chen2024lowrank") < out.index("1-")


def test_a_typo_some_abstract_holds_is_corrected_and_still_matches_itself(tmp_path):
    topics = ["molecules", "traffic", "citations", "proteins", "circuits", "meshes", "social ties"]
    papers = [
        {
            "id": f"g{i:02d}",
            "title": f"Graph learning for {topics[i % len(topics)]} number {i}",
            "abstract": f"A graph model of {topics[i % len(topics)]}, study {i}, with message passing on each graph.",
        }
        for i in range(24)
    ]
    papers.append(
        {
            "id": "typo01",
            "title": "Sparse attention over long documents",
            "abstract": "We build a grpah of sentences and attend along its edges to read long documents.",
        }
    )
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add([path], enrich=False)
    assert corrections(atlas.store, "grpah") == {"grpah": ("graph", True)}
    result = atlas.search("grpah", k=30, method="keyword")
    assert result.corrected == "graph"
    assert "typo01" in [h.id for h in result.hits]  # the word as typed still searched


def test_titles_are_read_only_for_a_rare_or_unknown_word(atlas, monkeypatch):
    from paperatlas.search import titles

    reads = []
    read = titles._read
    monkeypatch.setattr(titles, "_read", lambda store: reads.append(1) or read(store))
    titles._TITLES.clear()  # what earlier tests read: this one counts its own reads
    common = "language models"  # every word in many of the fixture's papers
    assert corrections(atlas.store, common) == {} and reads == []
    assert corrections(atlas.store, "speculatve decodng")  # corrected from the titles' words
    assert reads == [1]
