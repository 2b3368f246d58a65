"""The word-deletion step of display titles (enrich/title_trim.py): only filler that a real
title would drop, and never where the phrase would stop reading as one."""

from __future__ import annotations

from paperatlas.enrich import title_trim, titles
from paperatlas.enrich.pipeline import extract_facts


def droppable(text: str) -> list[str]:
    tokens = text.split()
    return [t for i, t in enumerate(tokens) if title_trim.deletable(tokens, i)]


def test_only_leading_articles_fillers_after_them_and_adverbs_may_go():
    assert droppable("A novel framework for graph learning") == ["A", "novel"]
    assert droppable("The scalability of generative adversarial networks") == ["The"]
    # an article inside a clause is grammar; "novel view synthesis" is a term
    assert droppable("Backdoor attacks pose a critical threat to models") == []
    assert droppable("Autoregressive model for object-centric novel view synthesis") == []
    assert droppable("Reward quality depends critically on the data") == ["critically"]
    # beside "and"/"yet", after a comma, before a name, carrying punctuation, or last: never
    assert droppable("A simple yet effective method") == ["A"]
    assert droppable("Fine-tuning methods, especially LoRA") == []
    assert droppable("Spatially informed autoencoders for vision") == []
    assert droppable("A novel, fast method") == ["A"]
    assert droppable("Toward the new") == []


def test_trim_drops_what_the_model_says_real_titles_drop():
    model = titles.load_model()
    assert model is not None
    counts = title_trim.abstract_counts(["We propose a novel framework for graph learning."])

    def trim(body: str) -> str:
        return title_trim.trim(
            body, model.rates, counts, model.trim_weights, model.trim_threshold, titles.DEFAULT_RATE
        )

    assert trim("A novel framework for graph learning") == "Framework for graph learning"
    # the article goes with the filler after it, never alone before it ("a approach")
    assert not trim("An effective approach to graph learning").lower().startswith("an approach")
    assert trim("Graph learning at scale") == "Graph learning at scale"  # nothing droppable
    assert trim("A novel method") == "A novel method"  # it would leave fewer than 3 words


def test_display_title_of_a_named_paper_loses_its_filler():
    abstract = (
        "Graph neural networks struggle with long-range dependencies. We propose GraphHop, a "
        "novel message-passing scheme for long-range graph learning, which routes messages "
        "through learned shortcuts. Experiments on six benchmarks show gains of 4 points."
    )
    shown = extract_facts(None, abstract)["display_title"]
    assert shown.startswith("GraphHop: "), shown
    assert "novel" not in shown.lower() and " a " not in f" {shown.lower()} ", shown
