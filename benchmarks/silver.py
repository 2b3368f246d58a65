"""Silver labels for names and kinds, learned cheaply and honestly from real (title, abstract) pairs.

Used by benchmarks/enrich_eval.py (evaluation, held-out papers) and the build scripts of the
shipped name scorer and kind model (fit on the other papers only). The title is the label; the
extractors only ever see the abstract.

Names
  positive  the title is `Name: ...` (or `Name - ...`), Name is shaped like a coinage (one to
            three words with inner capitals, digits, `+` or all capitals) and the abstract
            contains Name as written; or Name is one to four capitalised words (Aladdin,
            Spectrum Tuning) that the abstract writes with the same capitals inside a sentence
            (so "Beyond Accuracy: ..." titles, which the abstract does not echo, stay out).
            Label: Name.
  negative  the title has no `X: ` / `X - ` prefix, no coined token anywhere (inner capitals,
            letters with digits, ALL-CAPS words not in the corpus-wide generic list), and the
            abstract has no "called / named / dubbed / termed" and no coined token or
            acronym that few other papers use (a word such as `CoDeC`, `DM4CT` or `LUS` found
            in fewer than 15 abstracts of the corpus). Label: names nothing.
  Anything else is left out (unknown).

Kinds (main contribution kind from the title alone, first rule that fires)
  benchmark  the title says benchmark / bench / leaderboard / arena / testbed / evaluation suite
  dataset    the title calls the thing a dataset / corpus ("A Dataset for ...", "X: ... Dataset",
             "... Corpus"), not "dataset distillation / usage / shift ..." (and not benchmark)
  theory     a theory-shaped title: "Provable ...", "... Theory of ...", "On the convergence /
             sample complexity / ... of", "... Bounds for ...", "Minimax ..."
  analysis   an unnamed study title: a question ("Do / Can / Why / How ... ?"), "Understanding /
             Rethinking / Revisiting ...", "An Empirical / Systematic Study ...", "A Survey"
  method     `Name: ...` titles whose tail says what the thing does with a method word
             ("... via ...", "... for ..." with a method head noun) and none of the above cues
  Anything else is left out.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.enrich.areas import is_held_out  # noqa: E402
from paperatlas.enrich.text import clean  # noqa: E402

DATA = ROOT / "../shared/data/iclr2026.jsonl.gz"


def load_papers(path: Path = DATA) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# -- names -----------------------------------------------------------------------------------

_PREFIX = re.compile(r"^\s*(.{1,60}?)\s*(?::\s|\s[-–—]\s)")
_CODE_TOKEN = re.compile(r"(?<![\w-])([A-Za-z][\w]*(?:[-+.][\w]+)*\+*)")
_CALLED = re.compile(r"\b(?:called|named|dubbed|termed|coined|which\s+we\s+call)\b", re.I)
_COMMON_WORDS = None


def _coined(token: str) -> bool:
    """Shaped like a coinage: inner capitals (CoDeC, FastGS), letters with digits (DM4CT),
    or a ++ / + suffix."""
    core = token.strip("+")
    if len(core) < 2:
        return False
    if token.endswith("+"):
        return True
    if any(c.isdigit() for c in core) and any(c.isalpha() for c in core):
        return True
    return any(c.isupper() for c in core[1:]) and any(c.islower() for c in core)


def _prefix_is_name(prefix: str) -> bool:
    words = prefix.split()
    if not 1 <= len(words) <= 3:
        return False
    if any(_coined(w) for w in words):
        return True
    return len(words) == 1 and prefix.isupper() and len(prefix) >= 3  # FREAK, HETA


_SMALL_WORDS = frozenset("of for via and with in on to the a an".split())


def _capitalised_phrase(prefix: str) -> bool:
    """One to four words, each capitalised (small connecting words aside)."""
    words = prefix.split()
    return (
        1 <= len(words) <= 4
        and words[0][:1].isupper()
        and all(w[:1].isupper() or w in _SMALL_WORDS for w in words)
    )


def _mid_sentence(name: str, abstract: str) -> bool:
    """The abstract writes the phrase, capitalised as in the title, inside a sentence (a
    capital at a sentence start proves nothing)."""
    for m in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w])", abstract):
        if not re.search(r"(?:^|[.!?:]\s+)$", abstract[: m.start()]):
            return True
    return False


def doc_freq(papers: list[dict]) -> Counter:
    """In how many papers each case-sensitive token occurs (abstracts)."""
    df: Counter = Counter()
    for p in papers:
        df.update(set(_CODE_TOKEN.findall(clean(p["abstract"]))))
    return df


def name_label(p: dict, df: Counter, generic_df: int = 15) -> tuple[str, str | None]:
    """('pos', Name) / ('neg', None) / ('unknown', None) for one paper."""
    title = clean(p.get("title") or "")
    abstract = clean(p["abstract"])
    m = _PREFIX.match(title)
    if m:
        name = m.group(1).strip()
        if _prefix_is_name(name) and re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w])", abstract):
            return "pos", name
        if _capitalised_phrase(name) and _mid_sentence(name, abstract):
            return "pos", name  # Aladdin, Spectrum Tuning, Frozen Policy Iteration
        return "unknown", None
    if _CALLED.search(abstract):
        return "unknown", None
    for tok in _CODE_TOKEN.findall(title):
        if _coined(tok) and df[tok] < generic_df:
            return "unknown", None
        if tok.isupper() and len(tok) >= 3 and df[tok] < generic_df:
            return "unknown", None
    for tok in set(_CODE_TOKEN.findall(abstract)):
        if (_coined(tok) or (tok.isupper() and len(tok) >= 2)) and df[tok] < generic_df:
            return "unknown", None
    return "neg", None


def silver_names(papers: list[dict], df: Counter | None = None) -> list[tuple[dict, str | None]]:
    """[(paper, Name or None)] for every paper with a silver name label."""
    df = doc_freq(papers) if df is None else df
    out = []
    for p in papers:
        label, name = name_label(p, df)
        if label != "unknown":
            out.append((p, name))
    return out


# -- kinds -----------------------------------------------------------------------------------

_BENCH = re.compile(
    r"\b(?:benchmark\w*|\w*bench\b|\w+Bench\w*|leaderboard|arena|testbed|"
    r"evaluation\s+suite|test\s+suite)",
    re.I,
)
# "a ... dataset", "X: ... Dataset", "... Corpus" at the end; not dataset distillation/usage/...
_DATA = re.compile(
    r"(?:\b(?:a|an|the|new)\s+(?:[\w-]+\s+){0,4}(?:dataset|corpus|data\s+set)s?\b|"
    r"\b(?:dataset|corpus|datasets|corpora)\s*$|^[^:]{1,40}:\s+(?:[\w-]+\s+){0,5}"
    r"(?:dataset|corpus)s?\b(?!\s+(?:distillation|condensation|pruning|selection|"
    r"usage|inference|shift|bias|contamination)))",
    re.I,
)
_NOT_DATA = re.compile(
    r"\bdataset\s+(?:distillation|condensation|pruning|selection|usage|"
    r"inference|shift|bias|contamination|attribution)",
    re.I,
)
_THEORY = re.compile(
    r"^(?:provabl[ey]|on\s+the\s+(?:convergence|sample\s+complexity|complexity|expressiv\w+|"
    r"optimality|(?:in)?approximability|identifiability|consistency|hardness|limits?|"
    r"generalization|statistical|theory|minimax|computational|learnability|impossibility|"
    r"stability)|minimax|a\s+theory|towards?\s+a\s+theory|a\s+theoretical)|"
    r"\b(?:theory\s+of|theoretical\s+(?:analysis|framework|understanding|perspective|"
    r"foundations?)|(?:lower|upper|generalization|regret|tight|sharp)\s+bounds?|"
    r"sample\s+complexity|convergence\s+(?:rate|analysis)|"
    r"(?:in)?approximability|impossibility|learnability)\b",
    re.I,
)
_ANALYSIS = re.compile(
    r"^(?:understanding|rethinking|revisiting|towards\s+understanding|on\s+the\s+(?:role|effect|"
    r"impact|importance|limitations?|pitfalls?|nature|emergence))\b|"
    r"\b(?:an?\s+)?(?:empirical|systematic|large-scale|comprehensive)\s+(?:study|analysis|"
    r"investigation|examination)\b|\ba\s+survey\b|\bposition\s*:|\blessons\s+from\b",
    re.I,
)
_QUESTION = re.compile(r"^(?:do|does|can|are|is|why|how|when|what|should|which|where)\b[^:]*\?\s*$", re.I)
_METHOD_TAIL = re.compile(
    r"\b(?:via|with|using|through|for|by|towards?|enabling|boosting|improving|accelerating|"
    r"efficient|scalable|learning|training|framework|method|approach|algorithm|model|agent|"
    r"architecture|network|optimization|generation|decoding|sampling|adaptation|tuning|"
    r"alignment|attention|compression|distillation|policy|planning|reasoning)\b",
    re.I,
)


def kind_label(p: dict) -> str | None:
    title = clean(p.get("title") or "")
    if not title:
        return None
    m = _PREFIX.match(title)
    named = bool(m and (_prefix_is_name(m.group(1)) or _capitalised_phrase(m.group(1))))
    if _BENCH.search(title):
        return "benchmark"
    if _DATA.search(title) and not _NOT_DATA.search(title):
        return "dataset"
    if _THEORY.search(title):
        return "theory"
    if not named and (_ANALYSIS.search(title) or _QUESTION.search(title)):
        return "analysis"
    if (
        named
        and m
        and _METHOD_TAIL.search(title[m.end() :])
        and not re.search(r"\?|\bstudy\b|\banalysis\b|\bunderstanding\b", title, re.I)
    ):
        return "method"
    return None


def silver_kinds(papers: list[dict]) -> list[tuple[dict, str]]:
    out = []
    for p in papers:
        k = kind_label(p)
        if k is not None:
            out.append((p, k))
    return out


def split(rows: list, held_out: bool) -> list:
    return [r for r in rows if is_held_out(r[0]["id"]) == held_out]


if __name__ == "__main__":
    papers = load_papers()
    names = silver_names(papers)
    kinds = silver_kinds(papers)
    for part in (True, False):
        n = split(names, part)
        k = split(kinds, part)
        print(
            "held-out" if part else "fit",
            "names:",
            len(n),
            "pos",
            sum(1 for _, x in n if x),
            "neg",
            sum(1 for _, x in n if not x),
            "| kinds:",
            len(k),
            Counter(x for _, x in k),
        )
