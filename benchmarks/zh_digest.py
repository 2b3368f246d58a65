"""How Chinese a Chinese digest is, and the Chinese labels of the field's topics.

    nice .venv/bin/python benchmarks/zh_digest.py [--base ../base/src] [--list examples/iclr2026_sample_list.txt] [--floor F]

1. The list (default: the 19-paper sample) is added, enriched and embedded, and its
   `digest --lang zh` written, once with this tree's code and once with the code under
   --base (the starting code, for the same-run baseline), each in a fresh atlas. Over the
   per-paper lines (the Markdown bullets), with Markdown syntax and link targets left out:
   the share of characters that are Chinese or belong to a term Chinese writing keeps in
   English (`zh_terms.kept`: acronyms, coined names, anything with a digit), digits and
   symbols counted with them, spaces not counted. Target: >= 80%.
2. Every topic label of the shipped reference atlas (broad and fine) through
   `label_to_chinese`: the share with a Chinese label (or made only of kept terms, such as
   "LLM CoT"), and the labels left identical to the English although not every word is
   kept. Target: 100% and none.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.atlas.reference import shipped  # noqa: E402
from paperatlas.search import zh_terms  # noqa: E402
from paperatlas.search.zh_terms import kept, label_to_chinese  # noqa: E402

CJK = re.compile("[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_LINK = re.compile(r"\[([^\]]*)\]\(<?[^)>]*>?\)")
_TOKEN = re.compile(r"[A-Za-z0-9][\w'.+-]*")
_MARKUP = re.compile(r"\*\*|\*|\\(?=.)")


def line_share(line: str) -> tuple[int, int]:
    """(characters Chinese, kept or neutral; characters counted) of one bullet."""
    text = _MARKUP.sub("", _LINK.sub(r"\1", line.removeprefix("- ")))
    good = total = 0
    english = set()
    for m in _TOKEN.finditer(text):
        if not kept(m.group(0)) and re.search("[A-Za-z]", m.group(0)):
            english.update(range(m.start(), m.end()))
    for i, ch in enumerate(text):
        if ch.isspace():
            continue
        total += 1
        good += i not in english
    return good, total


def digest_share(markdown: str) -> tuple[float, int]:
    bullets = [line for line in markdown.splitlines() if line.startswith("- ")]
    good = total = 0
    for line in bullets:
        g, t = line_share(line)
        good, total = good + g, total + t
    return good / max(total, 1), len(bullets)


def chinese_digest(src: Path, papers: Path, floor: float | None = None) -> str:
    """The list's `digest --lang zh` by the code under `src` (`floor`: zh_terms.FLOOR set to it)."""
    env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    setting = "" if floor is None else f"import paperatlas.search.zh_terms as z; z.FLOOR = {floor}; "
    cli = [sys.executable, "-c", setting + "from paperatlas.cli import main; main()"]
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "atlas.db")
        for step in (["add", str(papers)], ["enrich"], ["embed"]):
            subprocess.run([*cli, step[0], "--db", db, *step[1:]], env=env, check=True, capture_output=True)
        done = subprocess.run(
            [*cli, "digest", "--db", db, "--lang", "zh"], env=env, check=True, capture_output=True, text=True
        )
        return done.stdout


def label_figures() -> tuple[int, int, list[tuple[str, str]]]:
    reference = shipped()
    assert reference is not None, "no shipped reference atlas"
    labels = list(dict.fromkeys(reference.broad_labels + reference.fine_labels))
    chinese = 0
    same = []
    for label in labels:
        zh = label_to_chinese(label)
        all_kept = all(kept(w) for w in _TOKEN.findall(label))
        chinese += bool(CJK.search(zh)) or all_kept
        if zh == label and not all_kept:
            same.append((label, zh))
    return chinese, len(labels), same


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, default=ROOT.parent / "base" / "src")
    parser.add_argument("--list", type=Path, default=ROOT / "examples" / "iclr2026_sample_list.txt")
    parser.add_argument("--show", action="store_true", help="print this tree's Chinese digest")
    parser.add_argument(
        "--floor", type=float, help="this tree with zh_terms.FLOOR set to this (how a floor is chosen)"
    )
    args = parser.parse_args()
    if args.floor is not None:
        zh_terms.FLOOR = args.floor
    ours = chinese_digest(ROOT / "src", args.list, args.floor)
    share, n = digest_share(ours)
    base_share, base_n = digest_share(chinese_digest(args.base, args.list))
    if args.show:
        print(ours)
    print(f"Chinese digest of {args.list.name}: per-paper lines Chinese or kept terms")
    print(f"  this tree  {share:6.1%}  ({n} lines)")
    print(f"  baseline   {base_share:6.1%}  ({base_n} lines, code at {args.base})")
    print(f"  ratio      {share / max(base_share, 1e-9):.2f}x")
    chinese, total, same = label_figures()
    print(
        f"Reference topics with a Chinese label (or every word kept): {chinese}/{total} ({chinese / total:.1%})"
    )
    print(f"Labels identical to the English with a word not kept: {len(same)}")
    for label, _ in same:
        print(f"   {label}")


if __name__ == "__main__":
    main()
