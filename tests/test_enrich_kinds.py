"""Kind of contribution from hand-written abstracts."""

import pytest

from paperatlas.enrich.kinds import classify_kind
from paperatlas.enrich.text import clean, sentences


def kind(abstract: str, name=None):
    return classify_kind(sentences(clean(abstract)), name)


@pytest.mark.parametrize(
    "abstract, expected",
    [
        (
            "Code agents are judged on toy tasks. We introduce RepoQuest, a benchmark of 300 "
            "repository-level tasks with executable tests. We evaluate 14 frontier models and find "
            "that the best solves only 21% of tasks.",
            "benchmark",
        ),
        (
            "Speech corpora for low-resource languages are scarce. We release a dataset of 1,200 "
            "hours of transcribed speech in 40 languages, collected with community partners and "
            "manually annotated.",
            "dataset",
        ),
        (
            "Training large models is costly. We propose SlimAdam, a memory-efficient optimizer "
            "that stores second moments in low rank. SlimAdam outperforms AdamW while using 40% "
            "less memory.",
            "method",
        ),
        (
            "Do larger language models memorise more? We conduct a large-scale empirical study of "
            "memorisation across 60 checkpoints and find that memorisation grows log-linearly. Our "
            "findings suggest deduplication matters more than scale.",
            "analysis",
        ),
        (
            "We prove that gradient descent on two-layer networks learns sparse parities with "
            "sample complexity matching the information-theoretic lower bound. Our analysis "
            "establishes a tight convergence rate and a matching minimax lower bound.",
            "theory",
        ),
        (
            "Evaluating image editors is hard. We present EditJudge, an evaluation framework for "
            "assessing instruction following in image editing across 9 edit types.",
            "benchmark",
        ),
    ],
)
def test_main_kind(abstract, expected):
    assert kind(abstract)[0] == expected


def test_secondary_kind_for_benchmark_with_dataset():
    abstract = (
        "We introduce TideBench, a benchmark for coastal flood forecasting, together with "
        "a new dataset of 5,000 annotated satellite images that we collect and release. "
        "The dataset covers 30 countries. We evaluate 12 models on the benchmark."
    )
    main, secondary = kind(abstract)
    assert main == "benchmark"
    assert "dataset" in secondary


def test_kinds_are_from_the_fixed_set():
    main, secondary = kind("Short text with nothing in it.")
    assert main in ("method", "benchmark", "dataset", "analysis", "theory")
    assert main not in secondary


@pytest.mark.parametrize(
    "abstract, expected",
    [
        (
            "现有评测难以衡量多模态模型的空间推理能力。我们构建了一个新的基准 SpatialEval，包含 5000 个问题。"
            "实验表明最强模型的准确率仅为 45%。",
            "benchmark",
        ),
        (
            "高质量的手语数据十分稀缺。我们发布了一个包含 300 小时视频的手语数据集，并提供人工标注。",
            "dataset",
        ),
        ("我们证明了在一定条件下梯度下降以线性速率收敛，并给出了紧的上界。", "theory"),
        ("我们研究了大语言模型在数学推理中的表现。我们发现其在长链推理中存在系统性错误。", "analysis"),
        ("推理成本很高。我们提出了 FastGS，一种快速训练框架，在多个数据集上优于现有方法。", "method"),
    ],
)
def test_chinese_abstracts_get_a_real_kind(abstract, expected):
    name = "FastGS" if "FastGS" in abstract else None
    assert kind(abstract, name)[0] == expected


