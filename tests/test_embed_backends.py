"""Each embedding back end loads offline (no socket opened), and gives normalised,
deterministic float32 vectors of the promised width on real abstracts. `minilm` is tested
on both engines: onnxruntime (the default install) always, torch where its extra is."""

from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest

from paperatlas import embed
from paperatlas.embed.minilm import MiniLM, MiniLMFirst256, torch_installed

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
# every back end a default install offers (lsa is fit per store: tests/test_embed_store.py)
MODELS = ["static", "minilm", "minilm-int8", "use-multilingual"]
TORCH = pytest.param(
    "minilm-torch",
    marks=[
        pytest.mark.slow,
        pytest.mark.skipif(
            not torch_installed(),
            reason="the torch extra (pip install 'paperatlas[torch]') is not installed",
        ),
    ],
)
# static is a small shipped table, loaded in a blink: it keeps the interface checks in the
# fast run; the others load real model weights (marked slow)
BACKEND_PARAMS = [MODELS[0], *(pytest.param(m, marks=pytest.mark.slow) for m in MODELS[1:]), TORCH]


def sample_abstracts() -> list[str]:
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    return [p for p in paragraphs if len(p) > 200]


@pytest.fixture(scope="module")
def abstracts():
    texts = sample_abstracts()
    assert len(texts) >= 15
    return texts


def load(name: str, threads: int | None = None):
    """A fresh instance (loaded here, under the network ban); minilm on a chosen engine."""
    if name == "minilm":
        return MiniLM.load(engine="onnx", threads=threads)
    if name == "minilm-torch":
        return MiniLM.load(engine="torch")
    return embed.backend_class(name).load(threads=threads)


@pytest.fixture(scope="module", params=BACKEND_PARAMS)
def backend(request, no_network):
    return load(request.param)


def test_socket_ban_is_real(no_network):
    with pytest.raises(AssertionError):
        socket.create_connection(("127.0.0.1", 9))


def test_vectors_normalised_and_deterministic(backend, abstracts, no_network):
    first = backend.embed(abstracts)
    again = backend.embed(list(reversed(abstracts)))[::-1]
    assert first.dtype == np.float32
    assert first.shape == (len(abstracts), backend.dim)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-4)
    # same text, same vector, whatever else is in the batch
    np.testing.assert_allclose(first, again, atol=1e-5)
    assert backend.embed([]).shape == (0, backend.dim)


def test_vectors_separate_topics(backend, abstracts):
    """A paper is nearer to a paraphrase of itself than to an unrelated paper."""
    vecs = backend.embed(abstracts)
    sims = vecs @ vecs.T
    np.fill_diagonal(sims, -1)
    assert sims.max() < 0.999  # not collapsed onto one point
    query = backend.embed(
        ["benchmark for whether LLMs leak private information from memory in the wrong context"]
    )[0]
    memory = next(i for i, t in enumerate(abstracts) if "CIMemories" in t)
    assert int(np.argmax(vecs @ query)) == memory


def test_backend_describes_itself(backend):
    assert backend.name in embed.available_backends()
    assert backend.description == embed.available_backends()[backend.name]
    assert "en" in backend.languages
    assert backend.max_length is None or backend.max_length >= 128
    assert isinstance(backend, embed.EmbeddingBackend)
    assert isinstance(backend.fingerprint(), str) and backend.fingerprint()


def test_registry_is_the_one_table():
    """Every registered class implements the interface under its own name; the listed ones
    are what `--model` accepts, the default among them."""
    for name, cls in embed.BACKENDS.items():
        assert issubclass(cls, embed.EmbeddingBackend) and cls.name == name
        assert cls.description
    assert embed.DEFAULT_MODEL in embed.available_backends()
    assert "minilm-first256" in embed.BACKENDS and "minilm-first256" not in embed.available_backends()
    assert embed.retrieval_weights("static") is not None  # the area block weighed down
    assert embed.retrieval_weights("minilm") is None and embed.retrieval_weights("toy") is None


def test_get_backend_shares_instances_by_thread_count():
    assert embed.get_backend("static") is embed.get_backend("static", threads=1)  # no threads used
    one = embed.get_backend("minilm-int8", threads=1)
    assert one is embed.get_backend("minilm-int8", threads=1)
    assert one is not embed.get_backend("minilm-int8")


def test_minilm_engines_fingerprint_apart(monkeypatch):
    """Vectors of one engine are stale for the other (never two spaces under one name)."""
    from paperatlas.embed import minilm

    monkeypatch.setattr(minilm, "default_engine", lambda: "onnx")
    onnx = MiniLM.fingerprint()
    monkeypatch.setattr(minilm, "default_engine", lambda: "torch")
    assert onnx.startswith("onnx-") and MiniLM.fingerprint() != onnx


@pytest.mark.slow  # loads real embedding model weights
def test_multilingual_matches_chinese_query(abstracts, no_network):
    use = embed.get_backend("use-multilingual")
    vecs = use.embed(abstracts)
    query = use.embed(["评估大语言模型记忆中隐私信息泄露的基准"])[0]  # privacy leaks from LLM memory
    memory = next(i for i, t in enumerate(abstracts) if "CIMemories" in t)
    assert memory in np.argsort(-(vecs @ query))[:3]


@pytest.mark.slow  # loads real embedding model weights
@pytest.mark.parametrize("engine", ["onnx", TORCH])
def test_minilm_reads_past_256_tokens(engine, no_network):
    """A long text is chunked, so a change at its end still changes its vector."""
    engine = "torch" if engine == "minilm-torch" else engine
    body = " ".join(["We study optimisation of neural networks with adaptive methods."] * 60)
    texts = [body + " The experiments use protein folding.", body + " The experiments use stock markets."]
    a, b = MiniLM.load(engine=engine).embed(texts)
    assert float(a @ b) < 0.99999
    a, b = MiniLMFirst256.load(engine=engine).embed(texts)
    np.testing.assert_allclose(a, b, atol=1e-6)  # truncation would have ignored the end


@pytest.mark.slow  # loads real embedding model weights
def test_minilm_int8_start_of_a_long_text_is_its_first_window(abstracts, no_network):
    """`embed_start` (a long query answered now) reads one window: a short text's vector
    as `embed` gives it, a long text's that of its first window alone."""
    backend = embed.get_backend("minilm-int8")
    np.testing.assert_allclose(backend.embed_start(abstracts[0]), backend.embed(abstracts[:1])[0], atol=1e-5)
    body = " ".join(["We study optimisation of neural networks with adaptive methods."] * 60)
    a = backend.embed_start(body + " The experiments use protein folding.")
    b = backend.embed_start(body + " The experiments use stock markets.")
    np.testing.assert_allclose(a, b, atol=1e-6)  # the end is past the first window
    assert float(a @ a) == pytest.approx(1.0, abs=1e-5)
    assert float(a @ backend.embed([body])[0]) > 0.9


def test_unknown_model_is_a_clear_error():
    from paperatlas.errors import PaperatlasError

    with pytest.raises(PaperatlasError, match="unknown embedding model"):
        embed.get_backend("no-such-model")


def test_static_one_text_path_equals_the_batch_path(abstracts):
    """A single text (a search query) takes the dense path (no sparse product); it must
    give the vector the batch path gives."""
    static = embed.get_backend("static")
    texts = [*abstracts[:20], "KV cache compression", "Café naïve GRPO, GRPO!", "", "zzzz qqqq"]
    batch = static.embed(texts)
    for text, expected in zip(texts, batch):
        np.testing.assert_allclose(static.embed([text])[0], expected, atol=1e-5)
