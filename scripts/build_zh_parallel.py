"""Build models/zh-parallel-v1.tsv: English words of the field and the Chinese words that
translations of the field's documentation put beside them, from open parallel text.

    .venv/bin/python scripts/build_zh_parallel.py --git huggingface/course=DIR \
        --git tensorflow/docs=DIR ... [--pairs-cache PAIRS.json]

Each --git names a git directory (a clone or a bare mirror) of a repository in `SOURCES`; the
files are read with `git show` at the commit named there, so the table is rebuilt from the
same bytes (the shipped table was built on 2026-12-07 from the commits in `SOURCES`).
`PAIRINGS` says which documents face which. Sources, chosen by licence (each allows
redistribution) before looking at what they hold, documents of the field written in English
and translated into simplified Chinese:

- The Hugging Face course (github.com/huggingface/course), Apache License 2.0:
  `chapters/en/X.mdx` beside `chapters/zh-CN/X.mdx`; likewise its agents course
  (huggingface/agents-course, `units/`) and the documentation of diffusers and smolagents
  (huggingface/diffusers, huggingface/smolagents, `docs/source/en` beside `docs/source/zh`),
  all Apache License 2.0.
- TensorFlow's guides and tutorials (github.com/tensorflow/docs, `site/en/X`) beside their
  community translations (github.com/tensorflow/docs-l10n, `site/zh-cn/X`), both Apache
  License 2.0; Markdown pages and the Markdown cells of notebooks.
- The Prompt Engineering Guide (github.com/dair-ai/Prompt-Engineering-Guide), MIT License:
  `pages/X.en.mdx` beside `pages/X.zh.mdx`.

How: each document is cut into blocks (headings, paragraphs, list items, table rows; code,
markup and links' targets left out) in order; the English and Chinese blocks of a document
are aligned in order (a monotone alignment maximising the multilingual model's cosine
between the blocks, use-multilingual, each pair above `MIN_BLOCK_COSINE`: a translation
that skips or adds a block is not forced into step). Over the aligned pairs, each English
word (lower case, stopwords left out) and each Chinese word (jieba's search segmentation,
which gives a compound and its words: 异构图 -> 异构, 图; and every run of `RUN_CHARACTERS`
characters, for a term jieba lacks: 智能体) are counted, and a word's
candidates are the Chinese words most associated with it by the Dice coefficient, each
co-occurring at least `MIN_PAIRS` times and passing a log-likelihood test (`MIN_G2`).
Each candidate is written with the model's cosine to the English word and its cosine with
the field (the mean vector of the glossary's Chinese terms), as the lexicon is.

A word the translators leave in English is counted too: the share of the aligned pairs
whose English writes the word in lower case (a name such as "AWS Neuron" is not the common
word) whose Chinese block also holds it (inline code left out on both sides; at least
`MIN_KEPT_PAIRS` such pairs), and the spelling the Chinese blocks use most ("tokenizer").
English words are read as `zh_terms` reads a term: a hyphenated compound is one word
("high-level" -> 高级, while "high" alone is 高).
A pair repeated word for word (boilerplate such as a notebook's "Download notebook") counts
once. `--pairs-cache` keeps the aligned pairs (text, for the rebuild only: not shipped), so
the counts can be rebuilt without aligning again.

Only counts and word pairs are kept, no text. Line format (after the # header):
word<TAB>pairs<TAB>kept share<TAB>kept spelling<TAB>chinese dice cosine field<TAB>...
(kept spelling "-" when the Chinese never holds the word).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.search import zh_parallel  # noqa: E402
from paperatlas.search.glossary import terms as glossary_terms  # noqa: E402
from paperatlas.text import STOPWORDS  # noqa: E402

OUT = ROOT / "src/paperatlas/models" / zh_parallel.PARALLEL_FILE


@dataclass(frozen=True)
class Source:
    name: str
    repo: str  # owner/name on GitHub
    commit: str
    licence: str


@dataclass(frozen=True)
class Pairing:
    """Documents of `english` under `en_prefix` (names ending `en_suffix`) beside the same
    names under `zh_prefix` (ending `zh_suffix`) in `chinese`."""

    english: str  # a key of SOURCES
    en_prefix: str
    chinese: str
    zh_prefix: str
    en_suffix: str = ""
    zh_suffix: str = ""


SOURCES = {
    "course": Source(
        "the Hugging Face course",
        "huggingface/course",
        "16af5667532d6966f0fe83f44cc848dd7698a215",
        "Apache-2.0",
    ),
    "agents-course": Source(
        "the Hugging Face agents course",
        "huggingface/agents-course",
        "8c0832eae634ebb34541c65265caa6da4c5d2c57",
        "Apache-2.0",
    ),
    "diffusers": Source(
        "the diffusers documentation",
        "huggingface/diffusers",
        "58eb52c0803ea9af3abec60841c2a093bdf1f951",
        "Apache-2.0",
    ),
    "smolagents": Source(
        "the smolagents documentation",
        "huggingface/smolagents",
        "e3a5b8994b301983b91c0325546e9dc82eab8cf0",
        "Apache-2.0",
    ),
    "tf-docs": Source(
        "TensorFlow docs (English)",
        "tensorflow/docs",
        "7c3650212740204359d4ceae481abc79345541be",
        "Apache-2.0",
    ),
    "tf-l10n": Source(
        "TensorFlow docs, community translations",
        "tensorflow/docs-l10n",
        "7cb584af651df3863a3bebc93674163f8dc6db7b",
        "Apache-2.0",
    ),
    "prompt-guide": Source(
        "the Prompt Engineering Guide",
        "dair-ai/Prompt-Engineering-Guide",
        "3d96678f28793e6f23ac6c0127799489f2c9022b",
        "MIT",
    ),
}
PAIRINGS = (
    Pairing("course", "chapters/en/", "course", "chapters/zh-CN/"),
    Pairing("agents-course", "units/en/", "agents-course", "units/zh-CN/"),
    Pairing("diffusers", "docs/source/en/", "diffusers", "docs/source/zh/"),
    Pairing("smolagents", "docs/source/en/", "smolagents", "docs/source/zh/"),
    Pairing("tf-docs", "site/en/", "tf-l10n", "site/zh-cn/"),
    Pairing("prompt-guide", "pages/", "prompt-guide", "pages/", ".en.mdx", ".zh.mdx"),
)
DOCUMENT_ENDINGS = (".md", ".mdx", ".ipynb")
MIN_BLOCK_COSINE = 0.45  # aligned blocks less alike than this are not a translation pair
MIN_PAIRS = 3  # aligned pairs an English and a Chinese word must share
MIN_G2 = 10.83  # log-likelihood ratio of their co-occurrence (p < 0.001)
CANDIDATES = 6  # Chinese words written per English word, best Dice first
RUN_CHARACTERS = (2, 3)  # lengths of the character runs counted beside jieba's words
MIN_ENGLISH_PAIRS = 3  # pairs an English word must be in to be written
MIN_KEPT_PAIRS = 5  # pairs writing a word in lower case before its kept share is counted

_CJK = re.compile("[\u3400-\u9fff]")
_CJK_WORD = re.compile("^[\u3400-\u9fff]+$")
_ENGLISH_WORD = re.compile(
    r"[A-Za-z]+(?:-[A-Za-z]+)*"
)  # a hyphenated compound is one word, as zh_terms reads it
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _git(git_dir: Path, commit: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True, check=True
    ).stdout


def _files(git_dir: Path, commit: str, under: str) -> list[str]:
    return _git(git_dir, commit, "ls-tree", "-r", "--name-only", commit, under).splitlines()


def _read(git_dir: Path, commit: str, path: str) -> str:
    return _git(git_dir, commit, "show", f"{commit}:{path}")


def _inline(text: str) -> str:
    """A block's text: links' and images' targets, inline code, HTML and emphasis left out."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[\[[^\]]*\]\]", " ", text)  # the course's heading anchors
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"[*_#>|]+", " ", text)
    return " ".join(text.split())


