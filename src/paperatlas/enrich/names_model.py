"""The learned name scorer: which candidate (if any) is the name a paper introduces.

names.py's cue rules propose candidates; this module turns each candidate name (all its
sightings merged) into a feature vector — which cues saw it, its shape, how often the abstract
repeats it, where it first appears, and how widely the word is spread across other papers —
and a logistic regression gives the probability that it is the paper's headline name. A paper
gets a name only when its best candidate clears THRESHOLD: an invented name is worse than none.

Generic acronyms (CE, NN, LR, FWI) are told apart from coinages by their document frequency:
`term-df-v1.tsv` counts, for every token with a capital or a digit, how many training
abstracts use it (a coinage is used by its own paper; a term by many unrelated ones).

Both files are built by `scripts/build_enrich_models.py` from the ICLR 2026 papers that
`areas.is_held_out` keeps out, with silver labels from their titles (benchmarks/silver.py).
Without the files, names.py falls back to its hand weights.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path

MODEL_FILE = "names-v1.json"
DF_FILE = "term-df-v1.tsv"
DF_MIN = 2  # tokens used by fewer training papers are not shipped (df 0 or 1 reads as 0)


def _models_dir() -> Path:
    return Path(str(resources.files("paperatlas") / "models"))


@lru_cache(maxsize=1)
def term_df() -> dict[str, int]:
    """{token: number of training abstracts using it} for tokens with a capital or digit."""
    path = _models_dir() / DF_FILE
    if not path.exists():
        return {}
    out = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            tok, _, n = line.rstrip("\n").partition("\t")
            if n:
                out[tok] = int(n)
    return out


@lru_cache(maxsize=1)
def load_model() -> dict | None:
    path = _models_dir() / MODEL_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


# A hyphenated word whose lower-case tail attaches to this many different heads in the spread
# table (LLM-based, GPT-style, token-level, context-aware, training-free) is a descriptive
# compound, not a coined name. At 8 the tails are: based, level, aware, style, driven, guided,
# bit, parameter, step, free (and like, wise, only at 7-8); "bench" (2) and "mini" (7) stay.
DESCRIPTIVE_TAIL_HEADS = 8


@lru_cache(maxsize=1)
def descriptive_tails() -> frozenset[str]:
    """Lower-case tails (`-based`, `-aware`) that many different tokens of the table share."""
    heads: dict[str, int] = {}
    for tok in term_df():
        head, dash, tail = tok.rpartition("-")
        if dash and head and len(tail) >= 3 and tail.isalpha() and tail.islower():
            heads[tail] = heads.get(tail, 0) + 1
    return frozenset(t for t, n in heads.items() if n >= DESCRIPTIVE_TAIL_HEADS)


def is_descriptive_compound(token: str) -> bool:
    """RLHF-aligned, LLM-based, CLIP-style: a word with a participle (-ed) or a common
    descriptive tail, not a coinage. No silver name has an -ed tail."""
    head, dash, tail = token.rpartition("-")
    if not dash or not head or len(tail) < 3 or not tail.isalpha() or not tail.islower():
        return False
    return tail.endswith("ed") or tail in descriptive_tails()


# A short all-caps token (LR, CE, NN, FWI; plural LLMs -> LLM) used by at least this many
# training papers is a term of the field, not a paper's name. At 8, 7 of the ~6,700 silver
# names of the whole corpus would be lost (UQ, NLI, GQA, ...), while 303 acronyms of <= 3
# letters in the table count as terms.
GENERIC_ACRONYM_DF = 8


def is_generic_acronym(token: str) -> bool:
    core = token[:-1] if len(token) > 2 and token.endswith("s") and token[:-1].isupper() else token
    if len(core) > 3 or not core.isupper() or not core.isalpha():
        return False
    return term_df().get(core, 0) >= GENERIC_ACRONYM_DF


def features(
    name: str,
    cues: set[str],
    best_weight: float,
    position: int,
    plain: str,
    earliest: bool,
    top_by_weight: bool,
    n_names: int,
    df: int,
) -> dict[str, float]:
    """The feature vector of one candidate name (sparse: absent features are 0)."""
    f: dict[str, float] = {f"cue={c}": 1.0 for c in cues}
    f["best_weight"] = best_weight / 5.0
    f["n_cues"] = min(len(cues), 4) / 4.0
    mentions = plain.count(name) if name else 0
    f["mentions"] = math.log1p(mentions)
    f["position"] = position / max(1, len(plain))
    f["earliest"] = float(earliest)
    f["top_by_weight"] = float(top_by_weight)
    f["n_names"] = math.log1p(n_names)
    letters = [c for c in name if c.isalpha()]
    f["multiword"] = float(" " in name)
    f["has_digit"] = float(any(c.isdigit() for c in name))
    f["all_caps"] = float(bool(letters) and all(c.isupper() for c in letters))
    f["mixed_case"] = float(any(c.isupper() for c in name[1:]) and any(c.islower() for c in name))
    f["hyphen"] = float("-" in name)
    f["short"] = float(len(name) <= 3)
    f["lower_start"] = float(name[:1].islower())
    f["plural_acronym"] = float(len(name) > 2 and name.endswith("s") and name[:-1].isupper())
    f["log_df"] = math.log1p(df)
    f["df_ge_5"] = float(df >= 5)
    f["df_ge_20"] = float(df >= 20)
    return f


def score(model: dict, feats: dict[str, float]) -> float:
    """Probability that these features belong to the paper's headline name."""
    w = model["weights"]
    z = model["bias"] + sum(v * w.get(k, 0.0) for k, v in feats.items())
    return 1.0 / (1.0 + math.exp(-z))
