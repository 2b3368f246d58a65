"""extract_facts schema and enrich_store over a real store: skip, force, resume, areas."""

from pathlib import Path

import pytest

from paperatlas.enrich import pipeline
from paperatlas.enrich.pipeline import enrich_store, extract_facts
from paperatlas.filters import Filters
from paperatlas.store import Store

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
KEYS = {
    "name",
    "names",
    "kind",
    "kinds",
    "numbers",
    "links",
    "has_code",
    "gist",
    "display_title",
    "keyphrases",
}


def sample_abstracts():
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return paragraphs[1:]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "atlas.db")
    with s.transaction():
        for i, abstract in enumerate(sample_abstracts()):
            s.papers.insert({"id": f"p{i:02d}", "abstract": abstract})
    yield s
    s.close()


@pytest.fixture
def no_areas(monkeypatch):
    monkeypatch.setattr(pipeline, "_area_predictor", lambda: None)


def test_facts_follow_the_documented_schema():
    for abstract in sample_abstracts():
        facts = extract_facts(None, abstract)
        assert set(facts) == KEYS
        assert facts["name"] is None or facts["name"] == facts["names"][0]
        assert facts["kind"] in ("method", "benchmark", "dataset", "analysis", "theory")
        assert all(set(n) >= {"text", "value", "unit", "what"} for n in facts["numbers"])
        assert all(link["type"] in ("code", "data", "project", "paper") for link in facts["links"])
        assert facts["has_code"] == any(link["type"] == "code" for link in facts["links"])
        assert len(facts["gist"].split()) <= 40
        assert len(facts["display_title"]) <= 110
        assert 5 <= len(facts["keyphrases"]) <= 8


def test_sample_list_facts_on_real_abstracts():
    facts = [extract_facts(None, a) for a in sample_abstracts()]
    first = facts[0]
    assert first["name"] == "CIMemories" and first["kind"] == "benchmark"
    assert first["display_title"].startswith(("CIMemories: A benchmark", "CIMemories: Benchmark"))
    dm4ct = next(f for f in facts if f["name"] == "DM4CT")
    assert {link["url"] for link in dm4ct["links"]} == {
        "zenodo.org/records/15420527",
        "github.com/DM4CT/DM4CT",
    }
    assert dm4ct["has_code"]


def test_enrich_store_stores_skips_and_forces(store, no_areas):
    counts = enrich_store(store)
    assert counts["total"] == counts["enriched"] == len(sample_abstracts())
    assert store.facts.get("p00")["name"] == "CIMemories"
    assert [p["id"] for p in store.papers.iter(filters=Filters(kind="benchmark"))][:1] == ["p00"]
    assert {p["id"] for p in store.papers.iter(filters=Filters(has_code=True))} >= {"p06"}
    again = enrich_store(store)
    assert again["enriched"] == 0 and again["skipped"] == counts["total"]
    forced = enrich_store(store, force=True)
    assert forced["enriched"] == counts["total"]


def test_changed_text_is_redone(store, no_areas):
    enrich_store(store)
    with store.transaction():
        store.papers.update("p01", {"abstract": "We present GlowNet, a network for glow removal."})
    counts = enrich_store(store)
    assert counts["enriched"] == 1
    assert store.facts.get("p01")["name"] == "GlowNet"


def test_the_lists_code_links_are_links_of_the_paper():
    abstract = "We propose a sparse attention kernel that halves decoding latency on long prompts."
    facts = extract_facts(
        "Sparse decoding", abstract, ["https://github.com/someone/sparse-decode", "https://sparse.github.io/"]
    )
    assert facts["has_code"] is True
    assert [(link["type"], link["url"]) for link in facts["links"]] == [
        ("code", "https://github.com/someone/sparse-decode"),
        ("project", "https://sparse.github.io/"),
    ]
    # a project page alone is not code; a link the abstract already gives is listed once
    assert extract_facts(None, abstract, ["https://sparse.github.io/"])["has_code"] is False
    written = abstract + " Code: https://github.com/someone/sparse-decode."
    assert len(extract_facts(None, written, ["https://github.com/someone/sparse-decode/"])["links"]) == 1


def test_code_links_added_later_redo_the_facts(store, no_areas):
    enrich_store(store)
    assert not store.facts.get("p02")["has_code"]
    with store.transaction():
        store.papers.update("p02", {"code_urls": ["https://gitlab.com/lab/tool"]})
    assert store.facts.pending(pipeline.EXTRACTOR_VERSION) == 1
    counts = enrich_store(store)
    assert counts["enriched"] == 1 and counts["with_code"] == 1
    assert "p02" in {p["id"] for p in store.papers.iter(filters=Filters(has_code=True))}


