"""Each embedding back end loads offline (no socket opened), and gives normalised,
deterministic float32 vectors of the promised width on real abstracts."""

from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest

from paperatlas import embed

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
MODELS = ["static", "minilm", "use-multilingual"]


def sample_abstracts() -> list[str]:
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    return [p for p in paragraphs if len(p) > 200]


@pytest.fixture(scope="module")
def no_network():
    """Any attempt to open a connection fails the test that made it."""

    def refuse(self, *args, **kwargs):
        raise AssertionError(f"network access attempted: {args}")

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        mp.setattr(socket, "create_connection", refuse)
        yield


@pytest.fixture(scope="module")
def abstracts():
    texts = sample_abstracts()
    assert len(texts) >= 15
    return texts


@pytest.fixture(scope="module", params=MODELS)
def backend(request, no_network):
    embed._LOADED.pop(request.param, None)  # load it here, under the network ban
    return embed.get_backend(request.param)


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
    assert "en" in backend.languages
    assert backend.max_length is None or backend.max_length >= 128


def test_multilingual_matches_chinese_query(abstracts, no_network):
    use = embed.get_backend("use-multilingual")
    vecs = use.embed(abstracts)
    query = use.embed(["评估大语言模型记忆中隐私信息泄露的基准"])[0]  # privacy leaks from LLM memory
    memory = next(i for i, t in enumerate(abstracts) if "CIMemories" in t)
    assert memory in np.argsort(-(vecs @ query))[:3]


def test_minilm_reads_past_256_tokens(no_network):
    """A long text is chunked, so a change at its end still changes its vector."""
    minilm = embed.get_backend("minilm")
    body = " ".join(["We study optimisation of neural networks with adaptive methods."] * 60)
    a, b = minilm.embed(
        [body + " The experiments use protein folding.", body + " The experiments use stock markets."]
    )
    assert float(a @ b) < 0.99999
    cut = embed.MiniLMBackend.__new__(embed.MiniLMBackend)
    cut.__dict__.update(minilm.__dict__, chunk=False)
    a, b = cut.embed(
        [body + " The experiments use protein folding.", body + " The experiments use stock markets."]
    )
    np.testing.assert_allclose(a, b, atol=1e-6)  # truncation would have ignored the end


def test_unknown_model_is_a_clear_error():
    from paperatlas.errors import PaperatlasError

    with pytest.raises(PaperatlasError, match="unknown embedding model"):
        embed.get_backend("no-such-model")


def test_static_one_text_path_equals_the_batch_path(abstracts):
    """A single text (a search query) skips scikit-learn's transform; it must give the
    vector the batch path gives."""
    static = embed.get_backend("static")
    texts = list(abstracts[:20]) + ["KV cache compression", "Café naïve GRPO, GRPO!", "", "zzzz qqqq"]
    batch = static.embed(texts)
    for text, expected in zip(texts, batch):
        np.testing.assert_allclose(static.embed([text])[0], expected, atol=1e-5)