def blocks(markdown: str) -> list[str]:
    """A Markdown document's prose blocks in order: headings, paragraphs, list items and table
    rows; code fences, front matter and components left out."""
    lines = markdown.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), 0)
        lines = lines[end + 1 :]
    out: list[str] = []
    current: list[str] = []
    fenced = False

    def close() -> None:
        text = _inline(" ".join(current))
        if text:
            out.append(text)
        current.clear()

    for line in lines:
        if _FENCE.match(line):
            close()
            fenced = not fenced
            continue
        if fenced:
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped.startswith("|") or _LIST_ITEM.match(line):
            close()
        if stripped:
            current.append(_LIST_ITEM.sub("", line))
        if stripped.startswith("#") or stripped.startswith("|"):
            close()
    close()
    return out


def notebook_markdown(text: str) -> str:
    cells = json.loads(text).get("cells", [])
    return "\n\n".join(
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in cells
        if c.get("cell_type") == "markdown"
    )


def document(git_dir: Path, commit: str, path: str) -> list[str]:
    text = _read(git_dir, commit, path)
    return blocks(notebook_markdown(text) if path.endswith(".ipynb") else text)


def documents(git_dirs: dict[str, Path]) -> list[tuple[str, list[str], list[str]]]:
    """(name, English blocks, Chinese blocks) of every document both sides of a pairing hold."""
    out = []
    for pairing in PAIRINGS:
        english, chinese = SOURCES[pairing.english], SOURCES[pairing.chinese]
        en_git, zh_git = git_dirs[english.repo], git_dirs[chinese.repo]
        translated = set(_files(zh_git, chinese.commit, pairing.zh_prefix))
        for path in _files(en_git, english.commit, pairing.en_prefix):
            if not path.endswith(pairing.en_suffix) or not path.endswith(DOCUMENT_ENDINGS):
                continue
            name = path.removeprefix(pairing.en_prefix).removesuffix(pairing.en_suffix)
            zh_path = pairing.zh_prefix + name + pairing.zh_suffix
            if zh_path in translated:
                out.append(
                    (
                        f"{pairing.english}/{name}",
                        document(en_git, english.commit, path),
                        document(zh_git, chinese.commit, zh_path),
                    )
                )
    return out


