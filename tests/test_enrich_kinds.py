"""Kind of contribution from hand-written abstracts."""

import pytest

from paperatlas.enrich.kinds import classify_kind
from paperatlas.enrich.text import clean, sentences


def kind(abstract: str, name=None):
    return classify_kind(sentences(clean(abstract)), name)


@pytest.mark.parametrize("abstract, expected", [
    ("Code agents are judged on toy tasks. We introduce RepoQuest, a benchmark of 300 "
     "repository-level tasks with executable tests. We evaluate 14 frontier models and find "
     "that the best solves only 21% of tasks.", "benchmark"),
    ("Speech corpora for low-resource languages are scarce. We release a dataset of 1,200 "
     "hours of transcribed speech in 40 languages, collected with community partners and "
     "manually annotated.", "dataset"),
    ("Training large models is costly. We propose SlimAdam, a memory-efficient optimizer "
     "that stores second moments in low rank. SlimAdam outperforms AdamW while using 40% "
     "less memory.", "method"),
    ("Do larger language models memorise more? We conduct a large-scale empirical study of "
     "memorisation across 60 checkpoints and find that memorisation grows log-linearly. Our "
     "findings suggest deduplication matters more than scale.", "analysis"),
    ("We prove that gradient descent on two-layer networks learns sparse parities with "
     "sample complexity matching the information-theoretic lower bound. Our analysis "
     "establishes a tight convergence rate and a matching minimax lower bound.", "theory"),
    ("Evaluating image editors is hard. We present EditJudge, an evaluation framework for "
     "assessing instruction following in image editing across 9 edit types.", "benchmark"),
])
def test_main_kind(abstract, expected):
    assert kind(abstract)[0] == expected


def test_secondary_kind_for_benchmark_with_dataset():
    abstract = ("We introduce TideBench, a benchmark for coastal flood forecasting, together with "
                "a new dataset of 5,000 annotated satellite images that we collect and release. "
                "The dataset covers 30 countries. We evaluate 12 models on the benchmark.")
    main, secondary = kind(abstract)
    assert main == "benchmark"
    assert "dataset" in secondary


def test_kinds_are_from_the_fixed_set():
    main, secondary = kind("Short text with nothing in it.")
    assert main in ("method", "benchmark", "dataset", "analysis", "theory")
    assert main not in secondary
