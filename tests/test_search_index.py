"""Vector indexes: exact search, the usearch ANN graph (recall, incremental updates,
persistence) and the switch between them by store size."""

import itertools
import json

import numpy as np
import pytest

from paperatlas.embed import index as I
from paperatlas.store import Store


def clustered(n, dim, seed, centres=50):
    """Vectors around a few dozen centres, like document embeddings (not uniform noise)."""
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centres, dim)).astype(np.float32)
    x = c[rng.integers(0, centres, n)] + 0.6 * rng.standard_normal((n, dim)).astype(np.float32)
    return x


def brute_force(matrix, q, k):
    m = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    s = m @ (q / np.linalg.norm(q))
    return list(np.argsort(-s)[:k])


def toy_store(path, ids, vectors):
    """A store holding papers `ids`, the first len(vectors) of them with "toy" vectors."""
    store = Store(path)
    with store.transaction():
        for pid in ids:
            store.papers.insert({"id": pid, "abstract": f"abstract of {pid}"})
        store.vectors.put("toy", ids[: len(vectors)], vectors, ["h"] * len(vectors))
    return store


def test_exact_index_matches_brute_force_and_respects_allowed():
    x = clustered(2000, 32, 0)
    ids = [f"p{i}" for i in range(len(x))]
    index = I.ExactIndex(ids, x)
    q = clustered(1, 32, 1)[0]
    got = index.search(q, 10)
    assert [p for p, _ in got] == [ids[i] for i in brute_force(x, q, 10)]
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(got))
    allowed = {f"p{i}" for i in range(0, 2000, 7)}
    sub = index.search(q, 5, allowed)
    assert len(sub) == 5 and all(p in allowed for p, _ in sub)
    assert index.search(q, 5, set()) == []


def test_ann_recall_against_exact():
    both = clustered(10100, 48, 2)
    x, queries = both[:10000], both[10000:]  # queries from the same distribution
    ids = [f"p{i}" for i in range(len(x))]
    ann = I.AnnIndex(48)
    ann.add(ids, x)
    exact = I.ExactIndex(ids, x)
    recall = np.mean(
        [len({p for p, _ in ann.search(q, 10)} & {p for p, _ in exact.search(q, 10)}) / 10 for q in queries]
    )
    assert recall >= 0.95, recall


def test_ann_incremental_add_remove_and_persistence(tmp_path):
    x = clustered(3000, 16, 4)
    ids = [f"p{i}" for i in range(len(x))]
    path = tmp_path / "atlas.db.static.usearch"
    ann = I.AnnIndex(16, path)
    ann.add(ids[:2000], x[:2000], ["h"] * 2000)
    ann.add(ids[2000:], x[2000:], ["h"] * 1000)  # appended, not rebuilt
    assert len(ann) == 3000
    assert ann.search(x[2500], 1)[0][0] == "p2500"
    ann.remove(["p2500"])
    assert all(p != "p2500" for p, _ in ann.search(x[2500], 10))
    ann.save()
    again = I.AnnIndex.load(path, 16)
    assert again is not None and len(again) == 2999
    assert again.search(x[10], 1)[0][0] == "p10"
    assert I.AnnIndex.load(path, 32) is None  # wrong dimension: rebuild, do not misuse
    path.with_name(path.name + ".json").write_text("{broken")
    assert I.AnnIndex.load(path, 16) is None  # damaged sidecar: rebuild


def test_ann_sync_follows_store_state():
    x = clustered(500, 8, 5)
    ids = [f"p{i}" for i in range(500)]
    by_id = dict(zip(ids, x))
    ann = I.AnnIndex(8)
    state = dict.fromkeys(ids[:400], "v1")
    load = lambda want: (list(want), np.stack([by_id[p] for p in want]))  # noqa: E731
    assert ann.sync(state, load) == {"added": 400, "removed": 0}
    state.update(dict.fromkeys(ids[400:], "v1"))  # 100 new papers
    del state["p0"]  # one deleted
    state["p1"] = "v2"  # one re-embedded
    assert ann.sync(state, load) == {"added": 101, "removed": 2}
    assert len(ann) == 499 and "p0" not in ann.ids