def align(similarity: np.ndarray) -> list[tuple[int, int]]:
    """The monotone one-to-one alignment of English and Chinese blocks with the largest sum
    of (cosine - MIN_BLOCK_COSINE) over its pairs; blocks either side may be left out."""
    n, m = similarity.shape
    gain = similarity - MIN_BLOCK_COSINE
    best = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best[i, j] = max(best[i - 1, j], best[i, j - 1], best[i - 1, j - 1] + gain[i - 1, j - 1])
    pairs = []
    i, j = n, m
    while i and j:
        if gain[i - 1, j - 1] > 0 and best[i, j] == best[i - 1, j - 1] + gain[i - 1, j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif best[i, j] == best[i - 1, j]:
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


def english_words(text: str) -> set[str]:
    return {w for w in (t.lower() for t in _ENGLISH_WORD.findall(text)) if len(w) > 1} - STOPWORDS


def chinese_words(text: str) -> set[str]:
    """A block's Chinese words (jieba's search segmentation) and its runs of RUN_CHARACTERS
    characters, which find a term jieba lacks (智能体, where jieba cuts 智能 and 体)."""
    import jieba

    runs = re.findall("[\u3400-\u9fff]+", text)
    words = {w for run in runs for w in jieba.cut_for_search(run) if _CJK_WORD.match(w)}
    return words | {run[i : i + n] for run in runs for n in RUN_CHARACTERS for i in range(len(run) - n + 1)}


def g2(both: float, english: float, chinese: float, total: float) -> float:
    """Dunning's log-likelihood ratio of a 2x2 table of co-occurrence counts; 0 when the two
    words go together no more often than by chance (the ratio alone is two-sided)."""
    if both * total <= english * chinese:
        return 0.0
    cells = [
        (both, english * chinese / total),
        (english - both, english * (total - chinese) / total),
        (chinese - both, (total - english) * chinese / total),
        (total - english - chinese + both, (total - english) * (total - chinese) / total),
    ]
    return 2 * sum(k * math.log(k / e) for k, e in cells if k > 0 and e > 0)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--git",
        action="append",
        default=[],
        metavar="OWNER/NAME=DIR",
        help="the git directory of a source repository (one for each in SOURCES)",
    )
    parser.add_argument(
        "--pairs-cache",
        type=Path,
        help="a JSON file of the aligned pairs: read when it exists (the counts rebuilt without aligning again), else written",
    )
    args = parser.parse_args()
    started = time.time()
    from paperatlas.embed import get_backend

    model = get_backend("use-multilingual")
    if args.pairs_cache and args.pairs_cache.exists():
        write([tuple(p) for p in json.loads(args.pairs_cache.read_text(encoding="utf-8"))], model)
        return
    git_dirs = {repo: Path(path) for repo, _, path in (g.partition("=") for g in args.git)}
    missing = {s.repo for s in SOURCES.values()} - git_dirs.keys()
    if missing:
        parser.error(f"--git missing for {', '.join(sorted(missing))}")
    pairs: list[tuple[str, str]] = []
    docs = documents(git_dirs)
    print(f"{len(docs)} documents ({time.time() - started:.0f}s)")
    for _name, english, chinese in docs:
        english = [b for b in english if len(english_words(b)) >= 1]
        chinese = [b for b in chinese if _CJK.search(b)]  # a block left in English is no translation
        if not english or not chinese:
            continue
        en_vectors = np.asarray(model.encode(english), dtype=np.float32)
        zh_vectors = np.asarray(model.encode(chinese), dtype=np.float32)
        found = align(en_vectors @ zh_vectors.T)
        pairs += [(english[i], chinese[j]) for i, j in found]
    print(f"{len(pairs)} aligned block pairs ({time.time() - started:.0f}s)")
    if args.pairs_cache:
        args.pairs_cache.write_text(json.dumps(pairs, ensure_ascii=False), encoding="utf-8")
    write(pairs, model)
    print(f"-> {OUT} ({time.time() - started:.0f}s)")


