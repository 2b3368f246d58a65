"""search() and similar() on a small real store (tests/fixtures/search/papers.jsonl) with
real vectors of the multilingual model (loaded once for the module): hybrid ranking,
filters, paging, the cross-lingual path, "more like this" and hostile queries."""

import json
from pathlib import Path

import pytest

from paperatlas import search as S
from paperatlas.embed import embed_store, embedding_text
from paperatlas.embed.index import clear_cache
from paperatlas.filters import Filters
from paperatlas.paper import text_hash
from paperatlas.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def build(path: Path, vectors: bool = True) -> Store:
    store = Store(path)
    with store.transaction():
        store.lists.ensure("accepted")
        for n, p in enumerate(PAPERS):
            store.papers.insert(
                {k: p[k] for k in ("id", "title", "abstract", "keywords", "area", "decision")}
            )
            text = embedding_text(p["title"], p["abstract"])
            store.facts.set(p["id"], {"kind": p["kind"], "has_code": p["has_code"]}, text_hash(text), "test")
            if p["decision"].startswith("Accept"):
                store.lists.add_member("accepted", p["id"], n)
    if vectors:
        embed_store(store, model=S.MULTILINGUAL_MODEL)
    clear_cache()
    return store


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return build(tmp_path_factory.mktemp("search") / "atlas.db")


def ids(result):
    return [h.id for h in result.hits]


# -- ranking ---------------------------------------------------------------------------------


def test_exact_term_query_finds_the_paper_first(store):
    r = S.search(store, "GRPO")
    assert r.mode == "hybrid" and r.language == "en"
    assert r.hits[0].id == "grpo01"
    hit = r.hits[0]
    assert hit.matched_terms == ["grpo"] and hit.keyword_rank == 1
    assert hit.semantic_score is not None and "terms: grpo" in hit.why()
    assert any(s["match"] and s["text"] == "GRPO" for s in hit.snippet)


def test_paraphrase_without_shared_words_is_found_by_meaning(store):
    # none of the words of the query is in the abstract's core terms ("unlearning")
    r = S.search(store, "erase what a chatbot memorised about copyrighted passages", k=3)
    assert "unlearn01" in ids(r)


def test_modes_keyword_semantic_hybrid(store):
    kw = S.search(store, "speculative decoding draft model", method="keyword")
    sem = S.search(store, "speculative decoding draft model", method="semantic")
    assert kw.mode == "keyword" and all(h.semantic_score is None for h in kw.hits)
    assert sem.mode == "semantic" and all(h.keyword_rank is None for h in sem.hits)
    assert kw.hits[0].id == sem.hits[0].id == "specdec01"
    # every hybrid candidate comes from one of the two lists
    hy = S.search(store, "speculative decoding draft model", k=50)
    assert set(ids(hy)) <= set(
        ids(S.search(store, "speculative decoding draft model", k=50, method="keyword"))
    ) | set(ids(S.search(store, "speculative decoding draft model", k=50, method="semantic")))


# -- filters and paging ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "filters, check",
    [
        ({"area": "optimization"}, lambda p: p["area"] == "optimization"),
        ({"kind": "benchmark"}, lambda p: p["kind"] == "benchmark"),
        ({"decision": "Accept"}, lambda p: p["decision"].startswith("Accept")),
        ({"has_code": True}, lambda p: p["has_code"]),
        ({"has_code": False}, lambda p: not p["has_code"]),
        ({"list_name": "accepted"}, lambda p: p["decision"].startswith("Accept")),
    ],
)
def test_filters_restrict_hits(store, filters, check):
    by_id = {p["id"]: p for p in PAPERS}
    r = S.search(store, "language models", k=50, filters=Filters(**filters))
    expected = {p["id"] for p in PAPERS if check(p)}
    assert r.hits and {h.id for h in r.hits} <= expected
    assert r.total == len(r.hits) <= len(expected)
    assert all(check(by_id[h.id]) for h in r.hits)


def test_filter_matching_nothing(store):
    r = S.search(store, "language models", filters=Filters(area="no such area"))
    assert r.hits == [] and r.total == 0 and "no paper matches the filters" in r.notes


def test_filter_sees_papers_added_after_it_was_used(tmp_path):
    """The ids a filter allows are kept between searches, but never past a change."""
    store = build(tmp_path / "atlas.db", vectors=False)
    before = S.search(store, "zeolite", method="keyword", filters=Filters(decision="Accept"))
    assert before.hits == []
    with store.transaction():
        store.papers.insert(
            {
                "id": "NEW1",
                "title": "Zeolite catalysts",
                "abstract": "Zeolite catalysts for language models.",
                "decision": "Accept (Poster)",
            }
        )
    after = S.search(store, "zeolite", method="keyword", filters=Filters(decision="Accept"))
    assert [h.id for h in after.hits] == ["NEW1"]
    store.close()