def test_interrupt_keeps_finished_batches(store, no_areas, monkeypatch):
    monkeypatch.setattr(pipeline, "BATCH", 5)
    real = pipeline.extract_facts
    calls = {"n": 0}

    def flaky(title, abstract, code_urls=()):
        calls["n"] += 1
        if calls["n"] == 8:
            raise KeyboardInterrupt
        return real(title, abstract, code_urls)

    monkeypatch.setattr(pipeline, "extract_facts", flaky)
    with pytest.raises(KeyboardInterrupt):
        enrich_store(store)
    assert len(store.facts.state()) == 5  # the first batch was committed
    monkeypatch.setattr(pipeline, "extract_facts", real)
    counts = enrich_store(store)
    assert counts["skipped"] == 5 and counts["enriched"] == len(sample_abstracts()) - 5


def test_predicted_area_is_stored_when_the_classifier_exists(store, monkeypatch):
    seen = []

    def fake_predict(texts):
        seen.extend(texts)
        return [{"label": "optimization", "prob": 0.9, "top3": [["optimization", 0.9]]} for _ in texts]

    monkeypatch.setattr(pipeline, "_area_predictor", lambda: fake_predict)
    enrich_store(store)
    assert len(seen) == len(sample_abstracts()) + 1  # every paper, plus one probe that loads the model
    assert store.facts.get("p03")["predicted_area"]["label"] == "optimization"
    assert [p["predicted_area"] for p in store.papers.iter(ids=["p03"])] == ["optimization"]


def test_worker_processes_give_the_same_facts(store, no_areas, tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "BATCH", 7)
    enrich_store(store, workers=2)
    parallel = {pid: store.facts.get(pid) for pid in store.papers.ids()}
    enrich_store(store, force=True, workers=1)
    serial = {pid: store.facts.get(pid) for pid in store.papers.ids()}
    assert parallel == serial and len(serial) == len(sample_abstracts())


def test_render_facts_reads_like_a_card_and_escapes_markup():
    from rich.console import Console

    from paperatlas.cli.understand import render_facts

    facts = extract_facts(None, sample_abstracts()[6])  # DM4CT: benchmark with links
    facts["gist"] = "[bold]not markup[/bold] " + facts["gist"]
    console = Console(record=True, width=200)
    console.print(render_facts(facts))
    out = console.export_text()
    assert "DM4CT" in out and "benchmark" in out
    assert "code" in out and "github.com/DM4CT/DM4CT" in out
    assert "[bold]not markup[/bold]" in out


def test_missing_area_model_does_not_block_facts(store, monkeypatch):
    from paperatlas.errors import PaperatlasError

    def untrained(texts):
        raise PaperatlasError("area model missing; train it first")

    monkeypatch.setattr(pipeline, "_area_predictor", lambda: untrained)
    counts = enrich_store(store)
    assert counts["enriched"] == len(sample_abstracts())
    assert "area model missing" in counts["area_problem"]
    assert "predicted_area" not in store.facts.get("p00")
    again = enrich_store(store)  # nothing to redo while the model is still missing
    assert again["enriched"] == 0


def test_batches_come_back_in_order_with_the_pool_kept_fed():
    """workers.InOrder, as enrich runs it: each batch's facts beside it, in store order,
    with `ahead` batches submitted whenever one is handed back (the workers never wait
    on the driver), and each result's return told to `on_back`."""
    from concurrent.futures import Future

    from paperatlas.workers import InOrder

    submitted: list[int] = []

    class Pool:
        def submit(self, fn, *args):
            submitted.append(len(args[-1]))
            future: Future = Future()
            future.set_result(fn(*args))
            return future

    abstracts = sample_abstracts()[:5]
    batches = [[(f"p{i}", None, a, [], "h")] for i, a in enumerate(abstracts)]
    seen_when_handed: list[int] = []
    out = []
    back: list[tuple[float, float, float | None, float]] = []
    in_order = InOrder(Pool(), pipeline._facts_for, batches, pipeline._texts_of, 3, lambda *b: back.append(b))
    for batch, facts in in_order:
        seen_when_handed.append(len(submitted))
        out.append((batch[0][0], facts[0]["name"]))
    assert [pid for pid, _ in out] == [f"p{i}" for i in range(5)]
    assert [name for _, name in out] == [extract_facts(None, a)["name"] for a in abstracts]
    assert seen_when_handed == [3, 4, 5, 5, 5]  # three ahead, then one more per batch back
    assert len(back) == 5 and all(share > 0 and seconds > 0 for _, share, _, seconds in back)