def write(pairs: list[tuple[str, str]], model) -> None:
    # a pair repeated word for word (a notebook's "View source on GitHub" links) counts once
    pairs = list(dict.fromkeys(pairs))
    english_sets = [english_words(en) for en, _ in pairs]
    chinese_sets = [chinese_words(zh) for _, zh in pairs]
    en_vocab = sorted({w for s in english_sets for w in s})
    zh_vocab = sorted({w for s in chinese_sets for w in s})
    en_index = {w: i for i, w in enumerate(en_vocab)}
    zh_index = {w: i for i, w in enumerate(zh_vocab)}

    def matrix(sets, index):
        rows = [r for r, s in enumerate(sets) for _ in s]
        cols = [index[w] for s in sets for w in s]
        return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(sets), len(index)))

    en_matrix, zh_matrix = matrix(english_sets, en_index), matrix(chinese_sets, zh_index)
    both = (en_matrix.T @ zh_matrix).tocsr()
    en_count = np.asarray(en_matrix.sum(axis=0)).ravel()
    zh_count = np.asarray(zh_matrix.sum(axis=0)).ravel()
    total = float(len(pairs))
    # the English word written inside the Chinese block (the translators kept it)
    kept: Counter[str] = Counter()
    spelling: dict[str, Counter[str]] = {}
    # counted where the English writes the word in lower case: a name ("AWS Neuron", "the Hub")
    # kept in the Chinese says nothing of the common word
    lower: Counter[str] = Counter()
    for (en, zh), english in zip(pairs, english_sets):
        in_lower_case = english & set(_ENGLISH_WORD.findall(en))
        lower.update(in_lower_case)
        written = {token.lower(): token for token in _ENGLISH_WORD.findall(zh)}
        for word in in_lower_case & written.keys():
            kept[word] += 1
            spelling.setdefault(word, Counter())[written[word]] += 1
    rows: dict[str, tuple[int, float, str, list[tuple[str, float]]]] = {}
    for word, e in en_index.items():
        if en_count[e] < MIN_ENGLISH_PAIRS:
            continue
        start, end = both.indptr[e], both.indptr[e + 1]
        candidates = []
        for z, n in zip(both.indices[start:end], both.data[start:end]):
            if n >= MIN_PAIRS and g2(n, en_count[e], zh_count[z], total) >= MIN_G2:
                candidates.append((2 * n / (en_count[e] + zh_count[z]), zh_vocab[z]))
        candidates.sort(reverse=True)
        share = kept[word] / lower[word] if lower[word] >= MIN_KEPT_PAIRS else 0.0
        if candidates or share > 0:
            written = spelling[word].most_common(1)[0][0] if word in spelling else "-"
            rows[word] = (int(en_count[e]), share, written, [(zh, d) for d, zh in candidates[:CANDIDATES]])
    words = sorted(rows)
    chinese = sorted({zh for _, _, _, found in rows.values() for zh, _ in found})
    en_vectors = np.asarray(model.encode(words), dtype=np.float32)
    zh_vectors = np.asarray(model.encode(chinese), dtype=np.float32).reshape(len(chinese), -1)
    zh_row = {zh: i for i, zh in enumerate(chinese)}
    field = np.asarray(model.encode(list(glossary_terms())), dtype=np.float32).mean(axis=0)
    field /= np.linalg.norm(field)
    lines = []
    for word, vector in zip(words, en_vectors):
        n, share, written, found = rows[word]
        cells = "".join(
            f"\t{zh} {dice:.3f} {float(zh_vectors[zh_row[zh]] @ vector):.2f} {float(zh_vectors[zh_row[zh]] @ field):.2f}"
            for zh, dice in found
        )
        lines.append(f"{word}\t{n}\t{share:.2f}\t{written}{cells}")
    header = [
        "# English word<TAB>aligned pairs holding it<TAB>share of them whose Chinese keeps the word<TAB>"
        "its spelling there<TAB>Chinese word, Dice, use-multilingual cosine, cosine with the field",
        "# built by scripts/build_zh_parallel.py from parallel documents (English beside simplified Chinese):",
        *(f"# {s.name}: github.com/{s.repo} at {s.commit}, {s.licence}" for s in SOURCES.values()),
    ]
    OUT.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"{len(pairs)} pairs, {len(lines)} words")


if __name__ == "__main__":
    main()
