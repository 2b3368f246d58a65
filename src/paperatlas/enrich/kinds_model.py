"""The learned kind model: the abstract's words and the cue rules' scores -> the main kind.

A multinomial logistic regression over (a) word unigrams and bigrams of the abstract, present
or not (a few thousand chosen by chi-squared on the training papers), (b) the five rule scores
of kinds.rule_scores, and (c) whether the paper coins a name. The weights ship as
`kinds-v1.json`, built by `scripts/build_enrich_models.py` (scripts/build_kinds.py) from silver
labels taken from the titles of the non-held-out ICLR 2026 papers (benchmarks/silver.py); the
model only ever sees the abstract. Without the file, kinds.py decides by its rules alone.
"""

from __future__ import annotations

import itertools
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

MODEL_FILE = "kinds-v1.json"
_WORD = re.compile(r"[a-z][a-z0-9-]*[a-z0-9]|[a-z]")


def terms(text: str) -> set[str]:
    """Lower-cased word unigrams and adjacent-word bigrams of the text."""
    ws = _WORD.findall(text.lower())
    out = set(ws)
    out.update(f"{a} {b}" for a, b in itertools.pairwise(ws))
    return out


def dense_features(scores: dict[str, float], name: str | None) -> dict[str, float]:
    # unscaled (a score of 3-6 is a clear cue): under the same regularisation the rule
    # evidence can then outweigh the class priors on short abstracts with few words
    f = {f"rule={k}": min(v, 10.0) for k, v in scores.items()}
    top = max(scores.values()) if scores else 0.0
    f.update({f"rule_top={k}": float(v == top and v > 0) for k, v in scores.items()})
    f["has_name"] = float(bool(name))
    return f


@lru_cache(maxsize=1)
def load_model() -> dict | None:
    path = Path(str(resources.files("paperatlas") / "models")) / MODEL_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def predict(model: dict, text: str, scores: dict[str, float], name: str | None) -> str:
    """The likeliest kind for this abstract."""
    classes = model["classes"]
    z = list(model["bias"])
    vocab = model["terms"]
    for t in terms(text):
        w = vocab.get(t)
        if w is not None:
            for i, v in enumerate(w):
                z[i] += v
    dense = model["dense"]
    for k, v in dense_features(scores, name).items():
        w = dense.get(k)
        if w is not None and v:
            for i, c in enumerate(w):
                z[i] += c * v
    blend = model.get("rule_blend", 0.0)
    if blend:  # a direct share of each kind's rule score (chosen by CV on the training papers)
        for i, c in enumerate(classes):
            z[i] += blend * min(scores.get(c, 0.0), 10.0)
    return classes[max(range(len(classes)), key=z.__getitem__)]