def test_open_index_switches_to_ann_and_persists_next_to_store(tmp_path):
    x = clustered(300, 16, 6)
    ids = [f"p{i}" for i in range(300)]
    store = toy_store(tmp_path / "atlas.db", ids, x[:250])
    I.clear_cache()
    assert isinstance(I.open_index(store, "toy"), I.ExactIndex)  # small: exact
    ann = I.open_index(store, "toy", ann_threshold=100)
    assert isinstance(ann, I.AnnIndex) and len(ann) == 250
    path = I.index_path(store.path, "toy")
    assert path.exists() and path.parent == store.path.parent
    # new vectors: the persisted graph is extended, not rebuilt from scratch
    with store.transaction():
        store.vectors.put("toy", ids[250:], x[250:], ["h"] * 50)
    I.clear_cache()
    ann2 = I.open_index(store, "toy", ann_threshold=100)
    assert len(ann2) == 300 and ann2.search(x[299], 1)[0][0] == "p299"
    assert I.open_index(store, "missing-model") is None


def test_a_graph_built_with_other_settings_is_rebuilt(tmp_path, monkeypatch):
    """A saved graph whose build settings (connectivity, expansion_add, dtype) are not this
    version's is not read (nor extended with the new settings): open_index rebuilds it and
    saves the new settings in its sidecar."""
    x = clustered(300, 16, 6)
    ids = [f"p{i}" for i in range(300)]
    store = toy_store(tmp_path / "atlas.db", ids, x)
    path = I.index_path(store.path, "toy")
    old = I.AnnIndex(16, path, connectivity=12, expansion_add=32, dtype="f32")
    old.add(ids, x, ["h"] * 300)
    old.save()
    assert I.AnnIndex.load(path, 16) is None
    assert I.AnnIndex.load(path, 16, settings={"connectivity": 12, "expansion_add": 32, "dtype": "f32"})
    for setting in I.BUILD_SETTINGS:  # each one alone makes a saved graph stale
        wanted = {"connectivity": 12, "expansion_add": 32, "dtype": "f32"}
        wanted[setting] = {"connectivity": 13, "expansion_add": 33, "dtype": "f16"}[setting]
        assert I.AnnIndex.load(path, 16, settings=wanted) is None
    I.clear_cache()
    rebuilt = I.open_index(store, "toy", ann_threshold=100)
    assert isinstance(rebuilt, I.AnnIndex) and len(rebuilt) == 300
    params = json.loads(path.with_name(path.name + ".json").read_text())["params"]
    assert [params[k] for k in I.BUILD_SETTINGS] == [I.CONNECTIVITY, I.EXPANSION_ADD, I.DTYPE]
    assert I.AnnIndex.load(path, 16) is not None


@pytest.mark.parametrize("k", [1, 10, 400])
def test_top_k_order(k):
    s = np.random.default_rng(7).standard_normal(300)
    assert list(I.top_k(s, k)) == list(np.argsort(-s)[:k])


def test_weighted_search_matches_brute_force_in_the_weighted_space(tmp_path, monkeypatch):
    """A model with search weights (`static`'s area block at a reduced share) is searched
    in the re-weighted space by both index kinds, and hands vectors back in its own."""
    x = clustered(400, 16, 8)
    weights = np.ones(16, np.float32)
    weights[12:] = 0.25
    monkeypatch.setattr(I, "retrieval_weights", lambda model: weights)
    ids = [f"p{i}" for i in range(400)]
    store = toy_store(tmp_path / "atlas.db", ids, x)
    q = clustered(1, 16, 9)[0]
    truth = [ids[i] for i in brute_force(x * weights, q * weights, 10)]
    I.clear_cache()
    exact = I.open_index(store, "toy")
    assert [p for p, _ in exact.search(q, 10)] == truth
    assert truth != [ids[i] for i in brute_force(x, q, 10)]  # the weights matter here
    found, vectors = exact.vectors_of(["p3"])
    assert found == ["p3"] and np.allclose(vectors[0], x[3] / np.linalg.norm(x[3]), atol=1e-5)
    I.clear_cache()
    ann = I.open_index(store, "toy", ann_threshold=100)
    assert I.index_path(store.path, "toy", weights).exists()
    assert len({p for p, _ in ann.search(q, 10)} & set(truth)) >= 9
    I.clear_cache()


