"""The shipped research-area classifier: valid ICLR 2026 areas, probabilities that sum to 1,
sensible on clear-cut abstracts, retrainable from a labelled file, clear errors on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from paperatlas.enrich import areas
from paperatlas.errors import InputError, PaperatlasError

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"

RL = (
    "We propose an off-policy actor-critic algorithm for continuous control. The agent learns "
    "a value function and a policy from replayed transitions, and improves sample efficiency "
    "on MuJoCo locomotion benchmarks over SAC and TD3 while keeping reward variance low."
)
THEORY = (
    "We prove a generalization bound for overparameterized two-layer networks trained by "
    "gradient descent. The bound depends on the Rademacher complexity of the function "
    "class and yields sample complexity rates that match the known lower bound."
)


@pytest.fixture(scope="module")
def sample_texts():
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    return [p for p in paragraphs if len(p) > 200]


@pytest.mark.slow  # fits a classifier
def test_every_prediction_is_a_valid_area_with_a_distribution(sample_texts):
    names = areas.area_names()
    assert len(names) == 21
    preds = areas.predict_areas(sample_texts)
    assert len(preds) == len(sample_texts)
    for p in preds:
        assert p["label"] in names
        assert p["top3"][0] == [p["label"], p["prob"]]
        assert len({label for label, _ in p["top3"]}) == 3
        probs = [prob for _, prob in p["top3"]]
        assert probs == sorted(probs, reverse=True) and 0 < probs[0] <= 1
    full = areas.AreaClassifier.load().predict_proba(sample_texts)
    assert full.shape == (len(sample_texts), 21)
    np.testing.assert_allclose(full.sum(axis=1), 1.0, atol=1e-6)
    assert sorted(areas.AreaClassifier.load().classes) == sorted(names)


def test_a_batch_gets_each_texts_own_three_best_areas(sample_texts):
    """Predicted for a whole batch at once, each text's top three are its own row's three
    most likely areas, in order, rounded to 4 places (titles alone too: title-only papers)."""
    texts = [*sample_texts, "Graph neural networks for molecules", "Paper 17", ""]
    model = areas.AreaClassifier.load()
    probs = model.predict_proba(texts)
    for row, pred in zip(probs, areas.predict_areas(texts, model)):
        best = sorted(range(len(row)), key=lambda i: -row[i])[:3]
        assert pred["top3"] == [[model.classes[i], round(float(row[i]), 4)] for i in best]
        assert pred["tie"] is (pred["top3"][0][1] - pred["top3"][1][1] < areas.TIE_MARGIN)


def test_clear_cut_abstracts_land_in_their_area():
    rl, theory = areas.predict_areas([RL, THEORY])
    assert rl["label"] == "reinforcement learning"
    assert "learning theory" in [label for label, _ in theory["top3"]]


def test_any_text_gets_an_answer():
    preds = areas.predict_areas(["", "图神经网络", "x" * 5000])
    assert all(p["label"] in areas.area_names() for p in preds)
    assert areas.predict_areas([]) == []


@pytest.mark.slow  # fits a classifier
def test_retrain_from_a_labelled_file(tmp_path):
    rows = []
    for i in range(12):
        rows.append(
            {
                "id": f"rl{i}",
                "title": f"Agent {i}",
                "primary_area": "reinforcement learning",
                "abstract": RL.replace("MuJoCo", f"MuJoCo task {i}"),
            }
        )
        rows.append(
            {
                "id": f"th{i}",
                "title": f"Bound {i}",
                "primary_area": "learning theory",
                "abstract": THEORY.replace("two-layer", f"{i + 2}-layer"),
            }
        )
    data = tmp_path / "labelled.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    info = areas.train_from_file(data, out=tmp_path / "m.npz", include_held_out=True)
    assert info["papers"] == 24 and info["areas"] == 2
    model = areas.AreaClassifier.load(tmp_path / "m.npz")
    preds = areas.predict_areas([THEORY, RL], model=model)
    assert [p["label"] for p in preds] == ["learning theory", "reinforcement learning"]
    probs = model.predict_proba([THEORY, RL])
    assert probs.shape == (2, 2) and probs[0, 0] > 0.5 and probs[1, 1] > 0.5


def test_bad_training_file_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps({"abstract": RL * 2, "primary_area": "reinforcement learning"}) + "\n{not json\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"bad.jsonl:2"):
        areas.train_from_file(bad, out=tmp_path / "m.npz")
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"abstract": RL, "primary_area": "astrology"}) + "\n")
    with pytest.raises(InputError, match=r"wrong.jsonl:1: primary_area 'astrology'"):
        areas.train_from_file(wrong, out=tmp_path / "m.npz")


def test_held_out_split_is_fixed_and_about_a_fifth():
    ids = [f"paper{i}" for i in range(5000)]
    share = np.mean([areas.is_held_out(i) for i in ids])
    assert 0.18 < share < 0.22
    assert areas.is_held_out("paper7") == areas.is_held_out("paper7")


OPTIM = (
    "We analyse stochastic gradient descent with momentum on smooth nonconvex objectives and "
    "prove convergence to stationary points at an improved rate, with adaptive step sizes "
    "that need no knowledge of the Lipschitz constant of the gradient."
)


@pytest.mark.parametrize("n_areas", [2, 3])
def test_saved_model_is_the_blend_of_the_lexical_models_and_the_static_vector_model(tmp_path, n_areas):
    from scipy.special import softmax
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import ComplementNB

    bases = {"reinforcement learning": RL, "learning theory": THEORY, "optimization": OPTIM}
    texts, labels = [], []
    for area, text in list(bases.items())[:n_areas]:
        words = text.split()
        for i in range(10):  # drop a different word each time: varied, still on topic
            texts.append(" ".join(words[:i] + words[i + 1 :]))
            labels.append(area)
    model = areas.AreaClassifier.fit(texts, labels, temperature=1.3)
    model.save(tmp_path / "m.npz")
    loaded = areas.AreaClassifier.load(tmp_path / "m.npz")

    X = model.vectorizer.transform(texts)
    lr = LogisticRegression(C=areas.C, max_iter=500).fit(X, labels)
    nb = ComplementNB(alpha=areas.NB_ALPHA).fit(X, labels)
    vectors = LogisticRegression(C=areas.STATIC_C, max_iter=1000).fit(model.projection().features(X), labels)
    queries = [RL, THEORY, OPTIM, "gradient bound for the agent"]
    Q = model.vectorizer.transform(queries)
    blend = (
        np.log(lr.predict_proba(Q))
        + areas.NB_WEIGHT * np.log(softmax(Q @ nb.feature_log_prob_.T, axis=1))
        + areas.STATIC_WEIGHT * np.log(vectors.predict_proba(model.projection().features(Q)))
    ) / 1.3
    expected = softmax(blend, axis=1)
    assert list(lr.classes_) == loaded.classes
    np.testing.assert_allclose(loaded.predict_proba(queries), expected, atol=2e-3)


def test_near_tie_is_flagged_and_named_as_both():
    model = areas.AreaClassifier(
        ["a", "b", "c"],
        ["alpha", "beta"],
        np.ones(2),
        np.array([[1.0, 1.0, 0.0], [3.0, 0.0, 0.0]]),
        np.zeros(3),
    )
    tie, clear = areas.predict_areas(["alpha", "beta"], model=model)
    assert tie["tie"] and abs(tie["top3"][0][1] - tie["top3"][1][1]) < areas.TIE_MARGIN
    assert areas.area_label(tie) in ("a or b", "b or a")
    assert not clear["tie"] and areas.area_label(clear) == "a" == clear["label"]
    assert areas.top3_text(clear).startswith("a ") and areas.top3_text(clear).count("%") == 3
    assert areas.area_label(None) == "" and areas.top3_text(None) == ""


def test_fit_temperature_recovers_the_temperature_that_generated_the_labels():
    rng = np.random.default_rng(0)
    scores = rng.normal(0, 3, size=(4000, 5))
    true_t = 2.5  # labels drawn from softmax(scores / 2.5): scores are overconfident
    p = np.exp(scores / true_t)
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(5, p=row) for row in p])
    assert abs(areas.fit_temperature(scores, y) - true_t) < 0.25
    assert abs(areas.fit_temperature(scores * 2, y) - 2 * true_t) < 0.5


def test_training_texts_give_every_abstract_alone_and_with_its_title():
    rows = [
        {"id": "1", "title": "Agent", "abstract": RL, "primary_area": "reinforcement learning"},
        {"id": "2", "title": None, "abstract": THEORY, "primary_area": "learning theory"},
    ]
    texts, labels = areas.training_texts(rows)
    assert RL in texts and any(t.startswith("Agent") and RL in t for t in texts)
    assert texts.count(THEORY) == 1
    assert labels.count("reinforcement learning") == (2 if areas.TITLE_COPY else 1)


def test_isotonic_recalibration_keeps_the_order_and_sums_to_one(tmp_path):
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.full(6, 0.3), size=3000)
    y = probs.argmax(axis=1)
    wrong = rng.random(3000) < 0.5  # half the top-1s are wrong: they were over-confident
    y[wrong] = (y[wrong] + 1) % 6
    cal = areas.fit_isotonic(probs, y)
    fixed = areas.recalibrate(probs, cal)
    np.testing.assert_allclose(fixed.sum(axis=1), 1.0, atol=1e-9)
    assert (fixed.argmax(axis=1) == probs.argmax(axis=1)).all()
    top = fixed.max(axis=1)
    assert abs(top.mean() - (fixed.argmax(axis=1) == y).mean()) < 0.02  # now honest on average
    assert top.mean() < probs.max(axis=1).mean() - 0.05
    model = areas.AreaClassifier(
        ["a", "b"],
        ["alpha"],
        np.ones(1),
        np.array([[4.0, 0.0]]),
        np.zeros(2),
        (np.array([0.5, 1.0]), np.array([0.5, 0.7])),
    )
    model.save(tmp_path / "c.npz")
    loaded = areas.AreaClassifier.load(tmp_path / "c.npz")
    p = loaded.predict_proba(["alpha"])[0]
    assert p[0] == max(p) and abs(p[0] - np.interp(1 / (1 + np.exp(-4)), [0.5, 1], [0.5, 0.7])) < 1e-3


@pytest.mark.slow  # fits a classifier
def test_static_vectors_read_off_the_area_tfidf_are_the_static_models_own():
    from paperatlas.embed.normalise import normalise_rows
    from paperatlas.embed.static import StaticBackend

    texts = [RL, THEORY, OPTIM, "zzzz qqqq"]
    model = areas.AreaClassifier.load()
    features = model.projection().features(model.vectorizer.transform(texts))
    static = StaticBackend.load()
    raw = static.vectorizer.transform(texts) @ static.table  # meaning and topics: the first 256
    own = np.hstack([normalise_rows(raw[:, :128]), normalise_rows(raw[:, 128:256])]) / np.sqrt(2)
    np.testing.assert_allclose(features, own, atol=1e-5)
    rl, theory, optim, nothing = features
    assert rl.shape == (256,) and abs(np.linalg.norm(rl) - 1) < 1e-5
    assert abs(np.linalg.norm(rl[:128]) - np.linalg.norm(rl[128:])) < 1e-5  # blocks weigh alike
    assert not nothing.any()
    assert theory @ optim > theory @ rl  # a bound and a convergence proof sit closer than control


def test_a_model_fit_on_other_static_vectors_is_refused(tmp_path):
    with np.load(areas._models_dir() / areas.MODEL_FILE) as z:
        parts = dict(z)
    parts["static_model"] = np.asarray("not-this-one")
    np.savez(tmp_path / "stale.npz", **parts)
    with pytest.raises(PaperatlasError, match="another static embedding"):
        areas.AreaClassifier.load(tmp_path / "stale.npz")


def test_transform_is_scikit_learns_matrix_entry_for_entry(sample_texts):
    """Prediction reads TF-IDF rows without scikit-learn (TermWeights): the same matrix,
    indices and float32 values equal, as the vectorizer the model was fit with gives."""
    model = areas.AreaClassifier.load()
    texts = [
        *sample_texts,
        RL,
        THEORY,
        "",
        "the of and",  # stopwords only: an empty row
        "Naïve café — Ünïcödé ﬁne-tuning of LLMs, LLMs and LLMs (Ｆｕｌｌｗｉｄｔｈ)",
        "图神经网络 graph neural networks 图神经网络",
    ]
    ours, theirs = model.transform(texts), model.vectorizer.transform(texts)
    assert type(ours) is type(theirs) and ours.shape == theirs.shape
    assert ours.data.dtype == theirs.data.dtype == np.float32
    np.testing.assert_array_equal(ours.indptr, theirs.indptr)
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    np.testing.assert_array_equal(ours.data, theirs.data)
    assert ours[len(sample_texts) + 3].nnz == 0 and ours[0].nnz > 50


@pytest.mark.slow  # a fresh interpreter, to see what an import loads
def test_prediction_does_not_import_scikit_learn():
    """scikit-learn's import (scipy.stats with it) was ~2 s of every enrich run's start."""
    import subprocess
    import sys

    code = (
        "import sys; from paperatlas.enrich.areas import predict_areas; "
        "predict_areas(['We prove a bound for two-layer networks.']); "
        "print('sklearn' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
