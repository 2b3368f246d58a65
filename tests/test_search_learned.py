"""The learned fusion (search/learned.py) with the shipped weights, the terms a translated
query's snippets mark, and the snippet window on the fixture abstracts."""

import json
from pathlib import Path

import numpy as np

from paperatlas import search as S
from paperatlas.embed.index import ExactIndex
from paperatlas.search import learned as L
from paperatlas.search import snippets as N

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def rankings(**lists) -> S.Rankings:
    r = S.Rankings("en", lists.pop("terms", ["memory", "privacy", "benchmark"]), [], [], "static", [])
    for name, value in lists.items():
        setattr(r, name, value)
    return r


def test_shipped_model_matches_the_features():
    model = L.load_model()
    assert "minilm" in model  # kept: it beat the score fusion in cross-validation
    for variant, spec in model.items():
        want = L.BASE_FEATURES + (L.MINILM_FEATURES if variant == "minilm" else ())
        assert tuple(spec["features"]) == want and len(spec["weights"]) == len(want)
        assert all(np.isfinite(spec["weights"]))


def test_the_query_naming_a_paper_ranks_it_first():
    # "c" is the paper the query names; vectors and MiniLM prefer others
    r = rankings(
        terms=["cimemories"],
        keyword=[("c", 9.0)],
        keyword_ceiling=9.0,
        vector=[("a", 0.6), ("b", 0.5), ("c", 0.2)],
        minilm=[("a", 0.7), ("b", 0.6), ("d", 0.3)],
        named=[("c", 1.0)],
        cosines={"vector": {"d": 0.1}, "minilm": {"c": 0.25}},
    )
    assert L.applies(r)
    ranked = L.learned_ranking(r)
    assert ranked[0][0] == "c"
    assert {pid for pid, _ in ranked} == {"a", "b", "c", "d"}  # only papers with evidence
    assert all(0.0 < s < 1.0 for _, s in ranked)
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    fused, mode = S.fuse_rankings(r)
    assert fused == ranked and mode == "hybrid"  # a query naming a paper: the learned ranking alone


def test_the_learned_ranking_is_blended_with_the_score_fusion(monkeypatch):
    """FUSION["score_blend"]: the learned ranking and the score fusion's, by reciprocal rank."""
    r = rankings(
        terms=["topic"],
        keyword=[("a", 5.0), ("b", 4.0), ("c", 3.0)],
        keyword_ceiling=10.0,
        vector=[("c", 0.6), ("b", 0.5), ("a", 0.1)],
        minilm=[("c", 0.7), ("b", 0.6), ("a", 0.2)],
    )
    monkeypatch.setattr(L, "learned_ranking", lambda r: [("a", 0.9), ("b", 0.8), ("c", 0.7)])
    scored, _ = S.fuse_rankings(r, {"learned": False})
    assert [p for p, _ in scored] != ["a", "b", "c"]  # the two orders differ here
    k, w = S.FUSION["rrf_k"], S.FUSION["score_blend"]
    expect = {p: 1 / (k + i) for i, p in enumerate(["a", "b", "c"], start=1)}
    for i, (p, _) in enumerate(scored, start=1):
        expect[p] += w / (k + i)
    fused, _ = S.fuse_rankings(r)
    assert [p for p, _ in fused] == sorted(expect, key=lambda p: -expect[p])
    assert [p for p, _ in S.fuse_rankings(r, {"score_blend": 0.0})[0]] == ["a", "b", "c"]


def test_a_paper_outside_a_list_is_judged_on_its_real_cosine():
    lists = dict(
        keyword=[("x", 5.0), ("y", 5.0)],
        keyword_ceiling=10.0,
        vector=[("a", 0.5), ("x", 0.3), ("y", 0.3)],
        minilm=[("a", 0.6), ("b", 0.5)],
    )
    near = L.learned_ranking(rankings(**lists, cosines={"minilm": {"x": 0.45, "y": 0.1}}))
    assert [p for p, _ in near].index("x") < [p for p, _ in near].index("y")
    swapped = L.learned_ranking(rankings(**lists, cosines={"minilm": {"x": 0.1, "y": 0.45}}))
    assert [p for p, _ in swapped].index("y") < [p for p, _ in swapped].index("x")


def test_pool_cosines_are_those_of_the_index():
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(6, 8)).astype(np.float32)
    index = ExactIndex([f"p{i}" for i in range(6)], matrix)
    q = rng.normal(size=8).astype(np.float32)
    got = L.pool_cosines(index, q, ["p1", "p4", "missing"])
    want = dict(index.search(q, 6))
    assert set(got) == {"p1", "p4"}
    assert abs(got["p1"] - want["p1"]) < 1e-5 and abs(got["p4"] - want["p4"]) < 1e-5


def test_without_minilm_or_in_another_language_the_score_fusion_ranks():
    r = rankings(keyword=[("x", 5.0)], keyword_ceiling=10.0, vector=[("a", 0.5)])
    assert not L.applies(r)  # the variant without MiniLM did not beat the score fusion
    zh = rankings(keyword=[("x", 5.0)], vector=[("a", 0.5)], minilm=[("a", 0.6)])
    zh.language = "zh"
    assert not L.applies(zh)


def test_a_translated_query_marks_its_best_weighted_terms():
    terms = [f"t{i}" for i in range(14)]
    r = rankings(terms=terms, term_weights={t: (1.0 if i % 2 else 0.5) for i, t in enumerate(terms)})
    shown = r.shown_terms()
    assert len(shown) == S.fusion.SHOWN_TERMS
    assert set(shown) >= {t for i, t in enumerate(terms) if i % 2}  # every weight-1 term
    assert shown == [t for t in terms if t in shown]  # in the query's order
    assert rankings(terms=terms).shown_terms() == terms  # English: all


def _naive_window(text: str, width: int) -> int:
    """The window search as it was (a scan of every window): the oracle."""
    starts = [m.start() for m in N._MARKED.finditer(text)]
    best, best_n = starts[0], 0
    for s in starts:
        n = len({m.lower() for m in N._MARKED.findall(text[s : s + width])})
        if n > best_n:
            best, best_n = s, n
    return best


def test_snippet_window_is_the_one_with_most_distinct_terms():
    checked = 0
    for p in PAPERS:
        words = [w for w in p["abstract"].split() if w.isalpha() and len(w) > 3]
        for picks in (words[::7], words[:3], words[::2]):
            stems = {N.stem(w.lower()): w.lower() for w in picks}
            text = " ".join(N.mark_terms(p["abstract"], stems).split())
            found = [(m.start(), m.end(), m.group(1).lower()) for m in N._MARKED.finditer(text)]
            for width in (40, 120, N.SNIPPET_CHARS):
                if found:
                    assert N._best_window(found, width) == _naive_window(text, width)
                    checked += 1
    assert checked > 100
