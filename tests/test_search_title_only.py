"""Title-only papers (a publication list: titles, no abstracts) beside full papers, with the
default model: found by their titles, and not pushed above full papers that match better."""

from pathlib import Path

import pytest

from paperatlas import Atlas

FIX = Path(__file__).parent / "fixtures" / "ingest" / "titles_only.bib"
SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"


@pytest.fixture(
    scope="module",
    params=[
        "static",
        # what `paperatlas embed` computes: MiniLM and the learned fusion rank too
        pytest.param("search", marks=pytest.mark.slow),
    ],
)
def atlas(tmp_path_factory, request):
    atlas = Atlas(tmp_path_factory.mktemp("title_only_search") / "atlas.db")
    atlas.add([SAMPLE, FIX])
    # title-only papers are embedded from their titles
    if request.param == "static":
        atlas.embed()
    else:
        atlas.embed_for_search(vocabulary=False)
    return atlas


def _title_only(atlas) -> dict[str, str]:
    return {p["id"]: p["title"] for p in atlas.store.papers.iter() if not (p.get("abstract") or "").strip()}


def test_title_only_papers_have_vectors(atlas):
    ids, _ = atlas.store.vectors.get("static")
    assert set(_title_only(atlas)) <= set(ids)


def test_title_only_paper_found_by_its_title_and_by_meaning(atlas):
    titles = _title_only(atlas)
    assert len(titles) >= 3
    for _pid, title in titles.items():
        same = {other for other, t in titles.items() if t == title}  # a workshop twin
        hits = [h.id for h in atlas.search(title, k=len(same) + 1).hits]
        assert set(hits[: len(same)]) == same, title
    # words of its title in another order, and a near-synonym
    hyper = next(pid for pid, t in titles.items() if "Hypergraph" in t)
    assert atlas.search("learned incidence for hypergraphs message passing", k=3).hits[0].id == hyper


def test_full_papers_still_first_for_what_only_their_abstracts_say(atlas):
    """A query a full paper's abstract matches ranks it above every title-only paper,
    even when the query shares a word ("benchmark", "uncertainty") with a short title."""
    titles = _title_only(atlas)
    full = next(p for p in atlas.store.papers.iter() if "CIMemories" in (p.get("abstract") or ""))
    hits = [h.id for h in atlas.search("benchmark of information flow from memory", k=5).hits]
    assert hits[0] == full["id"]
    assert not set(hits[:1]) & set(titles)