def test_pagination_continues_without_overlap(store):
    full = ids(S.search(store, "language models", k=12))
    page1 = S.search(store, "language models", k=5, offset=0)
    page2 = S.search(store, "language models", k=5, offset=5)
    assert ids(page1) + ids(page2) == full[:10]
    assert [h.rank for h in page2.hits] == [6, 7, 8, 9, 10]
    past = S.search(store, "language models", k=5, offset=10_000)
    assert past.hits == [] and past.total == page1.total
    with pytest.raises(S.SearchError):
        S.search(store, "x", k=0)
    with pytest.raises(S.SearchError):
        S.search(store, "x", offset=-1)


# -- cross-lingual ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, expected",
    [
        ("大语言模型的机器遗忘", "unlearn01"),  # machine unlearning in LLMs
        ("投机解码加速大模型推理", "specdec01"),  # speculative decoding
        ("基于深度学习的天气预报", "weather01"),  # weather forecasting
        ("脉冲神经网络", "spiking01"),  # spiking neural networks
        ("联邦学习", "fed01"),  # federated learning
    ],
)
def test_chinese_query_finds_the_english_paper(store, query, expected):
    r = S.search(store, query, k=3)
    assert r.language == "zh" and r.mode == "cross-lingual" and r.model == S.MULTILINGUAL_MODEL
    assert expected in ids(r)


def test_translate_query_with_the_glossary():
    assert S.translate_query("大语言模型的机器遗忘") == "large language model machine unlearning"
    assert S.translate_query("长上下文推理中的KV缓存压缩").split()[-3:] == ["KV", "cache", "compression"]
    assert S.translate_query("你好世界") is None


def test_chinese_query_with_latin_acronym_uses_both(store):
    r = S.search(store, "长上下文推理中的KV缓存压缩", k=3)
    assert r.hits[0].id == "kv01" and "kv" in r.hits[0].matched_terms


def test_missing_multilingual_vectors_are_explained(tmp_path):
    bare = build(tmp_path / "bare.db", vectors=False)
    r = S.search(bare, "大语言模型的机器遗忘")  # the glossary still gives keyword matches
    assert any("use-multilingual" in n and "embed" in n for n in r.notes)
    assert r.mode == "keyword" and r.hits[0].id == "unlearn01"
    # nothing the glossary knows, and no learned terms (a small atlas would build them on
    # this query: search/translate.query_vocabulary): no results, and why
    unknown = S.search(bare, "你好世界", config=S.SearchConfig(learned=False))
    assert unknown.hits == [] and any("use-multilingual" in n for n in unknown.notes)
    en = S.search(bare, "speculative decoding")
    assert en.mode == "keyword" and en.hits[0].id == "specdec01"
    assert any("paperatlas embed" in n for n in en.notes)


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_an_atlas_without_minilm_vectors_says_how_to_add_them(tmp_path, store):
    """An atlas embedded with one model (`--model`, or an older `embed`) searches without
    the learned fusion's MiniLM list, and says so; `paperatlas embed` computes it."""
    r = S.search(store, "speculative decoding")  # use-multilingual vectors only
    assert r.hits[0].id == "specdec01"
    assert any(S.MINILM_MODEL in n and "paperatlas embed" in n for n in r.notes)
    assert not any(S.MINILM_MODEL in n for n in S.search(store, "大语言模型的机器遗忘").notes)
    full = build(tmp_path / "full.db")
    embed_store(full, model=S.MINILM_MODEL)
    clear_cache()
    done = S.search(full, "speculative decoding")
    assert done.hits[0].id == "specdec01" and not any(S.MINILM_MODEL in n for n in done.notes)


# -- more like this -------------------------------------------------------------------------------


