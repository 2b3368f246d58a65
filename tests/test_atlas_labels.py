"""Topic labels: phrases people wrote, composed into headings a person would write."""

from __future__ import annotations

from paperatlas.atlas.labels import PaperText, label_clusters, phrase_key


def _papers(spec: list[tuple[int, list[str], str]]) -> tuple[list[PaperText], list[int]]:
    papers, labels = [], []
    for topic, keywords, title in spec:
        papers.append(PaperText(title=title, abstract=title, keywords=keywords))
        labels.append(topic)
    return papers, labels


def test_phrase_keys_merge_spellings():
    assert phrase_key("Large Language Models") == phrase_key("LLMs") == phrase_key("LLM")
    assert phrase_key("graph neural networks") == phrase_key("GNNs")
    assert phrase_key("  Machine   Unlearning ") == "machine unlearning"
    assert phrase_key("diffusion models") == phrase_key("Diffusion Model")


def test_method_plus_model_family_reads_naturally():
    unlearning = [
        (0, ["machine unlearning", "large language models"], f"Forgetting data {i}") for i in range(8)
    ]
    protein = [(1, ["protein design", "diffusion models"], f"Designing proteins {i}") for i in range(8)]
    other = [(2, ["time series forecasting"], f"Forecasting {i}") for i in range(8)]
    # the family "LLMs" also appears elsewhere, so it is not distinctive alone
    other += [(2, ["large language models", "time series forecasting"], "LLM forecasting")]
    papers, labels = _papers(unlearning + protein + other)
    topics = label_clusters(papers, labels, 3)
    assert topics[0].label == "Machine unlearning for LLMs"
    assert topics[1].label == "Protein design for diffusion models"
    assert topics[2].label.startswith("Time series forecasting")


def test_single_word_heads_become_adjective_phrases():
    papers, labels = _papers(
        [(0, ["quantization", "LLMs"], f"Quantizing weights {i}") for i in range(6)]
        + [(1, ["reinforcement learning"], f"Agents {i}") for i in range(6)]
    )
    topics = label_clusters(papers, labels, 2)
    assert topics[0].label == "LLM quantization"


def test_labels_are_distinct_and_skip_vague_words():
    papers, labels = _papers(
        [(0, ["neural", "federated learning"], f"Clients {i}") for i in range(6)]
        + [
            (1, ["neural", "federated learning", "differential privacy"], f"Private clients {i}")
            for i in range(6)
        ]
    )
    topics = label_clusters(papers, labels, 2)
    assert topics[0].label != topics[1].label
    assert all(t.label.lower() != "neural" for t in topics)
    assert "federated learning" in topics[0].label.lower()


def test_bare_abstracts_fall_back_to_repeated_phrases():
    abstracts = [
        "We study catastrophic forgetting in continual learning of vision transformers.",
        "Catastrophic forgetting limits continual learning when tasks arrive in sequence.",
        "A replay buffer reduces catastrophic forgetting for continual learning agents.",
        "Sparse attention makes long context language modelling cheaper at inference.",
        "Long context inference with sparse attention keeps accuracy at lower cost.",
        "We compress the KV cache so sparse attention scales to long context inputs.",
    ]
    papers = [PaperText(abstract=a) for a in abstracts]
    topics = label_clusters(papers, [0, 0, 0, 1, 1, 1], 2)
    assert (
        "catastrophic forgetting" in topics[0].label.lower()
        or "continual learning" in topics[0].label.lower()
    )
    assert "sparse attention" in topics[1].label.lower() or "long context" in topics[1].label.lower()


def test_markup_never_becomes_a_label():
    papers, labels = _papers([(0, ["<script>x</script>", "<b>bold</b>"], "<script>") for _ in range(4)])
    topics = label_clusters(papers, labels, 1)
    assert "<" not in topics[0].label and ">" not in topics[0].label
