"""Vectors in the store: computed once per (paper, model), resumable after an interrupt,
recomputed when the text changes; lsa fits on the corpus and embeds queries later."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
import pytest

from paperatlas import embed
from paperatlas.embed import registry
from paperatlas.embed import vectors as embed_vectors
from paperatlas.paper import Paper, paper_id
from paperatlas.store import Store

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


@pytest.fixture()
def store(tmp_path):
    st = Store(tmp_path / "atlas.db")
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    with st.transaction():
        for text in paragraphs:
            if len(text) > 200:
                st.papers.insert({"id": paper_id(Paper(abstract=text)), "abstract": text})
    yield st
    st.close()


class Interrupting:
    """Wraps a real back end; raises KeyboardInterrupt on the n-th batch."""

    def __init__(self, inner, fail_on: int | None):
        self.inner, self.fail_on, self.calls, self.texts = inner, fail_on, 0, 0
        self.name, self.dim = inner.name, inner.dim

    def warm_up(self):
        self.inner.warm_up()

    def embed(self, texts):
        self.calls += 1
        if self.calls == self.fail_on:
            raise KeyboardInterrupt
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.mark.slow  # loads real embedding model weights
def test_interrupted_embedding_resumes_without_redoing_work(store, monkeypatch):
    total = store.papers.count()
    real = embed.get_backend("use-multilingual")
    first = Interrupting(real, fail_on=3)
    monkeypatch.setattr(embed_vectors, "get_backend", lambda name=None, store=None, threads=None: first)
    with pytest.raises(KeyboardInterrupt):
        embed.embed_store(store, model="use-multilingual", batch_size=4)
    assert len(store.vectors.state("use-multilingual")) == 8  # two batches were committed

    second = Interrupting(real, fail_on=None)
    monkeypatch.setattr(embed_vectors, "get_backend", lambda name=None, store=None, threads=None: second)
    result = embed.embed_store(store, model="use-multilingual", batch_size=4)
    assert result["embedded"] == total - 8 and result["skipped"] == 8
    assert second.texts == total - 8  # finished work was not redone
    ids, vectors = store.vectors.get("use-multilingual")
    assert sorted(ids) == sorted(store.papers.ids()) and len(set(ids)) == total
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)

    again = embed.embed_store(store, model="use-multilingual")
    assert again["embedded"] == 0 and again["skipped"] == total


def test_changed_text_is_reembedded(store):
    embed.embed_store(store, model="static")
    pid = store.papers.ids()[0]
    _, before = store.vectors.get("static", [pid])
    with store.transaction():
        store.papers.update(pid, {"title": "Diffusion models for protein design"})
    result = embed.embed_store(store, model="static")
    assert result["embedded"] == 1
    _, after = store.vectors.get("static", [pid])
    assert float(before[0] @ after[0]) < 0.9999


def test_new_model_weights_make_old_vectors_stale(store, monkeypatch):
    first = embed.embed_store(store, model="static")
    assert first["embedded"] == first["total"] > 0
    assert embed.embed_store(store, model="static")["embedded"] == 0
    # an upgraded model file (another fingerprint) must not reuse vectors of the old space
    monkeypatch.setitem(registry._FINGERPRINTS, "static", "rebuilt-model")
    again = embed.embed_store(store, model="static")
    assert again["embedded"] == first["total"] and again["skipped"] == 0


@pytest.mark.slow  # fits a classifier
def test_lsa_fits_on_the_corpus_and_embeds_queries_later(store):
    result = embed.embed_store(store, model="lsa")
    assert result["embedded"] == store.papers.count()
    ids, vectors = store.vectors.get("lsa")
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    store.close()
    reopened = Store(store.path)
    query = embed.embed_query("privacy of memory in large language models", "lsa", store=reopened)
    assert query.shape == (vectors.shape[1],)
    # the fitted model came back from the store: the same text gives the same vector
    text = reopened.papers.get(ids[0])["abstract"]
    np.testing.assert_allclose(embed.embed_query(text, "lsa", store=reopened), vectors[0], atol=1e-5)
    reopened.close()


def test_lsa_without_a_fit_says_what_to_do(tmp_path):
    from paperatlas.errors import PaperatlasError

    empty = Store(tmp_path / "empty.db")
    with pytest.raises(PaperatlasError, match="paperatlas embed --model lsa"):
        embed.embed_query("anything", "lsa", store=empty)
    empty.close()


@pytest.mark.slow  # the default run loads every model search uses
def test_embed_command_reports_and_resumes(store, cli):
    path, total = store.path, store.papers.count()
    store.close()
    code, out, err = cli("embed", "--model", "static", "--db", path, use_db=False)
    assert code == 0, err
    assert out.strip() == f"static: embedded {total}, unchanged 0 of {total} papers"
    # no model named: every model search fuses, the ones done kept, then the Chinese terms
    code, out, err = cli("embed", "--db", path, use_db=False)
    assert code == 0, err
    assert f"static: embedded 0, unchanged {total} of {total}" in out
    for model in ("minilm-int8", "use-multilingual"):
        assert f"{model}: embedded {total}, unchanged 0 of {total}" in out
    assert "Chinese queries:" in out and "English terms of this atlas" in out
    reopened = Store(path, read_only=True)
    assert set(reopened.vectors.models()) == set(embed.SEARCH_MODELS)
    reopened.close()
    code, out, _ = cli("embed", "--db", path, use_db=False)
    assert out.count(f"embedded 0, unchanged {total} of {total}") == len(embed.SEARCH_MODELS)
    code, out, _ = cli("models", use_db=False)
    assert "static (default, search)" in out and "use-multilingual (search)" in out
    assert "minilm-int8 (search)" in out and "lsa (" not in out
    code, _, err = cli("embed", "--model", "nope", "--db", path, use_db=False)
    assert code != 0 and "nope" in err


@pytest.mark.slow  # loads real embedding model weights
def test_search_embedding_interrupted_resumes_at_the_model_it_stopped_in(store, monkeypatch):
    from paperatlas.api import Atlas

    total = store.papers.count()
    real_backend = embed_vectors.get_backend
    failing = Interrupting(real_backend("use-multilingual"), fail_on=1)

    def backend(name=None, store=None, threads=None):
        return failing if name == "use-multilingual" else real_backend(name, store=store, threads=threads)

    monkeypatch.setattr(embed_vectors, "get_backend", backend)
    atlas = Atlas(store.path)
    done = []
    with pytest.raises(KeyboardInterrupt):
        atlas.embed_for_search(on_model=done.append)
    assert [r.model for r in done] == ["static", "minilm-int8"]  # kept as each finished
    assert len(store.vectors.state("minilm-int8")) == total
    assert not store.vectors.state("use-multilingual")

    monkeypatch.setattr(embed_vectors, "get_backend", real_backend)
    again = {r.model: r for r in atlas.embed_for_search(vocabulary=False)}
    assert list(again) == list(embed.SEARCH_MODELS)
    assert again["static"].embedded == again["minilm-int8"].embedded == 0  # not redone
    assert again["use-multilingual"].embedded == total
    atlas.close()


def test_the_search_models_are_the_ones_search_fuses():
    from paperatlas.search.vectors import MINILM_MODEL, MULTILINGUAL_MODEL

    assert embed.SEARCH_MODELS == (embed.DEFAULT_MODEL, MINILM_MODEL, MULTILINGUAL_MODEL)


def test_one_model_choice_rule(store):
    """The model a map or a recommendation uses: the one asked for; else the stored model
    covering most of the papers in question, the default first among equals."""
    assert embed.pick_model(store) is None  # nothing embedded yet
    ids = store.papers.ids()

    def put(model: str, some: list[str]) -> None:
        with store.transaction():
            store.vectors.put(model, some, np.eye(len(some), 4, dtype=np.float32), ["h"] * len(some))

    put("lsa", ids[:3])
    put("static", ids[:2])
    assert embed.pick_model(store) == "lsa"  # covers more
    assert embed.pick_model(store, ids[:2]) == "static"  # equal on these: the default
    assert embed.pick_model(store, ids[2:3]) == "lsa"
    assert embed.pick_model(store, ids, model="minilm") == "minilm"  # asked for


@pytest.mark.slow  # loads the all-MiniLM-L6-v2 weights in two worker processes
def test_worker_processes_embed_like_one_process(store, tmp_path, monkeypatch):
    """A model that runs on cores embeds in one single-threaded worker per core once a
    store is big enough (forced here with PAPERATLAS_WORKERS): every paper gets the vector
    the in-process path gives it, in store order, and a rerun has nothing to do."""
    one = embed.get_backend("minilm-int8", threads=1)
    texts = {p["id"]: embed.embedding_text(p.get("title"), p.get("abstract")) for p in store.papers.iter()}
    monkeypatch.setenv("PAPERATLAS_WORKERS", "2")
    result = embed.embed_store(store, model="minilm-int8", batch_size=3)
    assert result["embedded"] == len(texts) and result["skipped"] == 0
    ids, vectors = store.vectors.get("minilm-int8")
    assert sorted(ids) == sorted(texts)
    # the int8 model quantises each batch with its own scale: compare batch for batch
    order = list(texts)
    expected = {}
    for start in range(0, len(order), 3):
        part = order[start : start + 3]
        expected.update(zip(part, one.embed([texts[i] for i in part])))
    np.testing.assert_allclose(vectors, np.stack([expected[i] for i in ids]), atol=1e-5)
    assert embed.embed_store(store, model="minilm-int8")["embedded"] == 0


def test_static_in_worker_processes_gives_the_same_vectors(store, monkeypatch):
    """The static model embeds in worker processes above TABLE_PARALLEL_FROM papers (forced
    here): every vector bitwise the one the in-process path stores, and the same hashes."""
    monkeypatch.setenv("PAPERATLAS_WORKERS", "1")
    embed.embed_store(store, model="static", batch_size=3)
    ids, one = store.vectors.get("static")
    hashes = store.vectors.state("static")
    monkeypatch.setenv("PAPERATLAS_WORKERS", "2")
    result = embed.embed_store(store, model="static", batch_size=3, force=True)
    assert result["embedded"] == len(ids) > 3
    ids2, two = store.vectors.get("static")
    assert ids2 == ids and np.array_equal(one, two) and store.vectors.state("static") == hashes


def test_worker_count_rule(monkeypatch):
    """Processes for models that run on cores from PARALLEL_FROM papers, for the table-lookup
    model from TABLE_PARALLEL_FROM, and never when the caller sets the threads or the model
    is fit on the store."""
    monkeypatch.delenv("PAPERATLAS_WORKERS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    count = embed_vectors._worker_count
    onnx, static, lsa = (registry.backend_class(m) for m in ("minilm-int8", "static", "lsa"))
    assert count(onnx, embed_vectors.PARALLEL_FROM, None) == 2
    assert count(onnx, embed_vectors.PARALLEL_FROM - 1, None) == 1
    assert count(onnx, 10**6, threads=2) == 1
    assert count(lsa, 10**6, None) == 1
    # the table-lookup model too, from a bigger store (its workers each load the table)
    assert count(static, embed_vectors.TABLE_PARALLEL_FROM, None) == 2
    assert count(static, embed_vectors.TABLE_PARALLEL_FROM - 1, None) == 1
    assert count(static, 10**6, threads=1) == 1
    monkeypatch.setenv("PAPERATLAS_WORKERS", "3")
    assert count(onnx, 5, None) == 3


def test_worker_pool_is_kept_fed_and_gives_the_bar_its_pace(store, monkeypatch):
    """With worker processes, embed hands the pool the next batch as each comes back (2 a
    worker out at a time; a window's last batch no longer holds up the next window) and
    its bar gets the pool's pace: papers computed, when the pool's last batch will be
    back once more than one a worker is, and this process's own seconds."""
    from concurrent.futures import Future

    import paperatlas.workers as workers
    from paperatlas.progress import SilentProgress

    submitted: list[int] = []

    class Pool:  # runs each batch at once, in this process
        def submit(self, fn, *args):
            submitted.append(len(args[-1]))
            future: Future = Future()
            future.set_result(fn(*args))
            return future

    updates: list[tuple[int, dict]] = []

    class Bar(SilentProgress):
        def update(self, task, **fields):
            updates.append((len(submitted), fields))

    monkeypatch.setattr(workers, "process_pool", lambda n: contextlib.nullcontext(Pool()))
    monkeypatch.setattr(embed_vectors, "progress_bar", lambda *a, **k: Bar())
    monkeypatch.setenv("PAPERATLAS_WORKERS", "2")
    result = embed.embed_store(store, model="static", batch_size=2)
    batches = len(submitted)
    assert result["embedded"] == sum(submitted) and batches >= 6
    # four out ahead, then one more as each is handed back
    assert [n for n, _ in updates] == [min(batches, 4 + i) for i in range(batches)]
    assert all({"ready", "held", "own_seconds", "batch"} <= fields.keys() for _, fields in updates)
    assert all(fields["held"] == 4 * 2 and fields["ready"] >= fields["completed"] for _, fields in updates)
    # (this pool's batches are back as soon as they are out: more than one a worker by the
    # first write, all of them by the last)
    assert all("pool_left" in fields for _, fields in updates) and updates[-1][1]["pool_left"] == 0


def test_static_warm_up_builds_what_its_first_batch_would():
    # the batch path's term codes (~2 s) were built by the first batch of 200 texts or
    # more, inside the time the bar paced the whole store by; a short text alone takes
    # the text-by-text path and builds nothing
    backend = registry.backend_class("static").load()
    backend.embed(["one short text"])
    assert backend._codes is None
    backend.warm_up()
    assert backend._codes is not None


def test_embed_in_one_process_starts_the_bar_clock_after_the_models_start_up(store, monkeypatch):
    from paperatlas.progress import SilentProgress

    events: list[str] = []
    real = embed.get_backend("static")

    class Backend:
        name, dim = real.name, real.dim

        def warm_up(self):
            events.append("warm_up")

        def embed(self, texts):
            events.append("embed")
            return real.embed(texts)

    class Bar(SilentProgress):
        def add_task(self, description, **fields):
            events.append("add_task")
            return 0

        def reset(self, task, **fields):
            events.append("reset")

        def update(self, task, **fields):
            events.append("update")

    monkeypatch.setattr(embed_vectors, "get_backend", lambda name=None, store=None, threads=None: Backend())
    monkeypatch.setattr(embed_vectors, "progress_bar", lambda *a, **k: Bar())
    monkeypatch.setenv("PAPERATLAS_WORKERS", "1")
    embed.embed_store(store, model="static", batch_size=4)
    # the bar says "loading the model" during the start-up; its clock starts after it
    assert events[:5] == ["add_task", "warm_up", "reset", "embed", "update"]
    assert events.count("warm_up") == 1 and events.count("reset") == 1