@pytest.mark.parametrize(
    "abstract, expected",
    [
        (
            "Retrieval-augmented agents are increasingly deployed for multi-hop question answering, "
            "yet existing evaluations rely on short, single-document questions whose answers leak "
            "into pretraining data. We present ShelfEval, a benchmark of 1,400 multi-hop questions "
            "over a private library of scanned books, each with a verified answer and the evidence "
            "pages needed to reach it. We evaluate 20 frontier models and retrieval pipelines and find "
            "that the best system answers only 38% of the questions, with most failures in the second "
            "retrieval hop. ShelfEval and its leaderboard are publicly available.",
            "benchmark",
        ),
        (
            "Length generalisation remains a puzzle for transformers trained on algorithmic tasks. "
            "We study why transformers fail at length generalisation. Through controlled experiments "
            "on synthetic tasks we find that positional encodings, not depth or width, explain most "
            "failures, and that the failure appears early in training. Our findings suggest that "
            "evaluation protocols should vary positional encodings before attributing failures to "
            "model scale.",
            "analysis",
        ),
        (
            "Estimating the mean of a heavy-tailed distribution under local differential privacy is a "
            "basic problem whose statistical limits are not understood. We establish minimax lower "
            "bounds for this problem that hold for every sequentially interactive protocol, and prove "
            "a matching upper bound, up to logarithmic factors, for a simple truncated estimator. Our "
            "analysis characterises how the optimal rate depends on the privacy level and on the "
            "number of finite moments, and shows a phase transition at the second moment.",
            "theory",
        ),
    ],
)
def test_more_kinds_from_abstract_alone(abstract, expected):
    assert kind(abstract)[0] == expected


def test_the_rule_blend_adds_a_share_of_each_kinds_rule_score():
    from paperatlas.enrich import kinds_model

    model = {
        "classes": ["analysis", "benchmark", "method"],
        "bias": [0.0, 0.0, 0.5],
        "terms": {},
        "dense": {},
    }
    scores = {"analysis": 0.0, "benchmark": 3.0, "method": 0.0, "dataset": 0.0, "theory": 0.0}
    assert kinds_model.predict(model, "we introduce a suite", scores, None) == "method"
    # 0.2 x 3.0 = 0.6 > 0.5: the contribution sentence's kind now wins; scores cap at 10
    assert (
        kinds_model.predict({**model, "rule_blend": 0.2}, "we introduce a suite", scores, None) == "benchmark"
    )
    capped = {**scores, "benchmark": 0.0, "analysis": 100.0}
    with_cap = {**model, "bias": [0.0, 0.0, 2.5], "rule_blend": 0.2}
    assert kinds_model.predict(with_cap, "x", capped, None) == "method"  # 0.2 x 10 < 2.5


def test_a_set_of_metrics_to_re_evaluate_systems_is_an_evaluation_contribution():
    from paperatlas.enrich.kinds import _head_kind

    assert _head_kind("SysEff, a set of new metrics to re-evaluate AI systems by cost") == "benchmark"
    assert _head_kind("a new metric learning loss for retrieval") == "method"


def test_a_survey_is_an_analysis_whatever_it_surveys():
    text = (
        "Video super-resolution restores high-resolution frames from low-resolution videos. Deep "
        "learning has brought rapid progress. In this survey, we give a systematic overview of deep "
        "video super-resolution: we group the existing methods by how they align frames, summarise "
        "the benchmark datasets and evaluation metrics, and compare the reported results of 37 "
        "methods on four benchmarks. Finally, we discuss open problems."
    )
    assert kind(text)[0] == "analysis"
    # a benchmark about literature reviews is not a survey
    bench = (
        "Systematic literature review is slow. We introduce ReviewBench, a benchmark of 500 review "
        "questions, and evaluate 12 LLM agents on it; the best agent answers 41% correctly."
    )
    assert kind(bench)[0] == "benchmark"


def test_the_introducing_verb_after_and_names_the_contribution():
    text = (
        "Associative ability matters for creative models, but its evaluation is ambiguous. To address "
        "this issue, we decompose ambiguity into two types and introduce AssoBench, a benchmark "
        "designed to evaluate associative ability of multimodal models. We then conduct extensive "
        "experiments on 14 MLLMs."
    )
    assert kind(text)[0] == "benchmark"