def test_similar_by_id_and_by_text(store):
    r = S.similar(store, paper_id="unlearn01", k=3)
    assert r.mode == "similar" and "unlearn01" not in ids(r)
    everything = ids(S.similar(store, paper_id="unlearn01", k=50))
    assert len(everything) == len(PAPERS) - 1
    assert everything.index("unlearn02") < everything.index("weather01")
    same_text = embedding_text(PAPERS[0]["title"], PAPERS[0]["abstract"])
    assert ids(S.similar(store, text=same_text, k=4))[1:] == ids(r)  # itself first by text
    assert ids(S.similar(store, paper_id="specdec", k=3)) == ids(
        S.similar(store, paper_id="specdec01", k=3)
    )  # a unique prefix is enough
    with pytest.raises(S.SearchError, match="ambiguous"):
        S.similar(store, paper_id="unlearn0")  # two papers share it
    text = (
        "We propose a new method to speed up autoregressive generation: a cheap model "
        "drafts tokens and the large model verifies them in one pass."
    )
    assert S.similar(store, text=text, k=3).hits[0].id == "specdec01"
    assert all(h.id != "xss01" for h in S.similar(store, text=text, k=3, filters=Filters(has_code=True)).hits)
    # a text in another language is read by the multilingual model alone
    chinese = S.similar(
        store,
        text="大语言模型的推测解码：小的草稿模型提出多个词元，目标模型并行验证，生成速度提高三倍。",
        k=3,
    )
    assert chinese.language == "zh" and chinese.model == S.MULTILINGUAL_MODEL
    assert chinese.hits[0].id == "specdec01"


def test_similar_errors(store):
    with pytest.raises(S.SearchError):
        S.similar(store, paper_id="does-not-exist")
    with pytest.raises(S.SearchError):
        S.similar(store, text="   ")
    with pytest.raises(S.SearchError):
        S.similar(store)


# -- hostile input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "NEAR(",
        "'; DROP TABLE papers; --",
        "title:GRPO",
        "a AND OR NOT (",
        "*",
        "^",
        "\x00",
        "🚀🚀",
        "?!.,;",
        "N:M sparsity",
        "x" * 10_000,
        "optimal transport " * 700,  # ~12 KB of text
    ],
)
def test_hostile_queries_return_results_not_errors(store, query):
    r = S.search(store, query)
    assert isinstance(r.hits, list)
    assert store.papers.count() == len(PAPERS)  # nothing dropped


def test_empty_query_is_a_clear_error(store):
    for q in ("", "   ", None):
        with pytest.raises(S.SearchError, match="empty query"):
            S.search(store, q)


def test_snippets_are_plain_text(store):
    r = S.search(store, "script alert markup", k=3)
    hit = next(h for h in r.hits if h.id == "xss01")
    text = "".join(s["text"] for s in hit.snippet)
    assert "<script>alert('x')</script>" in text  # shown as text, never interpreted
    assert text.replace("…", "").strip() in " ".join(PAPERS[20]["abstract"].split())


def test_cli_search_and_similar(store, cli):
    def run(*args):
        return cli(*args, "--db", store.path, use_db=False)

    code, out, err = run("search", "GRPO", "--json", "--k", "2")
    assert code == 0, err
    data = json.loads(out)
    assert data["hits"][0]["id"] == "grpo01" and data["mode"] == "hybrid"
    code, _, err = run("search", "'; DROP TABLE papers; --")
    assert code == 0 and "Traceback" not in err
    code, _, err = run("search", "")
    assert code == 2 and "empty query" in err
    assert "Traceback" not in err
    code, out, err = run("similar", "specdec01", "--k", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["mode"] == "similar"


def test_cross_lingual_feedback_uses_the_english_model(tmp_path):
    # with an English model stored too (lsa: fit on the fixture itself), a Chinese query
    # the glossary translates is searched in the English space; one it cannot translate
    # gets the multilingual vectors plus their feedback in the English space
    both = build(tmp_path / "both.db")
    embed_store(both, model="lsa")
    clear_cache()
    t = S.candidate_rankings(both, "投机解码加速大模型推理")
    assert t.translation and t.translated and not t.feedback
    assert t.translated[0][0] == t.semantic()[0][0] == "specdec01"
    r = S.candidate_rankings(
        both, "投机解码加速大模型推理", config=S.SearchConfig(glossary=False, learned=False)
    )
    assert r.translation is None and not r.translated
    assert r.model == S.MULTILINGUAL_MODEL and r.feedback
    assert r.vector[0][0] == "specdec01"
    fused = [pid for pid, _ in r.semantic()]
    assert fused[0] == "specdec01" and set(fused) == {p for p, _ in r.vector + r.feedback}
    en = S.search(both, "speculative decoding")
    assert en.model == "lsa" and en.hits[0].id == "specdec01"
    assert not S.candidate_rankings(both, "speculative decoding").feedback


@pytest.mark.parametrize("setting", ["feedback_weight", "keyword_wieght"])
def test_a_fusion_setting_search_does_not_have_is_refused(store, setting):
    """A removed or misspelt setting would rank exactly as the default does: refused, so a
    benchmark's variant cannot silently measure the default."""
    with pytest.raises(ValueError, match=setting):
        S.search(store, "speculative decoding", config=S.SearchConfig(fusion={setting: 1.0}))
    assert S.search(store, "speculative decoding", config=S.SearchConfig(fusion={"keyword_weight": 1.0})).hits