def test_open_index_in_another_thread_sees_vectors_written_since(tmp_path):
    """Change counters are per connection (one per thread): a fresh thread's numbers can
    equal the first thread's although another process wrote vectors in between."""
    import threading

    path = tmp_path / "atlas.db"
    x = clustered(60, 8, 11)
    ids = [f"p{i}" for i in range(60)]
    writer = toy_store(path, ids, x[:30])
    reader = Store(path)
    I.clear_cache()
    sizes = []

    def look():
        sizes.append(len(I.open_index(reader, "toy")))

    first = threading.Thread(target=look)
    first.start()
    first.join()
    with writer.transaction():  # another connection, as another process would
        writer.vectors.put("toy", ids[30:], x[30:], ["h"] * 30)
    second = threading.Thread(target=look)
    second.start()
    second.join()
    assert sizes == [30, 60]
    I.clear_cache()


@pytest.mark.slow  # loads real embedding model weights
def test_graph_index_then_onnx_model_in_one_process():
    """onnxruntime imported after usearch crashed the process (a segmentation fault): a
    search over a graph index that then embeds a minilm query must live."""
    import subprocess
    import sys

    code = (
        "from paperatlas.embed.index import AnnIndex\n"
        "AnnIndex(8)\n"
        "from paperatlas.embed.minilm_onnx import OnnxMiniLM\n"
        "print(OnnxMiniLM(threads=1).embed(['graph neural networks']).shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "(1, 384)" in done.stdout


def test_a_saved_graph_is_memory_mapped_until_it_changes(tmp_path):
    x = clustered(1200, 16, 8)
    ids = [f"p{i}" for i in range(len(x))]
    path = tmp_path / "atlas.db.toy.usearch"
    ann = I.AnnIndex(16, path)
    ann.add(ids[:1000], x[:1000], ["h"] * 1000)
    ann.save()
    viewed = I.AnnIndex.load(path, 16, view=True)
    loaded = I.AnnIndex.load(path, 16)
    assert viewed is not None and loaded is not None and viewed._viewed and not loaded._viewed
    for q in x[1000:1050]:  # the same graph: the same answers
        assert viewed.search(q, 20) == loaded.search(q, 20)
    assert np.array_equal(viewed.vectors_of(ids[:30])[1], loaded.vectors_of(ids[:30])[1])
    allowed = set(ids[::9])  # a filter scores the allowed vectors read from the graph
    assert viewed.search(x[1001], 10, allowed) == loaded.search(x[1001], 10, allowed)
    viewed.add(ids[1000:], x[1000:], ["h"] * 200)  # a change reads the file first
    viewed.remove(["p3"])
    assert not viewed._viewed and len(viewed) == 1199
    assert viewed.search(x[1100], 1)[0][0] == "p1100"
    viewed.save()
    again = I.AnnIndex.load(path, 16, view=True)
    assert again is not None and len(again) == 1199 and "p3" not in again.ids


def test_open_index_maps_an_unchanged_graph_and_reads_a_changed_one(tmp_path):
    x = clustered(300, 16, 9)
    ids = [f"p{i}" for i in range(300)]
    store = toy_store(tmp_path / "atlas.db", ids, x[:250])
    I.clear_cache()
    I.open_index(store, "toy", ann_threshold=100)  # built and saved
    I.clear_cache()
    ann = I.open_index(store, "toy", ann_threshold=100)
    assert ann._viewed and len(ann) == 250
    with store.transaction():
        store.vectors.put("toy", ids[250:], x[250:], ["h"] * 50)
    I.clear_cache()
    ann = I.open_index(store, "toy", ann_threshold=100)
    assert not ann._viewed and len(ann) == 300 and ann.search(x[299], 1)[0][0] == "p299"


@pytest.mark.parametrize("ids", [["p0", "p1", "p2", "p3"], ["a\nb", "p1", "p2", "p3"], []])
def test_the_sidecar_reads_back_what_was_saved_in_either_format(tmp_path, ids):
    x = clustered(4, 8, 10)[: len(ids)]
    path = tmp_path / "atlas.db.toy.usearch"
    ann = I.AnnIndex(8, path)
    ann.add(ids, x, [f"h{i}" for i in range(len(ids))])
    ann.remove(ids[1:2])  # a hole in the keys
    ann.save()
    again = I.AnnIndex.load(path, 8)
    assert again is not None
    assert again._key_to_id == ann._key_to_id and again._hashes == ann._hashes
    assert again._next_key == ann._next_key


def test_a_sidecar_of_the_first_format_still_loads(tmp_path):
    import json

    x = clustered(3, 8, 11)
    path = tmp_path / "atlas.db.toy.usearch"
    ann = I.AnnIndex(8, path)
    ann.add(["p0", "p1", "p2"], x, ["h0", "h1", "h2"])
    ann.save()
    meta_path = path.with_name(path.name + ".json")
    meta = json.loads(meta_path.read_text())
    first = {k: meta[k] for k in ("dim", "params", "next_key")}
    first["keys"] = {"0": ["p0", "h0"], "1": ["p1", "h1"], "2": ["p2", "h2"]}
    meta_path.write_text(json.dumps(first))
    again = I.AnnIndex.load(path, 8)
    assert again is not None and again._hashes == {"p0": "h0", "p1": "h1", "p2": "h2"}
    assert again.search(x[2], 1)[0][0] == "p2"


def test_graph_queries_explore_at_least_the_minimum_and_the_saved_graph_keeps_its_settings(tmp_path):
    x = clustered(300, 8, 12)
    ids = [f"p{i}" for i in range(300)]
    path = tmp_path / "atlas.db.toy.usearch"
    ann = I.AnnIndex(8, path)
    assert ann._index.expansion_search == I.MIN_SEARCH_EXPANSION > ann._params["expansion_search"]
    ann.add(ids, x, ["h"] * 300)
    ann.save()
    for view in (True, False):
        again = I.AnnIndex.load(path, 8, view=view)
        assert again is not None and again._index.expansion_search == I.MIN_SEARCH_EXPANSION
        assert again._params["expansion_search"] == 96  # what is saved stays the build's
    again.add(["extra"], x[:1], ["h"])  # read whole for a change: the setting holds
    assert again._index.expansion_search == I.MIN_SEARCH_EXPANSION


def test_a_saved_graph_is_trusted_by_its_count_and_a_change_from_another_process_is_seen(
    tmp_path, monkeypatch
):
    """Opening the graph compares the store's count with the sidecar's, not every
    paper's hash; a change written by another connection (add, re-embed, delete) is
    still found and the graph brought in step."""
    x = clustered(320, 8, 3, centres=20)
    ids = [f"p{i}" for i in range(320)]
    store = toy_store(tmp_path / "atlas.db", ids, x[:250])
    I.clear_cache()
    assert len(I.open_index(store, "toy", ann_threshold=100)) == 250  # built, saved with the count
    real_state = type(store.vectors).state
    calls: list[str] = []

    def counted(self, model):
        calls.append(model)
        return real_state(self, model)

    monkeypatch.setattr(type(store.vectors), "state", counted)

    def reopen():
        I.clear_cache()
        fresh = Store(store.path)  # a new process's connection
        return I.open_index(fresh, "toy", ann_threshold=100)

    ann = reopen()
    assert len(ann) == 250 and calls == []  # unchanged: one number compared
    other = Store(store.path)
    with other.transaction():
        other.vectors.put("toy", ids[250:300], x[250:300], ["h"] * 50)  # added
    ann = reopen()
    assert len(ann) == 300 and calls == ["toy"] and ann.search(x[299], 1)[0][0] == "p299"
    assert len(reopen()) == 300 and calls == ["toy"]  # the new count was saved
    with other.transaction():
        other.conn.execute("DELETE FROM papers WHERE id = 'p5'")  # deleted: its vector goes
        other.vectors.put("toy", ["p6"], x[300:301], ["h2"])  # re-embedded
    ann = reopen()
    assert len(ann) == 299 and "p5" not in ann.ids and calls == ["toy", "toy"]
    assert ann.search(x[300], 1)[0][0] == "p6"
    other.close()
